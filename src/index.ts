/**
 * sitefx: an Effect-native client for a site-builder platform's headless APIs.
 */
export { Site, type SiteOptions, type SiteServices } from "./Site.ts"
export * from "./http/index.ts"
export * from "./session/index.ts"
export * from "./data/index.ts"

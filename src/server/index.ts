/** The local platform: `LocalPlatform.layer(options)` for tests and tools, `sitefx serve` for a process. */
export { LocalPlatform, type LocalPlatformOptions, type LocalPlatformShape } from "./LocalPlatform.ts"
export { appLayer, modules } from "./App.ts"
export { type Caller, Callers } from "./oauth/Callers.ts"
export { coreLayer, type PlatformCore } from "./Core.ts"
export * as DevWire from "./platform/devWire.ts"
export { Reject } from "./platform/responses.ts"
export { route } from "./platform/routing.ts"
export { DEMO_MEMBER_EMAIL, LOCAL_CLIENT_ID, LOCAL_SITE_ID } from "./seed.ts"

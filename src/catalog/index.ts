/**
 * sitefx/catalog: the store. Each module is a set of functions that need only the `PlatformClient` a
 * session or an API key provides, so a page keeps only what it calls.
 */
export { CatalogCodes, CatalogError } from "./CatalogError.ts"
export { ANY_STORE, type CatalogFailure, catalogVersion, V1 } from "./calls.ts"
export * as CatalogProtocol from "./protocol.ts"
export { type CatalogVersion } from "./protocol.ts"

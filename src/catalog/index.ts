/**
 * sitefx/catalog: the store. Each module is a set of functions that need only the `PlatformClient` a
 * session or an API key provides, so a page keeps only what it calls; browser pages import the modules
 * by their own subpaths (`sitefx/catalog/products`, `sitefx/catalog/storefront`, ...).
 */
export * as AbandonedCarts from "./AbandonedCarts.ts"
export { CatalogCodes, CatalogError } from "./CatalogError.ts"
export { type CatalogFailure, catalogVersion } from "./calls.ts"
export * as Collections from "./Collections.ts"
export * as Inventory from "./Inventory.ts"
export { type OffsetPage, OffsetQuery } from "./OffsetQuery.ts"
export * as Products from "./Products.ts"
export * as SubscriptionOptions from "./SubscriptionOptions.ts"
export { type CatalogVersion } from "./protocol.ts"
export * from "./storefront/index.ts"
export * from "./entities/index.ts"

/**
 * The catalog v3 entity services: brands, ribbons, info sections, customizations and v3 inventory
 * items. They answer on any installed store (v1 or v3 catalog). Each is a module of functions needing
 * only the `PlatformClient` of a session or an API key; queries are {@link CursorQuery} values.
 */
export * as Brands from "./Brands.ts"
export * as Customizations from "./Customizations.ts"
export { CursorQuery, type EntityPage } from "./CursorQuery.ts"
export type { BulkDeleteResults, BulkResults, CursorPagingMetadata, ItemMetadata } from "./guards/index.ts"
export * as InfoSections from "./InfoSections.ts"
export * as InventoryItems from "./InventoryItems.ts"
export { EntityCodes } from "./protocol.ts"
export * as Ribbons from "./Ribbons.ts"

/**
 * The local platform's store: catalog v1 products with options and variants, collections, inventory,
 * the catalog v3 entity services (brands, ribbons, customizations, info sections, inventory items),
 * abandoned carts and subscription options, on node:sqlite. {@link catalogLayer} adds its services to
 * the platform core; {@link catalogRoutes} plugs into the app. Each part lives in its own folder and
 * adds its layer and routes here.
 */
import * as Layer from "effect/Layer"
import { CatalogEvents } from "./CatalogEvents.ts"
import { versionRoutes } from "./versionRoutes.ts"

export { type CatalogEvent, CatalogEvents } from "./CatalogEvents.ts"

export type CatalogServices = CatalogEvents

/** The store's services, on top of the platform core. */
export const catalogLayer: Layer.Layer<CatalogServices> = CatalogEvents.layer

/** Every store route. */
export const catalogRoutes = Layer.mergeAll(versionRoutes)

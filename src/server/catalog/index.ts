/**
 * The local platform's store: catalog v1 products with options and variants, collections, inventory,
 * the catalog v3 entity services (brands, ribbons, customizations, info sections, inventory items),
 * abandoned carts and subscription options, on node:sqlite. {@link catalogLayer} adds its services to
 * the platform core; {@link catalogRoutes} plugs into the app. Each part lives in its own folder
 * (`products/`, `entities/`, `carts/`, `subscriptions/`) and exports its layer and routes from its index.
 */
import * as Layer from "effect/Layer"
import { type CartsServices, cartsLayer, cartsRoutes } from "./carts/index.ts"
import { CatalogEvents } from "./CatalogEvents.ts"
import { type EntitiesServices, entitiesLayer, entitiesRoutes } from "./entities/index.ts"
import { type ProductsServices, productsLayer, productsRoutes } from "./products/index.ts"
import { type SubscriptionsServices, subscriptionsLayer, subscriptionsRoutes } from "./subscriptions/index.ts"
import { versionRoutes } from "./versionRoutes.ts"

export { type CatalogEvent, CatalogEvents } from "./CatalogEvents.ts"

export type CatalogServices = CatalogEvents | ProductsServices | EntitiesServices | CartsServices | SubscriptionsServices

/** The store's services, on top of the platform core. */
export const catalogLayer = Layer.mergeAll(productsLayer, entitiesLayer, cartsLayer, subscriptionsLayer).pipe(
  Layer.provideMerge(CatalogEvents.layer)
)

/** Every store route. */
export const catalogRoutes = Layer.mergeAll(versionRoutes, productsRoutes, entitiesRoutes, cartsRoutes, subscriptionsRoutes)

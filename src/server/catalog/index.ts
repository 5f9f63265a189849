/**
 * The local platform's store: catalog v1 products with options and variants, collections, inventory,
 * the catalog v3 entity services (brands, ribbons, customizations, info sections, inventory items),
 * abandoned carts and subscription options, on node:sqlite. Each part lives in its own folder
 * (`products/`, `entities/`, `carts/`, `subscriptions/`) and exports its layer and routes from its index;
 * the carts add dev endpoints that abandon and recover carts as shoppers would.
 */
import * as Layer from "effect/Layer"
import type { PlatformModule } from "../platform/PlatformModule.ts"
import { cartDevRoutes, cartsLayer, cartsRoutes } from "./carts/index.ts"
import { CatalogEngine } from "./CatalogEngine.ts"
import { entitiesLayer, entitiesRoutes } from "./entities/index.ts"
import { productsLayer, productsRoutes } from "./products/index.ts"
import { subscriptionsLayer, subscriptionsRoutes } from "./subscriptions/index.ts"
import { versionRoutes } from "./versionRoutes.ts"

export const module = {
  name: "catalog",
  layer: () => Layer.mergeAll(productsLayer, entitiesLayer, cartsLayer, subscriptionsLayer).pipe(Layer.provideMerge(CatalogEngine.layer)),
  routes: Layer.mergeAll(versionRoutes, productsRoutes, entitiesRoutes, cartsRoutes, subscriptionsRoutes),
  devRoutes: cartDevRoutes
} satisfies PlatformModule

/**
 * The store's catalog v3 entity services (brands, ribbons, info sections, customizations, inventory
 * items): {@link entitiesLayer} adds their storage and the `demo` seed's entities to the platform;
 * {@link entitiesRoutes} serves them under `/stores/v3/...` on any installed store. Readers (get, query,
 * count) serve visitors, members and API keys; every write needs an API key and logs its domain
 * event (`wix.stores.catalog.v3.brand_created`, ...) in the site's event log as it commits.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpRouter from "effect/http/HttpRouter"
import { storeAccess } from "../access.ts"
import { customizationRoutes } from "./customizationRules.ts"
import { EntityStore } from "./EntityStore.ts"
import { infoSectionRoutes } from "./infoSectionRules.ts"
import { inventoryRoutes } from "./inventoryItemRules.ts"
import { brandRoutes, ribbonRoutes } from "./namedEntityRules.ts"
import { entitiesSeed } from "./seed.ts"

export { EntityStore, type EntityStoreShape } from "./EntityStore.ts"
export { DEFAULT_LOCATION_ID } from "./inventoryItemRules.ts"
export { DEMO_BRANDS, DEMO_RIBBONS, seedId } from "./seed.ts"

export type EntitiesServices = EntityStore

export const entitiesLayer = Layer.merge(EntityStore.layer, entitiesSeed.pipe(Layer.provide(EntityStore.layer)))

export const entitiesRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const access = yield* storeAccess
  const store = yield* EntityStore
  return [
    ...brandRoutes(store.brands, store.engine, access),
    ...ribbonRoutes(store.ribbons, store.engine, access),
    ...infoSectionRoutes(store.infoSections, store.engine, access),
    ...customizationRoutes(store.customizations, store.engine, access),
    ...inventoryRoutes(store.inventoryItems, store.engine, access)
  ]
}))

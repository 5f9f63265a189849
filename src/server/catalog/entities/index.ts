/**
 * The store's catalog v3 entity services (brands, ribbons, info sections, customizations, inventory
 * items): {@link entitiesLayer} adds their storage and the `demo` seed's entities to the platform;
 * {@link entitiesRoutes} serves them under `/stores/v3/...` on any installed store. Readers (get, query,
 * count) serve visitors, members and API keys; every write needs an API key and logs its domain
 * event (`wix.stores.catalog.v3.brand_created`, ...) in the site's event log as it commits.
 */
import * as Layer from "effect/Layer"
import { entityRoutes } from "./entityRoutes.ts"
import { EntityStore } from "./EntityStore.ts"
import { entitiesSeed } from "./seed.ts"

export { EntityStore, type EntityStoreShape } from "./EntityStore.ts"
export { DEFAULT_LOCATION_ID } from "./inventoryItemRules.ts"
export { DEMO_BRANDS, DEMO_RIBBONS, seedId } from "./seed.ts"

export const entitiesLayer = Layer.merge(EntityStore.layer, entitiesSeed.pipe(Layer.provide(EntityStore.layer)))

export const entitiesRoutes = entityRoutes

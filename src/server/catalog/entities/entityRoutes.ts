/**
 * The catalog v3 entity services' routes under `/stores/v3/...`, on any installed store: brands, ribbons,
 * info sections, customizations and inventory items. Readers (get, query, count) serve visitors, members
 * and API keys; every write needs an API key and logs its domain event as it commits.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { storeAccess } from "../access.ts"
import { customizationRoutes } from "./customizationRoutes.ts"
import { EntityStore } from "./EntityStore.ts"
import { infoSectionRoutes } from "./infoSectionRoutes.ts"
import { inventoryItemRoutes } from "./inventoryItemRoutes.ts"
import { brandRoutes, ribbonRoutes } from "./namedEntityRoutes.ts"

export const entityRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const access = yield* storeAccess
  const store = yield* EntityStore
  return [
    ...brandRoutes(store.brands, store.engine, access),
    ...ribbonRoutes(store.ribbons, store.engine, access),
    ...infoSectionRoutes(store.infoSections, store.engine, access),
    ...customizationRoutes(store.customizations, store.engine, access),
    ...inventoryItemRoutes(store.inventoryItems, store.engine, access)
  ]
}))

/**
 * The v3 inventory item calls: the ones every entity service answers (crudRoutes.ts), a count that answers
 * GET too, and the stock adjustments in bulk (increment and decrement, by item or by variant).
 */
import * as Effect from "effect/Effect"
import type * as HttpRouter from "effect/http/HttpRouter"
import { EntityPaths, MAX_ENTITY_PAGE } from "../../../catalog/entities/protocol.ts"
import * as W from "../../../catalog/entities/wire/index.ts"
import { getPayload } from "../../store/payload.ts"
import { reply } from "../../platform/responses.ts"
import { body, route } from "../../platform/routing.ts"
import type { StoreAccess } from "../access.ts"
import { entityCrud, type EntityService } from "./crudRoutes.ts"
import { bulk, type Engine, Kinds, required } from "./engine.ts"
import type { EntityTableShape } from "./entityTables.ts"
import { inventoryOps } from "./inventoryItemRules.ts"

export const inventoryItemRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess): ReadonlyArray<HttpRouter.Route<never, never>> => {
  const ops = inventoryOps(table, engine)
  const { routes, bulkWrite, bulkResult } = entityCrud(INVENTORY_ITEMS, ops, table, engine, access)
  const count = (filter: unknown) =>
    Effect.gen(function*() {
      yield* access.reader
      return reply(W.CountResponse, { count: yield* engine.read(() => table.count(filter ?? undefined)) })
    })

  return [
    ...routes,
    route("GET", EntityPaths.inventoryItemsCount, Effect.flatMap(getPayload(W.CountRequest), (r) => count(r.filter))),
    route("POST", EntityPaths.inventoryItemsCount, Effect.flatMap(body(W.CountRequest), (r) => count(r.filter))),
    bulkWrite(EntityPaths.inventoryBulkIncrement, W.BulkIncrementRequest, (request, actor, emit) =>
      bulk(request.incrementData, (entry, i) => {
        if (entry.incrementBy === undefined) throw required(`incrementData[${i}].incrementBy`)
        return bulkResult(request, ops.increment(ops.byId(entry.inventoryItemId, `incrementData[${i}]`), entry.incrementBy, actor, emit))
      })),
    bulkWrite(EntityPaths.inventoryBulkDecrement, W.BulkDecrementRequest, (request, actor, emit) =>
      bulk(request.decrementData, (entry, i) => {
        if (entry.decrementBy === undefined) throw required(`decrementData[${i}].decrementBy`)
        const current = ops.byId(entry.inventoryItemId, `decrementData[${i}]`)
        const adjustment = { by: entry.decrementBy, preorderRequest: entry.preorderRequest }
        return bulkResult(request, ops.decrement(current, adjustment, request.restrictInventory ?? true, actor, emit))
      })),
    bulkWrite(EntityPaths.inventoryBulkIncrementByVariant, W.BulkIncrementByVariantRequest, (request, actor, emit) =>
      bulk(request.incrementData, (entry, i) => {
        if (entry.incrementBy === undefined) throw required(`incrementData[${i}].incrementBy`)
        const current = ops.byVariant(entry.variantId, entry.locationId, `incrementData[${i}]`)
        return bulkResult(request, ops.increment(current, entry.incrementBy, actor, emit))
      })),
    bulkWrite(EntityPaths.inventoryBulkDecrementByVariant, W.BulkDecrementByVariantRequest, (request, actor, emit) =>
      bulk(request.decrementData, (entry, i) => {
        if (entry.decrementBy === undefined) throw required(`decrementData[${i}].decrementBy`)
        const current = ops.byVariant(entry.variantId, entry.locationId, `decrementData[${i}]`)
        const adjustment = { by: entry.decrementBy, preorderRequest: entry.preorderRequest }
        return bulkResult(request, ops.decrement(current, adjustment, request.restrictInventory ?? true, actor, emit))
      }))
  ]
}

const INVENTORY_ITEMS: EntityService = {
  key: "inventoryItem",
  list: "inventoryItems",
  idParam: "inventoryItemId",
  kind: Kinds.inventoryItem,
  maxLimit: MAX_ENTITY_PAGE.inventoryItems,
  // counting is served below: it answers GET too, and reads the filter before the caller
  paths: {
    collection: EntityPaths.inventoryItems,
    query: EntityPaths.inventoryItemsQuery,
    bulkCreate: EntityPaths.inventoryBulkCreate,
    bulkUpdate: EntityPaths.inventoryBulkUpdate,
    bulkDelete: EntityPaths.inventoryBulkDelete
  },
  schemas: {
    request: W.InventoryItemRequest,
    getRequest: W.GetInventoryItemRequest,
    updateRequest: W.InventoryItemUpdateRequest,
    response: W.InventoryItemResponse,
    queryRequest: W.QueryInventoryItemsRequest,
    queryResponse: W.QueryInventoryItemsResponse,
    bulkCreateRequest: W.BulkCreateInventoryItemsRequest,
    bulkUpdateRequest: W.BulkUpdateInventoryItemsRequest,
    bulkDeleteRequest: W.BulkDeleteInventoryItemsRequest,
    bulkResponse: W.BulkInventoryItemsResponse
  }
}

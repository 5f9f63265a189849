/**
 * Catalog v1 inventory (the v2 inventory items service): each product has one inventory item with an
 * entry per variant. Writers set quantities or in-stock flags and move quantities up or down (an
 * order's decrement refuses to go below zero and changes nothing then); readers get a product's
 * variants' stock and query inventory items with the filter language of product queries.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { CatalogPaths } from "../../../catalog/protocol.ts"
import {
  DecrementInventoryRequest,
  GetInventoryVariantsRequest,
  IncrementInventoryRequest,
  QueryInventoryRequest,
  UpdateInventoryVariantsRequest
} from "../../../catalog/wire/inventory.ts"
import { body, pathParam, route } from "../../platform/routing.ts"
import { storeAccess } from "../access.ts"
import { CatalogEngine } from "../CatalogEngine.ts"
import { invalid, productNotFound, setInventory, shiftQuantity } from "./changes.ts"
import { inventoryItemOf, type ProductSpec } from "./model.ts"
import { ProductStore } from "./ProductStore.ts"
import { variantsChanged } from "./stock.ts"
import { inventoryEvent, metadataJson, notFoundFailure, pageRequest, replyStored, v1Access } from "./requests.ts"

export const inventoryRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const products = yield* ProductStore
  const engine = yield* CatalogEngine
  const { reader, writer } = v1Access(yield* storeAccess)

  /** The product of an entry named by inventory id, product id or external id. */
  const productOf = (entry: { readonly inventoryId?: string; readonly productId?: string; readonly externalId?: string }, field: string): ProductSpec => {
    if (entry.inventoryId !== undefined) {
      const spec = products.findByInventoryId(entry.inventoryId)
      if (spec === undefined) throw notFoundFailure("INVENTORY_ITEM_NOT_FOUND", `Inventory item ${entry.inventoryId}`)
      return spec
    }
    const id = entry.productId ?? entry.externalId
    if (id === undefined) throw invalid(field, "Name the inventory item or the product", "REQUIRED_FIELD")
    return products.require(id)
  }

  const update = Effect.gen(function*() {
    const caller = yield* writer
    const productId = yield* pathParam("productId")
    const { inventoryItem } = yield* body(UpdateInventoryVariantsRequest)
    yield* engine.commit((emit) => {
      const before = products.find(productId)
      if (before === undefined) throw productNotFound(productId)
      const { spec, changed } = setInventory(before, inventoryItem, products.now())
      products.store(spec)
      if (before.trackInventory !== spec.trackInventory) {
        emit(inventoryEvent("InventoryItemChanged", spec.inventoryItemId, {
          inventoryItemId: spec.inventoryItemId,
          productId: spec.id,
          trackInventory: spec.trackInventory,
          fieldMask: ["trackQuantity"],
          updatedDate: spec.lastUpdated
        }, caller))
      }
      if (changed.length > 0) emit(variantsChanged(spec, changed, caller))
    })
    return yield* replyStored("{}")
  })

  const shift = (sign: 1 | -1) =>
    Effect.gen(function*() {
      const caller = yield* writer
      const entries = sign === 1
        ? (yield* body(IncrementInventoryRequest)).incrementData.map((d) => ({ ...d, by: d.incrementBy }))
        : (yield* body(DecrementInventoryRequest)).decrementData.map((d) => ({ ...d, by: d.decrementBy }))
      yield* engine.commit((emit) => {
        const list = sign === 1 ? "incrementData" : "decrementData"
        if (entries.length > MAX_SHIFTS) throw invalid(list, `At most ${MAX_SHIFTS} entries at once`, "MAX_SIZE", { max: MAX_SHIFTS })
        entries.forEach((entry, i) => {
          const field = `${list}[${i}]`
          const by = entry.by ?? 0
          if (!Number.isSafeInteger(by) || by <= 0) throw invalid(`${field}.${sign === 1 ? "incrementBy" : "decrementBy"}`, "Give a whole number above 0", "MIN", { min: 1 })
          const spec = productOf(entry, field)
          if (entry.variantId === undefined) throw invalid(`${field}.variantId`, "Name the variant", "REQUIRED_FIELD")
          const result = shiftQuantity(spec, entry.variantId, sign * by, field, products.now())
          products.store(result.spec)
          emit(variantsChanged(result.spec, result.changed, caller))
        })
      })
      return yield* replyStored("{}")
    })

  const getVariants = Effect.gen(function*() {
    const caller = yield* reader
    const inventoryId = yield* pathParam("inventoryId")
    const request = yield* body(GetInventoryVariantsRequest)
    const item = yield* engine.read(() => {
      // named by the product, or by the inventory item (whose id a product's id also finds)
      const spec = request.productId !== undefined || request.externalId !== undefined
        ? productOf({ ...(request.productId === undefined ? {} : { productId: request.productId }), ...(request.externalId === undefined ? {} : { externalId: request.externalId }) }, "productId")
        : products.findByInventoryId(inventoryId) ?? products.require(inventoryId)
      if (caller.kind !== "admin" && !spec.visible) throw productNotFound(spec.id)
      const item = inventoryItemOf(spec)
      const wanted = request.variantIds
      return wanted === undefined || wanted.length === 0 ? item : { ...item, variants: item.variants.filter((v) => wanted.includes(v.variantId)) }
    })
    return yield* replyStored(JSON.stringify({ inventoryItem: item }))
  })

  const query = Effect.gen(function*() {
    yield* writer
    const request = yield* body(QueryInventoryRequest)
    const { page, docs, total } = yield* engine.read(() => {
      const page = pageRequest(request.query)
      return { page, ...products.queryInventory(page) }
    })
    return yield* replyStored(`{"inventoryItems":[${docs.join(",")}],"metadata":${metadataJson(page, docs.length, total)},"totalResults":${total}}`)
  })

  return [
    route("PATCH", "/stores/v2/inventoryItems/product/:productId", update),
    route("POST", CatalogPaths.inventoryDecrement, shift(-1)),
    route("POST", CatalogPaths.inventoryIncrement, shift(1)),
    route("POST", "/stores-reader/v2/inventoryItems/:inventoryId/getVariants", getVariants),
    route("POST", CatalogPaths.inventoryQuery, query)
  ]
}))

/** Entries an increment or decrement takes at once. */
const MAX_SHIFTS = 1000

/**
 * v3 inventory items on the wire: the stock of one variant at one location, counted or only in or out
 * of stock, and the calls that create, change, count down and up, and query them.
 */
import * as Schema from "effect/Schema"
import { nullable, opt } from "../../wire/common.ts"
import { AVAILABILITY_STATUSES, INVENTORY_REASONS, MAX_INVENTORY_ADJUST, MAX_INVENTORY_BULK, MAX_QUANTITY } from "../protocol.ts"
import { bulkResults, EntityQuery, Id, Ids, int, keyed, list, masked, page, system, text } from "./common.ts"

export const AvailabilityStatus = Schema.Literals(AVAILABILITY_STATUSES)
export const InventoryReason = Schema.Literals(INVENTORY_REASONS)

export const PreorderInfoV3 = Schema.Struct({
  enabled: nullable(Schema.Boolean),
  message: nullable(text(250, 1)),
  limit: nullable(int(0, 100_000)),
  counter: nullable(Schema.Number),
  quantity: nullable(Schema.Number)
})
export type PreorderInfoV3 = typeof PreorderInfoV3.Type

/** The product and variant an inventory item counts, as the platform describes them. */
export const InventoryProduct = Schema.Struct({
  name: nullable(text(80)),
  directCategoryIds: opt(list(Schema.String, 2000)),
  variantName: nullable(text(250)),
  variantSku: nullable(text(40)),
  variantVisible: nullable(Schema.Boolean)
})
export type InventoryProduct = typeof InventoryProduct.Type

export const ExtendedFields = Schema.Struct({
  namespaces: opt(Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Unknown)))
})

/**
 * A v3 inventory item: the stock of one variant at one location, counted (`quantity`, with
 * `trackQuantity` true) or only in or out of stock (`inStock`).
 */
export const InventoryItemV3 = Schema.Struct({
  ...system,
  variantId: opt(Id),
  locationId: nullable(Id),
  productId: opt(Id),
  trackQuantity: opt(Schema.Boolean),
  inStock: opt(Schema.Boolean),
  quantity: opt(int(-MAX_QUANTITY, MAX_QUANTITY)),
  availabilityStatus: opt(AvailabilityStatus),
  preorderInfo: opt(PreorderInfoV3),
  product: opt(InventoryProduct),
  extendedFields: opt(ExtendedFields)
})
export type InventoryItemV3 = typeof InventoryItemV3.Type

export const InventoryItemRequest = Schema.Struct({ inventoryItem: InventoryItemV3 })
export const InventoryItemUpdateRequest = Schema.Struct({ inventoryItem: InventoryItemV3, reason: opt(InventoryReason) })
export const InventoryItemResponse = Schema.Struct({ inventoryItem: InventoryItemV3 })
export type InventoryItemResponse = typeof InventoryItemResponse.Type
export const GetInventoryItemRequest = Schema.Struct({ inventoryItemId: Schema.String })
export const DeleteInventoryItemRequest = GetInventoryItemRequest
export const QueryInventoryItemsRequest = Schema.Struct({ query: opt(EntityQuery) })
export const QueryInventoryItemsResponse = page("inventoryItems", InventoryItemV3)
export type QueryInventoryItemsResponse = typeof QueryInventoryItemsResponse.Type
export const BulkCreateInventoryItemsRequest = Schema.Struct({
  inventoryItems: list(InventoryItemV3, MAX_INVENTORY_BULK, 1),
  returnEntity: opt(Schema.Boolean)
})
export const MaskedInventoryItem = masked("inventoryItem", InventoryItemV3)
export const BulkUpdateInventoryItemsRequest = Schema.Struct({
  inventoryItems: list(MaskedInventoryItem, MAX_INVENTORY_BULK, 1),
  returnEntity: opt(Schema.Boolean),
  reason: opt(InventoryReason)
})
export const BulkDeleteInventoryItemsRequest = Schema.Struct({ inventoryItemIds: Ids(MAX_INVENTORY_BULK) })
const Amount = int(1, MAX_QUANTITY)
/** What every adjustment call takes beside its list: whether to answer with the items, and why. */
const adjustOptions = { returnEntity: opt(Schema.Boolean), reason: opt(InventoryReason) }
/** A decrement may refuse to go below zero. */
const decrementOptions = { restrictInventory: nullable(Schema.Boolean), ...adjustOptions }
const adjustments = <K extends string, F extends Schema.Struct.Fields>(key: K, fields: F) =>
  keyed(key, list(Schema.Struct(fields), MAX_INVENTORY_ADJUST, 1))
/** An item named by its variant and location (the default location when left out) rather than its id. */
const byVariant = { variantId: opt(Schema.String), locationId: nullable(Schema.String) }

export const BulkIncrementRequest = Schema.Struct({
  ...adjustments("incrementData", { inventoryItemId: opt(Schema.String), incrementBy: opt(Amount) }),
  ...adjustOptions
})
export const BulkDecrementRequest = Schema.Struct({
  ...adjustments("decrementData", { inventoryItemId: opt(Schema.String), decrementBy: opt(Amount), preorderRequest: opt(Schema.Boolean) }),
  ...decrementOptions
})
export const BulkIncrementByVariantRequest = Schema.Struct({
  ...adjustments("incrementData", { ...byVariant, incrementBy: opt(Amount), productId: opt(Schema.String) }),
  ...adjustOptions
})
export const BulkDecrementByVariantRequest = Schema.Struct({
  ...adjustments("decrementData", { ...byVariant, decrementBy: opt(Amount), preorderRequest: opt(Schema.Boolean), productId: opt(Schema.String) }),
  ...decrementOptions
})
export const BulkInventoryItemsResponse = bulkResults(InventoryItemV3)
export type BulkInventoryItemsResponse = typeof BulkInventoryItemsResponse.Type

/**
 * Catalog v1 inventory (the v2 inventory items service) on the wire: one inventory item per product,
 * one entry per variant with its tracked quantity or in-stock flag.
 */
import * as Schema from "effect/Schema"
import { nullable, offsetPage, OffsetQuery, opt } from "./common.ts"

export const InventoryVariant = Schema.Struct({
  variantId: opt(Schema.String),
  inStock: nullable(Schema.Boolean),
  quantity: nullable(Schema.Number),
  availableForPreorder: opt(Schema.Boolean)
})
export type InventoryVariant = typeof InventoryVariant.Type

export const PreorderInfo = Schema.Struct({
  enabled: opt(Schema.Boolean),
  message: nullable(Schema.String),
  limit: nullable(Schema.Number)
})

export const InventoryItem = Schema.Struct({
  id: nullable(Schema.String),
  externalId: nullable(Schema.String),
  productId: nullable(Schema.String),
  trackQuantity: nullable(Schema.Boolean),
  variants: opt(Schema.Array(InventoryVariant)),
  lastUpdated: nullable(Schema.String),
  numericId: opt(Schema.String),
  preorderInfo: opt(PreorderInfo)
})
export type InventoryItem = typeof InventoryItem.Type

export const UpdateInventoryVariantsRequest = Schema.Struct({ inventoryItem: InventoryItem })

export const DecrementData = Schema.Struct({
  inventoryId: opt(Schema.String),
  externalId: opt(Schema.String),
  productId: opt(Schema.String),
  variantId: opt(Schema.String),
  decrementBy: opt(Schema.Number),
  preorderRequest: opt(Schema.Boolean)
})
export const DecrementInventoryRequest = Schema.Struct({ decrementData: Schema.Array(DecrementData) })

export const IncrementData = Schema.Struct({
  inventoryId: opt(Schema.String),
  productId: opt(Schema.String),
  variantId: opt(Schema.String),
  incrementBy: opt(Schema.Number)
})
export const IncrementInventoryRequest = Schema.Struct({ incrementData: Schema.Array(IncrementData) })

export const GetInventoryVariantsRequest = Schema.Struct({
  inventoryId: opt(Schema.String),
  externalId: opt(Schema.String),
  productId: opt(Schema.String),
  variantIds: opt(Schema.Array(Schema.String))
})
export const GetInventoryVariantsResponse = Schema.Struct({ inventoryItem: opt(InventoryItem) })

export const QueryInventoryRequest = Schema.Struct({ query: opt(OffsetQuery) })
export const QueryInventoryResponse = offsetPage("inventoryItems", InventoryItem)

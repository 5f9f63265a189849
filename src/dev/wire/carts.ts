/**
 * Wire shapes of the carts' dev endpoints (`/_sitefx/store/abandoned-carts`): what a shopper's cart
 * holds when it is abandoned, and when it is recovered. Only the local platform has these; on the real
 * platform carts come from the store's checkout.
 */
import * as Schema from "effect/Schema"
import { AbandonedCart, BuyerInfo, CartActivity } from "../../catalog/wire/carts.ts"

export const STORE_DEV_PREFIX = "/_sitefx/store"

const opt = Schema.optionalKey

/** `POST /_sitefx/store/abandoned-carts`: every field has a default (a visitor's cart of one item, USD 0, now). */
export const AbandonCartRequest = Schema.Struct({
  id: opt(Schema.String),
  buyerInfo: opt(BuyerInfo),
  creationTime: opt(Schema.String),
  abandonTime: opt(Schema.String),
  itemsCount: opt(Schema.Number),
  couponId: opt(Schema.String),
  /** ISO 4217 code; default USD. */
  currency: opt(Schema.String),
  subtotal: opt(Schema.Number),
  total: opt(Schema.Number),
  checkoutUrl: opt(Schema.String),
  activities: opt(Schema.Array(CartActivity))
})
export type AbandonCartRequest = typeof AbandonCartRequest.Type

/** `POST /_sitefx/store/abandoned-carts/{id}/recover`: when (default now). */
export const RecoverCartRequest = Schema.Struct({ recoveredTime: opt(Schema.String) })

export const DevCartResponse = Schema.Struct({ abandonedCart: AbandonedCart })

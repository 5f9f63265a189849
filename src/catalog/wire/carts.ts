/**
 * Abandoned carts on the wire: the cart as the platform's admin calls return it, the bodies of the two
 * events a cart goes through (abandoned, recovered), and the get and query calls. Times are ISO text;
 * the cart's `total` is text with the currency symbol, the event's totals are numbers. The query's
 * `filter` and `sort` travel as JSON text (the local platform also takes them as JSON).
 */
import * as Schema from "effect/Schema"
import { BUYER_IDENTITIES, CART_ACTIVITY_TYPES, CART_STATUSES } from "../protocol.ts"
import { FilterOrText, nullable, opt, Paging } from "./common.ts"

export const AbandonedCartStatus = Schema.Literals(CART_STATUSES)
export const BuyerIdentity = Schema.Literals(BUYER_IDENTITIES)
export const CartActivityType = Schema.Literals(CART_ACTIVITY_TYPES)

/** The buyer: their contact or member id, how they were known, and how to reach them. */
export const BuyerInfo = Schema.Struct({
  id: opt(Schema.String),
  identityType: opt(BuyerIdentity),
  email: nullable(Schema.String),
  phone: nullable(Schema.String),
  firstName: nullable(Schema.String),
  lastName: nullable(Schema.String)
})
export type BuyerInfo = typeof BuyerInfo.Type

export const CustomData = Schema.Struct({
  namespace: nullable(Schema.String),
  customValue: nullable(Schema.Record(Schema.String, Schema.Unknown))
})

/** One entry of a cart's history (a reminder scheduled or sent, a task, a custom note). */
export const CartActivity = Schema.Struct({
  activityType: opt(CartActivityType),
  message: nullable(Schema.String),
  timestamp: nullable(Schema.String),
  customData: opt(CustomData)
})
export type CartActivity = typeof CartActivity.Type

/** A cart its buyer left before paying; `id` is the original cart's id. */
export const AbandonedCart = Schema.Struct({
  id: opt(Schema.String),
  status: opt(AbandonedCartStatus),
  abandonTime: nullable(Schema.String),
  buyerInfo: opt(BuyerInfo),
  /** The total with its currency symbol (`$45.00`). */
  total: nullable(Schema.String),
  activities: opt(Schema.Array(CartActivity))
})
export type AbandonedCart = typeof AbandonedCart.Type

export const CartTotals = Schema.Struct({
  subtotal: nullable(Schema.Number),
  total: nullable(Schema.Number),
  formattedTotal: opt(Schema.String)
})

/** The body of `com.wix.ecommerce.cart.abandonment.api.v1.CartAbandonedEvent`. */
export const CartAbandonedEvent = Schema.Struct({
  cartId: opt(Schema.String),
  creationTime: nullable(Schema.String),
  abandonTime: nullable(Schema.String),
  buyerInfo: opt(BuyerInfo),
  itemsCount: opt(Schema.Number),
  couponId: opt(Schema.String),
  totals: opt(CartTotals),
  checkoutUrl: opt(Schema.String)
})
export type CartAbandonedEvent = typeof CartAbandonedEvent.Type

/** The body of `com.wix.ecommerce.cart.abandonment.api.v1.CartRecoveredEvent`. */
export const CartRecoveredEvent = Schema.Struct({
  cartId: opt(Schema.String),
  recoveredTime: nullable(Schema.String),
  creationTime: nullable(Schema.String),
  abandonedTime: nullable(Schema.String)
})
export type CartRecoveredEvent = typeof CartRecoveredEvent.Type

// calls

export const GetAbandonedCartRequest = Schema.Struct({ id: Schema.String })
export const GetAbandonedCartResponse = Schema.Struct({ abandonedCart: opt(AbandonedCart) })
export type GetAbandonedCartResponse = typeof GetAbandonedCartResponse.Type

/** One sort field: `{fieldName, order}` or the short `{"abandonTime": "desc"}`. */
export const CartSortSpec = Schema.Record(Schema.String, Schema.Unknown)

/** A cart query: the data filter language and a sort list, each as JSON text or JSON, and offset paging. */
export const AbandonedCartsQuery = Schema.Struct({
  paging: opt(Paging),
  filter: nullable(FilterOrText),
  sort: nullable(Schema.Union([Schema.String, Schema.Array(CartSortSpec)]))
})
export type AbandonedCartsQuery = typeof AbandonedCartsQuery.Type

export const QueryAbandonedCartsRequest = Schema.Struct({ query: opt(AbandonedCartsQuery) })
export type QueryAbandonedCartsRequest = typeof QueryAbandonedCartsRequest.Type
export const QueryAbandonedCartsResponse = Schema.Struct({
  abandonedCarts: opt(Schema.Array(AbandonedCart)),
  totalResults: opt(Schema.Number)
})
export type QueryAbandonedCartsResponse = typeof QueryAbandonedCartsResponse.Type

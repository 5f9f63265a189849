/**
 * What the abandoned-carts client needs of the wire at run time, without Schema: the enumerations, the
 * paths, the paging bounds, and guards for the answers it reads. The Schemas of the same shapes are in
 * `../wire/carts.ts` (the local platform decodes requests with them); a typed test keeps each guard's
 * type equal to its Schema's.
 */
import * as G from "../../http/guard.ts"

export const CART_STATUSES = ["ABANDONED", "RECOVERED"] as const
export type CartStatus = typeof CART_STATUSES[number]
/** Who the buyer of a cart was: the site owner, a member, a visitor, or a contact made for them. */
export const BUYER_IDENTITIES = ["ADMIN", "MEMBER", "VISITOR", "CONTACT"] as const
export const CART_ACTIVITY_TYPES = [
  "UNRECOGNIZED_TYPE", "SCHEDULED", "EMAIL_SENT", "EMAIL_NOT_SENT", "NOTIFICATION_SENT", "TASK_CREATED", "CUSTOM_ACTIVITY"
] as const

/** A cart query returns at most 100 carts a page; 50 when it names no limit. */
export const MAX_CARTS_PAGE = 100
export const DEFAULT_CARTS_PAGE = 50

/** Event types the platform publishes for carts (v1, "non-domain" events). */
export const CartEventTypes = {
  abandoned: "com.wix.ecommerce.cart.abandonment.api.v1.CartAbandonedEvent",
  recovered: "com.wix.ecommerce.cart.abandonment.api.v1.CartRecoveredEvent"
} as const

/** Application codes of the abandoned-carts calls. */
export const CartCodes = {
  notFound: "ABANDONED_CART_NOT_FOUND",
  alreadyRecovered: "ABANDONED_CART_ALREADY_RECOVERED"
} as const

/** The paths as the platform's official client sends them (its raw service paths, no `/stores` prefix). */
export const CartPaths = {
  cart: (id: string) => `/v1/abandonedCarts/${encodeURIComponent(id)}`,
  query: "/v1/abandonedCarts/query"
} as const

// ---- guards of the answers ---------------------------------------------------------------------------

const opt = G.optional
const nullable = <A>(g: G.Guard<A>) => opt(G.nullOr(g))
const optStr = opt(G.string)
const nullStr = nullable(G.string)

export const BuyerInfo = G.struct({
  id: optStr,
  identityType: opt(G.literals(BUYER_IDENTITIES)),
  email: nullStr,
  phone: nullStr,
  firstName: nullStr,
  lastName: nullStr
})

export const CustomData = G.struct({ namespace: nullStr, customValue: nullable(G.object) })

export const CartActivity = G.struct({
  activityType: opt(G.literals(CART_ACTIVITY_TYPES)),
  message: nullStr,
  timestamp: nullStr,
  customData: opt(CustomData)
})

export const AbandonedCart = G.struct({
  id: optStr,
  status: opt(G.literals(CART_STATUSES)),
  abandonTime: nullStr,
  buyerInfo: opt(BuyerInfo),
  total: nullStr,
  activities: opt(G.array(CartActivity))
})
export type AbandonedCart = G.TypeOf<typeof AbandonedCart>

export const GetAbandonedCartResponse = G.struct({ abandonedCart: opt(AbandonedCart) })

export const QueryAbandonedCartsResponse = G.struct({
  abandonedCarts: opt(G.array(AbandonedCart)),
  totalResults: opt(G.number)
})

/**
 * Guards of the abandoned-carts answers the client reads, without Schema. The Schemas of the same shapes
 * are in `../wire/carts.ts`; test/catalog/guards.test.ts keeps each guard's type equal to its Schema's.
 */
import * as G from "../../http/guard.ts"
import { BUYER_IDENTITIES, CART_ACTIVITY_TYPES, CART_STATUSES } from "../protocol.ts"
import { nullable, opt } from "./common.ts"

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

/**
 * Guards of the current cart's answers, without Schema: each checks the answer's frame (the cart is an
 * object, its lines a list, the estimate's summary an object) and gives it the type of its Schema in
 * `../wire/carts.ts`, which the local platform writes its answers with.
 */
import * as G from "../../http/guard.ts"
import type { CartV1Response, CartV2Response, EstimateCurrentCartResponse, EstimateTotalsResponse } from "../wire/carts.ts"

const cartFrame = G.struct({ id: G.optional(G.nullOr(G.string)), lineItems: G.optional(G.array(G.object)) })

const framed = <A>(guard: G.Guard<unknown>): G.Guard<A> => guard as G.Guard<A>

export const CartV1Answer: G.Guard<CartV1Response> = framed(G.struct({ cart: G.optional(cartFrame) }))
export const CartV2Answer: G.Guard<CartV2Response> = framed(G.struct({ cart: G.optional(cartFrame) }))
export const EstimateTotalsAnswer: G.Guard<EstimateTotalsResponse> = framed(
  G.struct({ cart: G.optional(cartFrame), priceSummary: G.optional(G.object), calculatedLineItems: G.optional(G.array(G.object)) })
)
export const EstimateV2Answer: G.Guard<EstimateCurrentCartResponse> = framed(
  G.struct({ cart: G.optional(cartFrame), summary: G.optional(G.object) })
)
export const CheckoutAnswer = G.struct({ checkoutId: G.optional(G.string) })

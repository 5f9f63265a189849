/**
 * Guards of the checkout's answers, without Schema: each checks the answer's frame (the checkout is an
 * object, its lines a list, its totals an object) and gives it the type of its Schema in
 * `../wire/checkouts.ts`, which the local platform writes its answers with.
 */
import * as G from "../../http/guard.ts"
import type { CheckoutResponse as CheckoutResponseWire, CheckoutUrlResponse as CheckoutUrlResponseWire } from "../wire/checkouts.ts"

const checkoutFrame = G.struct({
  id: G.optional(G.nullOr(G.string)),
  lineItems: G.optional(G.array(G.object)),
  priceSummary: G.optional(G.object),
  completed: G.optional(G.boolean)
})

export const CheckoutResponse: G.Guard<CheckoutResponseWire> = G.struct({ checkout: G.optional(checkoutFrame) }) as G.Guard<CheckoutResponseWire>
export const CheckoutUrlResponse: G.Guard<CheckoutUrlResponseWire> = G.struct({ checkoutUrl: G.optional(G.string) })
export const Empty = G.object

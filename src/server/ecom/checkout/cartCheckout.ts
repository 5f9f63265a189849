/**
 * The checkout of a shopper's current cart, one way for everything that checks a cart out: Cart V1's
 * `create-checkout` and an abandoned cart's checkout link (`/checkout?cartId=`). The cart hands out a
 * checkout id (the same until its lines change, refused for an empty cart or one whose stock is short);
 * the checkout under it is made from the cart's lines the first time, and is that same checkout after,
 * so asking again never piles up checkouts.
 */
import * as Effect from "effect/Effect"
import type { Caller } from "../../platform/Caller.ts"
import type { Reject } from "../../platform/responses.ts"
import { attempt } from "../../store/engineFailures.ts"
import { type CartStoreShape, ownedCartNotFound } from "../carts/CartStore.ts"
import type { CheckoutDetails, CheckoutOwner, CheckoutStoreShape, StoredCheckout } from "./CheckoutStore.ts"

/** The checkout of the owner's current cart, made with `details` when it is new (see the file's comment). */
export const checkoutOfCart = (
  carts: CartStoreShape,
  checkouts: CheckoutStoreShape,
  owner: CheckoutOwner,
  details: CheckoutDetails,
  actor: Caller
): Effect.Effect<StoredCheckout, Reject> =>
  Effect.gen(function*() {
    const cartOwner = { kind: owner.kind, id: owner.id }
    const checkoutId = yield* carts.createCheckout(cartOwner, actor)
    // the checkout itself: the cart's lines as they are now, under the id the cart handed out
    const cart = carts.current(cartOwner)
    if (cart === undefined) return yield* ownedCartNotFound()
    return yield* attempt(() => checkouts.fromCart(cart, checkoutId, owner, details, actor))
  })

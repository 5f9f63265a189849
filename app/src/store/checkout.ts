/**
 * The checkout hand-off: a checkout made from the current cart, then the platform's hosted checkout page
 * for it (`Checkout.redirect`), which takes the shopper through paying and sends them back to
 * `thankYouPageUrl` with the order's id in the query (or to `postFlowUrl` when they leave it).
 */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import { Checkout } from "sitefx/ecom"
import { href } from "../shell/router.ts"
import { runtime } from "../site.ts"

/** This app's own pages, as the platform's checkout page comes back to them: the cart, and the thank-you page. */
export const appCallbacks = (): Required<Checkout.CheckoutCallbacks> => {
  const here = `${window.location.origin}${window.location.pathname}`
  return { postFlowUrl: `${here}${href("store", "cart")}`, thankYouPageUrl: `${here}${href("store", "thank-you")}` }
}

/**
 * Checks out the current cart: a checkout, its page on the platform, and the browser sent there. The
 * page goes away as the checkout begins, so the navigation is part of the action, not of the screen.
 */
export const checkoutAtom = Atom.keepAlive(runtime.fn(() =>
  Effect.gen(function*() {
    const checkoutId = yield* Checkout.createFromCurrentCart()
    const url = yield* Checkout.redirect(checkoutId, appCallbacks())
    window.location.assign(url)
    return url
  })
))

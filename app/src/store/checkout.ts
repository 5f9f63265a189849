/**
 * The checkout hand-off: a checkout made from the current cart (`Cart.createCheckout`), then a redirect
 * session for it on the platform, whose page takes the shopper through paying and sends them back to
 * `thankYouPageUrl` with the order's id in the query (or to `postFlowUrl` when they leave it).
 *
 * `redirect` is the one call here that sitefx/ecom does not make yet: it creates the redirect session on
 * the same wire and through the same client as the session's own redirects (the login page, the
 * logout page, the pre-warm): `POST /_api/redirects-api/v1/redirect-session` on the API host, with
 * `{ ecomCheckout: { checkoutId }, callbacks }`. When sitefx/ecom has `Checkout.redirect`, it takes
 * its place and this module shrinks to `checkoutAtom`.
 */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import { Cart } from "sitefx/ecom"
import { PlatformClient, type PlatformError } from "sitefx/http"
import { href } from "../shell/router.ts"
import { runtime } from "../site.ts"

/** Where the platform's redirect sessions are created (the session's login and logout redirects use it too). */
const REDIRECT_SESSION_PATH = "/_api/redirects-api/v1/redirect-session"

/** Where the platform's checkout page sends the shopper: back to the cart, or to the thank-you page once they paid. */
export interface CheckoutCallbacks {
  readonly postFlowUrl: string
  readonly thankYouPageUrl: string
}

interface RedirectAnswer {
  readonly redirectSession: { readonly fullUrl: string }
}

/** Checks the answer: a redirect session with the page to send the browser to. */
const redirectAnswer: { (u: unknown): string | undefined; readonly Type?: RedirectAnswer } = (u) => {
  const session = typeof u === "object" && u !== null ? (u as { redirectSession?: { fullUrl?: unknown } }).redirectSession : undefined
  return typeof session?.fullUrl === "string" ? undefined : ".redirectSession.fullUrl: expected a string"
}

/** The URL of the platform's checkout page for a checkout. */
export const redirect = (checkoutId: string, callbacks: CheckoutCallbacks): Effect.Effect<string, PlatformError, PlatformClient> =>
  PlatformClient.use((client) =>
    client.json({
      method: "POST",
      path: REDIRECT_SESSION_PATH,
      host: "api",
      payload: { ecomCheckout: { checkoutId }, callbacks: { postFlowUrl: callbacks.postFlowUrl, thankYouPageUrl: callbacks.thankYouPageUrl } }
    }, redirectAnswer)
  ).pipe(Effect.map((answer) => answer.redirectSession.fullUrl))

/** This app's own pages, as the platform's checkout page comes back to them. */
export const appCallbacks = (): CheckoutCallbacks => {
  const here = `${window.location.origin}${window.location.pathname}`
  return { postFlowUrl: `${here}${href("store", "cart")}`, thankYouPageUrl: `${here}${href("store", "thank-you")}` }
}

/**
 * Checks out the current cart: a checkout, its page on the platform, and the browser sent there. The
 * page goes away as the checkout begins, so the navigation is part of the action, not of the screen.
 */
export const checkoutAtom = Atom.keepAlive(runtime.fn(() =>
  Effect.gen(function*() {
    const checkoutId = yield* Cart.createCheckout()
    const url = yield* redirect(checkoutId, appCallbacks())
    window.location.assign(url)
    return url
  })
))

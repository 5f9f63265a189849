/**
 * The checkout: where a shopper's cart becomes an order. A checkout is made from the current cart,
 * read, given the buyer's details (email, billing and shipping addresses), and paid on the platform's
 * hosted checkout page, which `redirect` opens through a redirect session (the same call the session's
 * login and logout make); after paying, the browser comes back to `thankYouPageUrl` with the order's id
 * in `orderId`. Each function sends exactly what the platform's official `checkout` and `redirects`
 * modules send, and needs only the `PlatformClient` of the buyer's (visitor's or member's) session.
 *
 * @example
 * import { Checkout } from "sitefx/ecom"
 * const checkoutId = yield* Checkout.createFromCurrentCart()
 * yield* Checkout.update(checkoutId, { buyerInfo: { email: "ada@example.com" } })
 * const url = yield* Checkout.redirect(checkoutId, { postFlowUrl: "https://shop.example/cart", thankYouPageUrl: "https://shop.example/thanks" })
 * window.location.assign(url)
 */
import * as Effect from "effect/Effect"
import type { Guard } from "../http/guard.ts"
import { PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { answerError } from "../http/Refusal.ts"
import { RedirectSessionResponse } from "../session/guards/redirects.ts"
import { Paths as SessionPaths } from "../session/protocol.ts"
import type { RedirectSessionRequest } from "../session/wire/redirects.ts"
import { createCheckout } from "./Cart.ts"
import { CheckoutCodes, CheckoutPaths, THANK_YOU_ORDER_PARAM } from "./checkoutProtocol.ts"
import { EcomError, fromPlatformError, invalidArgument } from "./EcomError.ts"
import * as G from "./guards/checkouts.ts"
import type { Checkout, CheckoutUpdate } from "./wire/checkouts.ts"

export { CheckoutCodes, CheckoutPaths, FLAT_SHIPPING_RATE, THANK_YOU_ORDER_PARAM } from "./checkoutProtocol.ts"
export type { Checkout, CheckoutUpdate } from "./wire/checkouts.ts"

/** How a checkout call fails: refused (an EcomError, see its `code`), or the platform unavailable (a PlatformError). */
export type CheckoutFailure = EcomError | PlatformError

/** Where the hosted checkout sends the buyer: back to the store (`postFlowUrl`), and after paying (`thankYouPageUrl`, with `orderId`). */
export interface CheckoutCallbacks {
  readonly postFlowUrl?: string | undefined
  readonly thankYouPageUrl?: string | undefined
}

const send = <A>(req: PlatformRequest, guard: Guard<A>): Effect.Effect<A, CheckoutFailure, PlatformClient> =>
  PlatformClient.use((client) => client.json(req, guard).pipe(Effect.mapError(fromPlatformError)))

const checkoutOf = (answer: { readonly checkout?: Checkout | undefined }): Effect.Effect<Checkout, EcomError> =>
  answer.checkout === undefined
    ? Effect.fail(new EcomError({ reason: answerError(CheckoutCodes.checkoutNotFound, "The answer holds no checkout") }))
    : Effect.succeed(answer.checkout)

const checkId = (fn: string, id: string): EcomError | undefined =>
  typeof id !== "string" || id.trim() === "" ? invalidArgument(`Checkout.${fn}: give the checkout's id`, "id") : undefined

const withId = <A>(fn: string, id: string, f: () => Effect.Effect<A, CheckoutFailure, PlatformClient>): Effect.Effect<A, CheckoutFailure, PlatformClient> => {
  const bad = checkId(fn, id)
  return bad === undefined ? Effect.suspend(f) : Effect.fail(bad)
}

/** Starts a checkout from the current cart; its id. CART_IS_EMPTY for an empty cart, INSUFFICIENT_INVENTORY when the stock is short. */
export const createFromCurrentCart = (options: { readonly channelType?: string } = {}): Effect.Effect<string, CheckoutFailure, PlatformClient> =>
  createCheckout(options)

/** The checkout, its lines priced as the catalog prices them now. CHECKOUT_NOT_FOUND when it is not the caller's. */
export const get = (checkoutId: string): Effect.Effect<Checkout, CheckoutFailure, PlatformClient> =>
  withId("get", checkoutId, () => Effect.flatMap(send({ method: "GET", path: CheckoutPaths.checkout(checkoutId), payload: { id: checkoutId } }, G.CheckoutResponse), checkoutOf))

/**
 * Sets the buyer's details: email, billing and shipping addresses, note; what is left out stays.
 *
 * @example
 * import { Checkout } from "sitefx/ecom"
 * declare const checkoutId: string
 * yield* Checkout.update(checkoutId, { buyerInfo: { email: "ada@example.com" }, shippingInfo: { shippingDestination: { address: { country: "GB", city: "London", addressLine1: "12 Analytical Row" } } } })
 */
export const update = (checkoutId: string, checkout: Omit<CheckoutUpdate, "id">): Effect.Effect<Checkout, CheckoutFailure, PlatformClient> =>
  withId("update", checkoutId, () =>
    Effect.flatMap(
      send({ method: "PATCH", path: CheckoutPaths.checkout(checkoutId), payload: { checkout: { ...checkout, id: checkoutId } } }, G.CheckoutResponse),
      checkoutOf
    ))

/** The address of the page where the buyer pays for the checkout, without callbacks (see {@link redirect}). */
export const url = (checkoutId: string): Effect.Effect<string, CheckoutFailure, PlatformClient> =>
  withId("url", checkoutId, () =>
    Effect.flatMap(send({ method: "GET", path: CheckoutPaths.checkoutUrl(checkoutId), payload: { id: checkoutId } }, G.CheckoutUrlResponse), ({ checkoutUrl }) =>
      checkoutUrl === undefined
        ? Effect.fail(new EcomError({ reason: answerError(CheckoutCodes.checkoutNotFound, "The answer holds no checkout URL") }))
        : Effect.succeed(checkoutUrl)))

/** Marks the checkout completed without an order (one paid elsewhere); a completed checkout changes no more. */
export const markCompleted = (checkoutId: string): Effect.Effect<void, CheckoutFailure, PlatformClient> =>
  withId("markCompleted", checkoutId, () =>
    Effect.asVoid(send({ method: "POST", path: CheckoutPaths.markAsCompleted(checkoutId), payload: { id: checkoutId } }, G.Empty)))

/**
 * The URL of the hosted checkout page for the checkout, through a redirect session: send the browser
 * there; after paying it comes back to `thankYouPageUrl` with the order's id in `orderId` (see
 * {@link THANK_YOU_ORDER_PARAM}). The callbacks must be on the client's allowed origins.
 */
export const redirect = (checkoutId: string, callbacks: CheckoutCallbacks = {}): Effect.Effect<string, CheckoutFailure, PlatformClient> =>
  withId("redirect", checkoutId, () => {
    const payload: RedirectSessionRequest = {
      ecomCheckout: { checkoutId },
      ...(callbacks.postFlowUrl === undefined && callbacks.thankYouPageUrl === undefined
        ? {}
        : {
          callbacks: {
            ...(callbacks.postFlowUrl === undefined ? {} : { postFlowUrl: callbacks.postFlowUrl }),
            ...(callbacks.thankYouPageUrl === undefined ? {} : { thankYouPageUrl: callbacks.thankYouPageUrl })
          }
        })
    }
    return Effect.map(
      send({ method: "POST", path: SessionPaths.redirectSession, host: "api", payload: payload as Record<string, unknown> }, RedirectSessionResponse),
      (r) => r.redirectSession.fullUrl
    )
  })

/** The order id a thank-you page URL carries after a checkout, when it carries one. */
export const orderIdOf = (thankYouUrl: string | URL): string | undefined =>
  new URL(thankYouUrl).searchParams.get(THANK_YOU_ORDER_PARAM) ?? undefined

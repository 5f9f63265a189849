/**
 * The checkout calls of the official `checkout` module that a headless purchase makes: create a
 * checkout from lines (`POST /ecom/v1/checkouts`), get it, update the buyer's details
 * (`PATCH /ecom/v1/checkouts/{id}`: email, billing and shipping addresses, note), get the URL of the
 * page where the buyer pays (`GET .../checkout-url`) and mark it completed (`POST .../mark-as-completed`).
 * A checkout is its buyer's (the visitor or member whose session made it) or an API key's to read and
 * change; to anyone else it does not exist.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { CHANNEL_TYPES, CHECKOUT_PAGE_PATH, type ChannelType, CheckoutPaths } from "../../../ecom/checkoutProtocol.ts"
import {
  CheckoutResponse,
  CheckoutUrlResponse,
  MarkAsCompletedResponse,
  NewCheckoutRequest,
  UpdateCheckoutRequest
} from "../../../ecom/wire/checkouts.ts"
import { Callers } from "../../accounts/Callers.ts"
import { invalidField, reply, type Reject } from "../../platform/responses.ts"
import { body, pathParam, requestOrigin, route } from "../../platform/routing.ts"
import { attempt } from "../../store/engineFailures.ts"
import { CartStore } from "../carts/CartStore.ts"
import { noCustomItems } from "../carts/shopper.ts"
import { checkoutNotFound, CheckoutStore, type CheckoutDetails, detailsOf, isCheckoutId } from "./CheckoutStore.ts"
import { rememberBuyer } from "./placeOrder.ts"

/** An email as the checkout takes it: something@something, at most 254 characters. */
export const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/

/** The buyer's details checked: a malformed email is refused, naming its field. */
export const checkDetails = (details: CheckoutDetails, field: string): Effect.Effect<CheckoutDetails, Reject> =>
  details.email !== undefined && (details.email.length > 254 || !EMAIL.test(details.email))
    ? Effect.fail(invalidField(`${field}.buyerInfo.email`, "The buyer's email is not an email address", "FORMAT"))
    : Effect.succeed(details)

export const checkoutRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const checkouts = yield* CheckoutStore
  const carts = yield* CartStore
  const callers = yield* Callers

  /** The checkout named by the path, when the caller may see it. */
  const named = Effect.gen(function*() {
    const caller = yield* callers.current
    const id = yield* pathParam("id")
    if (!isCheckoutId(id)) return yield* attempt(() => { throw checkoutNotFound(id) })
    return { caller, checkout: yield* attempt(() => checkouts.require(id, caller)) }
  })

  return [
    route(
      "POST",
      CheckoutPaths.create,
      Effect.gen(function*() {
        const session = yield* callers.session
        const actor = yield* callers.current
        const request = yield* body(NewCheckoutRequest)
        yield* noCustomItems(request.customLineItems, "customLineItems")
        const channel = request.channelType ?? "WEB"
        if (!(CHANNEL_TYPES as ReadonlyArray<string>).includes(channel) || channel === "UNSPECIFIED") {
          return yield* invalidField("channelType", `channelType is one of ${CHANNEL_TYPES.filter((c) => c !== "UNSPECIFIED").join(", ")}`, "FORMAT")
        }
        const details = yield* checkDetails(detailsOf(request.checkoutInfo), "checkoutInfo")
        const lines = (request.lineItems ?? []).map((l) => ({ reference: l.catalogReference, quantity: l.quantity ?? 1 }))
        const owner = { kind: session.kind, id: session.id, clientId: session.clientId }
        const created = yield* attempt(() => checkouts.create(owner, lines, channel as ChannelType, details, actor))
        return reply(CheckoutResponse, { checkout: checkouts.view(created) })
      })
    ),
    route(
      "GET",
      "/ecom/v1/checkouts/:id",
      Effect.gen(function*() {
        const { checkout } = yield* named
        return reply(CheckoutResponse, { checkout: checkouts.view(checkout) })
      })
    ),
    route(
      "PATCH",
      "/ecom/v1/checkouts/:id",
      Effect.gen(function*() {
        const { caller, checkout } = yield* named
        const request = yield* body(UpdateCheckoutRequest)
        yield* noCustomItems(request.customLineItems, "customLineItems")
        const details = yield* checkDetails(detailsOf(request.checkout), "checkout")
        const updated = yield* attempt(() => {
          const saved = checkouts.update(checkout.id, details, caller)
          rememberBuyer(carts, saved)
          return saved
        })
        return reply(CheckoutResponse, { checkout: checkouts.view(updated) })
      })
    ),
    route(
      "GET",
      "/ecom/v1/checkouts/:id/checkout-url",
      Effect.gen(function*() {
        const { checkout } = yield* named
        const origin = yield* requestOrigin
        return reply(CheckoutUrlResponse, { checkoutUrl: `${origin}${CHECKOUT_PAGE_PATH}?checkoutId=${encodeURIComponent(checkout.id)}` })
      })
    ),
    route(
      "POST",
      "/ecom/v1/checkouts/:id/mark-as-completed",
      Effect.gen(function*() {
        const { caller, checkout } = yield* named
        yield* attempt(() => checkouts.complete(checkout.id, undefined, caller))
        return reply(MarkAsCompletedResponse, {})
      })
    )
  ]
}))

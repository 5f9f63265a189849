/**
 * Cart V1's current-cart calls, answered from the one cart storage both generations share (the
 * platform's V1 endpoints answer from V2): `GET|PATCH|DELETE /ecom/v1/carts/current`, and `POST` to
 * `add-to-cart`, `update-line-items-quantity`, `remove-line-items`, `estimate-totals` and
 * `create-checkout` under it (which also makes the checkout, see checkout/). The cart is the caller's
 * session's (a visitor's or a member's).
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { CartV1Paths } from "../../../ecom/protocol.ts"
import {
  AddToCurrentCartRequest,
  CartV1Response,
  CreateCheckoutRequest,
  CreateCheckoutResponse,
  EstimateTotalsRequest,
  EstimateTotalsResponse,
  RemoveLineItemsRequest,
  UpdateLineItemsQuantityRequest
} from "../../../ecom/wire/carts.ts"
import { reply, replyEmpty } from "../../platform/responses.ts"
import { body, route } from "../../platform/routing.ts"
import { checkoutOfCart } from "../checkout/cartCheckout.ts"
import { CheckoutStore } from "../checkout/CheckoutStore.ts"
import { CartStore, ownedCartNotFound } from "./CartStore.ts"
import { noCustomItems, shopper } from "./shopper.ts"
import { cartV1, estimateV1 } from "./views.ts"
import * as Schema from "effect/Schema"

/** PATCH's body: lines to add (what a shopper may change on their cart here). */
const UpdateCurrentCartRequest = Schema.Struct({
  cartInfo: Schema.optionalKey(Schema.Unknown),
  couponCode: Schema.optionalKey(Schema.NullOr(Schema.String)),
  lineItems: AddToCurrentCartRequest.fields.lineItems,
  customLineItems: AddToCurrentCartRequest.fields.customLineItems
})

export const currentCartRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const carts = yield* CartStore
  const checkouts = yield* CheckoutStore
  const caller = yield* shopper
  return [
    route(
      "GET",
      CartV1Paths.current,
      Effect.gen(function*() {
        const { owner } = yield* caller
        const cart = carts.current(owner)
        if (cart === undefined) return yield* ownedCartNotFound()
        return reply(CartV1Response, { cart: cartV1(cart) })
      })
    ),
    route(
      "PATCH",
      CartV1Paths.current,
      Effect.gen(function*() {
        const { owner, actor, origin } = yield* caller
        const request = yield* body(UpdateCurrentCartRequest)
        yield* noCustomItems(request.customLineItems, "customLineItems")
        const lines = (request.lineItems ?? []).map((l) => ({ reference: l.catalogReference, quantity: l.quantity ?? 1 }))
        if (lines.length === 0) {
          const cart = carts.current(owner)
          if (cart === undefined) return yield* ownedCartNotFound()
          return reply(CartV1Response, { cart: cartV1(cart) })
        }
        if (carts.current(owner) === undefined) return yield* ownedCartNotFound()
        return reply(CartV1Response, { cart: cartV1(yield* carts.add(owner, lines, actor, "add", origin)) })
      })
    ),
    route(
      "POST",
      CartV1Paths.addToCart,
      Effect.gen(function*() {
        const { owner, actor, origin } = yield* caller
        const request = yield* body(AddToCurrentCartRequest)
        yield* noCustomItems(request.customLineItems, "customLineItems")
        const lines = (request.lineItems ?? []).map((l) => ({ reference: l.catalogReference, quantity: l.quantity ?? 1 }))
        return reply(CartV1Response, { cart: cartV1(yield* carts.add(owner, lines, actor, "add", origin)) })
      })
    ),
    route(
      "POST",
      CartV1Paths.updateQuantities,
      Effect.gen(function*() {
        const { owner, actor, origin } = yield* caller
        const { lineItems } = yield* body(UpdateLineItemsQuantityRequest)
        return reply(CartV1Response, { cart: cartV1(yield* carts.setQuantities(owner, lineItems, actor, origin)) })
      })
    ),
    route(
      "POST",
      CartV1Paths.removeLineItems,
      Effect.gen(function*() {
        const { owner, actor, origin } = yield* caller
        const { lineItemIds } = yield* body(RemoveLineItemsRequest)
        return reply(CartV1Response, { cart: cartV1(yield* carts.remove(owner, lineItemIds, actor, origin)) })
      })
    ),
    route(
      "POST",
      CartV1Paths.estimateTotals,
      Effect.gen(function*() {
        const { owner } = yield* caller
        yield* body(EstimateTotalsRequest)
        const cart = carts.current(owner)
        if (cart === undefined) return yield* ownedCartNotFound()
        return reply(EstimateTotalsResponse, estimateV1(cart))
      })
    ),
    route(
      "POST",
      CartV1Paths.createCheckout,
      Effect.gen(function*() {
        const { owner, actor } = yield* caller
        yield* body(CreateCheckoutRequest)
        const clientId = actor.kind === "admin" ? actor.session?.clientId ?? "" : actor.kind === "none" ? "" : actor.clientId
        const checkout = yield* checkoutOfCart(carts, checkouts, { ...owner, clientId }, {}, actor)
        return reply(CreateCheckoutResponse, { checkoutId: checkout.id })
      })
    ),
    route(
      "DELETE",
      CartV1Paths.current,
      Effect.gen(function*() {
        const { owner, actor } = yield* caller
        yield* carts.delete(owner, actor)
        return replyEmpty()
      })
    )
  ]
}))

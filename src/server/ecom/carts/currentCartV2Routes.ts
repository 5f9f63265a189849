/**
 * Cart V2's current-cart calls: `POST|GET|DELETE /ecom/v2/carts/current`, and `POST` to
 * `add-line-items`, `update-line-items`, `remove-line-items`, `estimate` and `calculate` under it.
 * The same carts as Cart V1's calls (currentCartRoutes.ts), shown as V2 shows them.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { CartV2Paths } from "../../../ecom/protocol.ts"
import {
  AddLineItemsRequest,
  CartV2Response,
  CreateCurrentCartRequest,
  EstimateCurrentCartRequest,
  EstimateCurrentCartResponse,
  RemoveLineItemsRequest,
  UpdateLineItemsRequest
} from "../../../ecom/wire/carts.ts"
import { reply, replyEmpty } from "../../platform/responses.ts"
import { body, route } from "../../platform/routing.ts"
import { CartStore, ownedCartNotFound } from "./CartStore.ts"
import { noCustomItems, shopper } from "./shopper.ts"
import { cartV2, estimateV2 } from "./views.ts"

export const currentCartV2Routes = HttpRouter.addAll(Effect.gen(function*() {
  const carts = yield* CartStore
  const caller = yield* shopper

  const estimate = Effect.gen(function*() {
    const { owner } = yield* caller
    yield* body(EstimateCurrentCartRequest)
    const cart = carts.current(owner)
    if (cart === undefined) return yield* ownedCartNotFound()
    return reply(EstimateCurrentCartResponse, estimateV2(cart))
  })

  return [
    route(
      "POST",
      CartV2Paths.current,
      Effect.gen(function*() {
        const { owner, actor, origin } = yield* caller
        const request = yield* body(CreateCurrentCartRequest)
        yield* noCustomItems(request.customItems, "customItems")
        const lines = (request.catalogItems ?? []).map((l) => ({ reference: l.catalogReference, quantity: l.quantity ?? 1 }))
        return reply(CartV2Response, { cart: cartV2(yield* carts.add(owner, lines, actor, "create", origin)) })
      })
    ),
    route(
      "GET",
      CartV2Paths.current,
      Effect.gen(function*() {
        const { owner } = yield* caller
        const cart = carts.current(owner)
        if (cart === undefined) return yield* ownedCartNotFound()
        return reply(CartV2Response, { cart: cartV2(cart) })
      })
    ),
    route(
      "POST",
      CartV2Paths.addLineItems,
      Effect.gen(function*() {
        const { owner, actor, origin } = yield* caller
        const request = yield* body(AddLineItemsRequest)
        yield* noCustomItems(request.customItems, "customItems")
        const lines = (request.catalogItems ?? []).map((l) => ({ reference: l.catalogReference, quantity: l.quantity ?? 1 }))
        return reply(CartV2Response, { cart: cartV2(yield* carts.add(owner, lines, actor, "add", origin)) })
      })
    ),
    route(
      "POST",
      CartV2Paths.updateLineItems,
      Effect.gen(function*() {
        const { owner, actor, origin } = yield* caller
        const { lineItems } = yield* body(UpdateLineItemsRequest)
        const updates = lineItems.flatMap((l) =>
          l.quantity?.newQuantity === undefined ? [] : [{ id: l.lineItemId, quantity: l.quantity.newQuantity }]
        )
        return reply(CartV2Response, { cart: cartV2(yield* carts.setQuantities(owner, updates, actor, origin)) })
      })
    ),
    route(
      "POST",
      CartV2Paths.removeLineItems,
      Effect.gen(function*() {
        const { owner, actor, origin } = yield* caller
        const { lineItemIds } = yield* body(RemoveLineItemsRequest)
        return reply(CartV2Response, { cart: cartV2(yield* carts.remove(owner, lineItemIds, actor, origin)) })
      })
    ),
    route("POST", CartV2Paths.estimate, estimate),
    route("POST", CartV2Paths.calculate, estimate),
    route(
      "DELETE",
      CartV2Paths.current,
      Effect.gen(function*() {
        const { owner, actor } = yield* caller
        yield* carts.delete(owner, actor)
        return replyEmpty()
      })
    )
  ]
}))

/**
 * One error for sitefx/ecom: the cart's and the orders' refusals are both EcomErrors whose reason is a
 * tagged class, so `Effect.catchReason` handles the platform's refusal of an order call (an
 * ApplicationError with an order code) or a cart call's, and leaves sitefx's own argument refusal (an
 * ArgumentError) failed as it was.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { Cart, EcomCodes, EcomError, type EcomFailure, Orders } from "../../src/ecom/index.ts"
import { DEMO_ORDER_IDS } from "../../src/server/ecom/orders/index.ts"
import { layerWithCore } from "../../src/server/LocalPlatform.ts"
import { asAdmin, asVisitor } from "../data/support.ts"

/** What the handler of the platform's refusal saw; "done" when the call succeeded. */
const applicationCode = <A, R>(self: Effect.Effect<A, EcomFailure, R>) =>
  self.pipe(
    Effect.as("done" as const),
    // the platform is up: an unavailable one is not what this test is about
    Effect.catchTag("PlatformError", (e) => Effect.die(e)),
    Effect.catchReason("EcomError", "ApplicationError", (reason, error) => Effect.succeed([reason.code, error.code, error.status] as const))
  )

describe("EcomError", () => {
  it.layer(layerWithCore({}), { excludeTestServices: true })((it) => {
    it.effect("Effect.catchReason handles the platform's refusals of order and cart calls alike", () =>
      Effect.gen(function*() {
        const canceled = yield* asAdmin(Orders.cancel(DEMO_ORDER_IDS.canceled).pipe(applicationCode))
        assert.deepStrictEqual(canceled, [EcomCodes.order.alreadyCanceled, EcomCodes.order.alreadyCanceled, 400])
        const missing = yield* asAdmin(Orders.get("no-such-order").pipe(applicationCode))
        assert.deepStrictEqual(missing, [EcomCodes.order.notFound, EcomCodes.order.notFound, 404])
        const noCart = yield* asVisitor(Cart.get().pipe(applicationCode))
        assert.deepStrictEqual(noCart, [EcomCodes.cart.ownedCartNotFound, EcomCodes.cart.ownedCartNotFound, 404])
      }))

    it.effect("an argument sitefx refuses is an ArgumentError that catchReason on ApplicationError leaves failed", () =>
      Effect.gen(function*() {
        const exit = yield* Effect.exit(asAdmin(Orders.get("").pipe(applicationCode)))
        assert.isTrue(Exit.isFailure(exit))
        const error = yield* Effect.flip(asAdmin(Orders.get("")))
        assert.instanceOf(error, EcomError)
        assert.strictEqual((error as EcomError).reason._tag, "ArgumentError")
        assert.strictEqual((error as EcomError).code, EcomCodes.invalidArgument)
        const cartError = yield* Effect.flip(asVisitor(Cart.add([])))
        assert.instanceOf(cartError, EcomError)
        assert.strictEqual((cartError as EcomError).reason._tag, "ArgumentError")
      }))
  })
})

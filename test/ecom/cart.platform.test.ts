/**
 * The current cart against the local platform through sitefx: a visitor's cart survives their sign-in
 * (the member's current cart holds what the visitor added, in either generation), a refusal is an
 * EcomError with the platform's code, and sitefx refuses bad arguments before sending anything.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Products from "../../src/catalog/Products.ts"
import { Cart, EcomCodes, EcomError, STORES_APP_ID } from "../../src/ecom/index.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { Session } from "../../src/session/Session.ts"
import { asAdmin } from "../data/support.ts"
import { withSite } from "../support/platform.ts"
import { unique } from "../support/store.ts"
import { layerWithCore } from "../../src/server/LocalPlatform.ts"

const refused = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
  Effect.map(Effect.flip(effect), (e) => {
    assert.instanceOf(e, EcomError)
    return e as EcomError
  })

const newProduct = (price: number) => Effect.map(asAdmin(Products.create({ name: unique("Signed"), priceData: { price } })), (p) => p.id!)

describe("Cart on the local platform", () => {
  it.layer(layerWithCore({}), { excludeTestServices: true })((it) => {
    it.effect("a visitor's cart is the member's after they sign in from that visitor session", () =>
      Effect.gen(function*() {
        const member = (yield* LocalPlatform).demoMember!
        const hat = yield* newProduct(30)
        const scarf = yield* newProduct(25)
        // the member had a cart of their own already: the visitor's lines join it
        const own = yield* withSite(Effect.gen(function*() {
          const session = yield* Session
          const result = yield* session.login({ email: member.email, password: member.password })
          if (result.loginState !== "SUCCESS") return yield* Effect.die(result.loginState)
          yield* session.completeDirectLogin(result.data.sessionToken)
          return yield* Cart.add([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: scarf } }])
        }))
        assert.strictEqual(own.buyerInfo?.memberId !== undefined, true)

        const after = yield* withSite(Effect.gen(function*() {
          const session = yield* Session
          const visitorCart = yield* Cart.add([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: hat }, quantity: 2 }])
          assert.isString(visitorCart.buyerInfo?.visitorId)
          const result = yield* session.login({ email: member.email, password: member.password })
          if (result.loginState !== "SUCCESS") return yield* Effect.die(result.loginState)
          yield* session.completeDirectLogin(result.data.sessionToken)
          assert.isTrue(yield* session.loggedIn)
          return { v1: yield* Cart.get(), v2: yield* Cart.get("V2") }
        }))
        assert.strictEqual(after.v1.buyerInfo?.memberId, own.buyerInfo?.memberId)
        assert.deepStrictEqual(
          after.v1.lineItems!.map((l) => [l.catalogReference?.catalogItemId, l.quantity]),
          [[scarf, 1], [hat, 2]]
        )
        assert.strictEqual(after.v2.id, own.id)
        assert.strictEqual(after.v2.lineItems!.length, 2)
        // a new visitor has a cart of their own, empty
        const stranger = yield* withSite(refused(Cart.get()))
        assert.strictEqual(stranger.code, EcomCodes.cart.ownedCartNotFound)
        yield* withSite(Effect.gen(function*() {
          const session = yield* Session
          const result = yield* session.login({ email: member.email, password: member.password })
          if (result.loginState !== "SUCCESS") return yield* Effect.die(result.loginState)
          yield* session.completeDirectLogin(result.data.sessionToken)
          yield* Cart.deleteCurrent()
        }))
      }))

    it.effect("refusals are EcomErrors with the platform's codes; bad arguments are refused before any request", () =>
      withSite(Effect.gen(function*() {
        const missing = yield* refused(Cart.add([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: "no-such-product" } }]))
        assert.strictEqual(missing.code, EcomCodes.cart.itemNotFoundInCatalog)
        assert.strictEqual(missing.status, 404)
        const noCart = yield* refused(Cart.estimate("V2"))
        assert.strictEqual(noCart.code, EcomCodes.cart.ownedCartNotFound)
        const zero = yield* refused(Cart.add([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: "x" }, quantity: 0 }]))
        assert.strictEqual(zero.code, EcomCodes.invalidArgument)
        assert.strictEqual(zero.field, "lineItems[0].quantity")
        const none = yield* refused(Cart.removeLineItems([]))
        assert.strictEqual(none.code, EcomCodes.invalidArgument)
      })))
  })
})

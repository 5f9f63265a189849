/**
 * Abandoned carts from the shoppers' current carts: a cart with a buyer email (a member's, or the one a
 * checkout records for a visitor) that is left unchanged for an hour by the platform's clock and never
 * ordered is an abandoned cart the next time abandoned carts are read, with CartAbandonedEvent; an order
 * placed for it later makes it RECOVERED, with CartRecoveredEvent. A cart without an email, an empty one
 * and one ordered in time are never abandoned.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as AbandonedCarts from "../../../src/catalog/AbandonedCarts.ts"
import { CartEventTypes } from "../../../src/catalog/protocol.ts"
import { Cart, STORES_APP_ID } from "../../../src/ecom/index.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { ABANDONED_AFTER_SECONDS, CartStore } from "../../../src/server/ecom/carts/CartStore.ts"
import { OrderStore } from "../../../src/server/ecom/orders/index.ts"
import { ServerClock } from "../../../src/server/platform/ServerClock.ts"
import { SiteEvents } from "../../../src/server/store/SiteEvents.ts"
import { asAdmin } from "../../data/support.ts"
import { onPlatform, withSite } from "../../support/platform.ts"
import { asMember, newProduct } from "../../support/store.ts"

const admin = { kind: "admin", keyId: "test-key", session: undefined } as const

/** The types and entity ids of the events logged after `from`. */
const eventsAfter = (from: number) =>
  Effect.gen(function*() {
    const log = yield* SiteEvents
    return (log.after(from) ?? []).map((e) => ({ type: e.type, json: e.json }))
  })

const line = (catalogItemId: string, quantity = 1) => ({ catalogReference: { appId: STORES_APP_ID, catalogItemId }, quantity })

const abandonedAmong = (ids: ReadonlyArray<string>) => Effect.map(asAdmin(AbandonedCarts.query().in("id", [...ids]).find), (page) => page.items)

describe("abandoned carts from the current carts", () => {
  it.live("moving the clock past the delay abandons carts with a buyer email; a later order recovers one", () =>
    onPlatform({}, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const member = platform.demoMember!
      const clock = yield* ServerClock
      const carts = yield* CartStore
      const orders = yield* OrderStore
      const log = yield* SiteEvents
      const hat = yield* newProduct()

      const memberCart = yield* asMember(Cart.add([line(hat, 2)]))
      const visitorCart = yield* withSite(Cart.add([line(hat)]))
      const silentCart = yield* withSite(Cart.add([line(hat)]))
      const orderedCart = yield* withSite(Cart.add([line(hat)]))
      const emptiedCart = yield* withSite(Effect.flatMap(Cart.add([line(hat)]), (c) => Cart.removeLineItems([c.lineItems![0]!.id!])))
      assert.strictEqual(emptiedCart.lineItems?.length, 0)
      const ids = [memberCart.id!, visitorCart.id!, silentCart.id!, orderedCart.id!, emptiedCart.id!]
      carts.setBuyerEmail(visitorCart.id!, "visitor@example.com")
      carts.setBuyerEmail(emptiedCart.id!, "emptied@example.com")
      carts.setBuyerEmail(orderedCart.id!, "ordered@example.com")
      // ordered in time: never abandoned
      const early = orders.placeOrder({ buyerInfo: { email: "ordered@example.com" }, lineItems: [{ productName: "Hat", catalogItemId: hat, price: 12, quantity: 1 }] }, admin)
      assert.isFalse(carts.completed(orderedCart.id!, early.id!, admin))

      const from = log.lastId()
      // a minute short of the delay: nothing is abandoned yet
      clock.setSkewSeconds(ABANDONED_AFTER_SECONDS - 60)
      assert.deepStrictEqual(yield* abandonedAmong(ids), [])

      clock.setSkewSeconds(ABANDONED_AFTER_SECONDS + 60)
      const found = yield* abandonedAmong(ids)
      assert.deepStrictEqual(found.map((c) => c.id).sort(), [memberCart.id!, visitorCart.id!].sort())
      const mine = found.find((c) => c.id === memberCart.id)!
      assert.strictEqual(mine.status, "ABANDONED")
      assert.strictEqual(mine.buyerInfo?.email, member.email)
      assert.strictEqual(mine.buyerInfo?.identityType, "MEMBER")
      assert.strictEqual(mine.total, "$24.00")
      assert.strictEqual(mine.abandonTime, new Date(Date.parse(memberCart.updatedDate!) + ABANDONED_AFTER_SECONDS * 1000).toISOString())
      const theirs = found.find((c) => c.id === visitorCart.id)!
      assert.strictEqual(theirs.buyerInfo?.email, "visitor@example.com")
      assert.strictEqual(theirs.buyerInfo?.identityType, "VISITOR")

      // each abandoned once, with its event
      assert.deepStrictEqual((yield* abandonedAmong(ids)).length, 2)
      const abandonedEvents = (yield* eventsAfter(from)).filter((e) => e.type === CartEventTypes.abandoned)
      assert.strictEqual(abandonedEvents.length, 2)
      assert.include(abandonedEvents.map((e) => e.json).join("\n"), memberCart.id!)

      // the shopper comes back and orders: the abandoned cart is recovered
      const later = log.lastId()
      const order = orders.placeOrder({ buyerInfo: { email: "visitor@example.com" }, lineItems: [{ productName: "Hat", catalogItemId: hat, price: 12, quantity: 1 }] }, admin)
      assert.isTrue(carts.completed(visitorCart.id!, order.id!, admin))
      const recovered = yield* asAdmin(AbandonedCarts.get(visitorCart.id!))
      assert.strictEqual(recovered.status, "RECOVERED")
      const types = (yield* eventsAfter(later)).map((e) => e.type)
      assert.include(types, CartEventTypes.recovered)
      // once: a second order for the same cart recovers nothing more
      assert.isFalse(carts.completed(visitorCart.id!, order.id!, admin))
      assert.strictEqual((yield* asAdmin(AbandonedCarts.get(memberCart.id!))).status, "ABANDONED")
      clock.setSkewSeconds(0)
    })))

  it.live("a buyer email for a cart that does not exist is refused", () =>
    onPlatform({}, Effect.gen(function*() {
      const carts = yield* CartStore
      const refused = yield* Effect.flip(Effect.try({ try: () => carts.setBuyerEmail("no-such-cart", "a@example.com"), catch: (e) => e }))
      assert.strictEqual((refused as { readonly status?: number }).status, 404)
    })))
})

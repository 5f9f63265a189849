/**
 * Abandoned carts from the shoppers' current carts: a cart with a buyer email (a member's, or the one a
 * checkout records for a visitor) that is left unchanged for an hour by the platform's clock and never
 * ordered becomes an abandoned cart, with CartAbandonedEvent, by the platform itself (when the clock's
 * skew moves, and on a schedule as time passes) or at the latest when abandoned carts are read; an order
 * placed for it later makes it RECOVERED, with CartRecoveredEvent. A cart without an email, an empty one
 * and one ordered in time are never abandoned, and none is abandoned twice.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as AbandonedCarts from "../../../src/catalog/AbandonedCarts.ts"
import { CartEventTypes } from "../../../src/catalog/protocol.ts"
import { Cart, STORES_APP_ID } from "../../../src/ecom/index.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { ABANDONED_AFTER_SECONDS, CartStore } from "../../../src/server/ecom/carts/CartStore.ts"
import { OrderStore } from "../../../src/server/ecom/orders/index.ts"
import { AbandonedCartStore } from "../../../src/server/catalog/carts/AbandonedCartStore.ts"
import { Database } from "../../../src/server/platform/Database.ts"
import { ServerClock } from "../../../src/server/platform/ServerClock.ts"
import { SiteEvents } from "../../../src/server/store/SiteEvents.ts"
import { asAdmin } from "../../data/support.ts"
import { logMark, loggedSince } from "../../support/eventLog.ts"
import { dev, onPlatform, withSite } from "../../support/platform.ts"
import { asMember, newProduct } from "../../support/store.ts"

const admin = { kind: "admin", keyId: "test-key", session: undefined } as const

/** The types and entity ids of the events logged after `from`. */
const eventsAfter = (from: number) =>
  Effect.gen(function*() {
    const log = yield* SiteEvents
    return (log.after(from) ?? []).map((e) => ({ type: e.type, json: e.json }))
  })

const line = (catalogItemId: string, quantity = 1) => ({ catalogReference: { appId: STORES_APP_ID, catalogItemId }, quantity })

/** The CartAbandonedEvents logged after `mark`: their cart ids and checkout links. */
const abandonedSince = (mark: number) =>
  Effect.map(loggedSince(mark), (events) =>
    events.filter((e) => e.type === CartEventTypes.abandoned).map((e) => ({ cartId: String(e.payload.cartId), checkoutUrl: String(e.payload.checkoutUrl) })))

/** Moves the platform's clock through its dev endpoint, as a test or a script outside the process does. */
const skew = (skewSeconds: number) => dev("/clock", { body: { skewSeconds } })

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
      yield* clock.setSkewSeconds(ABANDONED_AFTER_SECONDS - 60)
      assert.deepStrictEqual(yield* abandonedAmong(ids), [])

      yield* clock.setSkewSeconds(ABANDONED_AFTER_SECONDS + 60)
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
      yield* clock.setSkewSeconds(0)
    })))

  it.live("a buyer email for a cart that does not exist is refused", () =>
    onPlatform({}, Effect.gen(function*() {
      const carts = yield* CartStore
      const refused = yield* Effect.flip(Effect.try({ try: () => carts.setBuyerEmail("no-such-cart", "a@example.com"), catch: (e) => e }))
      assert.strictEqual((refused as { readonly status?: number }).status, 404)
    })))

  it.live("the platform's clock moves carts by itself: a skew past the delay abandons them with no read of the abandoned carts", () =>
    onPlatform({}, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const carts = yield* CartStore
      const stored = yield* AbandonedCartStore
      const hat = yield* newProduct()
      const memberCart = yield* asMember(Cart.add([line(hat, 2)]))
      const visitorCart = yield* withSite(Cart.add([line(hat)]))
      carts.setBuyerEmail(visitorCart.id!, "visitor@example.com")
      const linkOf = (id: string) => `${platform.url}/checkout?cartId=${encodeURIComponent(id)}`

      const mark = yield* logMark
      yield* skew(ABANDONED_AFTER_SECONDS - 60)
      assert.deepStrictEqual(yield* abandonedSince(mark), [])
      // the answer leaves once the carts the new time made due are abandoned, their events logged
      yield* skew(ABANDONED_AFTER_SECONDS + 60)
      const first = yield* abandonedSince(mark)
      assert.deepStrictEqual(first.map((e) => e.cartId).sort(), [memberCart.id!, visitorCart.id!].sort())
      // the links are on the origin the shoppers reached the platform at
      for (const e of first) assert.strictEqual(e.checkoutUrl, linkOf(e.cartId))
      assert.strictEqual(stored.get(visitorCart.id!)?.cart.status, "ABANDONED")

      // a cart changed within the hour is not abandoned, and those abandoned are not abandoned again
      const freshCart = yield* withSite(Cart.add([line(hat)]))
      carts.setBuyerEmail(freshCart.id!, "fresh@example.com")
      const later = yield* logMark
      yield* skew(ABANDONED_AFTER_SECONDS + 60 + 30 * 60)
      assert.deepStrictEqual(yield* abandonedSince(later), [])
      assert.isUndefined(stored.get(freshCart.id!))
      // its own hour passed: abandoned, once however often the clock moves or the carts are read
      yield* skew(2 * ABANDONED_AFTER_SECONDS + 120)
      yield* skew(2 * ABANDONED_AFTER_SECONDS + 120)
      yield* skew(3 * ABANDONED_AFTER_SECONDS)
      const all = [memberCart.id!, visitorCart.id!, freshCart.id!]
      assert.deepStrictEqual((yield* abandonedAmong(all)).map((c) => c.id).sort(), [...all].sort())
      assert.deepStrictEqual(yield* abandonedSince(later), [{ cartId: freshCart.id!, checkoutUrl: linkOf(freshCart.id!) }])
      assert.strictEqual((yield* abandonedSince(mark)).length, 3)
    })))

  it.live("as time passes, the sweep abandons a due cart without a clock change or a read, once", () =>
    onPlatform({ abandonSweepInterval: "20 millis" }, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const db = yield* Database
      const carts = yield* CartStore
      const hat = yield* newProduct()
      const visitorCart = yield* withSite(Cart.add([line(hat)]))
      carts.setBuyerEmail(visitorCart.id!, "visitor@example.com")
      const mark = yield* logMark
      // left for two hours: as the cart would be after two hours of the wall clock
      const twoHoursAgo = new Date(Date.now() - 2 * ABANDONED_AFTER_SECONDS * 1000).toISOString()
      db.run("UPDATE ecom_carts SET updated_date = ? WHERE id = ?", twoHoursAgo, visitorCart.id!)
      const found = yield* abandonedSince(mark).pipe(
        Effect.flatMap((events) => events.length > 0 ? Effect.succeed(events) : Effect.fail("not yet")),
        Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 250 })
      )
      assert.deepStrictEqual(found, [{ cartId: visitorCart.id!, checkoutUrl: `${platform.url}/checkout?cartId=${visitorCart.id!}` }])
      // many sweeps later: still that one
      yield* Effect.sleep("200 millis")
      assert.strictEqual((yield* abandonedSince(mark)).length, 1)
    })))

  it.live("a due cart whose shopper's origin is unknown waits for a read, whose origin its link takes", () =>
    onPlatform({}, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const carts = yield* CartStore
      const hat = yield* newProduct()
      // made in-process: no request, no origin
      const made = yield* carts.add({ kind: "visitor", id: "in-process-shopper" }, [{ reference: line(hat).catalogReference, quantity: 1 }], admin, "add", undefined)
      carts.setBuyerEmail(made.cart.id, "quiet@example.com")
      const mark = yield* logMark
      yield* skew(ABANDONED_AFTER_SECONDS + 60)
      assert.deepStrictEqual(yield* abandonedSince(mark), [])
      const found = yield* abandonedAmong([made.cart.id])
      assert.strictEqual(found.length, 1)
      assert.deepStrictEqual(yield* abandonedSince(mark), [{ cartId: made.cart.id, checkoutUrl: `${platform.url}/checkout?cartId=${made.cart.id}` }])
    })))

  it.live("after a reset and a new seed, moving the clock abandons the new site's carts", () =>
    onPlatform({}, Effect.gen(function*() {
      yield* skew(ABANDONED_AFTER_SECONDS + 60)
      yield* dev("/reset", { body: {} })
      yield* dev("/seed", { body: { seed: "demo" } })
      assert.strictEqual((yield* dev("/clock")).skewSeconds, 0)
      const carts = yield* CartStore
      const hat = yield* newProduct()
      const visitorCart = yield* withSite(Cart.add([line(hat)]))
      carts.setBuyerEmail(visitorCart.id!, "visitor@example.com")
      const mark = yield* logMark
      yield* skew(ABANDONED_AFTER_SECONDS + 60)
      assert.deepStrictEqual((yield* abandonedSince(mark)).map((e) => e.cartId), [visitorCart.id!])
    })))
})

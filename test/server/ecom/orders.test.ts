/**
 * The local platform's orders: `placeOrder` numbers orders one after another and logs their events with
 * the write (and none when the write rolls back inside a checkout's transaction); the admin calls change
 * an order and log what changed; the events reach a webhook subscription; only an API key reads or
 * changes orders, and every refusal names its rule.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Orders from "../../../src/ecom/Orders.ts"
import { OrderCodes } from "../../../src/ecom/orderProtocol.ts"
import { decodeEnvelopeText } from "../../../src/events/Event.ts"
import { decodedSince } from "../../support/eventLog.ts"
import { EcomEventTypes, EventPaths } from "../../../src/events/protocol.ts"
import { Database } from "../../../src/server/platform/Database.ts"
import { DEMO_ORDER_IDS, OrderStore } from "../../../src/server/ecom/orders/index.ts"
import { SiteEvents } from "../../../src/server/store/SiteEvents.ts"
import { asAdmin, asVisitor } from "../../data/support.ts"
import { onPlatform } from "../../support/platform.ts"
import { asMember, raw } from "../../support/store.ts"

const admin = { kind: "admin", keyId: "test-key", session: undefined } as const
const newOrder = (email: string) => ({
  buyerInfo: { visitorId: "5eed0515-0000-4000-8000-00000000aaaa", email },
  lineItems: [{ productName: "Test Hat", catalogItemId: "hat-1", price: 20, quantity: 2 }],
  shipping: 5
})

const eventsAfter = decodedSince

describe("orders on the local platform", () => {
  it.live("placeOrder numbers orders one after another and logs created, approved and payment events with the write", () =>
    onPlatform({}, Effect.gen(function*() {
      const orders = yield* OrderStore
      const log = yield* SiteEvents
      const db = yield* Database
      const from = log.lastId()
      const first = orders.placeOrder(newOrder("a@example.com"), admin)
      const second = orders.placeOrder({ ...newOrder("b@example.com"), paymentStatus: "PAID" }, admin)
      // the demo seed holds 10001..10008
      assert.deepStrictEqual([first.number, second.number], ["10009", "10010"])
      assert.strictEqual(first.priceSummary?.total?.amount, "45")
      assert.strictEqual(first.priceSummary?.total?.formattedAmount, "$45.00")
      assert.strictEqual(second.balanceSummary?.paid?.amount, "45")

      const events = yield* eventsAfter(from)
      assert.deepStrictEqual(events.map((e) => [e.type, e._tag === "Domain" ? e.entityId : undefined]), [
        [EcomEventTypes.orderCreated, first.id],
        [EcomEventTypes.orderApproved, first.id],
        [EcomEventTypes.orderCreated, second.id],
        [EcomEventTypes.orderApproved, second.id],
        [EcomEventTypes.orderPaymentStatusUpdated, second.id]
      ])
      const created = events[0]!
      assert.isTrue(created._tag === "Domain" && created.entityFqdn === "wix.ecom.v1.order" && created.change._tag === "Created")

      // inside a checkout's transaction that fails afterwards: no order, no number taken, no event
      const before = log.lastId()
      assert.throws(() =>
        db.transaction(() => {
          orders.placeOrder(newOrder("c@example.com"), admin)
          throw new Error("stock ran out")
        })
      )
      assert.strictEqual(log.lastId(), before)
      const third = orders.placeOrder(newOrder("c@example.com"), admin)
      assert.strictEqual(third.number, "10011")
    })))

  it.live("cancel, mark as paid and fulfil change the order and log what changed; refusals name their rule", () =>
    onPlatform({}, Effect.gen(function*() {
      const log = yield* SiteEvents
      const from = log.lastId()
      const paid = yield* asAdmin(Orders.markAsPaid(DEMO_ORDER_IDS.memberUnpaid))
      assert.strictEqual(paid.paymentStatus, "PAID")
      assert.strictEqual(paid.balanceSummary?.balance?.amount, "0")
      const again = yield* Effect.flip(asAdmin(Orders.markAsPaid(DEMO_ORDER_IDS.memberUnpaid)))
      assert.strictEqual(again._tag === "EcomError" ? again.code : undefined, OrderCodes.alreadyPaid)
      assert.strictEqual(again._tag === "EcomError" ? again.rule?.id : undefined, "ecom.order.paid-once")

      const half = yield* asAdmin(Orders.fulfil(DEMO_ORDER_IDS.twoLines, { lineItems: [{ id: "5eed11e0-0000-4000-8000-000000000009", quantity: 1 }] }))
      assert.strictEqual(half.fulfillments.length, 1)
      assert.strictEqual((yield* asAdmin(Orders.get(DEMO_ORDER_IDS.twoLines))).fulfillmentStatus, "PARTIALLY_FULFILLED")
      const tooMany = yield* Effect.flip(asAdmin(Orders.fulfil(DEMO_ORDER_IDS.twoLines, { lineItems: [{ id: "5eed11e0-0000-4000-8000-000000000009", quantity: 2 }] })))
      assert.strictEqual(tooMany._tag === "EcomError" ? tooMany.code : undefined, OrderCodes.nothingToFulfill)
      const rest = yield* asAdmin(Orders.fulfil(DEMO_ORDER_IDS.twoLines, { trackingInfo: { trackingNumber: "1Z1" } }))
      assert.deepStrictEqual(rest.fulfillments[1]?.lineItems, [{ id: "5eed11e0-0000-4000-8000-000000000008", quantity: 1 }, { id: "5eed11e0-0000-4000-8000-000000000009", quantity: 1 }])
      assert.strictEqual((yield* asAdmin(Orders.get(DEMO_ORDER_IDS.twoLines))).fulfillmentStatus, "FULFILLED")

      const canceled = yield* asAdmin(Orders.cancel(DEMO_ORDER_IDS.unpaid, { restockAllItems: true }))
      assert.strictEqual(canceled.status, "CANCELED")
      const twice = yield* Effect.flip(asAdmin(Orders.cancel(DEMO_ORDER_IDS.unpaid)))
      assert.strictEqual(twice._tag === "EcomError" ? twice.code : undefined, OrderCodes.alreadyCanceled)
      const pending = yield* Effect.flip(asAdmin(Orders.cancel(DEMO_ORDER_IDS.pending)))
      assert.strictEqual(pending._tag === "EcomError" ? pending.code : undefined, OrderCodes.isPending)
      const missing = yield* Effect.flip(asAdmin(Orders.get("no-such-order")))
      assert.strictEqual(missing._tag === "EcomError" ? missing.code : undefined, OrderCodes.notFound)
      assert.strictEqual(missing._tag === "EcomError" ? missing.status : undefined, 404)

      const types = (yield* eventsAfter(from)).map((e) => e.type)
      assert.deepStrictEqual(types, [
        EcomEventTypes.orderUpdated,
        EcomEventTypes.orderPaymentStatusUpdated,
        EcomEventTypes.orderUpdated,
        EcomEventTypes.orderUpdated,
        EcomEventTypes.orderFulfilled,
        EcomEventTypes.orderUpdated,
        EcomEventTypes.orderCanceled
      ])
    })))

  it.live("search: newest first, pending orders only when asked for, cursor pages, and refusals of bad input", () =>
    onPlatform({}, Effect.gen(function*() {
      const all = yield* asAdmin(Orders.stream().pipe(Stream.runCollect))
      assert.deepStrictEqual(all.map((o) => o.number), ["10008", "10007", "10005", "10004", "10003", "10002", "10001"])
      const pending = yield* asAdmin(Orders.search().eq("status", "PENDING").find)
      assert.deepStrictEqual(pending.orders.map((o) => o.number), ["10006"])
      const pages = yield* asAdmin(Orders.search().ascending("number").limit(3).pages.pipe(Stream.runCollect))
      assert.deepStrictEqual(pages.map((p) => p.orders.map((o) => o.number)), [["10001", "10002", "10003"], ["10004", "10005", "10007"], ["10008"]])
      const member = yield* asAdmin(Orders.search().eq("buyerInfo.email", "demo@sitefx.dev").find)
      assert.strictEqual(member.orders.length, 2)

      const badCursor = yield* raw("POST", "/ecom/v1/orders/search", { search: { cursorPaging: { cursor: "nope" } } })
      assert.strictEqual(badCursor.status, 400)
      assert.strictEqual(badCursor.body.details.applicationError.code, OrderCodes.invalidCursor)
      assert.strictEqual(badCursor.body.details.rule.id, "ecom.orders.cursor")
      const badLimit = yield* raw("POST", "/ecom/v1/orders/search", { search: { cursorPaging: { limit: 1000 } } })
      assert.strictEqual(badLimit.status, 400)
      assert.strictEqual(badLimit.body.details.rule.kind, "bound")
      const badFilter = yield* raw("POST", "/ecom/v1/orders/search", { search: { filter: { $nope: 1 } } })
      assert.strictEqual(badFilter.status, 400)
      assert.isDefined(badFilter.body.details.rule)
      const limit = yield* Effect.flip(asAdmin(Orders.search().limit(0).find))
      assert.strictEqual(limit._tag === "EcomError" ? limit.code : undefined, "INVALID_ARGUMENT")
    })))

  it.live("only an API key reads or changes orders: visitors and members get 403, nobody 401", () =>
    onPlatform({}, Effect.gen(function*() {
      const byVisitor = yield* Effect.flip(asVisitor(Orders.get(DEMO_ORDER_IDS.memberPaid)))
      assert.strictEqual(byVisitor._tag === "EcomError" ? byVisitor.status : undefined, 403)
      assert.strictEqual(byVisitor._tag === "EcomError" ? byVisitor.rule?.kind : undefined, "permission")
      const byMember = yield* Effect.flip(asMember(Orders.search().find))
      assert.strictEqual(byMember._tag === "EcomError" ? byMember.status : undefined, 403)
      const nobody = yield* raw("GET", `/ecom/v1/orders/${DEMO_ORDER_IDS.memberPaid}`, undefined, "none")
      assert.strictEqual(nobody.status, 401)
      assert.isDefined(nobody.body.details.rule)
    })))

  it.live("the order events reach a webhook subscription, signed, and decode as typed events", () =>
    onPlatform({}, Effect.gen(function*() {
      const bodies: Array<string> = []
      const server = yield* Effect.acquireRelease(
        Effect.promise(() =>
          import("node:http").then((http) =>
            new Promise<import("node:http").Server>((resolve) => {
              const s = http.createServer((req, res) => {
                let body = ""
                req.on("data", (c) => (body += c))
                req.on("end", () => {
                  bodies.push(body)
                  res.writeHead(200).end()
                })
              })
              s.listen(0, "127.0.0.1", () => resolve(s))
            })
          )
        ),
        (s) => Effect.promise(() => new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()) }))
      )
      const url = `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}/hook`
      const subscribed = yield* raw("POST", EventPaths.webhooks, { url, eventTypes: [EcomEventTypes.orderCreated, EcomEventTypes.orderPaymentStatusUpdated] })
      assert.strictEqual(subscribed.status, 200, JSON.stringify(subscribed.body))
      const orders = yield* OrderStore
      const placed = orders.placeOrder({ ...newOrder("hook@example.com"), paymentStatus: "PAID" }, admin)
      for (let i = 0; i < 250 && bodies.length < 2; i++) yield* Effect.sleep("20 millis")
      assert.strictEqual(bodies.length, 2)
      const decoded = []
      for (const body of bodies) {
        const [, payload] = body.split(".")
        const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as { data: string }
        decoded.push(yield* decodeEnvelopeText(claims.data))
      }
      assert.deepStrictEqual(decoded.map((e) => e.type), [EcomEventTypes.orderCreated, EcomEventTypes.orderPaymentStatusUpdated])
      const created = decoded[0]!
      if (created.type !== EcomEventTypes.orderCreated || created.change._tag !== "Created") return assert.fail("a created order event")
      assert.strictEqual(created.change.entity.number, placed.number)
      assert.strictEqual(created.change.entity.buyerInfo?.email, "hook@example.com")
      const payment = decoded[1]!
      assert.isTrue(payment._tag === "Domain" && payment.change._tag === "Action" && payment.change.action === "payment_status_updated")
    })))
})

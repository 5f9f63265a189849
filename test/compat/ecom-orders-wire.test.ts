/**
 * sitefx's Orders must send what the platform's official `orders` and `orderFulfillments` modules send.
 * Both make the same calls against the local platform; every request is recorded (the official
 * client's through the global fetch, which also rewrites its fixed host; sitefx's through
 * `PlatformFetch`). Method, path, query parameters and JSON body must match (key order aside). A call
 * that changes an order runs on a freshly seeded platform on each side, so both meet the same order.
 */
import { assert, describe, it } from "@effect/vitest"
import { orderFulfillments, orders } from "@wix/ecom"
import * as Stream from "effect/Stream"
import * as Orders from "../../src/ecom/Orders.ts"
import { DEMO_ORDER_IDS } from "../../src/server/ecom/orders/index.ts"
import { wireOnLocalPlatform } from "../support/wire.ts"

const { compare, raw } = wireOnLocalPlatform({ orders, orderFulfillments })

/** Mark as paid exists at run time but is typed only in the package's internal typings. */
const markAsPaidOf = (module: unknown) =>
  (module as { paymentCollectionMarkOrderAsPaid: (id: string, options: object) => Promise<unknown> }).paymentCollectionMarkOrderAsPaid

/** The demo seed again, as it was: the orders a change touched are back as seeded. */
const reseed = async () => {
  assert.strictEqual((await raw("POST", "/_sitefx/reset")).status, 200)
  assert.strictEqual((await raw("POST", "/_sitefx/seed", { seed: "demo" })).status, 200)
}

describe("sitefx sends what the official orders client sends", () => {
  it("get, and searches with filter, sort and cursor paging; the pages of a stream", async () => {
    const sent = await compare("get", (o) => o.orders.getOrder(DEMO_ORDER_IDS.memberPaid), Orders.get(DEMO_ORDER_IDS.memberPaid))
    assert.deepStrictEqual(sent.map((r) => `${r.method} ${r.path}`), [`GET /ecom/v1/orders/${DEMO_ORDER_IDS.memberPaid}`])
    await compare("search, nothing set", (o) => o.orders.searchOrders({ filter: {}, cursorPaging: { limit: 100 } }), Orders.search().find)
    const since = new Date("2026-03-01T00:00:00Z")
    await compare(
      "filter, sort, limit",
      (o) =>
        o.orders.searchOrders({
          // the filter as it travels (the typings name the SDK's spellings of the fields)
          filter: { $and: [{ paymentStatus: "PAID" }, { createdDate: { $gte: since.toISOString() } }] } as never,
          sort: [{ fieldName: "number", order: "ASC" }],
          cursorPaging: { limit: 2 }
        }),
      Orders.search().eq("paymentStatus", "PAID").ge("createdDate", since).ascending("number").limit(2).find
    )
    // a stream of pages: the official client follows the cursors by hand
    await compare(
      "every page, three at a time",
      async (o) => {
        let page = await o.orders.searchOrders({ filter: {}, cursorPaging: { limit: 3 } })
        while (page.metadata?.hasNext === true) page = await o.orders.searchOrders({ cursorPaging: { cursor: page.metadata.cursors!.next!, limit: 3 } })
      },
      Stream.runDrain(Orders.search().limit(3).pages)
    )
  })

  it("cancel, mark as paid, and create a fulfillment", async () => {
    await compare("cancel", (o) => o.orders.cancelOrder(DEMO_ORDER_IDS.unpaid, {}), Orders.cancel(DEMO_ORDER_IDS.unpaid), reseed)
    await compare(
      "cancel, with its options",
      (o) => o.orders.cancelOrder(DEMO_ORDER_IDS.unpaid, { restockAllItems: true, sendOrderCanceledEmail: false, customMessage: "Sold out" }),
      Orders.cancel(DEMO_ORDER_IDS.unpaid, { restockAllItems: true, sendOrderCanceledEmail: false, customMessage: "Sold out" }),
      reseed
    )
    const paid = await compare(
      "mark as paid",
      (o) => markAsPaidOf(o.orders)(DEMO_ORDER_IDS.memberUnpaid, {}),
      Orders.markAsPaid(DEMO_ORDER_IDS.memberUnpaid),
      reseed
    )
    assert.deepStrictEqual(paid.map((r) => `${r.method} ${r.path}`), [`POST /ecom/v1/payments-collector/orders/${DEMO_ORDER_IDS.memberUnpaid}/mark-as-paid`])
    await compare(
      "fulfil everything left",
      (o) => o.orderFulfillments.createFulfillment(DEMO_ORDER_IDS.memberPaid, { lineItems: [], trackingInfo: { trackingNumber: "1Z999", shippingProvider: "ups" } }),
      Orders.fulfil(DEMO_ORDER_IDS.memberPaid, { lineItems: [], trackingInfo: { trackingNumber: "1Z999", shippingProvider: "ups" } }),
      reseed
    )
    await compare(
      "fulfil one line",
      (o) => o.orderFulfillments.createFulfillment(DEMO_ORDER_IDS.twoLines, { lineItems: [{ _id: "5eed11e0-0000-4000-8000-000000000009", quantity: 1 }] }),
      Orders.fulfil(DEMO_ORDER_IDS.twoLines, { lineItems: [{ id: "5eed11e0-0000-4000-8000-000000000009", quantity: 1 }] }),
      reseed
    )
    await compare("list fulfillments", (o) => o.orderFulfillments.listFulfillmentsForSingleOrder(DEMO_ORDER_IDS.paidFulfilled), Orders.fulfillments(DEMO_ORDER_IDS.paidFulfilled))
  })
})

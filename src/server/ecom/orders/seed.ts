/**
 * What the `demo` seed puts in the store's orders: eight orders with fixed ids and purchase times over
 * a few weeks (numbers 10001 to 10008), bought by visitors, contacts and the demo member; some paid,
 * some fulfilled, one pending, one canceled. Nothing is overwritten and no event is published, so
 * seeding again changes nothing.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemberStore } from "../../accounts/MemberStore.ts"
import { DEMO_MEMBER_EMAIL, Seeder } from "../../accounts/seed.ts"
import { OrderStore, type SeedOrder } from "./OrderStore.ts"

/** The seeded orders' ids, in the order they were placed. */
export const DEMO_ORDER_IDS = {
  paidFulfilled: "5eed0d0e-0000-4000-8000-000000000001",
  memberPaid: "5eed0d0e-0000-4000-8000-000000000002",
  unpaid: "5eed0d0e-0000-4000-8000-000000000003",
  canceled: "5eed0d0e-0000-4000-8000-000000000004",
  euro: "5eed0d0e-0000-4000-8000-000000000005",
  pending: "5eed0d0e-0000-4000-8000-000000000006",
  memberUnpaid: "5eed0d0e-0000-4000-8000-000000000007",
  twoLines: "5eed0d0e-0000-4000-8000-000000000008"
} as const

const line = (n: number, productName: string, price: number, quantity: number, extra: Partial<SeedOrder["lineItems"][number]> = {}) => ({
  id: `5eed11e0-0000-4000-8000-${String(n).padStart(12, "0")}`,
  productName,
  catalogItemId: `5eedca7a-0000-4000-8000-${String(n).padStart(12, "0")}`,
  price,
  quantity,
  ...extra
})

const demoOrders = (memberId: string | undefined): ReadonlyArray<SeedOrder> => {
  const member = { ...(memberId === undefined ? { visitorId: "5eed0515-0000-4000-8000-000000000001" } : { memberId }), email: DEMO_MEMBER_EMAIL }
  return [
    {
      id: DEMO_ORDER_IDS.paidFulfilled,
      purchasedDate: "2026-02-10T09:12:00.000Z",
      buyerInfo: { visitorId: "5eed0515-0000-4000-8000-000000000002", contactId: "5eedc0c0-0000-4000-8000-000000000001", email: "linus@example.com" },
      billingInfo: { contactDetails: { firstName: "Linus", lastName: "Pauling", phone: "+1 555 0100" }, address: { country: "US", city: "Portland", addressLine1: "1 Vitamin Way" } },
      lineItems: [line(1, "Linen Shirt", 38, 2, { sku: "LS-01" })],
      shipping: 5,
      paymentStatus: "PAID",
      fulfilled: true
    },
    {
      id: DEMO_ORDER_IDS.memberPaid,
      purchasedDate: "2026-02-18T14:30:00.000Z",
      buyerInfo: member,
      lineItems: [line(2, "Canvas Sneakers", 79.99, 1, { sku: "CS-42", options: { Size: "42" } })],
      shipping: 0,
      paymentStatus: "PAID"
    },
    {
      id: DEMO_ORDER_IDS.unpaid,
      purchasedDate: "2026-02-25T17:45:00.000Z",
      buyerInfo: { visitorId: "5eed0515-0000-4000-8000-000000000003", email: "shopper@example.com" },
      lineItems: [line(3, "Ceramic Mug", 12, 4, { discount: 4.8 })],
      shipping: 6.5
    },
    {
      id: DEMO_ORDER_IDS.canceled,
      purchasedDate: "2026-03-01T08:05:00.000Z",
      buyerInfo: { visitorId: "5eed0515-0000-4000-8000-000000000004", contactId: "5eedc0c0-0000-4000-8000-000000000002", email: "grace@example.com" },
      lineItems: [line(4, "Wool Scarf", 45, 1)],
      canceled: true
    },
    {
      id: DEMO_ORDER_IDS.euro,
      purchasedDate: "2026-03-04T11:20:00.000Z",
      currency: "EUR",
      buyerInfo: { visitorId: "5eed0515-0000-4000-8000-000000000005", email: "ada@example.com" },
      lineItems: [line(5, "Leather Belt", 55, 1, { tax: 10.45 })],
      shipping: 4.9,
      paymentStatus: "PAID"
    },
    {
      id: DEMO_ORDER_IDS.pending,
      purchasedDate: "2026-03-06T19:00:00.000Z",
      buyerInfo: { visitorId: "5eed0515-0000-4000-8000-000000000006", email: "alan@example.com" },
      lineItems: [line(6, "Desk Lamp", 64, 1)],
      status: "PENDING",
      paymentStatus: "PENDING"
    },
    {
      id: DEMO_ORDER_IDS.memberUnpaid,
      purchasedDate: "2026-03-09T10:10:00.000Z",
      buyerInfo: member,
      lineItems: [line(7, "Cotton Tote", 18, 3)],
      shipping: 5
    },
    {
      id: DEMO_ORDER_IDS.twoLines,
      purchasedDate: "2026-03-12T16:40:00.000Z",
      buyerInfo: { visitorId: "5eed0515-0000-4000-8000-000000000007", contactId: "5eedc0c0-0000-4000-8000-000000000003", email: "rosalind@example.com" },
      lineItems: [line(8, "Linen Shirt", 38, 1, { sku: "LS-01" }), line(9, "Straw Hat", 29.5, 2, { sku: "SH-02" })],
      shipping: 7,
      paymentStatus: "PAID"
    }
  ]
}

/** Registers the orders part of the seeds with the Seeder. */
export const ordersSeed: Layer.Layer<never, never, Seeder | OrderStore | MemberStore> = Layer.effectDiscard(
  Effect.gen(function*() {
    const seeder = yield* Seeder
    const orders = yield* OrderStore
    const members = yield* MemberStore
    seeder.extend((name) =>
      Effect.sync(() => {
        if (name === "demo") orders.seed(demoOrders(members.byEmail(DEMO_MEMBER_EMAIL)?.id))
      })
    )
  })
)

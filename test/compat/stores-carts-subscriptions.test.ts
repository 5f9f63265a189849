/**
 * The platform's official `abandonedCarts` and `subscriptionOptions` modules of `@wix/stores`, unchanged,
 * on `@wix/sdk` with an API key, against the local platform (their fixed host rewritten to it for this
 * file). Every test asserts what the official functions return, and reads writes back through sitefx's
 * own client where that proves they landed. A shopper's current cart left past the platform's delay
 * shows among the abandoned carts.
 */
import { assert, describe, it } from "@effect/vitest"
import { abandonedCarts, subscriptionOptions } from "@wix/stores"
import * as SubscriptionOptions from "../../src/catalog/SubscriptionOptions.ts"
import { Cart, STORES_APP_ID } from "../../src/ecom/index.ts"
import { DEMO_CART_IDS } from "../../src/server/catalog/carts/index.ts"
import { ABANDONED_AFTER_SECONDS } from "../../src/server/ecom/carts/CartStore.ts"
import { dev } from "../support/platform.ts"
import { asMember, cartsOf, newProduct, officialStoreOnLocalPlatform, rejection, unique } from "../support/store.ts"

const { run, called, official, sitefx, visitor } = officialStoreOnLocalPlatform({ abandonedCarts, subscriptionOptions })
const officialCarts = () => cartsOf(official())

describe("official @wix/stores abandonedCarts against the local platform", () => {
  it("getAbandonedCart: the seeded cart with _id, times as Dates and the total as text", async () => {
    const carts = officialCarts()
    const cart = await carts.getAbandonedCart(DEMO_CART_IDS.member)
    assert.strictEqual(cart._id, DEMO_CART_IDS.member)
    assert.strictEqual(cart.status, "ABANDONED")
    assert.instanceOf(cart.abandonTime, Date)
    assert.strictEqual(cart.abandonTime!.toISOString(), "2026-03-02T10:15:00.000Z")
    assert.strictEqual(cart.total, "$97.17")
    assert.strictEqual(cart.buyerInfo?.email, "demo@sitefx.dev")
    assert.strictEqual(cart.buyerInfo?.identityType, "MEMBER")
    assert.isString(cart.buyerInfo?._id)
    assert.instanceOf(cart.activities?.[0]?.timestamp, Date)
    assert.strictEqual(cart.activities?.[0]?.activityType, "SCHEDULED")
    assert.include(called, `GET /v1/abandonedCarts/${DEMO_CART_IDS.member}`)

    const missing = await rejection(carts.getAbandonedCart("no-such-cart"))
    assert.strictEqual(missing.details?.applicationError?.code, "ABANDONED_CART_NOT_FOUND")
  })

  it("queryAbandonedCarts: filter and sort as JSON text, paging, totalResults", async () => {
    const carts = officialCarts()
    const email = `${unique("official")}@example.com`
    const ids: Array<string> = []
    for (let i = 0; i < 5; i++) {
      const made = await run(dev<{ abandonedCart: { id: string } }>("/store/abandoned-carts", {
        body: { buyerInfo: { identityType: "VISITOR", email }, abandonTime: new Date(Date.UTC(2026, 5, 1 + i)).toISOString(), total: i }
      }))
      ids.push(made.abandonedCart.id)
    }
    await run(dev(`/store/abandoned-carts/${ids[1]}/recover`, { body: {} }))
    const filter = JSON.stringify({ "buyerInfo.email": email })

    const all = await carts.queryAbandonedCarts({ query: { filter } })
    assert.strictEqual(all.totalResults, 5)
    assert.deepStrictEqual(all.abandonedCarts?.map((c) => c._id), ids)
    assert.instanceOf(all.abandonedCarts?.[0]?.abandonTime, Date)

    const page = await carts.queryAbandonedCarts({
      query: { filter, sort: JSON.stringify([{ abandonTime: "desc" }]), paging: { limit: 2, offset: 1 } }
    })
    assert.strictEqual(page.totalResults, 5)
    assert.deepStrictEqual(page.abandonedCarts?.map((c) => c._id), [ids[3], ids[2]])

    const recovered = await carts.queryAbandonedCarts({ query: { filter: JSON.stringify({ "buyerInfo.email": email, status: "RECOVERED" }) } })
    assert.deepStrictEqual(recovered.abandonedCarts?.map((c) => [c._id, c.status]), [[ids[1], "RECOVERED"]])

    const everything = await carts.queryAbandonedCarts()
    assert.isAtLeast(everything.totalResults ?? 0, 9)

    // the official client names the argument the field came from
    const bad = await rejection(carts.queryAbandonedCarts({ query: { filter: "{oops" } }))
    assert.strictEqual(bad.details?.validationError?.fieldViolations?.[0]?.field, "options.query.filter")
    const tooMany = await rejection(carts.queryAbandonedCarts({ query: { paging: { limit: 500 } } }))
    assert.strictEqual(tooMany.details?.validationError?.fieldViolations?.[0]?.field, "options.query.paging.limit")
    assert.include(called, "POST /v1/abandonedCarts/query")
  })

  it("queryAbandonedCarts: a member's current cart left past the platform's delay is one of them", async () => {
    const carts = officialCarts()
    const hat = await run(newProduct())
    const cart = await run(asMember(Cart.add([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: hat }, quantity: 3 }])))
    const filter = JSON.stringify({ id: cart.id })
    assert.strictEqual((await carts.queryAbandonedCarts({ query: { filter } })).totalResults, 0)
    // the platform's clock moves past the delay: the next read finds the cart abandoned
    await run(dev("/clock", { body: { skewSeconds: ABANDONED_AFTER_SECONDS + 60 } }))
    try {
      const found = await carts.queryAbandonedCarts({ query: { filter } })
      assert.strictEqual(found.totalResults, 1)
      const abandoned = found.abandonedCarts![0]!
      assert.strictEqual(abandoned._id, cart.id)
      assert.strictEqual(abandoned.status, "ABANDONED")
      assert.strictEqual(abandoned.buyerInfo?.email, "demo@sitefx.dev")
      assert.strictEqual(abandoned.buyerInfo?.identityType, "MEMBER")
      assert.strictEqual(abandoned.total, "$36.00")
      assert.instanceOf(abandoned.abandonTime, Date)
      assert.strictEqual((await carts.getAbandonedCart(cart.id!)).status, "ABANDONED")
    } finally {
      await run(dev("/clock", { body: { skewSeconds: 0 } }))
    }
  })
})

describe("official @wix/stores subscriptionOptions against the local platform", () => {
  const monthly = {
    title: "Monthly",
    description: "Six payments",
    subscriptionSettings: { frequency: "MONTH" as const, autoRenewal: false, billingCycles: 6 },
    discount: { type: "PERCENT" as const, value: 12.5 }
  }

  it("create, get, update, delete: options with _id, the discount as a number", async () => {
    const so = official().subscriptionOptions
    const created = await so.createSubscriptionOption(monthly)
    assert.isString(created._id)
    assert.deepStrictEqual({ ...created }, { _id: created._id, ...monthly })
    assert.include(called, "POST /stores/v1/subscription-options")

    const got = await so.getSubscriptionOption(created._id!)
    assert.deepStrictEqual({ ...got }, { ...created })
    assert.include(called, `GET /_api/subscription-options-reader-server/v1/subscription-options/${created._id}`)

    const updated = await so.updateSubscriptionOption(created._id!, { title: "Monthly plan", discount: { type: "AMOUNT", value: 3 } })
    assert.strictEqual(updated.title, "Monthly plan")
    assert.strictEqual(updated.description, "Six payments")
    assert.deepStrictEqual(updated.discount, { type: "AMOUNT", value: 3 })
    assert.deepStrictEqual(updated.subscriptionSettings, monthly.subscriptionSettings)
    // sitefx reads what the official client wrote
    assert.strictEqual((await visitor(SubscriptionOptions.get(created._id!))).title, "Monthly plan")

    await so.deleteSubscriptionOption(created._id!)
    const gone = await rejection(so.getSubscriptionOption(created._id!))
    assert.strictEqual(gone.details?.applicationError?.code, "SUBSCRIPTION_OPTION_NOT_FOUND")

    const invalid = await rejection(so.createSubscriptionOption({ ...monthly, title: "A title well over twenty characters" }))
    assert.strictEqual(invalid.details?.validationError?.fieldViolations?.[0]?.field, "subscriptionOption.title")
    const renewing = await so.createSubscriptionOption({ title: "Weekly", subscriptionSettings: { frequency: "WEEK", autoRenewal: true } })
    assert.deepStrictEqual(renewing.discount, { type: "UNDEFINED", value: 0 })
    assert.deepStrictEqual(renewing.subscriptionSettings, { frequency: "WEEK", autoRenewal: true })
  })

  it("bulk create, update and delete", async () => {
    const so = official().subscriptionOptions
    const { subscriptionOptions: made } = await so.bulkCreateSubscriptionOptions([
      monthly,
      { title: "Yearly", subscriptionSettings: { frequency: "YEAR", autoRenewal: true } }
    ])
    assert.deepStrictEqual(made!.map((o) => o.title), ["Monthly", "Yearly"])
    const [a, b] = made!.map((o) => o._id!) as [string, string]

    const { subscriptionOptions: changed } = await so.bulkUpdateSubscriptionOptions([{ _id: b, title: "Annual" }, { _id: a, description: "Half a year" }])
    assert.deepStrictEqual(changed!.map((o) => [o._id, o.title, o.description]), [[b, "Annual", undefined], [a, "Monthly", "Half a year"]])

    const unknown = await rejection(so.bulkDeleteSubscriptionOptions([a, "no-such-option"]))
    assert.strictEqual(unknown.details?.applicationError?.code, "SUBSCRIPTION_OPTION_NOT_FOUND")
    assert.strictEqual((await sitefx(SubscriptionOptions.get(a))).id, a)
    await so.bulkDeleteSubscriptionOptions([a, b])
    assert.include(called, "POST /stores/v1/subscription-options/deleteBulk")
    const gone = await rejection(so.getSubscriptionOption(b))
    assert.strictEqual(gone.details?.applicationError?.code, "SUBSCRIPTION_OPTION_NOT_FOUND")
  })

  it("assign to a product, options for a product (hidden ones on request), product ids paged, one-time purchases", async () => {
    const so = official().subscriptionOptions
    const product = await run(newProduct())
    const other = await run(newProduct())
    const { subscriptionOptions: made } = await so.bulkCreateSubscriptionOptions([
      monthly,
      { title: "Weekly", subscriptionSettings: { frequency: "WEEK", autoRenewal: true } }
    ])
    const [a, b] = made!.map((o) => o._id!) as [string, string]
    await so.assignSubscriptionOptionsToProduct(product, { assignedSubscriptionOptions: [{ _id: b, hidden: true }, { _id: a }] })
    await so.assignSubscriptionOptionsToProduct(other, { assignedSubscriptionOptions: [{ _id: a }] })
    assert.include(called, `POST /stores/v1/subscription-options/product/${product}/assign`)

    const shown = await so.getSubscriptionOptionsForProduct(product)
    assert.deepStrictEqual(shown.subscriptionOptions!.map((o) => [o._id, o.hidden, o.title]), [[a, false, "Monthly"]])
    assert.deepStrictEqual(shown.subscriptionOptions![0]?.discount, { type: "PERCENT", value: 12.5 })
    const all = await so.getSubscriptionOptionsForProduct(product, { includeHiddenSubscriptionOptions: true })
    assert.deepStrictEqual(all.subscriptionOptions!.map((o) => [o._id, o.hidden]), [[b, true], [a, false]])
    // sitefx sees the same assignment
    assert.deepStrictEqual((await visitor(SubscriptionOptions.forProduct(product))).map((o) => o.id), [a])

    const ids = await so.getProductIdsForSubscriptionOption(a, { paging: { limit: 1 } })
    assert.deepStrictEqual(ids.productIds, [[product, other].sort()[0]])
    assert.deepStrictEqual(ids.metadata, { items: 1, offset: 0 })
    assert.strictEqual(ids.totalResults, 2)
    const next = await so.getProductIdsForSubscriptionOption(a, { paging: { limit: 1, offset: 1 } })
    assert.deepStrictEqual(next.productIds, [[product, other].sort()[1]])
    const hidden = await so.getProductIdsForSubscriptionOption(b)
    assert.deepStrictEqual(hidden.productIds, [])
    assert.deepStrictEqual((await so.getProductIdsForSubscriptionOption(b, { includeHiddenProducts: true })).productIds, [product])

    assert.deepStrictEqual(await so.getOneTimePurchasesStatus(product), { allowed: true })
    await so.allowOneTimePurchases(product, false)
    assert.deepStrictEqual(await so.getOneTimePurchasesStatus(product), { allowed: false })
    assert.isFalse(await visitor(SubscriptionOptions.oneTimePurchasesAllowed(product)))
    assert.include(called, `PATCH /stores/v1/subscription-options/product/${product}/allowOneTimePurchase`)

    await so.assignSubscriptionOptionsToProduct(product, { assignedSubscriptionOptions: [] })
    assert.deepStrictEqual((await so.getSubscriptionOptionsForProduct(product, { includeHiddenSubscriptionOptions: true })).subscriptionOptions, [])
    const unknown = await rejection(so.assignSubscriptionOptionsToProduct(product, { assignedSubscriptionOptions: [{ _id: "no-such-option" }] }))
    assert.strictEqual(unknown.details?.applicationError?.code, "SUBSCRIPTION_OPTION_NOT_FOUND")
  })
})

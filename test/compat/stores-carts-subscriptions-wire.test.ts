/**
 * sitefx's AbandonedCarts and SubscriptionOptions must send what the platform's official
 * `abandonedCarts` and `subscriptionOptions` modules send. Both make the same calls against the local
 * platform; every request is recorded (the official client's through the global fetch, which also
 * rewrites its fixed host; sitefx's through `PlatformFetch`). Method, path, query parameters and JSON
 * body must match (key order aside). sitefx's one extra call, the catalog version it asks once per
 * client, is left out of the comparison.
 */
import { assert, describe, it } from "@effect/vitest"
import { abandonedCarts, subscriptionOptions } from "@wix/stores"
import * as Stream from "effect/Stream"
import * as AbandonedCarts from "../../src/catalog/AbandonedCarts.ts"
import * as SubscriptionOptions from "../../src/catalog/SubscriptionOptions.ts"
import { DEMO_CART_IDS } from "../../src/server/catalog/carts/index.ts"
import { cartsOf } from "../support/store.ts"
import { wireOnLocalPlatform } from "../support/wire.ts"

const { compare, raw } = wireOnLocalPlatform({ abandonedCarts, subscriptionOptions })

const WRITER = "/stores/v1/subscription-options"
const monthly = {
  title: "Monthly",
  description: "Six payments",
  subscriptionSettings: { frequency: "MONTH" as const, autoRenewal: false, billingCycles: 6 },
  discount: { type: "PERCENT" as const, value: 12.5 }
}

/** A new product of the store (options are assigned to products that exist); its id. */
const newProduct = async (name: string): Promise<string> => {
  const res = await raw("POST", "/stores/v1/products", { product: { name: `${name} ${Date.now().toString(36)}`, priceData: { price: 9 } } })
  assert.strictEqual(res.status, 200, await res.clone().text())
  return ((await res.json()) as { product: { id: string } }).product.id
}

/** Options with these fixed ids exist, as `monthly` (made again if they were deleted or changed). */
const fresh = (...ids: ReadonlyArray<string>) => async () => {
  for (const id of ids) await raw("DELETE", `${WRITER}/${id}`)
  const res = await raw("POST", `${WRITER}/createBulk`, { subscriptionOptions: ids.map((id) => ({ ...monthly, id })) })
  assert.strictEqual(res.status, 200, await res.clone().text())
}

describe("sitefx sends what the official abandonedCarts client sends", () => {
  it("get, and queries with filter, sort and paging; the pages of a stream", async () => {
    await compare("get", (o) => cartsOf(o).getAbandonedCart(DEMO_CART_IDS.member), AbandonedCarts.get(DEMO_CART_IDS.member))
    await compare(
      "no filter, no sort",
      (o) => cartsOf(o).queryAbandonedCarts({ query: { paging: { offset: 0, limit: 50 } } }),
      AbandonedCarts.query().find
    )
    const filter = JSON.stringify({ $and: [{ status: "ABANDONED" }, { "buyerInfo.identityType": { $in: ["MEMBER", "VISITOR"] } }] })
    const sent = await compare(
      "filter, sort, limit, skip",
      (o) =>
        cartsOf(o).queryAbandonedCarts({
          query: { filter, sort: JSON.stringify([{ abandonTime: "desc" }, { id: "asc" }]), paging: { limit: 2, offset: 1 } }
        }),
      AbandonedCarts.query().eq("status", "ABANDONED").in("buyerInfo.identityType", ["MEMBER", "VISITOR"]).descending("abandonTime").ascending("id").limit(2).skip(1).find
    )
    assert.deepStrictEqual(sent.map((r) => `${r.method} ${r.path}`), ["POST /v1/abandonedCarts/query"])
    const since = new Date("2026-03-01T00:00:00Z")
    await compare(
      "dates as ISO text",
      (o) => cartsOf(o).queryAbandonedCarts({ query: { filter: JSON.stringify({ abandonTime: { $gte: since.toISOString() } }), paging: { offset: 0, limit: 50 } } }),
      AbandonedCarts.query().ge("abandonTime", since).find
    )
    // a stream of pages: the official client walks the same offsets by hand
    const ids = Object.values(DEMO_CART_IDS)
    const walked = JSON.stringify({ $and: [{ id: { $in: ids } }, { status: "ABANDONED" }] })
    await compare(
      "every page, two at a time",
      async (o) => {
        for (let offset = 0; offset < 4; offset += 2) {
          await cartsOf(o).queryAbandonedCarts({ query: { filter: walked, paging: { limit: 2, offset } } })
        }
      },
      Stream.runDrain(AbandonedCarts.query().in("id", ids).eq("status", "ABANDONED").limit(2).pages)
    )
  })
})

describe("sitefx sends what the official subscriptionOptions client sends", () => {
  it("create, update, delete and their bulk forms", async () => {
    await compare("create", (o) => o.subscriptionOptions.createSubscriptionOption(monthly), SubscriptionOptions.create(monthly))
    const weekly = { title: "Weekly", subscriptionSettings: { frequency: "WEEK" as const, autoRenewal: true } }
    await compare("create, the platform's defaults left out", (o) => o.subscriptionOptions.createSubscriptionOption(weekly), SubscriptionOptions.create(weekly))
    await compare(
      "update",
      (o) => o.subscriptionOptions.updateSubscriptionOption("wire-a", { title: "Renamed", subscriptionSettings: { billingCycles: 3 } }),
      SubscriptionOptions.update("wire-a", { title: "Renamed", subscriptionSettings: { billingCycles: 3 } }),
      fresh("wire-a")
    )
    await compare("delete", (o) => o.subscriptionOptions.deleteSubscriptionOption("wire-a"), SubscriptionOptions.remove("wire-a"), fresh("wire-a"))
    await compare(
      "bulk create",
      (o) => o.subscriptionOptions.bulkCreateSubscriptionOptions([monthly, weekly]),
      SubscriptionOptions.bulkCreate([monthly, weekly])
    )
    await compare(
      "bulk update",
      (o) => o.subscriptionOptions.bulkUpdateSubscriptionOptions([{ _id: "wire-a", title: "A" }, { _id: "wire-b", discount: { type: "AMOUNT", value: 1 } }]),
      SubscriptionOptions.bulkUpdate([{ id: "wire-a", title: "A" }, { id: "wire-b", discount: { type: "AMOUNT", value: 1 } }]),
      fresh("wire-a", "wire-b")
    )
    await compare(
      "bulk delete",
      (o) => o.subscriptionOptions.bulkDeleteSubscriptionOptions(["wire-a", "wire-b"]),
      SubscriptionOptions.bulkRemove(["wire-a", "wire-b"]),
      fresh("wire-a", "wire-b")
    )
  })

  it("assign to a product, one-time purchases, and every reader", async () => {
    await fresh("wire-c", "wire-d")()
    const product = await newProduct("Wire product")
    const other = await newProduct("Wire other")
    const sent = await compare(
      "assign",
      (o) => o.subscriptionOptions.assignSubscriptionOptionsToProduct(product, { assignedSubscriptionOptions: [{ _id: "wire-c", hidden: true }, { _id: "wire-d" }] }),
      SubscriptionOptions.assignToProduct(product, [{ id: "wire-c", hidden: true }, { id: "wire-d" }])
    )
    assert.deepStrictEqual(sent[0]?.body, { productId: product, assignedSubscriptionOptions: [{ id: "wire-c", hidden: true }, { id: "wire-d" }] })
    await compare("assign none", (o) => o.subscriptionOptions.assignSubscriptionOptionsToProduct(other, { assignedSubscriptionOptions: [] }), SubscriptionOptions.assignToProduct(other, []))
    await compare("allow one-time purchases", (o) => o.subscriptionOptions.allowOneTimePurchases(product, false), SubscriptionOptions.allowOneTimePurchases(product, false))

    await compare("get", (o) => o.subscriptionOptions.getSubscriptionOption("wire-c"), SubscriptionOptions.get("wire-c"))
    await compare("for a product", (o) => o.subscriptionOptions.getSubscriptionOptionsForProduct(product), SubscriptionOptions.forProduct(product))
    await compare(
      "for a product, hidden ones too",
      (o) => o.subscriptionOptions.getSubscriptionOptionsForProduct(product, { includeHiddenSubscriptionOptions: true }),
      SubscriptionOptions.forProduct(product, { includeHidden: true })
    )
    await compare("product ids", (o) => o.subscriptionOptions.getProductIdsForSubscriptionOption("wire-d"), SubscriptionOptions.productIds("wire-d"))
    const paged = await compare(
      "product ids, paged, hidden ones too",
      (o) => o.subscriptionOptions.getProductIdsForSubscriptionOption("wire-c", { includeHiddenProducts: true, paging: { limit: 1, offset: 1 } }),
      SubscriptionOptions.productIds("wire-c", { includeHiddenProducts: true, limit: 1, offset: 1 })
    )
    assert.deepStrictEqual(paged[0]?.query, { id: "wire-c", includeHiddenProducts: "true", "paging.limit": "1", "paging.offset": "1" })
    await compare("one-time purchase status", (o) => o.subscriptionOptions.getOneTimePurchasesStatus(product), SubscriptionOptions.oneTimePurchasesAllowed(product))
  })
})

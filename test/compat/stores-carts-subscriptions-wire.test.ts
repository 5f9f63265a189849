/**
 * sitefx's AbandonedCarts and SubscriptionOptions must send what the platform's official
 * `abandonedCarts` and `subscriptionOptions` modules send. Both make the same calls against the local
 * platform; every request is recorded (the official client's through the global fetch, which also
 * rewrites its fixed host; sitefx's through `PlatformFetch`). Method, path, query parameters and JSON
 * body must match (key order aside). sitefx's one extra call, the catalog version it asks once per
 * client, is left out of the comparison.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { ApiKeyStrategy, createClient } from "@wix/sdk"
import { abandonedCarts, subscriptionOptions } from "@wix/stores"
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as AbandonedCarts from "../../src/catalog/AbandonedCarts.ts"
import { CatalogPaths } from "../../src/catalog/protocol.ts"
import * as SubscriptionOptions from "../../src/catalog/SubscriptionOptions.ts"
import type { PlatformClient } from "../../src/http/PlatformClient.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { fromBase64url } from "../../src/http/wire.ts"
import { DEMO_CART_IDS } from "../../src/server/catalog/carts/index.ts"
import { LocalPlatform, type LocalPlatformShape } from "../../src/server/index.ts"
import { asAdmin } from "../data/support.ts"

interface Recorded {
  readonly method: string
  readonly path: string
  readonly query: Record<string, unknown>
  readonly body: unknown
  readonly auth: string
}

const originalFetch = globalThis.fetch
const runtime = ManagedRuntime.make(LocalPlatform.layer({}))
let platform: LocalPlatformShape
const log: Array<Recorded> = []

const record = async (request: Request): Promise<void> => {
  const url = new URL(request.url)
  const query: Record<string, unknown> = {}
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key)
    query[key] = key === ".r" ? JSON.parse(fromBase64url(all[0]!)) : all.length === 1 ? all[0] : all
  }
  const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.clone().text()
  log.push({
    method: request.method,
    path: url.pathname,
    query,
    body: text === "" ? undefined : JSON.parse(text),
    auth: `${request.headers.get("authorization")} ${request.headers.get("wix-site-id")}`
  })
}

const sitefxFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  if (new URL(request.url).pathname !== CatalogPaths.version) await record(request)
  return originalFetch(request)
}

beforeAll(async () => {
  platform = await runtime.runPromise(LocalPlatform.useSync((p) => p))
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const rewritten = request.url.replace(/^https:\/\/(www|edge)\.wixapis\.com/, platform.url)
    if (rewritten === request.url) return originalFetch(request)
    const local = new Request(rewritten, request)
    await record(local)
    return originalFetch(local)
  }
})

afterAll(async () => {
  globalThis.fetch = originalFetch
  await runtime.dispose()
})

const official = () =>
  createClient({
    modules: { abandonedCarts, subscriptionOptions },
    auth: ApiKeyStrategy({ apiKey: Redacted.value(platform.apiKey), siteId: platform.siteId })
  })
type Official = ReturnType<typeof official>

/** The cart functions are typed only in the package's internal typings. */
interface OfficialCarts {
  readonly getAbandonedCart: (id: string) => Promise<abandonedCarts.AbandonedCart>
  readonly queryAbandonedCarts: (options?: abandonedCarts.QueryAbandonedCartsOptions) => Promise<abandonedCarts.QueryAbandonedCartsResponse>
}
const cartsOf = (o: Official) => o.abandonedCarts as unknown as OfficialCarts

const sitefx = <A, E>(effect: Effect.Effect<A, E, PlatformClient>): Promise<A> =>
  runtime.runPromise(asAdmin(effect).pipe(Effect.provideService(PlatformFetch, sitefxFetch)))

const sent = async (step: () => Promise<unknown>): Promise<ReadonlyArray<Recorded>> => {
  const from = log.length
  await step()
  return log.slice(from)
}

/** Both clients make "the same call"; `reset` puts the store back in between, so both meet the same state. */
const compare = async <A, E>(
  name: string,
  officialStep: (o: Official) => Promise<unknown>,
  sitefxStep: Effect.Effect<A, E, PlatformClient>,
  reset?: () => Promise<unknown>
): Promise<ReadonlyArray<Recorded>> => {
  await reset?.()
  const o = await sent(() => officialStep(official()))
  await reset?.()
  const s = await sent(() => sitefx(sitefxStep))
  assert.isAbove(o.length, 0, `${name}: the official client sent something`)
  assert.isTrue(o.every((r) => r.auth === `${Redacted.value(platform.apiKey)} ${platform.siteId}`), `${name}: API-key headers`)
  assert.deepStrictEqual(s, o, name)
  return o
}

/** A raw admin call, not recorded. */
const raw = async (method: string, path: string, body?: unknown): Promise<Response> =>
  originalFetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: Redacted.value(platform.apiKey), "wix-site-id": platform.siteId, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

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

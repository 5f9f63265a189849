/**
 * Abandoned carts: sitefx's AbandonedCarts against the local platform over HTTP. The seeded carts,
 * get and query (filters, sort, offset paging, totals, every page as a Stream), the dev endpoints that
 * abandon and recover carts and the events they publish, the client's own refusals, the platform's
 * validation errors, and who may read carts at all (an API key; not a visitor, not a member).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as AbandonedCarts from "../../src/catalog/AbandonedCarts.ts"
import { Filter } from "../../src/data/Filter.ts"
import type * as W from "../../src/catalog/wire/carts.ts"
import { DEMO_CART_IDS } from "../../src/server/catalog/carts/index.ts"
import { asAdmin, asVisitor } from "../data/support.ts"
import { loggedSince, logMark } from "../support/eventLog.ts"
import { dev, settings } from "../support/platform.ts"
import { asMember, failure, raw, unique } from "../support/store.ts"
import { layerWithCore } from "../../src/server/LocalPlatform.ts"


const abandon = (cart: Record<string, unknown>) => dev<{ abandonedCart: W.AbandonedCart }>("/store/abandoned-carts", { body: cart })

describe("abandoned carts", () => {
  it.layer(layerWithCore({}), { excludeTestServices: true })((it) => {
    it.effect("the demo seed: four carts with fixed ids, one recovered, one the demo member's", () =>
      Effect.gen(function*() {
        const ids = Object.values(DEMO_CART_IDS)
        const page = yield* asAdmin(AbandonedCarts.query().in("id", ids).find)
        assert.strictEqual(page.totalCount, 4)
        assert.deepStrictEqual(page.items.map((c) => c.id), [DEMO_CART_IDS.recovered, DEMO_CART_IDS.member, DEMO_CART_IDS.visitor, DEMO_CART_IDS.contact])
        assert.deepStrictEqual(page.items.map((c) => c.status), ["RECOVERED", "ABANDONED", "ABANDONED", "ABANDONED"])

        const mine = yield* asAdmin(AbandonedCarts.get(DEMO_CART_IDS.member))
        assert.strictEqual(mine.buyerInfo?.identityType, "MEMBER")
        assert.strictEqual(mine.buyerInfo?.email, "demo@sitefx.dev")
        assert.isString(mine.buyerInfo?.id)
        assert.strictEqual(mine.total, "$97.17")
        assert.strictEqual(mine.abandonTime, "2026-03-02T10:15:00.000Z")
        assert.deepStrictEqual(mine.activities?.map((a) => a.activityType), ["SCHEDULED"])
        const euro = yield* asAdmin(AbandonedCarts.get(DEMO_CART_IDS.contact))
        assert.strictEqual(euro.total, "€58.50")
        assert.deepStrictEqual(euro.activities?.[1]?.customData, { namespace: "crm", customValue: { outcome: "no answer" } })
      }))

    it.effect("query: filters in the data language, sort, offset paging and totals", () =>
      Effect.gen(function*() {
        const coupon = unique("Q")
        const made: Array<string> = []
        for (let i = 0; i < 7; i++) {
          const { abandonedCart } = yield* abandon({
            couponId: coupon,
            buyerInfo: { identityType: i % 2 === 0 ? "VISITOR" : "MEMBER", email: `buyer${i}@example.com` },
            abandonTime: new Date(Date.UTC(2026, 3, 1 + i)).toISOString(),
            total: 10 * (i + 1)
          })
          made.push(abandonedCart.id!)
        }
        yield* dev(`/store/abandoned-carts/${made[2]}/recover`, { body: {} })
        // the coupon is not part of the cart document: select this test's carts by their ids
        const mine = AbandonedCarts.query().in("id", made)

        const all = yield* asAdmin(mine.find)
        assert.strictEqual(all.totalCount, 7)
        assert.deepStrictEqual(all.items.map((c) => c.id), made)
        assert.isFalse(all.hasNext)

        const open = yield* asAdmin(mine.eq("status", "ABANDONED").descending("abandonTime").find)
        assert.strictEqual(open.totalCount, 6)
        assert.deepStrictEqual(open.items.map((c) => c.id), [made[6], made[5], made[4], made[3], made[1], made[0]])
        const recovered = yield* asAdmin(mine.eq("status", "RECOVERED").find)
        assert.deepStrictEqual(recovered.items.map((c) => c.id), [made[2]])

        const members = yield* asAdmin(mine.eq("buyerInfo.identityType", "MEMBER").ascending("buyerInfo.email").find)
        assert.deepStrictEqual(members.items.map((c) => c.buyerInfo?.email), ["buyer1@example.com", "buyer3@example.com", "buyer5@example.com"])
        const either = yield* asAdmin(mine.and(Filter.eq("buyerInfo.email", "buyer0@example.com").or(Filter.ge("abandonTime", new Date("2026-04-07T00:00:00Z")))).find)
        assert.deepStrictEqual(either.items.map((c) => c.id), [made[0], made[6]])

        // offset paging: pages of 3, and the next page from a page
        const first = yield* asAdmin(mine.ascending("abandonTime").limit(3).find)
        assert.deepStrictEqual(first.items.map((c) => c.id), made.slice(0, 3))
        assert.isTrue(first.hasNext)
        assert.strictEqual(first.totalCount, 7)
        assert.isFalse(first.hasPrev)
        const second = yield* asAdmin(first.next)
        assert.deepStrictEqual(second.items.map((c) => c.id), made.slice(3, 6))
        assert.strictEqual(second.offset, 3)
        const third = yield* asAdmin(second.next)
        assert.deepStrictEqual(third.items.map((c) => c.id), made.slice(6))
        assert.isFalse(third.hasNext)
        assert.deepStrictEqual((yield* asAdmin(third.prev)).items.map((c) => c.id), made.slice(3, 6))
        const none = yield* failure(asAdmin(third.next))
        assert.strictEqual(none.code, "INVALID_ARGUMENT")
        const skipped = yield* asAdmin(mine.ascending("abandonTime").skip(5).find)
        assert.deepStrictEqual(skipped.items.map((c) => c.id), made.slice(5))
        assert.strictEqual(skipped.offset, 5)
      }))

    it.effect("every page as a Stream: 230 carts in pages of 100, and in pages of the query's limit", () =>
      Effect.gen(function*() {
        const email = `${unique("stream")}@example.com`
        yield* Effect.forEach(
          Array.from({ length: 230 }, (_, i) => i),
          (i) => abandon({ buyerInfo: { identityType: "VISITOR", email }, total: i }),
          { concurrency: 8, discard: true }
        )
        const q = AbandonedCarts.query().eq("buyerInfo.email", email)
        const pages = yield* asAdmin(Stream.runCollect(q.pages))
        assert.deepStrictEqual(pages.map((p) => p.items.length), [100, 100, 30])
        assert.deepStrictEqual(pages.map((p) => p.offset), [0, 100, 200])
        const carts = yield* asAdmin(Stream.runCollect(q.ascending("abandonTime", "id").stream))
        assert.strictEqual(carts.length, 230)
        assert.strictEqual(new Set(carts.map((c) => c.id)).size, 230)
        const small = yield* asAdmin(Stream.runCollect(q.limit(40).skip(200).pages))
        assert.deepStrictEqual(small.map((p) => p.items.length), [30])
        const taken = yield* asAdmin(q.limit(25).stream.pipe(Stream.take(60), Stream.runCollect))
        assert.strictEqual(taken.length, 60)
      }))

    it.effect("the dev endpoints abandon and recover carts, each logging its v1 event as it commits", () =>
      Effect.gen(function*() {
        const mark = yield* logMark
        const id = `00000000-0000-4000-8000-${Date.now().toString(16).padStart(12, "0").slice(-12)}`
        const { abandonedCart } = yield* abandon({
          id,
          buyerInfo: { identityType: "MEMBER", id: "m-1", email: "ada@example.com", firstName: "Ada", lastName: "Lovelace" },
          creationTime: "2026-05-01T09:00:00Z",
          abandonTime: "2026-05-01T10:00:00Z",
          itemsCount: 2,
          couponId: "WELCOME",
          currency: "GBP",
          subtotal: 40,
          total: 36.5,
          checkoutUrl: "https://shop.example.com/checkout/123"
        })
        assert.deepStrictEqual(abandonedCart, {
          id,
          status: "ABANDONED",
          abandonTime: "2026-05-01T10:00:00.000Z",
          buyerInfo: { identityType: "MEMBER", id: "m-1", email: "ada@example.com", firstName: "Ada", lastName: "Lovelace" },
          total: "£36.50",
          activities: []
        })
        // refused changes publish nothing
        const taken = yield* raw("POST", "/_sitefx/store/abandoned-carts", { id }, "none")
        assert.strictEqual(taken.status, 409)
        yield* dev(`/store/abandoned-carts/${id}/recover`, { body: { recoveredTime: "2026-05-02T08:00:00Z" } })
        const again = yield* raw("POST", `/_sitefx/store/abandoned-carts/${id}/recover`, {}, "none")
        assert.strictEqual(again.status, 409)
        assert.strictEqual(again.body.details.applicationError.code, "ABANDONED_CART_ALREADY_RECOVERED")
        const unknown = yield* raw("POST", "/_sitefx/store/abandoned-carts/no-such-cart/recover", {}, "none")
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.body.details.applicationError.code, "ABANDONED_CART_NOT_FOUND")

        const seen = yield* loggedSince(mark)
        assert.deepStrictEqual(seen.map((e) => [e.type, e.payload.cartId]), [
          ["com.wix.ecommerce.cart.abandonment.api.v1.CartAbandonedEvent", id],
          ["com.wix.ecommerce.cart.abandonment.api.v1.CartRecoveredEvent", id]
        ])
        const [abandoned, recovered] = seen
        assert.deepStrictEqual(abandoned?.payload, {
          cartId: id,
          creationTime: "2026-05-01T09:00:00.000Z",
          abandonTime: "2026-05-01T10:00:00.000Z",
          buyerInfo: { identityType: "MEMBER", id: "m-1", email: "ada@example.com", firstName: "Ada", lastName: "Lovelace" },
          itemsCount: 2,
          couponId: "WELCOME",
          totals: { subtotal: 40, total: 36.5, formattedTotal: "£36.50" },
          checkoutUrl: "https://shop.example.com/checkout/123"
        })
        assert.deepStrictEqual(recovered?.payload, {
          cartId: id,
          recoveredTime: "2026-05-02T08:00:00.000Z",
          creationTime: "2026-05-01T09:00:00.000Z",
          abandonedTime: "2026-05-01T10:00:00.000Z"
        })
        assert.strictEqual((yield* asAdmin(AbandonedCarts.get(id))).status, "RECOVERED")
      }))

    it.effect("the dev endpoints refuse what is not a cart", () =>
      Effect.gen(function*() {
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ currency: "DOLLARS" }, "currency"],
          [{ abandonTime: "yesterday" }, "abandonTime"],
          [{ total: -1 }, "total"],
          [{ total: Number.MAX_VALUE }, "total"],
          [{ itemsCount: 1.5 }, "itemsCount"],
          [{ buyerInfo: { email: "x".repeat(51) } }, "buyerInfo.email"],
          [{ buyerInfo: { identityType: "ROBOT" } }, "buyerInfo.identityType"],
          [{ checkoutUrl: "javascript:alert(1)" }, "checkoutUrl"],
          [{ activities: [{ timestamp: "soon" }] }, "activities[0].timestamp"],
          [{ id: "" }, "id"]
        ]
        for (const [body, field] of cases) {
          const answer = yield* raw("POST", "/_sitefx/store/abandoned-carts", body, "none")
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.strictEqual(answer.body.details.validationError.fieldViolations[0].field, field, JSON.stringify(body))
        }
        const bad = yield* raw("POST", "/_sitefx/store/abandoned-carts/x/recover", { recoveredTime: "later" }, "none")
        assert.strictEqual(bad.status, 400)
      }))

    it.effect("get: a cart that does not exist is ABANDONED_CART_NOT_FOUND; bad arguments fail before any request", () =>
      Effect.gen(function*() {
        const missing = yield* failure(asAdmin(AbandonedCarts.get("no-such-cart")))
        assert.strictEqual(missing.code, "ABANDONED_CART_NOT_FOUND")
        assert.strictEqual(missing.status, 404)
        const odd = `cart één/${unique("odd")}?&#`
        yield* abandon({ id: odd })
        assert.strictEqual((yield* asAdmin(AbandonedCarts.get(odd))).id, odd)
        const empty = yield* failure(asAdmin(AbandonedCarts.get("")))
        assert.strictEqual(empty.code, "INVALID_ARGUMENT")
        assert.isUndefined(empty.status)
        for (
          const q of [
            AbandonedCarts.query().limit(0),
            AbandonedCarts.query().limit(101),
            AbandonedCarts.query().limit(2.5),
            AbandonedCarts.query().skip(-1),
            AbandonedCarts.query().ascending(),
            AbandonedCarts.query().descending(""),
            AbandonedCarts.query().eq(7 as never, 1),
            AbandonedCarts.query().gt("abandonTime", {} as never),
            AbandonedCarts.query().in("id", "not a list" as never)
          ]
        ) {
          const e = yield* failure(asAdmin(q.find))
          assert.strictEqual(e.code, "INVALID_ARGUMENT")
          assert.isUndefined(e.status)
        }
        // the first bad argument is the one reported, whatever comes after it
        const first = yield* failure(asAdmin(AbandonedCarts.query().limit(0).skip(-1).find))
        assert.strictEqual(first.field, ".limit")
      }))

    it.effect("the platform refuses bad queries with field violations, never a 5xx", () =>
      Effect.gen(function*() {
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ query: { paging: { limit: 101 } } }, "query.paging.limit"],
          [{ query: { paging: { limit: 0 } } }, "query.paging.limit"],
          [{ query: { paging: { offset: -3 } } }, "query.paging.offset"],
          [{ query: { paging: { offset: 1e300 } } }, "query.paging.offset"],
          [{ query: { filter: "{not json" } }, "query.filter"],
          [{ query: { filter: "[1, 2]" } }, "query.filter"],
          [{ query: { filter: JSON.stringify({ status: { $regex: "A" } }) } }, "query.filter"],
          [{ query: { filter: "{\"a\": " + "{\"$and\": [".repeat(60) + "{}" + "]}".repeat(60) + "}" } }, "query.filter"],
          [{ query: { sort: "[{\"abandonTime\": \"sideways\"}]" } }, "query.sort[0]"],
          [{ query: { sort: "[{\"fieldName\": \"a..b\"}]" } }, "query.sort[0]"],
          [{ query: { sort: 7 } }, "query.sort"]
        ]
        for (const [body, field] of cases) {
          const answer = yield* raw("POST", "/v1/abandonedCarts/query", body)
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.strictEqual(answer.body.details.validationError.fieldViolations[0].field, field, JSON.stringify(body))
        }
        // JSON filters and sorts are read as well as JSON text
        const json = yield* raw("POST", "/v1/abandonedCarts/query", {
          query: { filter: { id: DEMO_CART_IDS.visitor }, sort: [{ fieldName: "abandonTime", order: "DESC" }] }
        })
        assert.strictEqual(json.status, 200)
        assert.deepStrictEqual(json.body.abandonedCarts.map((c: W.AbandonedCart) => c.id), [DEMO_CART_IDS.visitor])
        assert.strictEqual(json.body.totalResults, 1)
        const deep = yield* raw("POST", "/v1/abandonedCarts/query", "[".repeat(5000) + "]".repeat(5000))
        assert.strictEqual(deep.status, 400)
      }))

    it.effect("abandoned carts are the owner's: a visitor and a member are refused (403), nobody at all 401", () =>
      Effect.gen(function*() {
        const visitorGet = yield* failure(asVisitor(AbandonedCarts.get(DEMO_CART_IDS.member)))
        assert.strictEqual(visitorGet.status, 403)
        assert.strictEqual(visitorGet.code, "PERMISSION_DENIED")
        const visitorQuery = yield* failure(asVisitor(AbandonedCarts.query().find))
        assert.strictEqual(visitorQuery.status, 403)

        // even the member's own cart
        const memberGet = yield* failure(asMember(AbandonedCarts.get(DEMO_CART_IDS.member)))
        assert.strictEqual(memberGet.status, 403)
        const memberQuery = yield* failure(asMember(AbandonedCarts.query().find))
        assert.strictEqual(memberQuery.status, 403)

        const nobody = yield* raw("POST", "/v1/abandonedCarts/query", {}, "none")
        assert.strictEqual(nobody.status, 401)
        const nobodyGet = yield* raw("GET", `/v1/abandonedCarts/${DEMO_CART_IDS.member}`, undefined, "none")
        assert.strictEqual(nobodyGet.status, 401)
      }))

    it.effect("a site without a store: the client says so, the platform answers 428", () =>
      Effect.gen(function*() {
        yield* settings({ catalogVersion: "STORES_NOT_INSTALLED" })
        const e = yield* failure(asAdmin(AbandonedCarts.query().find))
        assert.strictEqual(e.code, "STORES_NOT_INSTALLED")
        const answer = yield* raw("POST", "/v1/abandonedCarts/query", {})
        assert.strictEqual(answer.status, 428)
        yield* settings({ catalogVersion: "V3_CATALOG" })
        // carts belong to any store, v1 or v3
        assert.strictEqual((yield* asAdmin(AbandonedCarts.get(DEMO_CART_IDS.visitor))).id, DEMO_CART_IDS.visitor)
        yield* settings({ catalogVersion: "V1_CATALOG" })
      }))
  })
})

/**
 * sitefx/dev's Profile against a real platform: the production profile read, switched on with a plan and
 * a limit that an API key's calls then meet, a bad value refused as a typed error that changes nothing,
 * and switched off; and the request log's index advice, listed alone with `Requests.list({ advice: true })`,
 * on a query that answers without the profile and on the same query refused under it.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Profile, Requests } from "../../src/dev/index.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { bulkInsert, createCollection, data, uniqueId } from "../server/data/support.ts"
import { get } from "../server/support.ts"
import { onDev } from "./support.ts"

const QUERY_PATH = "/wix-data/v2/items/query"

/** `n` cheap data queries with the site's API key, one after another; their statuses. */
const keyedQueries = (n: number) =>
  Effect.forEach(
    Array.from({ length: n }, (_, i) => i),
    () => Effect.map(data("POST", "/items/query", { dataCollectionId: "Posts", query: { paging: { limit: 1 } } }), (a) => a.status)
  )

describe("sitefx/dev Profile", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("is read, switched on with a plan and a limit an API key then meets, refuses a bad value with a typed error, and is switched off", () =>
      onDev(Effect.gen(function*() {
        const start = yield* Profile.get
        assert.deepStrictEqual(start, { profile: "none", plan: "free", rateLimit: 200, rateLimitWindowSeconds: 60, scanRowsPerSecond: 500_000 })

        const on = yield* Profile.set({ profile: "production", plan: "elite", rateLimit: 3, rateLimitWindowSeconds: 60 })
        assert.deepStrictEqual(on, { profile: "production", plan: "elite", rateLimit: 3, rateLimitWindowSeconds: 60, scanRowsPerSecond: 500_000 })
        assert.deepStrictEqual(yield* Profile.get, on)
        assert.deepStrictEqual(yield* keyedQueries(4), [200, 200, 200, 429])

        for (const [patch, field] of [[{ rateLimit: 0 }, "rateLimit"], [{ rateLimitWindowSeconds: 90_000 }, "rateLimitWindowSeconds"], [{ plan: "gold" }, "plan"]] as const) {
          const refused = yield* Effect.flip(Profile.set({ profile: "none", ...patch } as Profile.ProfilePatch))
          assert.strictEqual(refused._tag, "PlatformError")
          assert.strictEqual(refused.status, 400, JSON.stringify(patch))
          assert.strictEqual(refused.fieldViolations[0]?.field, field, JSON.stringify(patch))
        }
        // nothing changed: still on, and the key's window still used up
        assert.deepStrictEqual(yield* Profile.get, on)
        assert.deepStrictEqual(yield* keyedQueries(1), [429])

        const off = yield* Profile.set({ profile: "none", plan: "free", rateLimit: 200 })
        assert.deepStrictEqual(off, start)
        assert.deepStrictEqual(yield* keyedQueries(4), [200, 200, 200, 200])
      })))

    it.effect("gives the plan's scan threshold: the data API's documented timeout times the scan rate", () =>
      Effect.sync(() => {
        assert.deepStrictEqual({ ...Profile.PLAN_TIMEOUT_SECONDS }, { free: 5, premium: 5, elite: 10 })
        assert.strictEqual(Profile.scanThreshold({ plan: "free", scanRowsPerSecond: 20 }), 100)
        assert.strictEqual(Profile.scanThreshold({ plan: "elite", scanRowsPerSecond: 500_000 }), 5_000_000)
      }))

    it.effect("an unindexed query past the threshold is listed with its advice by Requests.list({ advice: true }), answered or refused", () =>
      onDev(Effect.gen(function*() {
        // 2 items a second: a free plan's 5 s are 10 items
        const state = yield* Profile.set({ profile: "none", plan: "free", scanRowsPerSecond: 2 })
        assert.strictEqual(Profile.scanThreshold(state), 10)
        const id = uniqueId("Advised")
        yield* createCollection({ id })
        yield* bulkInsert(id, Array.from({ length: 12 }, (_, i) => ({ rank: i % 3, likes: i })))
        const before = (yield* Requests.list({ limit: 1 })).last

        const answered = yield* data("POST", "/items/query", { dataCollectionId: id, query: { filter: { rank: 1 }, sort: [{ fieldName: "likes" }] } })
        assert.strictEqual(answered.status, 200, answered.text)
        // a query reading only its page gets no advice
        assert.strictEqual((yield* data("POST", "/items/query", { dataCollectionId: id, query: { paging: { limit: 2 } } })).status, 200)

        const all = yield* Requests.list({ path: QUERY_PATH, after: before })
        assert.strictEqual(all.requests.length, 2)
        const advised = yield* Requests.list({ path: QUERY_PATH, after: before, advice: true })
        assert.deepStrictEqual(advised.requests.map((r) => [r.status, r.advice]), [[200, { collection: id, fields: ["rank", "likes"], rowsScanned: 12 }]])

        // under the profile the same query is refused as timed out, and still listed with its advice
        yield* Profile.set({ profile: "production" })
        const refused = yield* data("POST", "/items/query", { dataCollectionId: id, query: { filter: { rank: 1 } } })
        assert.strictEqual(refused.status, 429, refused.text)
        assert.strictEqual(refused.body.details.applicationError.code, "WDE0028")
        const timedOut = yield* Requests.list({ after: before, advice: true, status: 429 })
        assert.strictEqual(timedOut.requests.length, 1)
        assert.deepStrictEqual(timedOut.requests[0]?.advice, { collection: id, fields: ["rank"], rowsScanned: 12 })
        assert.strictEqual(timedOut.requests[0]?.rule?.id, "data.query.timeout")

        // the endpoint takes only true or false
        assert.strictEqual((yield* get("/_sitefx/requests?advice=yes")).status, 400)
        yield* Profile.set({ profile: "none", scanRowsPerSecond: 500_000 })
      })))
  })
})

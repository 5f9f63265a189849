/**
 * A data query judged by the items it would scan without an index (SQLite's query plan): under the
 * production profile past the plan's threshold it is refused as a timed-out call, with an index it
 * answers; without the profile it answers and the request log advises the index. The judgement is kept
 * between calls, and follows the collection's size and indexes.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeRequest } from "../../src/cli/logs.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { dev } from "./support.ts"
import { adminCalls, bulkInsert, createCollection, data, ok, uniqueId } from "./data/support.ts"

// 20 items a second stand for a call's time: a free plan's 5 s are 100 items, an elite plan's 10 s 200
const layer = LocalPlatform.layer({ profile: "production", plan: "free", scanRowsPerSecond: 20, rateLimitPerMinute: 100_000 })

/** A collection of `n` items with a `rank` (0 to 9) and `likes`. */
const collectionOf = (n: number) =>
  Effect.gen(function*() {
    const id = uniqueId("Scanned")
    yield* createCollection({ id })
    yield* bulkInsert(id, Array.from({ length: n }, (_, i) => ({ rank: i % 10, likes: i })))
    return id
  })

const queryOf = (collection: string, q: Record<string, unknown>) => data("POST", "/items/query", { dataCollectionId: collection, query: q })
/** Creates an index and waits until it is built. */
const indexOn = (collection: string, name: string, fields: ReadonlyArray<Record<string, string>>) =>
  Effect.gen(function*() {
    yield* ok("POST", "/indexes", { dataCollectionId: collection, index: { name, fields } })
    const calls = yield* adminCalls
    yield* Effect.promise(() => calls.indexesBuilt(collection))
  })

const refusedFor = (answer: { readonly status: number; readonly text: string; readonly body: any }, collection: string, fields: ReadonlyArray<string>, rowsScanned = 150) => {
  assert.strictEqual(answer.status, 504, answer.text)
  assert.strictEqual(answer.body.details.applicationError.code, "DEADLINE_EXCEEDED")
  assert.deepInclude(answer.body.details.applicationError.data, { collection, fields, rowsScanned })
  assert.deepInclude(answer.body.details.rule, { kind: "bound", id: "data.query.timeout", fields })
}

it.layer(layer, { excludeTestServices: true })("data calls past the plan's timeout", (it) => {
  it.effect("an unindexed scan past the free plan's threshold is refused as timed out; it answers with the suggested index", () =>
    Effect.gen(function*() {
      yield* dev("POST", "/profile", { profile: "production", plan: "free" })
      const id = yield* collectionOf(150)
      const filtered = { filter: { rank: 3 }, sort: [{ fieldName: "likes", order: "DESC" }] }

      const refused = yield* queryOf(id, filtered)
      assert.strictEqual(refused.status, 504, refused.text)
      assert.strictEqual(refused.body.details.applicationError.code, "DEADLINE_EXCEEDED")
      assert.deepInclude(refused.body.details.applicationError.data, { collection: id, fields: ["rank", "likes"], rowsScanned: 150, timeoutSeconds: 5 })
      assert.deepInclude(refused.body.details.rule, { kind: "bound", id: "data.query.timeout", fields: ["rank", "likes"], limit: 100 })
      // a count with the filter scans the same items
      const counted = yield* data("POST", "/items/count", { dataCollectionId: id, filter: { rank: 3 } })
      assert.strictEqual(counted.status, 504)

      // without a filter or sort a query reads only its page, and an id is found through its own index
      assert.strictEqual((yield* queryOf(id, { paging: { limit: 5 } })).status, 200)
      assert.strictEqual((yield* queryOf(id, { filter: { _id: "nobody" } })).status, 200)
      assert.strictEqual((yield* queryOf(id, { filter: { _id: { $gt: "m" } }, sort: [{ fieldName: "_id", order: "DESC" }] })).status, 200)

      yield* ok("POST", "/indexes", { dataCollectionId: id, index: { name: "byRankLikes", fields: [{ path: "rank" }, { path: "likes", order: "DESC" }] } })
      const calls = yield* adminCalls
      yield* Effect.promise(() => calls.indexesBuilt(id))
      const indexed = yield* queryOf(id, filtered)
      assert.strictEqual(indexed.status, 200, indexed.text)
      assert.deepStrictEqual(indexed.body.dataItems.map((i: any) => i.data.likes), [143, 133, 123, 113, 103, 93, 83, 73, 63, 53, 43, 33, 23, 13, 3])
      const indexedCount = yield* ok("POST", "/items/count", { dataCollectionId: id, filter: { rank: 3 } })
      assert.strictEqual(indexedCount.totalCount, 15)
    }))

  it.effect("the threshold scales with the plan's timeout, and a collection under it answers", () =>
    Effect.gen(function*() {
      yield* dev("POST", "/profile", { profile: "production", plan: "elite" })
      const id = yield* collectionOf(150)
      const answered = yield* queryOf(id, { filter: { rank: 3 } })
      assert.strictEqual(answered.status, 200, answered.text)
      assert.strictEqual(answered.body.dataItems.length, 15)
      yield* dev("POST", "/profile", { plan: "premium" })
      assert.strictEqual((yield* queryOf(id, { filter: { rank: 3 } })).status, 504)
      const small = yield* collectionOf(90)
      assert.strictEqual((yield* queryOf(small, { filter: { rank: 3 } })).status, 200)
    }))

  it.effect("without the profile the scan answers, and the request log carries the index advice", () =>
    Effect.gen(function*() {
      yield* dev("POST", "/profile", { profile: "none", plan: "free" })
      const id = yield* collectionOf(150)
      // SQLite could seek in the first test's index (an index covers the whole item table); this collection has none
      const answered = yield* queryOf(id, { filter: { likes: { $gt: 140 }, rank: 1 }, sort: [{ fieldName: "likes" }] })
      assert.strictEqual(answered.status, 200, answered.text)
      assert.deepStrictEqual(answered.body.dataItems.map((i: any) => i.data.likes), [141])
      const log = yield* dev("GET", "/requests?path=/wix-data/v2/items/query&limit=1")
      assert.deepStrictEqual(log.requests[0].advice, { collection: id, fields: ["likes", "rank"], rowsScanned: 150 })
      // `sitefx logs` prints it at the end of the request's line
      assert.match(describeRequest(log.requests[0]), new RegExp(`200 POST /wix-data/v2/items/query .*  index advice: ${id} \\(likes, rank\\), 150 items scanned$`))
      // a query that reads only its page gets no advice
      assert.strictEqual((yield* queryOf(id, { paging: { limit: 2 } })).status, 200)
      const after = yield* dev("GET", "/requests?path=/wix-data/v2/items/query&limit=1")
      assert.isUndefined(after.requests[0].advice)
    }))

  it.effect("the judgement kept between calls follows the collection: grown past the threshold it refuses, its own index answers, another collection's does not stand for it", () =>
    Effect.gen(function*() {
      yield* dev("POST", "/profile", { profile: "production", plan: "free" })
      const id = yield* collectionOf(90)
      const ranked = { filter: { rank: 3 } }
      assert.strictEqual((yield* queryOf(id, ranked)).status, 200)
      // the same statement, now over 110 items
      yield* bulkInsert(id, Array.from({ length: 20 }, (_, i) => ({ rank: i % 10, likes: 90 + i })))
      refusedFor(yield* queryOf(id, ranked), id, ["rank"], 110)

      // another collection's index on the same field is not this collection's
      const other = yield* collectionOf(10)
      yield* indexOn(other, "byRank", [{ path: "rank" }])
      refusedFor(yield* queryOf(id, ranked), id, ["rank"], 110)

      yield* indexOn(id, "byRank", [{ path: "rank" }])
      assert.strictEqual((yield* queryOf(id, ranked)).status, 200)
      // a twin made later, which SQLite may read through instead, leaves both collections answering
      const twin = yield* collectionOf(150)
      yield* indexOn(twin, "byRank", [{ path: "rank" }])
      const answered = yield* queryOf(id, ranked)
      assert.strictEqual(answered.status, 200, answered.text)
      assert.strictEqual(answered.body.dataItems.length, 11)
      assert.strictEqual((yield* queryOf(twin, ranked)).status, 200)

      yield* ok("DELETE", `/indexes?dataCollectionId=${id}&indexName=byRank`)
      refusedFor(yield* queryOf(id, ranked), id, ["rank"], 110)
    }))
})

/**
 * A data read (query, count, distinct values, aggregation, pipeline) judged by the items it would scan
 * without an index (SQLite's query plan): under the production profile past the plan's threshold it is
 * refused as a timed-out call, with an index it answers; without the profile it answers and the request
 * log advises the index. The judgement is kept between calls, and follows the collection's size and indexes.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeRequest } from "../../src/cli/logs.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { dev } from "./support.ts"
import { adminCalls, bulkInsert, createCollection, data, ok, uniqueId } from "./data/support.ts"

// 20 items a second stand for a call's time: a free plan's 5 s are 100 items, an elite plan's 10 s 200
const layer = LocalPlatform.layer({ profile: "production", plan: "free", scanRowsPerSecond: 20, rateLimit: 100_000 })

/** A collection of `n` items with a `rank` (0 to 9) and `likes`. */
const collectionOf = (n: number) =>
  Effect.gen(function*() {
    const id = uniqueId("Scanned")
    yield* createCollection({ id })
    yield* bulkInsert(id, Array.from({ length: n }, (_, i) => ({ rank: i % 10, likes: i })))
    return id
  })

const queryOf = (collection: string, q: Record<string, unknown>) => data("POST", "/items/query", { dataCollectionId: collection, query: q })
const distinctOf = (collection: string, fieldName: string, filter?: unknown) =>
  data("POST", "/items/query-distinct-values", { dataCollectionId: collection, fieldName, ...(filter === undefined ? {} : { filter }) })
/** Items per rank among those with `likes` of 100 and more. */
const aggregateOf = (collection: string) =>
  data("POST", "/items/aggregate", {
    dataCollectionId: collection,
    initialFilter: { likes: { $gte: 100 } },
    aggregation: { groupingFields: ["rank"], operations: [{ resultFieldName: "n", itemCount: {} }] },
    sort: [{ fieldName: "rank" }]
  })
const pipelineOf = (collection: string, stages: ReadonlyArray<unknown>) =>
  data("POST", "/items/aggregate-pipeline", { dataCollectionId: collection, pipeline: { stages } })
/** The same, as a pipeline; and a group of every item, which no index serves. */
const LIKED_BY_RANK = [{ filter: { likes: { $gte: 100 } } }, { group: { groupIds: [{ key: "rank", expression: { fieldPath: "rank" } }] } }]
const EVERY_RANK = [{ group: { groupIds: [{ key: "rank", expression: { fieldPath: "rank" } }] } }]

/** Creates an index and waits until it is built. */
const indexOn = (collection: string, name: string, fields: ReadonlyArray<Record<string, string>>) =>
  Effect.gen(function*() {
    yield* ok("POST", "/indexes", { dataCollectionId: collection, index: { name, fields } })
    const calls = yield* adminCalls
    yield* Effect.promise(() => calls.indexesBuilt(collection))
  })

const refusedFor = (answer: { readonly status: number; readonly text: string; readonly body: any; readonly headers?: Headers }, collection: string, fields: ReadonlyArray<string>, rowsScanned = 150) => {
  assert.strictEqual(answer.status, 429, answer.text)
  assert.strictEqual(answer.body.details.applicationError.code, "WDE0028")
  // no throttle: nothing to wait out
  assert.isNull(answer.headers?.get("retry-after") ?? null)
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
      assert.strictEqual(refused.status, 429, refused.text)
      assert.strictEqual(refused.body.details.applicationError.code, "WDE0028")
      assert.match(refused.body.details.applicationError.description, /^Operation time limit exceeded: /)
      assert.deepInclude(refused.body.details.applicationError.data, { collection: id, fields: ["rank", "likes"], rowsScanned: 150, timeoutSeconds: 5 })
      assert.deepInclude(refused.body.details.rule, { kind: "bound", id: "data.query.timeout", fields: ["rank", "likes"], limit: 100 })
      // a count with the filter scans the same items
      const counted = yield* data("POST", "/items/count", { dataCollectionId: id, filter: { rank: 3 } })
      assert.strictEqual(counted.status, 429)

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
      assert.strictEqual((yield* queryOf(id, { filter: { rank: 3 } })).status, 429)
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

  it.effect("distinct values past the threshold are refused as timed out; they answer with the suggested index", () =>
    Effect.gen(function*() {
      yield* dev("POST", "/profile", { profile: "production", plan: "free" })
      const id = yield* collectionOf(150)
      refusedFor(yield* distinctOf(id, "likes", { rank: 3 }), id, ["rank", "likes"])
      // without a filter the values of the whole collection are read, in the field's order
      refusedFor(yield* distinctOf(id, "rank"), id, ["rank"])

      const advised = (yield* distinctOf(id, "likes", { rank: 3 })).body.details.applicationError.data.fields as ReadonlyArray<string>
      yield* indexOn(id, "advised", advised.map((path) => ({ path })))
      const answered = yield* distinctOf(id, "likes", { rank: 3 })
      assert.strictEqual(answered.status, 200, answered.text)
      assert.deepStrictEqual(answered.body.distinctValues, [3, 13, 23, 33, 43, 53, 63, 73, 83, 93, 103, 113, 123, 133, 143])
      // an index led by rank gives rank's values in order too
      const ranks = yield* distinctOf(id, "rank")
      assert.strictEqual(ranks.status, 200, ranks.text)
      assert.deepStrictEqual(ranks.body.distinctValues, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    }))

  it.effect("an aggregation or a pipeline whose filter scans past the threshold is refused; the suggested index lets it answer, a group of every item needs a filter", () =>
    Effect.gen(function*() {
      yield* dev("POST", "/profile", { profile: "production", plan: "free" })
      const id = yield* collectionOf(150)
      refusedFor(yield* aggregateOf(id), id, ["likes"])
      refusedFor(yield* pipelineOf(id, LIKED_BY_RANK), id, ["likes"])
      // a group of every item reads all of them whatever the indexes: no field to advise
      const everything = yield* pipelineOf(id, EVERY_RANK)
      refusedFor(everything, id, [])
      assert.match(everything.body.message, /no index serves it/)
      // a pipeline that only reshapes reads its page
      const page = yield* pipelineOf(id, [{ projection: { fields: [{ include: { fieldName: "likes" } }] } }, { limit: 2 }])
      assert.strictEqual(page.status, 200, page.text)

      yield* indexOn(id, "byLikes", [{ path: "likes" }])
      const aggregated = yield* aggregateOf(id)
      assert.strictEqual(aggregated.status, 200, aggregated.text)
      assert.deepStrictEqual(aggregated.body.results.map((r: any) => [r.rank, r.n]), [[0, 5], [1, 5], [2, 5], [3, 5], [4, 5], [5, 5], [6, 5], [7, 5], [8, 5], [9, 5]])
      const piped = yield* pipelineOf(id, LIKED_BY_RANK)
      assert.strictEqual(piped.status, 200, piped.text)
      assert.strictEqual(piped.body.results.length, 10)
      refusedFor(yield* pipelineOf(id, EVERY_RANK), id, [])
    }))

  it.effect("without the profile distinct values and aggregations answer, and the request log carries their advice", () =>
    Effect.gen(function*() {
      yield* dev("POST", "/profile", { profile: "none", plan: "free" })
      const id = yield* collectionOf(150)
      const values = yield* distinctOf(id, "likes", { rank: 3 })
      assert.strictEqual(values.status, 200, values.text)
      assert.strictEqual(values.body.distinctValues.length, 15)
      const distinctLog = yield* dev("GET", "/requests?path=/wix-data/v2/items/query-distinct-values&limit=1")
      assert.deepStrictEqual(distinctLog.requests[0].advice, { collection: id, fields: ["rank", "likes"], rowsScanned: 150 })

      assert.strictEqual((yield* aggregateOf(id)).status, 200)
      const aggregateLog = yield* dev("GET", "/requests?path=/wix-data/v2/items/aggregate&limit=1")
      assert.deepStrictEqual(aggregateLog.requests[0].advice, { collection: id, fields: ["likes"], rowsScanned: 150 })

      assert.strictEqual((yield* pipelineOf(id, EVERY_RANK)).status, 200)
      const pipelineLog = yield* dev("GET", "/requests?path=/wix-data/v2/items/aggregate-pipeline&limit=1")
      assert.deepStrictEqual(pipelineLog.requests[0].advice, { collection: id, fields: [], rowsScanned: 150 })
      assert.match(describeRequest(pipelineLog.requests[0]), new RegExp(`index advice: ${id} \\(no index serves it: filter first on indexed fields\\), 150 items scanned$`))
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

/**
 * The local platform's indexes are the ones SQLite plans with: a query filtered or sorted on indexed
 * fields, written as the engine writes it (its own filter translator and sort terms), is planned on the
 * index (the platform gathers the planner's statistics when it builds one; without them SQLite kept to
 * the table's primary key); without the index the same query scans and sorts. Read from `EXPLAIN QUERY PLAN`.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Database } from "../../../src/server/platform/Database.ts"
import { compileFilter } from "../../../src/server/store/filters.ts"
import { ITEMS } from "../../../src/server/data/ItemStore.ts"
import { orderBy, sortTerms } from "../../../src/server/store/sql.ts"
import { bulkInsert, createCollection, ok, uniqueId } from "./support.ts"
import { layerWithCore } from "../../../src/server/LocalPlatform.ts"

const active = (collection: string, name: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 200; i++) {
      const listed = yield* ok("GET", `/indexes?dataCollectionId=${collection}`)
      const index = listed.indexes.find((x: { name: string }) => x.name === name)
      if (index?.status === "ACTIVE") return index
      yield* Effect.sleep("10 millis")
    }
    return yield* Effect.die(new Error(`index ${name} never became ACTIVE`))
  })

/** The plan of the engine's query: the collection's items matching `filter`, in the order of `sort`. */
const plan = (collection: string, filter: unknown, sort: ReadonlyArray<{ fieldName: string; order?: "ASC" | "DESC" }>) =>
  Effect.gen(function*() {
    const db = yield* Database
    const where = compileFilter(filter, ITEMS, "filter")
    const rows = db.all(
      `EXPLAIN QUERY PLAN SELECT id FROM data_items WHERE collection_id = ? AND ${where.sql} ORDER BY ${orderBy(sortTerms(ITEMS, sort))} LIMIT 50`,
      collection,
      ...where.params
    )
    return rows.map((r) => String(r.detail)).join(" | ")
  })

it.layer(layerWithCore({}), { excludeTestServices: true })("index query plans", (it) => {
  it.effect("a filtered, sorted query is planned on the collection's index, and scans without it", () =>
    Effect.gen(function*() {
      const id = uniqueId("Planned")
      yield* createCollection({ id })
      yield* bulkInsert(id, Array.from({ length: 500 }, (_, i) => ({ rank: i % 10, likes: i })))
      const filter = { rank: 3 }
      const sort = [{ fieldName: "rank" }, { fieldName: "likes", order: "DESC" as const }]

      const before = yield* plan(id, filter, sort)
      assert.notMatch(before, /sfx_idx_/)
      assert.match(before, /TEMP B-TREE FOR ORDER BY/)

      const created = yield* ok("POST", "/indexes", { dataCollectionId: id, index: { name: "byRankLikes", fields: [{ path: "rank" }, { path: "likes", order: "DESC" }] } })
      yield* active(id, "byRankLikes")
      // filtered on the index's first field: the index finds the items
      assert.include(yield* plan(id, filter, sort), `USING INDEX ${created.index.id}`)
      // sorted as the index is: the index gives the order, with no sort of its own
      const sorted = yield* plan(id, {}, sort)
      assert.include(sorted, `USING INDEX ${created.index.id}`)
      assert.notMatch(sorted, /TEMP B-TREE FOR ORDER BY/)
    }))
})

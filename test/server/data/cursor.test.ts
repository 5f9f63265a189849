/**
 * Cursor paging under concurrent writes: between page fetches, items are inserted (anywhere in the
 * order, equal sort keys included) and removed. Every item present from the first page to the last is
 * seen exactly once, no item is seen twice, and the pages keep the sort order. Then, the writes over,
 * paging back from the last page through `prev` cursors gives exactly the query's full answer. Half
 * the runs page through an index that holds the sort's order (the platform then seeks in it).
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { LocalPlatform } from "../../../src/server/index.ts"
import { adminCalls } from "./support.ts"

const sortSpec = fc.oneof(
  fc.constant([]),
  fc.tuple(fc.constantFrom("ASC", "DESC")).map(([order]) => [{ fieldName: "score", order }]),
  fc.tuple(fc.constantFrom("ASC", "DESC"), fc.constantFrom("ASC", "DESC")).map(([a, b]) => [{ fieldName: "group", order: a }, { fieldName: "score", order: b }])
)

const step = fc.record({
  inserts: fc.array(fc.record({ group: fc.constantFrom("x", "y", null), score: fc.integer({ min: 0, max: 20 }) }), { maxLength: 8 }),
  removals: fc.array(fc.nat(), { maxLength: 6 })
})

it.layer(LocalPlatform.layer({ seed: "none" }), { excludeTestServices: true })("cursor paging", (it) => {
  it.effect("is stable under concurrent inserts and removals", () =>
    Effect.gen(function*() {
      const { post, indexesBuilt } = yield* adminCalls
      let run = 0
      let pagesSeen = 0
      let indexedRuns = 0
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(
            fc.array(fc.record({ group: fc.constantFrom("x", "y", null), score: fc.integer({ min: 0, max: 20 }) }), { minLength: 20, maxLength: 80 }),
            sortSpec,
            fc.integer({ min: 1, max: 9 }),
            fc.array(step, { minLength: 20, maxLength: 20 }),
            async (initial, sort, limit, steps) => {
              // every other run reads through an index (when it sorts): a coin flip left some runs of
              // 25 with three indexed ones or fewer, one run in thirty
              const indexed = run % 2 === 0
              const collection = `Cursor_${run++}`
              await post("/collections", { collection: { id: collection } })
              let next = 0
              const insert = async (rows: ReadonlyArray<Record<string, unknown>>) => {
                if (rows.length === 0) return
                await post("/bulk/items/insert", { dataCollectionId: collection, dataItems: rows.map((data) => ({ id: `n${next++}`, data })) })
              }
              await insert(initial)
              if (indexed && sort.length > 0) {
                // an index ends with the item's sequence, ascending: for a sort whose last field descends
                // the index holds every field the other way round, and is read backwards
                const flipLast = (sort[sort.length - 1] as { order: string }).order === "DESC"
                const fields = (sort as ReadonlyArray<{ fieldName: string; order: string }>).map((s) => ({ path: s.fieldName, order: (s.order === "DESC") !== flipLast ? "DESC" : "ASC" }))
                await post("/indexes", { dataCollectionId: collection, index: { name: "bySort", fields } })
                await indexesBuilt(collection)
                indexedRuns++
              }
              const present = new Set(Array.from({ length: next }, (_, i) => `n${i}`))
              const throughout = new Set(present)
              const seen: Array<Record<string, any>> = []
              let page = await post("/items/query", { dataCollectionId: collection, query: { sort, cursorPaging: { limit } } })
              seen.push(...page.dataItems.map((d: any) => d.data))
              for (let i = 0; page.pagingMetadata.hasNext; i++) {
                // writes during the first pages only, so that paging ends
                const change = steps[i] ?? { inserts: [], removals: [] }
                await insert(change.inserts)
                for (let j = next - change.inserts.length; j < next; j++) present.add(`n${j}`)
                const ids = [...present]
                const doomed = [...new Set(change.removals.map((r) => ids[r % ids.length]!))]
                if (doomed.length > 0) await post("/bulk/items/remove", { dataCollectionId: collection, dataItemIds: doomed })
                for (const id of doomed) {
                  present.delete(id)
                  throughout.delete(id)
                }
                page = await post("/items/query", { dataCollectionId: collection, query: { cursorPaging: { limit, cursor: page.pagingMetadata.cursors.next } } })
                seen.push(...page.dataItems.map((d: any) => d.data))
                pagesSeen++
              }
              // the writes over (the last page above may be empty: its items were removed after the page
              // before it said there were more), to the last page once more, then back from it: every page
              // before it, in order, and nothing else
              const all = (await post("/items/query", { dataCollectionId: collection, query: { sort, paging: { limit: 1000 } } })).dataItems.map((d: any) => d.id)
              let at = await post("/items/query", { dataCollectionId: collection, query: { sort, cursorPaging: { limit } } })
              while (at.pagingMetadata.hasNext) {
                at = await post("/items/query", { dataCollectionId: collection, query: { cursorPaging: { limit, cursor: at.pagingMetadata.cursors.next } } })
              }
              const back: Array<string> = at.dataItems.map((d: any) => d.id)
              while (at.pagingMetadata.cursors?.prev !== undefined && at.pagingMetadata.cursors?.prev !== null) {
                assert.isAtMost(back.length, all.length, "paging back went on past the first item")
                at = await post("/items/query", { dataCollectionId: collection, query: { cursorPaging: { limit, cursor: at.pagingMetadata.cursors.prev } } })
                back.unshift(...at.dataItems.map((d: any) => d.id))
              }
              assert.deepStrictEqual(back, all, "paging back did not give the query's answer")
              const ids = seen.map((d) => d["_id"] as string)
              assert.strictEqual(new Set(ids).size, ids.length, "an item was seen twice")
              for (const id of throughout) assert.include(ids, id, `${id} was present throughout but never seen`)
              // pages keep the order: each item sorts after the one before it
              const rank = (v: unknown) => (v === null || v === undefined ? 0 : typeof v === "number" ? 1 : 2)
              for (let i = 1; i < seen.length; i++) {
                for (const s of sort as ReadonlyArray<{ fieldName: string; order: string }>) {
                  const a = seen[i - 1]![s.fieldName]
                  const b = seen[i]![s.fieldName]
                  const c = rank(a) - rank(b) || (a === b ? 0 : (a as never) < (b as never) ? -1 : 1)
                  if (c !== 0) {
                    assert.isTrue(s.order === "DESC" ? c > 0 : c < 0, `out of order at ${i}`)
                    break
                  }
                }
              }
            }
          ),
          // a run costs up to a few hundred requests: shrinking a failure would outlast the timeout
          { numRuns: 25, endOnFailure: true }
        )
      )
      assert.isAbove(pagesSeen, 100)
      assert.isAbove(indexedRuns, 1)
    }), 120_000)
})

/**
 * 100 000 items in through bulk inserts of 1000 and out through cursor pages of 1000, over HTTP.
 * Prints the timings; asserts that every item comes back exactly once and that the last pages of the
 * export cost about what the first ones did (a cursor page must not scan what came before it). Then the
 * same, sorted on a field with many equal values, through an index on it, in both directions.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { LocalPlatform } from "../../../src/server/index.ts"
import { adminCalls } from "./support.ts"

const TOTAL = 100_000
const CHUNK = 1000

it.layer(LocalPlatform.layer({ seed: "none" }), { excludeTestServices: true })("at scale", (it) => {
  it.effect(`${TOTAL} items: bulk insert by ${CHUNK}, export by cursor pages of ${CHUNK}`, () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const key = Redacted.value(platform.apiKey)
      const { indexesBuilt } = yield* adminCalls
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${platform.url}/wix-data/v2${path}`, { method: "POST", headers: { authorization: key, "content-type": "application/json" }, body: JSON.stringify(body) })
        const json = await res.json() as any
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`)
        return json
      }
      const result = yield* Effect.promise(async () => {
        await post("/collections", { collection: { id: "Big" } })
        const insertStart = performance.now()
        for (let start = 0; start < TOTAL; start += CHUNK) {
          const dataItems = Array.from({ length: CHUNK }, (_, j) => {
            const i = start + j
            return { data: { i, name: `item ${i}`, group: i % 7, at: { $date: new Date(1_700_000_000_000 + i * 1000).toISOString() } } }
          })
          const r = await post("/bulk/items/insert", { dataCollectionId: "Big", dataItems })
          if (r.bulkActionMetadata.totalSuccesses !== CHUNK) throw new Error(`chunk at ${start}: ${JSON.stringify(r.bulkActionMetadata)}`)
        }
        const insertMs = performance.now() - insertStart
        const exportStart = performance.now()
        const pageMs: Array<number> = []
        const seen = new Set<number>()
        let page: any = undefined
        do {
          const t = performance.now()
          page = await post("/items/query", {
            dataCollectionId: "Big",
            query: { cursorPaging: { limit: CHUNK, ...(page === undefined ? {} : { cursor: page.pagingMetadata.cursors.next }) } }
          })
          pageMs.push(performance.now() - t)
          for (const item of page.dataItems) seen.add(item.data.i)
        } while (page.pagingMetadata.hasNext)
        const exportMs = performance.now() - exportStart
        // sorted through an index: 7 groups of about 14 000 equal values, ties in insertion order
        await post("/indexes", { dataCollectionId: "Big", index: { name: "byGroup", fields: [{ path: "group" }] } })
        await indexesBuilt("Big")
        const sorted: Record<string, { pageMs: Array<number>; order: Array<number> }> = {}
        for (const order of ["ASC", "DESC"]) {
          const run = { pageMs: [] as Array<number>, order: [] as Array<number> }
          let at: any = undefined
          do {
            const t = performance.now()
            at = await post("/items/query", {
              dataCollectionId: "Big",
              query: at === undefined ? { sort: [{ fieldName: "group", order }], cursorPaging: { limit: CHUNK } } : { cursorPaging: { limit: CHUNK, cursor: at.pagingMetadata.cursors.next } }
            })
            run.pageMs.push(performance.now() - t)
            for (const item of at.dataItems) run.order.push(item.data.i)
          } while (at.pagingMetadata.hasNext)
          sorted[order] = run
        }
        return { insertMs, exportMs, pageMs, seen: seen.size, sorted }
      })
      const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
      const early = mean(result.pageMs.slice(1, 11))
      const late = mean(result.pageMs.slice(-10))
      console.log(
        `${TOTAL} items: bulk insert ${Math.round(result.insertMs)} ms, cursor export ${Math.round(result.exportMs)} ms ` +
          `(${result.pageMs.length} pages; first pages ${early.toFixed(1)} ms, last pages ${late.toFixed(1)} ms each)`
      )
      assert.strictEqual(result.seen, TOTAL)
      assert.strictEqual(result.pageMs.length, TOTAL / CHUNK)
      assert.isBelow(late, early * 3 + 20, "late pages cost much more than early ones")
      for (const [order, run] of Object.entries(result.sorted)) {
        // by group, then in insertion order (which follows the last sort field's direction)
        const expected = Array.from({ length: TOTAL }, (_, i) => i).sort((a, b) => order === "ASC" ? (a % 7) - (b % 7) || a - b : (b % 7) - (a % 7) || b - a)
        assert.deepStrictEqual(run.order, expected, `sorted ${order}`)
        const first = mean(run.pageMs.slice(1, 11))
        const last = mean(run.pageMs.slice(-10))
        console.log(`sorted by an indexed field, ${order}: first pages ${first.toFixed(1)} ms, last pages ${last.toFixed(1)} ms each`)
        assert.isBelow(last, first * 3 + 20, `sorted ${order}: late pages cost much more than early ones`)
      }
    }), 180_000)
})

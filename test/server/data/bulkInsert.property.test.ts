/**
 * A bulk insert writes its items several rows per SQL statement; the outcome must be exactly that of
 * inserting the same items one request at a time. Random requests of up to 300 items (so batches of
 * 64 and 8 rows and single rows all occur, with refusals inside them) mix ids repeated within the
 * request, ids already stored, items without an id, malformed `_id`s, and values that a unique index
 * refuses. Each item's success and error code, the stored items and their order (insertion order is
 * the default order) must match between a collection filled by one bulk insert and one filled item by
 * item.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { LocalPlatform } from "../../../src/server/index.ts"
import { adminCalls } from "./support.ts"

const item = fc.record({
  // a small pool of ids: repeats within a request and clashes with stored items are common
  id: fc.oneof({ arbitrary: fc.constantFrom("a", "b", "c", "d", "e", "f", "g"), weight: 2 }, { arbitrary: fc.constant(undefined), weight: 3 }, {
    arbitrary: fc.nat().map((n) => `u${n}`),
    weight: 4
  }),
  // `code` is under a unique index: a small pool makes refusals likely, and a missing code is never refused
  code: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined, freq: 3 }),
  n: fc.integer(),
  // an API key may name the owner
  owner: fc.option(fc.constantFrom("o1", "o2"), { nil: undefined, freq: 3 }),
  badId: fc.oneof({ arbitrary: fc.constant(false), weight: 15 }, { arbitrary: fc.constant(true), weight: 1 })
})

const toWire = (i: typeof item extends fc.Arbitrary<infer T> ? T : never) => {
  const data: Record<string, unknown> = { n: i.n, ...(i.owner === undefined ? {} : { _owner: i.owner }), ...(i.code === undefined ? {} : { code: `k${i.code}` }) }
  if (i.badId) return { data: { ...data, _id: 12 } }
  return i.id === undefined ? { data } : { id: i.id, data }
}

it.layer(LocalPlatform.layer({ seed: "none" }), { excludeTestServices: true })("bulk insert in batches", (it) => {
  it.effect("gives every item the fate of inserting the items one by one", () =>
    Effect.gen(function*() {
      const { send } = yield* adminCalls
      const call = (path: string, body: unknown) => send("POST", path, body)
      const prepare = async (collection: string, stored: ReadonlyArray<unknown>) => {
        await call("/collections", { collection: { id: collection } })
        const index = await call("/indexes", { dataCollectionId: collection, index: { name: "uniqueCode", fields: [{ path: "code" }], unique: true } })
        assert.strictEqual(index.status, 200)
        for (let i = 0; i < 100; i++) {
          if ((await send("GET", `/indexes?dataCollectionId=${collection}`)).body.indexes[0].status === "ACTIVE") break
          await new Promise((r) => setTimeout(r, 5))
        }
        if (stored.length > 0) assert.strictEqual((await call("/bulk/items/insert", { dataCollectionId: collection, dataItems: stored })).status, 200)
      }
      const contents = async (collection: string) => {
        const page = await call("/items/query", { dataCollectionId: collection, query: { paging: { limit: 1000 } } })
        // generated ids differ between the two collections; the data and the order must not
        return (page.body.dataItems as Array<any>).map((d) => ({
          keys: Object.keys(d.data).join(","),
          n: d.data.n,
          code: d.data.code,
          owner: d.data._owner,
          id: /^([a-g]|u\d+)$/.test(d.id) ? d.id : "generated"
        }))
      }

      let run = 0
      let refusedByIndex = 0
      let exists = 0
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(fc.array(item, { maxLength: 5 }), fc.array(item, { minLength: 1, maxLength: 300, size: "max" }), async (before, items) => {
            const stored = before.map(toWire).filter((w) => typeof w.data._id !== "number")
            const bulk = `BulkBatch_${run}`
            const single = `BulkSingle_${run++}`
            await prepare(bulk, stored)
            await prepare(single, stored)
            const wire = items.map(toWire)
            const answer = await call("/bulk/items/insert", { dataCollectionId: bulk, dataItems: wire })
            assert.strictEqual(answer.status, 200)
            const results = answer.body.results as Array<any>
            assert.strictEqual(results.length, wire.length)
            for (let i = 0; i < wire.length; i++) {
              const one = await call("/items", { dataCollectionId: single, dataItem: wire[i] })
              const r = results[i]
              assert.strictEqual(r.itemMetadata.originalIndex, i)
              assert.strictEqual(r.itemMetadata.success, one.status === 200, `item ${i}: ${JSON.stringify(wire[i])} ${JSON.stringify(one.body)}`)
              if (one.status !== 200) {
                const code = one.body.details.applicationError.code
                assert.strictEqual(r.itemMetadata.error.code, code, `item ${i}`)
                if (code === "UNIQUE_INDEX_VIOLATION") refusedByIndex++
                if (code === "WDE0074") exists++
              } else if (wire[i]!.id !== undefined) {
                assert.strictEqual(r.itemMetadata.id, wire[i]!.id)
              }
            }
            const written = await contents(bulk)
            assert.deepStrictEqual(written, await contents(single))
            // the item's own fields first (a given `_owner` aside), then the system fields
            for (const item of written) assert.match(item.keys, /^n(,code)?,_id,_createdDate,_updatedDate(,_owner)?$/)
          }),
          { numRuns: 25 }
        )
      )
      // the generators must keep producing both kinds of refusal, or the comparison proves little
      assert.isAbove(refusedByIndex, 20, "unique index refusals")
      assert.isAbove(exists, 20, "existing ids")
    }), 120_000)
})

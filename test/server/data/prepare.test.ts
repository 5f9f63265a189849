/**
 * Bulk insert bodies prepared on the worker thread give what the request thread gives for the same
 * body: ids, each item's own refusal, normalized dates, stored JSON in its key order, named owners.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { BulkPreparer } from "../../../src/server/data/BulkPreparer.ts"
import { prepareBulkText, withOwner } from "../../../src/server/data/prepare.ts"

const NOW = "2026-11-22T10:00:00.000Z"
const encode = (value: unknown) => new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value))

/** A thousand items: some refused (a number as `_id`), some empty, some naming an owner or their `_id`, no date in its normal form. */
const request = {
  dataCollectionId: "Prepared",
  suppressHooks: true,
  dataItems: Array.from({ length: 1000 }, (_, i) =>
    i % 97 === 5
      ? { id: `p${i}`, data: { _id: 7 } }
      : i % 97 === 6
      ? { id: `p${i}`, data: null }
      : i % 97 === 7
      ? { data: { title: "no id" } }
      : {
        id: `p${i}`,
        data: {
          ...(i % 13 === 0 ? { _id: `p${i}` } : {}),
          title: `Item ${i} ${"x".repeat(60)}`,
          when: { $date: "2024-01-01T00:00:00Z" },
          ...(i % 10 === 0 ? { _owner: "someone" } : {})
        }
      })
}

describe("bulk insert preparation", () => {
  it.effect("the worker thread prepares a big body as the request thread does", () =>
    Effect.gen(function*() {
      const preparer = yield* BulkPreparer
      const body = encode(request)
      assert.isAbove(body.byteLength, 64 * 1024)
      const threaded = yield* preparer.prepare(body, NOW)
      // still threaded afterwards: the worker answered, nothing fell back
      assert.isTrue(preparer.threaded())
      const here = prepareBulkText(JSON.stringify(request), NOW)!
      // ids generated for id-less items differ between the two; everything else is the same
      const generated = (request.dataItems as Array<{ id?: string }>).flatMap((item, i) => (item.id === undefined ? [i] : []))
      assert.isAbove(generated.length, 0)
      for (const i of generated) {
        assert.match(threaded!.ids[i]!, /^[0-9a-f-]{36}$/)
        assert.strictEqual(threaded!.texts[i], here.texts[i]!.replace(here.ids[i]!, threaded!.ids[i]!))
        here.ids[i] = threaded!.ids[i]
        here.texts[i] = threaded!.texts[i]
      }
      assert.deepStrictEqual(threaded, here)

      assert.strictEqual(here.collectionId, "Prepared")
      assert.isTrue(here.suppressHooks)
      assert.deepStrictEqual([here.failures[5]?.code, here.failures[6], here.failures[7]], ["WDE0002", undefined, undefined])
      assert.deepStrictEqual([here.ids[5], here.texts[5], here.given[5], here.given[7]], [undefined, undefined, "p5", undefined])
      assert.strictEqual(here.texts[6], `{"_id":"p6","_createdDate":{"$date":"${NOW}"},"_updatedDate":{"$date":"${NOW}"}}`)
      // fields, then `_id` (where the item had it), then the dates; the named owner kept aside
      const first = JSON.parse(here.texts[0]!)
      assert.deepStrictEqual(Object.keys(first), ["_id", "title", "when", "_createdDate", "_updatedDate"])
      assert.deepStrictEqual([first.when, first._createdDate, here.owners[0]], [{ $date: "2024-01-01T00:00:00.000Z" }, { $date: NOW }, "someone"])
      assert.deepStrictEqual(Object.keys(JSON.parse(here.texts[1]!)), ["title", "when", "_id", "_createdDate", "_updatedDate"])
      assert.strictEqual(here.owners[1], undefined)
      assert.deepStrictEqual(JSON.parse(withOwner(here.texts[0]!, "m1"))._owner, "m1")
    }).pipe(Effect.provide(BulkPreparer.layer)))

  it.effect("a body that is not a plain bulk request is left to the request thread, from the worker too", () =>
    Effect.gen(function*() {
      const preparer = yield* BulkPreparer
      const big = "x".repeat(70 * 1024)
      for (const body of [`{"dataCollectionId":"C","dataItems":[${big}`, JSON.stringify({ dataCollectionId: "C", dataItems: [], note: big, returnEntity: "yes" })]) {
        assert.isUndefined(yield* preparer.prepare(encode(body), NOW))
      }
      const tooMany = { dataCollectionId: "C", dataItems: Array.from({ length: 1001 }, () => ({ data: { t: "y".repeat(60) } })) }
      assert.isUndefined(yield* preparer.prepare(encode(tooMany), NOW))
      assert.isUndefined(prepareBulkText("", NOW))
      assert.isTrue(preparer.threaded())
    }).pipe(Effect.provide(BulkPreparer.layer)))
})

import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { domainOf, loggedSince, logMark } from "../../support/eventLog.ts"
import { bulkInsert, codeOf, count, data, freshCollection, ids, ok, query } from "./support.ts"
import { layerWithCore } from "../../../src/server/LocalPlatform.ts"

const metadata = (r: any) => (r.results as Array<any>).map((x) => [x.action, x.itemMetadata.originalIndex, x.itemMetadata.id, x.itemMetadata.success, x.itemMetadata.error?.code])

const jobDone = (jobId: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 200; i++) {
      const status = yield* ok("GET", `/async-jobs/${jobId}/status`)
      if (status.status === "SUCCEEDED" || status.status === "FAILED") return status
      yield* Effect.sleep("10 millis")
    }
    return yield* Effect.die(new Error(`job ${jobId} did not finish`))
  })

it.layer(layerWithCore({}), { excludeTestServices: true })("bulk writes", (it) => {
  it.effect("bulk insert accounts for every index: existing ids fail WDE0074, the others go in", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* bulkInsert(c, [{ _id: "b", v: 0 }])
      const r = yield* ok("POST", "/bulk/items/insert", {
        dataCollectionId: c,
        dataItems: [{ id: "a", data: { v: 1 } }, { id: "b", data: { v: 2 } }, { data: { v: 3 } }, { data: { _id: "a", v: 4 } }, { data: { _id: 7 } }],
        returnEntity: true
      })
      const m = metadata(r)
      assert.deepStrictEqual(m[0], ["INSERT", 0, "a", true, undefined])
      assert.deepStrictEqual(m[1], ["INSERT", 1, "b", false, "WDE0074"])
      assert.deepStrictEqual(m[2]?.slice(0, 2), ["INSERT", 2])
      assert.isTrue(m[2]?.[3])
      assert.deepStrictEqual(m[3], ["INSERT", 3, "a", false, "WDE0074"])
      assert.deepStrictEqual(m[4]?.[4], "WDE0002")
      assert.deepStrictEqual(r.bulkActionMetadata, { totalSuccesses: 2, totalFailures: 3 })
      assert.strictEqual(r.results[0].dataItem.data.v, 1)
      assert.isUndefined(r.results[1].dataItem)
      assert.strictEqual(yield* count(c), 3)
      // the item that already existed is untouched
      assert.strictEqual((yield* query(c, { filter: { _id: "b" } })).dataItems[0].data.v, 0)
    }))

  it.effect("bulk update, save, patch and remove: WDE0073 for missing items, actions per item, entities only when asked", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* bulkInsert(c, [{ _id: "a", n: 1 }, { _id: "b", n: 2 }])
      const updated = yield* ok("POST", "/bulk/items/update", { dataCollectionId: c, dataItems: [{ id: "a", data: { n: 10 } }, { id: "zz", data: { n: 0 } }, { data: { n: 0 } }] })
      assert.deepStrictEqual(metadata(updated).map((x) => x.slice(0, 4).concat([x[4]])), [
        ["UPDATE", 0, "a", true, undefined],
        ["UPDATE", 1, "zz", false, "WDE0073"],
        ["UPDATE", 2, undefined, false, "WDE0007"]
      ])
      assert.isUndefined(updated.results[0].dataItem)
      const saved = yield* ok("POST", "/bulk/items/save", { dataCollectionId: c, dataItems: [{ id: "b", data: { n: 20 } }, { id: "c", data: { n: 30 } }] })
      assert.deepStrictEqual(metadata(saved), [["UPDATE", 0, "b", true, undefined], ["INSERT", 1, "c", true, undefined]])
      const patched = yield* ok("POST", "/bulk/items/patch", {
        dataCollectionId: c,
        patches: [
          { dataItemId: "a", fieldModifications: [{ fieldPath: "n", action: "INCREMENT_FIELD", incrementFieldOptions: { value: 1 } }] },
          { dataItemId: "nope", fieldModifications: [{ fieldPath: "n", action: "INCREMENT_FIELD", incrementFieldOptions: { value: 1 } }] },
          { dataItemId: "b", fieldModifications: [{ fieldPath: "n", action: "APPEND_TO_ARRAY", appendToArrayOptions: { value: 1 } }] }
        ],
        returnEntity: true
      })
      assert.deepStrictEqual(metadata(patched).map((x) => [x[0], x[1], x[3], x[4]]), [["PATCH", 0, true, undefined], ["PATCH", 1, false, "WDE0073"], ["PATCH", 2, false, "WDE0004"]])
      assert.strictEqual(patched.results[0].dataItem.data.n, 11)
      const removed = yield* ok("POST", "/bulk/items/remove", { dataCollectionId: c, dataItemIds: ["a", "ghost", "c"] })
      assert.deepStrictEqual(metadata(removed), [["DELETE", 0, "a", true, undefined], ["DELETE", 1, "ghost", false, "WDE0073"], ["DELETE", 2, "c", true, undefined]])
      assert.deepStrictEqual(ids(yield* query(c, {})), ["b"])
      assert.strictEqual((yield* query(c, {})).dataItems[0].data.n, 20)
    }))

  it.effect("more than 1000 items is 400 WDE0006 (WDE0069 for removals) and changes nothing", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      const many = Array.from({ length: 1001 }, (_, i) => ({ id: `x${i}`, data: { i } }))
      const insert = yield* data("POST", "/bulk/items/insert", { dataCollectionId: c, dataItems: many })
      assert.strictEqual(insert.status, 400)
      assert.strictEqual(codeOf(insert), "WDE0006")
      const save = yield* data("POST", "/bulk/items/save", { dataCollectionId: c, dataItems: many })
      assert.strictEqual(codeOf(save), "WDE0006")
      const remove = yield* data("POST", "/bulk/items/remove", { dataCollectionId: c, dataItemIds: many.map((m) => m.id) })
      assert.strictEqual(remove.status, 400)
      assert.strictEqual(codeOf(remove), "WDE0069")
      assert.strictEqual(yield* count(c), 0)
      const exactly = yield* ok("POST", "/bulk/items/insert", { dataCollectionId: c, dataItems: many.slice(0, 1000) })
      assert.strictEqual(exactly.bulkActionMetadata.totalSuccesses, 1000)
    }))

  it.effect("async patch and remove by filter run in the background and report their progress", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* bulkInsert(c, Array.from({ length: 450 }, (_, i) => ({ _id: `j${i}`, i, kind: i % 3 === 0 ? "fizz" : "other" })))
      const patch = yield* ok("POST", "/bulk/items/async-patch-by-filter", {
        dataCollectionId: c,
        filter: { kind: "fizz" },
        fieldModifications: [{ fieldPath: "touched", action: "SET_FIELD", setFieldOptions: { value: true } }]
      })
      assert.isString(patch.jobId)
      const patched = yield* jobDone(patch.jobId)
      assert.deepStrictEqual(patched, { status: "SUCCEEDED", successCount: 150 })
      assert.strictEqual(yield* count(c, { touched: true }), 150)
      const remove = yield* ok("POST", "/bulk/items/async-remove-by-filter", { dataCollectionId: c, filter: { touched: { $ne: true } } })
      assert.deepStrictEqual(yield* jobDone(remove.jobId), { status: "SUCCEEDED", successCount: 300 })
      assert.strictEqual(yield* count(c), 150)
      const unknown = yield* data("GET", "/async-jobs/no-such-job/status")
      assert.strictEqual(unknown.status, 404)
      const badFilter = yield* data("POST", "/bulk/items/async-remove-by-filter", { dataCollectionId: c, filter: { i: { $regex: "1" } } })
      assert.strictEqual(codeOf(badFilter), "WDE0070")
      assert.strictEqual(yield* count(c), 150)
    }))

  it.effect("data events: one per committed change, from single, bulk and async writes, logged in order; none from refused writes", () =>
    Effect.gen(function*() {
      const mark = yield* logMark
      const c = yield* freshCollection()
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "e1", data: { v: 1 } } })
      yield* data("POST", "/items", { dataCollectionId: c, dataItem: { id: "e1", data: { v: 9 } } })
      yield* ok("POST", "/items/update", { dataCollectionId: c, dataItem: { id: "e1", data: { v: 2 } } })
      yield* ok("POST", "/bulk/items/insert", { dataCollectionId: c, dataItems: [{ id: "e2", data: {} }, { id: "e1", data: {} }, { id: "e3", data: {} }] })
      yield* ok("POST", "/bulk/items/remove", { dataCollectionId: c, dataItemIds: ["e2", "nope"] })
      yield* ok("POST", "/items/remove", { dataCollectionId: c, dataItemId: "e1" })
      const job = yield* ok("POST", "/bulk/items/async-remove-by-filter", { dataCollectionId: c, filter: {} })
      yield* jobDone(job.jobId)
      const seen = (yield* loggedSince(mark)).filter((e) => e.type.startsWith("wix.data.v2.data_item"))
      assert.deepStrictEqual(seen.map((e) => [e.type.split("_").pop(), domainOf(e).entityId]), [
        ["created", "e1"],
        ["updated", "e1"],
        ["created", "e2"],
        ["created", "e3"],
        ["deleted", "e2"],
        ["deleted", "e1"],
        ["deleted", "e3"]
      ])
      // ids follow one another: nothing else was logged between them
      assert.deepStrictEqual(seen.map((e) => e.id - mark), [1, 2, 3, 4, 5, 6, 7])
      const updated = domainOf(seen[1]!).updatedEvent!
      assert.strictEqual(updated.modifiedFields!["v"], 1)
      assert.strictEqual((updated.currentEntity as { data: { v: number } }).data.v, 2)
      // a bulk insert's event carries the item as it was stored
      const created = domainOf(seen[2]!).createdEvent!.entity as { id: string; dataCollectionId: string; data: Record<string, unknown> }
      assert.deepStrictEqual(Object.keys(created.data), ["_id", "_createdDate", "_updatedDate"])
      assert.deepStrictEqual([created.id, created.dataCollectionId, created.data["_id"]], ["e2", c, "e2"])
      assert.deepStrictEqual(domainOf(seen[4]!).deletedEvent, { deletedEntity: { id: "e2", dataCollectionId: c } })
      assert.isTrue(seen.every((e) => e.identity.identityType === "WIX_USER"))
    }))
})

import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { base64url } from "../../../src/http/codec.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { codeOf, count, data, freshCollection, ok, OPEN, path } from "./support.ts"

const item = (collection: string, id: string) => data("GET", `${path(`/items/${encodeURIComponent(id)}`)}?dataCollectionId=${collection}&dataItemId=${encodeURIComponent(id)}`)

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("data items", (it) => {
  it.effect("insert: the id from dataItem.id, from data._id, or generated; system fields from the server; dates normalized", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      const before = Date.now()
      const a = yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "a", data: { title: "A", at: { $date: "2026-03-01T10:00:00+02:00" } } } })
      assert.strictEqual(a.dataItem.id, "a")
      assert.strictEqual(a.dataItem.dataCollectionId, c)
      assert.strictEqual(a.dataItem.data._id, "a")
      assert.deepStrictEqual(a.dataItem.data.at, { $date: "2026-03-01T08:00:00.000Z" })
      assert.deepStrictEqual(a.dataItem.data._createdDate, a.dataItem.data._updatedDate)
      assert.isAtLeast(Date.parse(a.dataItem.data._createdDate.$date), before - 1000)
      // an API key without a session owns nothing
      assert.isUndefined(a.dataItem.data._owner)
      const b = yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { data: { _id: "b", title: "B" } } })
      assert.strictEqual(b.dataItem.id, "b")
      const generated = yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { data: { title: "G" } } })
      assert.match(generated.dataItem.id, /^[0-9a-f-]{36}$/)
      assert.strictEqual(generated.dataItem.data._id, generated.dataItem.id)
      // a client's own system dates are ignored
      const forged = yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { data: { _createdDate: { $date: "2000-01-01T00:00:00.000Z" } } } })
      assert.notStrictEqual(forged.dataItem.data._createdDate.$date, "2000-01-01T00:00:00.000Z")
    }))

  it.effect("insert of an existing id is 409 WDE0074 and changes nothing", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "x", data: { v: 1 } } })
      const again = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { id: "x", data: { v: 2 } } })
      assert.strictEqual(again.status, 409)
      assert.strictEqual(codeOf(again), "WDE0074")
      assert.match(again.headers.get("x-wix-request-id") ?? "", /^[0-9a-f-]{36}$/)
      assert.strictEqual((yield* item(c, "x")).body.dataItem.data.v, 1)
      assert.strictEqual(yield* count(c), 1)
    }))

  it.effect("get: 200 with the item, 404 WDE0073 when missing, 404 WDE0025 for an unknown collection; fields and .r payloads", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "a b/c", data: { title: "T", body: "B", nested: { x: 1, y: 2 } } } })
      const found = yield* item(c, "a b/c")
      assert.strictEqual(found.status, 200)
      assert.strictEqual(found.body.dataItem.data.title, "T")
      const missing = yield* item(c, "nope")
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(codeOf(missing), "WDE0073")
      const unknown = yield* item("NoSuchCollection", "a")
      assert.strictEqual(unknown.status, 404)
      assert.strictEqual(codeOf(unknown), "WDE0025")
      const projected = yield* data("GET", `${path(`/items/${encodeURIComponent("a b/c")}`)}?dataCollectionId=${c}&dataItemId=${encodeURIComponent("a b/c")}&fields=title&fields=nested.y`)
      assert.deepStrictEqual(projected.body.dataItem.data, { _id: "a b/c", title: "T", nested: { y: 2 } })
      const r = base64url(JSON.stringify({ dataCollectionId: c, dataItemId: "a b/c", fields: ["body"] }))
      const viaR = yield* data("GET", `${path(`/items/${encodeURIComponent("a b/c")}`)}?.r=${r}`)
      assert.deepStrictEqual(viaR.body.dataItem.data, { _id: "a b/c", body: "B" })
    }))

  it.effect("update replaces the data, keeps _createdDate, moves _updatedDate; a missing item is 404 WDE0073", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      const inserted = yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "u", data: { a: 1, b: 2 } } })
      yield* Effect.sleep("5 millis")
      const updated = yield* ok("POST", "/items/update", { dataCollectionId: c, dataItem: { id: "u", data: { _id: "u", a: 3 } } })
      assert.isUndefined(updated.dataItem.data.b)
      assert.strictEqual(updated.dataItem.data.a, 3)
      assert.deepStrictEqual(updated.dataItem.data._createdDate, inserted.dataItem.data._createdDate)
      assert.isAbove(Date.parse(updated.dataItem.data._updatedDate.$date), Date.parse(inserted.dataItem.data._updatedDate.$date))
      const missing = yield* data("POST", "/items/update", { dataCollectionId: c, dataItem: { id: "ghost", data: { a: 1 } } })
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(codeOf(missing), "WDE0073")
      const noId = yield* data("POST", "/items/update", { dataCollectionId: c, dataItem: { data: { a: 1 } } })
      assert.strictEqual(noId.status, 400)
      assert.strictEqual(codeOf(noId), "WDE0007")
      assert.strictEqual(yield* count(c), 1)
    }))

  it.effect("save inserts or updates and says which", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      const first = yield* ok("POST", "/items/save", { dataCollectionId: c, dataItem: { id: "s", data: { v: 1 } } })
      assert.strictEqual(first.action, "INSERTED")
      const second = yield* ok("POST", "/items/save", { dataCollectionId: c, dataItem: { id: "s", data: { v: 2 } } })
      assert.strictEqual(second.action, "UPDATED")
      assert.strictEqual(second.dataItem.data.v, 2)
      const generated = yield* ok("POST", "/items/save", { dataCollectionId: c, dataItem: { data: { v: 3 } } })
      assert.strictEqual(generated.action, "INSERTED")
      assert.strictEqual(yield* count(c), 2)
    }))

  it.effect("remove answers the removed item; a missing one is 404 WDE0073; truncate empties the collection", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      for (const id of ["r1", "r2", "r3"]) yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id, data: { id } } })
      const removed = yield* ok("POST", "/items/remove", { dataCollectionId: c, dataItemId: "r1" })
      assert.strictEqual(removed.dataItem.id, "r1")
      const again = yield* data("POST", "/items/remove", { dataCollectionId: c, dataItemId: "r1" })
      assert.strictEqual(again.status, 404)
      assert.strictEqual(codeOf(again), "WDE0073")
      assert.strictEqual(yield* count(c), 2)
      assert.deepStrictEqual(yield* ok("POST", "/items/truncate", { dataCollectionId: c }), {})
      assert.strictEqual(yield* count(c), 0)
    }))

  it.effect("patch: set, remove, increment, append, remove from array, on dotted paths", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "p", data: { likes: 1, tags: ["a", "b", "a"], address: { city: "Oslo", zip: "0150" }, gone: true } } })
      const patched = yield* ok("POST", "/items/patch", {
        dataCollectionId: c,
        patch: {
          dataItemId: "p",
          fieldModifications: [
            { fieldPath: "likes", action: "INCREMENT_FIELD", incrementFieldOptions: { value: 2 } },
            { fieldPath: "views", action: "INCREMENT_FIELD", incrementFieldOptions: { value: 5 } },
            { fieldPath: "address.city", action: "SET_FIELD", setFieldOptions: { value: "Bergen" } },
            { fieldPath: "meta.seen", action: "SET_FIELD", setFieldOptions: { value: { $date: "2026-01-01T00:00:00Z" } } },
            { fieldPath: "address.zip", action: "REMOVE_FIELD" },
            { fieldPath: "gone", action: "REMOVE_FIELD" },
            { fieldPath: "tags", action: "APPEND_TO_ARRAY", appendToArrayOptions: { value: "c" } },
            { fieldPath: "tags", action: "REMOVE_FROM_ARRAY", removeFromArrayOptions: { value: "a" } },
            { fieldPath: "list", action: "APPEND_TO_ARRAY", appendToArrayOptions: { value: 1 } }
          ]
        }
      })
      const d = patched.dataItem.data
      assert.strictEqual(d.likes, 3)
      assert.strictEqual(d.views, 5)
      assert.deepStrictEqual(d.address, { city: "Bergen" })
      assert.deepStrictEqual(d.meta, { seen: { $date: "2026-01-01T00:00:00.000Z" } })
      assert.isUndefined(d.gone)
      assert.deepStrictEqual(d.tags, ["b", "c"])
      assert.deepStrictEqual(d.list, [1])
    }))

  it.effect("patch refusals change nothing: a non-number increment, a non-number field, a system field, a missing item", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "p", data: { title: "t", n: 1 } } })
      const patch = (fieldModifications: ReadonlyArray<unknown>, id = "p") =>
        data("POST", "/items/patch", { dataCollectionId: c, patch: { dataItemId: id, fieldModifications } })
      const set = { fieldPath: "n", action: "SET_FIELD", setFieldOptions: { value: 99 } }
      const byText = yield* patch([set, { fieldPath: "n", action: "INCREMENT_FIELD", incrementFieldOptions: { value: "1" } }])
      assert.strictEqual(byText.status, 400)
      const onText = yield* patch([set, { fieldPath: "title", action: "INCREMENT_FIELD", incrementFieldOptions: { value: 1 } }])
      assert.strictEqual(onText.status, 400)
      const system = yield* patch([{ fieldPath: "_id", action: "SET_FIELD", setFieldOptions: { value: "q" } }])
      assert.strictEqual(system.status, 400)
      const badAction = yield* patch([{ fieldPath: "n", action: "MULTIPLY_FIELD" }])
      assert.strictEqual(badAction.status, 400)
      const missing = yield* patch([set], "ghost")
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(codeOf(missing), "WDE0073")
      assert.deepStrictEqual((yield* item(c, "p")).body.dataItem.data.n, 1)
    }))

  it.effect("bad requests are 400 validation errors naming the field, and change nothing", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ permissions: OPEN })
      const noCollection = yield* data("POST", "/items", { dataItem: { data: {} } })
      assert.strictEqual(noCollection.status, 400)
      assert.strictEqual(noCollection.body.details.validationError.fieldViolations[0].field, "dataCollectionId")
      const notObject = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: [1, 2] } })
      assert.strictEqual(notObject.status, 400)
      const badId = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: { _id: 5 } } })
      assert.strictEqual(badId.status, 400)
      assert.strictEqual(codeOf(badId), "WDE0002")
      const notJson = yield* data("POST", "/items", "{oops")
      assert.strictEqual(notJson.status, 400)
      assert.strictEqual(yield* count(c), 0)
    }))
})

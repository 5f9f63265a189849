import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { base64url } from "../../../src/http/codec.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { bulkInsert, codeOf, count, createCollection, data, ids, memberToken, ok, query, uniqueId, visitorToken } from "./support.ts"

const waitForIndex = (collection: string, name: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 100; i++) {
      const listed = yield* ok("GET", `/indexes?dataCollectionId=${collection}`)
      const index = listed.indexes.find((x: any) => x.name === name)
      if (index?.status !== "BUILDING") return index
      yield* Effect.sleep("10 millis")
    }
    return yield* Effect.die(new Error(`index ${name} still building`))
  })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("data collections", (it) => {
  it.effect("create fills in defaults and system fields; get, list, update with revisions, delete with its items", () =>
    Effect.gen(function*() {
      const id = uniqueId("Books")
      const created = (yield* createCollection({ id, fields: [{ key: "title", type: "TEXT" }], permissions: { read: "SITE_MEMBER" } })).collection
      assert.strictEqual(created.displayName, id)
      assert.strictEqual(created.collectionType, "NATIVE")
      assert.deepStrictEqual(created.fields.map((f: any) => f.key), ["_id", "_createdDate", "_updatedDate", "_owner", "title"])
      assert.deepStrictEqual(created.permissions, { read: "SITE_MEMBER", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" })
      assert.deepStrictEqual(created.pagingModes, ["OFFSET", "CURSOR"])
      assert.strictEqual(created.revision, "1")
      assert.match(created.createdDate, /^\d{4}-\d\d-\d\dT/)
      const again = yield* data("POST", "/collections", { collection: { id } })
      assert.strictEqual(again.status, 409)
      const badId = yield* data("POST", "/collections", { collection: { id: "no spaces" } })
      assert.strictEqual(badId.status, 400)
      assert.deepStrictEqual((yield* ok("GET", `/collections/${id}`)).collection, created)
      const listed = yield* ok("GET", "/collections?paging.limit=1000")
      assert.isTrue(listed.collections.some((c: any) => c.id === id))
      assert.isFalse(listed.pagingMetadata.hasNext)
      const updated = (yield* ok("PUT", "/collections", { collection: { ...created, displayName: "Books!" } })).collection
      assert.strictEqual(updated.displayName, "Books!")
      assert.strictEqual(updated.revision, "2")
      const stale = yield* data("PUT", "/collections", { collection: { ...created, displayName: "late" } })
      assert.strictEqual(stale.status, 409)
      assert.strictEqual((yield* ok("GET", `/collections/${id}`)).collection.displayName, "Books!")
      yield* bulkInsert(id, [{ _id: "x" }])
      assert.deepStrictEqual(yield* ok("DELETE", `/collections/${id}`), {})
      const gone = yield* data("GET", `/collections/${id}`)
      assert.strictEqual(gone.status, 404)
      assert.strictEqual(codeOf(gone), "WDE0025")
      assert.strictEqual(codeOf(yield* data("POST", "/items/count", { dataCollectionId: id })), "WDE0025")
      // the id is free again, and the new collection starts empty
      yield* createCollection({ id })
      assert.strictEqual(yield* count(id), 0)
    }))

  it.effect("fields: create, update, delete; system fields stay", () =>
    Effect.gen(function*() {
      const id = uniqueId("Fields")
      yield* createCollection({ id })
      const added = yield* ok("POST", "/collections/create-field", { dataCollectionId: id, field: { key: "price", type: "NUMBER" } })
      assert.isTrue(added.dataCollection.fields.some((f: any) => f.key === "price"))
      const dup = yield* data("POST", "/collections/create-field", { dataCollectionId: id, field: { key: "price", type: "NUMBER" } })
      assert.strictEqual(dup.status, 409)
      const changed = yield* ok("POST", "/collections/update-field", { dataCollectionId: id, field: { key: "price", type: "TEXT", displayName: "Price" } })
      assert.deepStrictEqual(changed.dataCollection.fields.find((f: any) => f.key === "price"), { key: "price", type: "TEXT", displayName: "Price" })
      const system = yield* data("POST", "/collections/delete-field", { dataCollectionId: id, fieldKey: "_id" })
      assert.strictEqual(system.status, 400)
      const removed = yield* ok("POST", "/collections/delete-field", { dataCollectionId: id, fieldKey: "price" })
      assert.isFalse(removed.dataCollection.fields.some((f: any) => f.key === "price"))
      assert.strictEqual(removed.dataCollection.revision, "4")
      const badRef = yield* data("POST", "/collections/create-field", { dataCollectionId: id, field: { key: "r", type: "REFERENCE" } })
      assert.strictEqual(badRef.status, 400)
      // a control character in a key is refused (a NUL once ended the SQL of a search early: a 500 the fuzzer found)
      for (const key of ["a\u0000b", "tab\there", "\n"]) {
        const refused = yield* data("POST", "/collections/create-field", { dataCollectionId: id, field: { key, type: "TEXT" } })
        assert.deepStrictEqual([refused.status, codeOf(refused)], [400, "WDE0003"], JSON.stringify(key))
      }
      yield* ok("POST", "/collections/create-field", { dataCollectionId: id, field: { key: "it's", type: "TEXT" } })
      const searched = yield* ok("POST", "/items/search", { dataCollectionId: id, search: { search: { expression: "hello" } } })
      assert.deepStrictEqual(searched.dataItems, [])
    }))

  it.effect("the admin API needs an API key; readers see the collections they may read, by id, slug or query", () =>
    Effect.gen(function*() {
      const guest = yield* visitorToken
      const member = yield* memberToken
      const privateId = uniqueId("Private")
      yield* createCollection({ id: privateId, permissions: { read: "SITE_MEMBER" } })
      const refusedCreate = yield* data("POST", "/collections", { collection: { id: uniqueId() } }, member.token)
      assert.strictEqual(refusedCreate.status, 403)
      assert.strictEqual((yield* data("GET", "/collections", undefined, guest)).status, 403)
      assert.strictEqual((yield* data("GET", "/collections", undefined, "")).status, 401)
      assert.strictEqual((yield* data("DELETE", `/collections/${privateId}`, undefined, member.token)).status, 403)
      assert.strictEqual((yield* ok("GET", "/collections/slug/Posts", undefined, guest)).collection.id, "Posts")
      assert.strictEqual((yield* ok("GET", "/collections/Posts", undefined, guest)).collection.id, "Posts")
      const hidden = yield* data("GET", `/collections/${privateId}`, undefined, guest)
      assert.strictEqual(hidden.status, 403)
      assert.strictEqual((yield* ok("GET", `/collections/${privateId}`, undefined, member.token)).collection.id, privateId)
      const r = (payload: unknown) => `/collections/query?.r=${base64url(JSON.stringify(payload))}`
      const asGuest = yield* ok("GET", r({ query: { sort: [{ fieldName: "id" }], paging: { limit: 1000 } } }), undefined, guest)
      const seen = asGuest.collections.map((c: any) => c.id)
      assert.includeMembers(seen, ["Authors", "Posts"])
      assert.notInclude(seen, privateId)
      assert.notInclude(seen, "Notes")
      const filtered = yield* ok("GET", r({ query: { filter: { displayName: { $startsWith: "po" } } } }), undefined, guest)
      assert.deepStrictEqual(filtered.collections.map((c: any) => c.id), ["Posts"])
    }))

  it.effect("indexes: BUILDING then ACTIVE, used by queries; unique indexes refuse duplicates; list and drop", () =>
    Effect.gen(function*() {
      const id = uniqueId("Indexed")
      yield* createCollection({ id })
      yield* bulkInsert(id, Array.from({ length: 200 }, (_, i) => ({ _id: `i${i}`, rank: i % 10, code: `c${i}` })))
      const created = yield* ok("POST", "/indexes", { dataCollectionId: id, index: { name: "byRank", fields: [{ path: "rank", order: "DESC" }, { path: "_id" }] } })
      assert.strictEqual(created.index.status, "BUILDING")
      assert.strictEqual((yield* waitForIndex(id, "byRank")).status, "ACTIVE")
      assert.deepStrictEqual(ids(yield* query(id, { filter: { rank: 9 }, sort: [{ fieldName: "rank", order: "DESC" }, { fieldName: "_id" }], paging: { limit: 3 } })), ["i109", "i119", "i129"])
      const dup = yield* data("POST", "/indexes", { dataCollectionId: id, index: { name: "byRank", fields: [{ path: "code" }] } })
      assert.strictEqual(dup.status, 409)
      yield* ok("POST", "/indexes", { dataCollectionId: id, index: { name: "uniqueCode", fields: [{ path: "code" }], unique: true } })
      assert.strictEqual((yield* waitForIndex(id, "uniqueCode")).status, "ACTIVE")
      const clash = yield* data("POST", "/items", { dataCollectionId: id, dataItem: { id: "new", data: { code: "c5" } } })
      assert.strictEqual(clash.status, 409)
      assert.strictEqual(yield* count(id), 200)
      // items without the field are not constrained
      yield* ok("POST", "/bulk/items/insert", { dataCollectionId: id, dataItems: [{ data: { other: 1 } }, { data: { other: 2 } }] })
      yield* ok("POST", "/indexes", { dataCollectionId: id, index: { name: "uniqueRank", fields: [{ path: "rank" }], unique: true } })
      assert.strictEqual((yield* waitForIndex(id, "uniqueRank")).status, "FAILED")
      const listed = yield* ok("GET", `/indexes?dataCollectionId=${id}`)
      assert.deepStrictEqual(listed.indexes.map((x: any) => [x.name, x.status]), [["byRank", "ACTIVE"], ["uniqueCode", "ACTIVE"], ["uniqueRank", "FAILED"]])
      assert.deepStrictEqual(yield* ok("DELETE", `/indexes?dataCollectionId=${id}&indexName=uniqueCode`), {})
      yield* ok("POST", "/items", { dataCollectionId: id, dataItem: { id: "new", data: { code: "c5" } } })
      const missing = yield* data("DELETE", `/indexes?dataCollectionId=${id}&indexName=uniqueCode`)
      assert.strictEqual(missing.status, 404)
      const member = yield* memberToken
      assert.strictEqual((yield* data("GET", `/indexes?dataCollectionId=${id}`, undefined, member.token)).status, 403)
    }))
})

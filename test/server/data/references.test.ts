import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { base64url } from "../../../src/http/codec.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { bulkInsert, codeOf, createCollection, data, ids, memberToken, ok, path, query, uniqueId } from "./support.ts"

/** Authors, and books with a single `author` reference and a multi-reference `reviewers`. */
const library = Effect.gen(function*() {
  const authors = uniqueId("Authors")
  const books = uniqueId("Books")
  yield* createCollection({ id: authors, fields: [{ key: "name", type: "TEXT" }] })
  yield* createCollection({
    id: books,
    fields: [
      { key: "title", type: "TEXT" },
      { key: "author", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: authors } } },
      { key: "reviewers", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: authors } } }
    ]
  })
  yield* bulkInsert(authors, [{ _id: "ann", name: "Ann" }, { _id: "bo", name: "Bo" }, { _id: "cy", name: "Cy" }])
  yield* bulkInsert(books, [{ _id: "b1", title: "One", author: "ann" }, { _id: "b2", title: "Two", author: "bo" }, { _id: "b3", title: "Three", author: "ghost" }])
  return { authors, books }
})

const refs = (referringItemId: string, ids: ReadonlyArray<string>) =>
  ids.map((referencedItemId) => ({ referringItemFieldName: "reviewers", referringItemId, referencedItemId }))

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("data references", (it) => {
  it.effect("insert and remove references in bulk, per reference; is-referenced; replace", () =>
    Effect.gen(function*() {
      const { books } = yield* library
      const inserted = yield* ok("POST", "/bulk/items/insert-references", {
        dataCollectionId: books,
        dataItemReferences: [...refs("b1", ["bo", "cy"]), ...refs("nope", ["ann"]), { referringItemFieldName: "title", referringItemId: "b1", referencedItemId: "ann" }],
        returnEntity: true
      })
      assert.deepStrictEqual(inserted.results.map((r: any) => [r.action, r.referenceMetadata.originalIndex, r.referenceMetadata.success, r.referenceMetadata.error?.code]), [
        ["INSERT", 0, true, undefined],
        ["INSERT", 1, true, undefined],
        ["INSERT", 2, false, "WDE0073"],
        ["INSERT", 3, false, "WDE0020"]
      ])
      assert.deepStrictEqual(inserted.results[0].dataItemReference, { referringItemFieldName: "reviewers", referringItemId: "b1", referencedItemId: "bo" })
      assert.deepStrictEqual(inserted.bulkActionMetadata, { totalSuccesses: 2, totalFailures: 2 })
      const is = (field: string, referring: string, referenced: string) =>
        Effect.map(ok("POST", "/items/is-referenced", { dataCollectionId: books, referringItemFieldName: field, referringItemId: referring, referencedItemId: referenced }), (r) => r.isReferenced)
      assert.isTrue(yield* is("reviewers", "b1", "cy"))
      assert.isFalse(yield* is("reviewers", "b1", "ann"))
      assert.isTrue(yield* is("author", "b1", "ann"))
      assert.isFalse(yield* is("author", "b2", "ann"))
      yield* ok("POST", "/bulk/items/remove-references", { dataCollectionId: books, dataItemReferences: refs("b1", ["bo"]) })
      assert.isFalse(yield* is("reviewers", "b1", "bo"))
      const replaced = yield* ok("POST", "/items/replace-references", { dataCollectionId: books, referringItemFieldName: "reviewers", referringItemId: "b1", newReferencedItemIds: ["ann", "bo"] })
      assert.deepStrictEqual(replaced.dataItemReferences.map((r: any) => r.referencedItemId), ["ann", "bo"])
      assert.isFalse(yield* is("reviewers", "b1", "cy"))
      const notMulti = yield* data("POST", "/items/replace-references", { dataCollectionId: books, referringItemFieldName: "author", referringItemId: "b1", newReferencedItemIds: ["bo"] })
      assert.strictEqual(notMulti.status, 400)
      assert.strictEqual(codeOf(notMulti), "WDE0020")
      const missing = yield* data("POST", "/items/replace-references", { dataCollectionId: books, referringItemFieldName: "reviewers", referringItemId: "zz", newReferencedItemIds: [] })
      assert.strictEqual(codeOf(missing), "WDE0073")
    }))

  it.effect("query-referenced: in order added (or reversed), paged (default 50), unresolved references reported, cursor pages", () =>
    Effect.gen(function*() {
      const { authors, books } = yield* library
      yield* ok("POST", "/bulk/items/insert-references", { dataCollectionId: books, dataItemReferences: refs("b1", ["cy", "ann", "zed", "bo"]) })
      const page = yield* ok("POST", "/items/query-referenced", {
        dataCollectionId: books,
        referringItemId: "b1",
        referringItemFieldName: "reviewers",
        returnTotalCount: true,
        fields: ["name"]
      })
      assert.deepStrictEqual(page.results.map((r: any) => r.dataItem?.id ?? `unresolved:${r.unresolvedReference.referencedItemId}`), ["cy", "ann", "unresolved:zed", "bo"])
      assert.deepStrictEqual(page.results[0], { referringItemId: "b1", dataItem: { id: "cy", dataCollectionId: authors, data: { _id: "cy", name: "Cy" } } })
      assert.deepStrictEqual(page.pagingMetadata, { count: 4, offset: 0, total: 4, tooManyToCount: false, hasNext: false })
      const reversed = yield* ok("POST", "/items/query-referenced", { dataCollectionId: books, referringItemId: "b1", referringItemFieldName: "reviewers", order: "DESC", paging: { limit: 2 } })
      assert.deepStrictEqual(reversed.results.map((r: any) => r.dataItem?.id ?? r.unresolvedReference.referencedItemId), ["bo", "zed"])
      assert.isTrue(reversed.pagingMetadata.hasNext)
      const first = yield* ok("POST", "/items/query-referenced", { dataCollectionId: books, referringItemId: "b1", referringItemFieldName: "reviewers", cursorPaging: { limit: 3 } })
      const next = yield* ok("POST", "/items/query-referenced", { dataCollectionId: books, cursorPaging: { limit: 3, cursor: first.pagingMetadata.cursors.next } })
      assert.deepStrictEqual(next.results.map((r: any) => r.dataItem.id), ["bo"])
      const single = yield* ok("POST", "/items/query-referenced", { dataCollectionId: books, referringItemIds: ["b1", "b2", "b3"], referringItemFieldName: "author" })
      assert.deepStrictEqual(single.results.map((r: any) => [r.referringItemId, r.dataItem?.id ?? "unresolved"]), [["b1", "ann"], ["b2", "bo"], ["b3", "unresolved"]])
      // removing a referenced item removes the references to it
      yield* ok("POST", "/items/remove", { dataCollectionId: authors, dataItemId: "ann" })
      const after = yield* ok("POST", "/items/query-referenced", { dataCollectionId: books, referringItemId: "b1", referringItemFieldName: "reviewers" })
      assert.deepStrictEqual(after.results.map((r: any) => r.dataItem?.id ?? r.unresolvedReference.referencedItemId), ["cy", "zed", "bo"])
    }))

  it.effect("includeReferences on query and get: referenced items replace the reference fields", () =>
    Effect.gen(function*() {
      const { books } = yield* library
      yield* ok("POST", "/bulk/items/insert-references", { dataCollectionId: books, dataItemReferences: refs("b2", ["ann", "cy", "bo"]) })
      const found = yield* query(books, { sort: [{ fieldName: "_id" }] }, { includeReferences: [{ field: "author" }, { field: "reviewers", limit: 2 }] })
      assert.deepStrictEqual(ids(found), ["b1", "b2", "b3"])
      assert.strictEqual(found.dataItems[0].data.author.name, "Ann")
      assert.deepStrictEqual(found.dataItems[0].data.reviewers, [])
      assert.deepStrictEqual(found.dataItems[1].data.reviewers.map((r: any) => r.name), ["Ann", "Cy"])
      assert.strictEqual(found.dataItems[2].data.author, "ghost")
      const plain = yield* query(books, { filter: { _id: "b1" } })
      assert.strictEqual(plain.dataItems[0].data.author, "ann")
      const r = base64url(JSON.stringify({ dataCollectionId: books, dataItemId: "b2", includeReferences: [{ field: "author" }] }))
      const got = yield* ok("GET", `${path("/items/b2")}?.r=${r}`)
      assert.strictEqual(got.dataItem.data.author.name, "Bo")
    }))

  it.effect("changing references needs update permission on the referring collection", () =>
    Effect.gen(function*() {
      const { books } = yield* library
      const member = yield* memberToken
      const refused = yield* data("POST", "/bulk/items/insert-references", { dataCollectionId: books, dataItemReferences: refs("b1", ["bo"]) }, member.token)
      assert.strictEqual(refused.status, 403)
      assert.strictEqual(codeOf(refused), "WDE0027")
      const readable = yield* ok("POST", "/items/is-referenced", { dataCollectionId: books, referringItemFieldName: "reviewers", referringItemId: "b1", referencedItemId: "bo" }, member.token)
      assert.isFalse(readable.isReferenced)
    }))
})

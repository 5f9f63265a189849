/**
 * Data environments on the local platform: a collection's sandbox holds items of its own that LIVE
 * calls never see and the reverse, for every kind of call (single items, queries, counts, aggregations,
 * bulk, references, async jobs); SANDBOX_PREFERRED falls back to LIVE where no sandbox is enabled;
 * syncing copies one environment onto the other exactly; unique indexes hold in each environment on
 * its own; sandbox writes stay out of the site's event log; all of it survives a restart.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { onPlatform, tempDir } from "../../support/platform.ts"
import { domainOf, logMark, loggedSince } from "../../support/eventLog.ts"
import { join } from "node:path"
import { bulkInsert, codeOf, createCollection, data, ids, ok, query, uniqueId } from "./support.ts"
import { layerWithCore } from "../../../src/server/LocalPlatform.ts"

const SANDBOX = { environment: "SANDBOX" } as const
const sandboxes = "/_sitefx/data/sandboxes"

/** Authors and Books (a reference to an author), each with a sandbox enabled as a copy of its live items. */
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
  yield* bulkInsert(authors, [{ _id: "ann", name: "Ann" }, { _id: "bo", name: "Bo" }])
  yield* bulkInsert(books, [{ _id: "b1", title: "One", author: "ann" }])
  yield* ok("POST", "/bulk/items/insert-references", {
    dataCollectionId: books,
    dataItemReferences: [{ referringItemFieldName: "reviewers", referringItemId: "b1", referencedItemId: "bo" }]
  })
  yield* ok("POST", sandboxes, { dataCollectionId: authors })
  yield* ok("POST", sandboxes, { dataCollectionId: books })
  return { authors, books }
})

const titles = (collection: string, extra: Record<string, unknown> = {}) =>
  Effect.map(query(collection, {}, extra), (r) => (r.dataItems as Array<any>).map((d) => `${d.id}:${d.data.title ?? d.data.name}`))

it.layer(layerWithCore({}), { excludeTestServices: true })("data environments", (it) => {
  it.effect("a sandbox starts as a copy of live; after that neither sees the other's writes, through every kind of call", () =>
    Effect.gen(function*() {
      const { authors, books } = yield* library
      assert.deepStrictEqual(yield* titles(books, SANDBOX), ["b1:One"])

      // writes in the sandbox
      yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "s1", data: { title: "Sandbox only", author: "bo" } }, ...SANDBOX })
      yield* ok("POST", "/items/update", { dataCollectionId: books, dataItem: { id: "b1", data: { title: "One (draft)", author: "ann" } }, ...SANDBOX })
      yield* ok("POST", "/bulk/items/insert", { dataCollectionId: books, dataItems: [{ id: "s2", data: { title: "Bulk" } }], ...SANDBOX })
      yield* ok("POST", "/items/remove", { dataCollectionId: authors, dataItemId: "bo", ...SANDBOX })
      // and one in live
      yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "l1", data: { title: "Live only" } } })

      assert.deepStrictEqual(yield* titles(books), ["b1:One", "l1:Live only"])
      assert.deepStrictEqual(yield* titles(books, SANDBOX), ["b1:One (draft)", "s1:Sandbox only", "s2:Bulk"])
      assert.deepStrictEqual(yield* titles(authors), ["ann:Ann", "bo:Bo"])
      assert.deepStrictEqual(yield* titles(authors, SANDBOX), ["ann:Ann"])

      // single reads, counts, aggregations, distinct values, search, by environment
      assert.strictEqual((yield* data("GET", `/wix-data/v2/items/s1?dataCollectionId=${books}`)).status, 404)
      const got = yield* ok("GET", `/wix-data/v2/items/s1?dataCollectionId=${books}&environment=SANDBOX`)
      assert.strictEqual(got.dataItem.dataCollectionId, books, "items name the collection by its id, not its storage key")
      assert.strictEqual((yield* ok("POST", "/items/count", { dataCollectionId: books })).totalCount, 2)
      assert.strictEqual((yield* ok("POST", "/items/count", { dataCollectionId: books, ...SANDBOX })).totalCount, 3)
      const aggregated = yield* ok("POST", "/items/aggregate", {
        dataCollectionId: books,
        aggregation: { groupingFields: [], operations: [{ resultFieldName: "n", itemCount: {} }] },
        ...SANDBOX
      })
      assert.strictEqual(aggregated.results[0].n, 3)
      const distinct = yield* ok("POST", "/items/query-distinct-values", { dataCollectionId: books, fieldName: "title", ...SANDBOX })
      assert.deepStrictEqual([...distinct.distinctValues].sort(), ["Bulk", "One (draft)", "Sandbox only"])

      // references resolve inside the environment: the sandbox's bo is gone, live's is not
      const included = (env: Record<string, unknown>) =>
        Effect.map(query(books, { filter: { _id: "b1" } }, { includeReferences: [{ field: "author" }], ...env }), (r) => r.dataItems[0].data.author)
      assert.strictEqual((yield* included({})).name, "Ann")
      const s1 = yield* query(books, { filter: { _id: "s1" } }, { includeReferences: [{ field: "author" }], ...SANDBOX })
      assert.strictEqual(typeof s1.dataItems[0].data.author, "string", "the sandbox's s1 names an author its sandbox does not hold")
      const reviewers = (env: Record<string, unknown>) =>
        Effect.map(
          ok("POST", "/items/query-referenced", { dataCollectionId: books, referringItemId: "b1", referringItemFieldName: "reviewers", ...env }),
          (r) => (r.results as Array<any>).map((x) => x.dataItem?.id ?? `unresolved:${x.unresolvedReference.referencedItemId}`)
        )
      assert.deepStrictEqual(yield* reviewers({}), ["bo"])
      // removing the sandbox's bo removed the sandbox's references to it, as a removal does in live
      assert.deepStrictEqual(yield* reviewers(SANDBOX), [])

      // async jobs work in the environment they were asked in
      yield* ok("POST", "/bulk/items/async-remove-by-filter", { dataCollectionId: books, filter: { _id: "s2" }, ...SANDBOX })
      for (let i = 0; i < 200 && (yield* ok("POST", "/items/count", { dataCollectionId: books, ...SANDBOX })).totalCount !== 2; i++) {
        yield* Effect.sleep("10 millis")
      }
      assert.deepStrictEqual(yield* titles(books, SANDBOX), ["b1:One (draft)", "s1:Sandbox only"])
      assert.deepStrictEqual(yield* titles(books), ["b1:One", "l1:Live only"])
    }))

  it.effect("SANDBOX needs an enabled sandbox; SANDBOX_PREFERRED falls back to LIVE; unknown environments are refused", () =>
    Effect.gen(function*() {
      const plain = uniqueId("Plain")
      yield* createCollection({ id: plain })
      yield* bulkInsert(plain, [{ _id: "p", title: "Live" }])
      const refused = yield* data("POST", "/wix-data/v2/items/query", { dataCollectionId: plain, ...SANDBOX })
      assert.strictEqual(refused.status, 400)
      assert.strictEqual(codeOf(refused), "SANDBOX_NOT_ENABLED")
      assert.deepStrictEqual(yield* titles(plain, { environment: "SANDBOX_PREFERRED" }), ["p:Live"])
      assert.strictEqual((yield* data("POST", "/wix-data/v2/items/query", { dataCollectionId: plain, environment: "STAGING" })).status, 400)

      yield* ok("POST", sandboxes, { dataCollectionId: plain, empty: true })
      assert.deepStrictEqual(yield* titles(plain, { environment: "SANDBOX_PREFERRED" }), [])
      assert.deepStrictEqual(yield* titles(plain, SANDBOX), [])
      assert.strictEqual((yield* data("POST", sandboxes, { dataCollectionId: plain })).status, 409)
      assert.strictEqual((yield* data("POST", sandboxes, { dataCollectionId: "NoSuchCollection" })).status, 404)
      const listed = yield* ok("GET", sandboxes)
      assert.deepStrictEqual(listed.sandboxes.find((s: any) => s.dataCollectionId === plain), { dataCollectionId: plain, liveItems: 1, sandboxItems: 0 })

      // disabling removes the sandbox's items; a new sandbox starts from live again
      yield* ok("POST", "/items", { dataCollectionId: plain, dataItem: { id: "q", data: {} }, ...SANDBOX })
      assert.strictEqual((yield* data("DELETE", `${sandboxes}/${plain}`)).status, 200)
      assert.strictEqual((yield* data("DELETE", `${sandboxes}/${plain}`)).status, 404)
      assert.strictEqual(codeOf(yield* data("POST", "/wix-data/v2/items/count", { dataCollectionId: plain, ...SANDBOX })), "SANDBOX_NOT_ENABLED")
      yield* ok("POST", sandboxes, { dataCollectionId: plain })
      assert.deepStrictEqual(yield* titles(plain, SANDBOX), ["p:Live"])
    }))

  it.effect("sync copies one environment onto the other exactly: ids, dates, owners and references", () =>
    Effect.gen(function*() {
      const { authors, books } = yield* library
      yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "s1", data: { title: "New", author: "bo" } }, ...SANDBOX })
      yield* ok("POST", "/bulk/items/insert-references", {
        dataCollectionId: books,
        dataItemReferences: [{ referringItemFieldName: "reviewers", referringItemId: "s1", referencedItemId: "ann" }],
        ...SANDBOX
      })
      yield* ok("POST", "/items/remove", { dataCollectionId: books, dataItemId: "b1", ...SANDBOX })
      const before = yield* query(books, {}, SANDBOX)

      const synced = yield* ok("POST", `${sandboxes}/${books}/sync`, {})
      assert.strictEqual(synced.itemsCopied, 1)
      assert.deepStrictEqual(synced.sandbox, { dataCollectionId: books, liveItems: 1, sandboxItems: 1 })
      const after = yield* query(books, {})
      assert.deepStrictEqual(after.dataItems, before.dataItems, "live now holds the sandbox's items, system fields included")
      const reviewers = yield* ok("POST", "/items/query-referenced", { dataCollectionId: books, referringItemId: "s1", referringItemFieldName: "reviewers" })
      assert.deepStrictEqual(reviewers.results.map((r: any) => [r.dataItem.id, r.dataItem.dataCollectionId]), [["ann", authors]])

      // and back: live's change replaces the sandbox's
      yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "l2", data: { title: "Hotfix" } } })
      yield* ok("POST", `${sandboxes}/${books}/sync`, { direction: "LIVE_TO_SANDBOX" })
      assert.deepStrictEqual(yield* titles(books, SANDBOX), ["s1:New", "l2:Hotfix"])
      assert.strictEqual((yield* data("POST", `${sandboxes}/${uniqueId("None")}/sync`, {})).status, 404)
    }))

  it.effect("a unique index holds in each environment on its own", () =>
    Effect.gen(function*() {
      const people = uniqueId("People")
      yield* createCollection({ id: people, fields: [{ key: "email", type: "TEXT" }] })
      yield* ok("POST", sandboxes, { dataCollectionId: people })
      yield* ok("POST", "/indexes", { dataCollectionId: people, index: { name: "email", fields: [{ path: "email" }], unique: true } })
      for (let i = 0; i < 200 && (yield* ok("GET", `/wix-data/v2/indexes?dataCollectionId=${people}`)).indexes[0].status === "BUILDING"; i++) {
        yield* Effect.sleep("10 millis")
      }
      yield* ok("POST", "/items", { dataCollectionId: people, dataItem: { id: "a", data: { email: "a@example.com" } } })
      // the same value in the sandbox is no clash
      yield* ok("POST", "/items", { dataCollectionId: people, dataItem: { id: "a", data: { email: "a@example.com" } }, ...SANDBOX })
      const clash = yield* data("POST", "/wix-data/v2/items", { dataCollectionId: people, dataItem: { id: "b", data: { email: "a@example.com" } }, ...SANDBOX })
      assert.strictEqual(clash.status, 409)
      assert.match(clash.body.message ?? clash.text, /\(sandbox\)/)
    }))

  it.effect("sandbox writes stay out of the site's event log", () =>
    Effect.gen(function*() {
      const { books } = yield* library
      const mark = yield* logMark
      yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "quiet", data: {} }, ...SANDBOX })
      yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "loud", data: {} } })
      const logged = yield* loggedSince(mark)
      assert.deepStrictEqual(logged.map((e) => domainOf(e).entityId), ["loud"])
    }))
})

describe("data environments across a restart", () => {
  it.live("sandboxes, their items and references survive a restart; new items keep growing the sequence", () =>
    Effect.scoped(Effect.gen(function*() {
      const file = join(yield* tempDir("sitefx-sandbox-"), "site.db")
      const first = yield* onPlatform({ db: file }, Effect.gen(function*() {
        const { books } = yield* library
        yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "s1", data: { title: "Kept" } }, ...SANDBOX })
        return { books }
      }))
      yield* onPlatform({ db: file }, Effect.gen(function*() {
        assert.deepStrictEqual(yield* titles(first.books, SANDBOX), ["b1:One", "s1:Kept"])
        assert.deepStrictEqual(yield* titles(first.books), ["b1:One"])
        yield* ok("POST", "/items", { dataCollectionId: first.books, dataItem: { id: "s2", data: { title: "After" } }, ...SANDBOX })
        yield* ok("POST", "/items", { dataCollectionId: first.books, dataItem: { id: "l2", data: { title: "After" } } })
        assert.deepStrictEqual(yield* titles(first.books, SANDBOX), ["b1:One", "s1:Kept", "s2:After"])
        assert.deepStrictEqual(yield* titles(first.books), ["b1:One", "l2:After"])
      }))
    })))
})

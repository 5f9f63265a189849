/**
 * The platform's official data items client (`@wix/data` → `items`, on `@wix/sdk` with an API key),
 * unchanged, against the local platform. The client calls the fixed host `https://www.wixapis.com`
 * through the global fetch, so the test rewrites that host to the local platform's address (and puts
 * the global fetch back afterwards). Every test asserts what the client returns, and reads the result
 * back through sitefx's own client where that proves the write landed.
 */
import { assert, describe, it } from "@effect/vitest"
import { items } from "@wix/data"
import { ApiKeyStrategy, createClient } from "@wix/sdk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import type { Item } from "../../src/data/calls.ts"
import type { BulkServices } from "../../src/data/bulkWrites.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { officialClientsOnLocalPlatform } from "../support/official.ts"
import { dev } from "../support/platform.ts"
import { asAdmin, freshCollection, posts } from "../data/support.ts"

// the official clients' hosts point at a local platform for this file
const onLocal = officialClientsOnLocalPlatform()
const originalFetch = onLocal.fetch
const called = onLocal.called
/** Runs an effect that needs the platform (sitefx read-backs, fresh collections). */
const run = onLocal.run
/** Runs a sitefx DataItems call as the admin. */
const sitefx = <A, E>(f: (d: typeof DataItems) => Effect.Effect<A, E, BulkServices>): Promise<A> => run(asAdmin(f(DataItems)))

const official = () =>
  createClient({
    modules: { items },
    auth: ApiKeyStrategy({ apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId })
  }).items

/** What a rejected promise threw (fails the test when it resolved). */
const rejection = async (promise: Promise<unknown>): Promise<any> =>
  promise.then((value) => assert.fail(`expected a rejection, got ${JSON.stringify(value)}`), (e: unknown) => e)


const ids = (list: Iterable<{ readonly _id?: string }>) => [...list].map((x) => x._id)

describe("official @wix/data items client against the local platform", () => {
  it("insert (with and without _id), get, update, save, remove: system fields and dates as the client expects", async () => {
    const c = await run(freshCollection("OfficialItems"))
    const data = official()
    const published = new Date("2026-05-01T10:00:00.000Z")

    const inserted = await data.insert(c, { title: "Hello", likes: 1, published, tags: ["a", "b"] })
    assert.isString(inserted._id)
    assert.instanceOf(inserted._createdDate, Date)
    assert.instanceOf(inserted._updatedDate, Date)
    assert.instanceOf(inserted["published"], Date)
    assert.strictEqual((inserted["published"] as Date).toISOString(), published.toISOString())
    assert.deepStrictEqual(inserted["tags"], ["a", "b"])

    const named = await data.insert(c, { _id: "named", title: "Named" })
    assert.strictEqual(named._id, "named")

    const got = await data.get(c, inserted._id)
    assert.isNotNull(got)
    assert.strictEqual(got!["title"], "Hello")
    assert.strictEqual((got!["published"] as Date).toISOString(), published.toISOString())
    assert.isNull(await data.get(c, "no-such-item"))

    const updated = await data.update(c, { ...got!, title: "Hello again" })
    assert.strictEqual(updated["title"], "Hello again")
    assert.strictEqual(updated._id, inserted._id)
    assert.strictEqual((updated._createdDate as Date).toISOString(), (inserted._createdDate as Date).toISOString())

    const saved = await data.save(c, { _id: "saved", title: "Saved" })
    assert.strictEqual(saved._id, "saved")
    const resaved = await data.save(c, { _id: "saved", title: "Saved twice" })
    assert.strictEqual(resaved["title"], "Saved twice")
    const savedNew = await data.save(c, { title: "No id yet" })
    assert.isString(savedNew._id)

    const removed = await data.remove(c, inserted._id)
    assert.strictEqual(removed?._id, inserted._id)
    assert.strictEqual(removed?.["title"], "Hello again")
    assert.isNull(await data.remove(c, inserted._id))

    // sitefx sees what the official client wrote
    const back = await sitefx((d) => d.get(c, "saved"))
    assert.strictEqual(Option.getOrThrow(back)["title"], "Saved twice")
    assert.isTrue(Option.isNone(await sitefx((d) => d.get(c, inserted._id))))
    assert.strictEqual(await sitefx((d) => d.count(c)), 3)
    assert.include(called, `GET /wix-data/v2/items/${inserted._id}`)
  })

  it("platform errors surface with their WDE codes: update of a missing item WDE0073, insert of an existing id WDE0074", async () => {
    const c = await run(freshCollection("OfficialErrors"))
    const data = official()
    await data.insert(c, { _id: "taken", n: 1 })

    const exists = await rejection(data.insert(c, { _id: "taken", n: 2 }))
    assert.isTrue(exists instanceof Error)
    assert.strictEqual(exists.details?.applicationError?.code, "WDE0074")
    assert.include(exists.message, "taken")

    const missing = await rejection(data.update(c, { _id: "ghost", n: 1 }))
    assert.strictEqual(missing.details?.applicationError?.code, "WDE0073")

    const patchMissing = await rejection(data.patch(c, "ghost").setField("n", 2).run())
    assert.strictEqual(patchMissing.details?.applicationError?.code, "WDE0073")

    // nothing changed
    assert.strictEqual(Option.getOrThrow(await sitefx((d) => d.get(c, "taken")))["n"], 1)
    assert.strictEqual(await sitefx((d) => d.count(c)), 1)
  })

  it("a hook's error reaches the caller as the hook threw it (WDE0078: name, message, code)", async () => {
    const c = await run(freshCollection("OfficialHook"))
    await run(dev("/data/hooks", { body: { dataCollectionId: c, hook: "beforeInsert", error: { name: "Forbidden", message: "no titles in caps", code: "CAPS" } } }))
    try {
      const error = await rejection(official().insert(c, { title: "LOUD" }))
      assert.strictEqual(error.message, "no titles in caps")
      assert.strictEqual(error.name, "Forbidden")
      assert.strictEqual(error.code, "CAPS")
    } finally {
      await run(dev("/data/hooks", { method: "DELETE" }))
    }
    assert.strictEqual(await sitefx((d) => d.count(c)), 0)
  })

  it("query: filters, sort, limit, skip, find, next and prev walk the same items sitefx finds", async () => {
    const c = await run(freshCollection("OfficialQuery"))
    await sitefx((d) => d.bulkInsert(c, posts(60)))
    const data = official()

    const first = await data.query(c).gt("likes", 4).descending("likes").ascending("title").limit(10).find({ returnTotalCount: true })
    assert.strictEqual(first.items.length, 10)
    assert.strictEqual(first.totalCount, 30)
    assert.strictEqual(first.pageSize, 10)
    assert.strictEqual(first.totalPages, 3)
    assert.strictEqual(first.currentPage, 0)
    assert.isTrue(first.hasNext())
    assert.isFalse(first.hasPrev())
    assert.deepStrictEqual(first.items.slice(0, 3).map((p) => p["likes"]), [9, 9, 9])
    assert.isTrue(first.items.every((p) => (p["likes"] as number) > 4))
    assert.instanceOf(first.items[0]!["published"], Date)

    const second = await first.next()
    assert.strictEqual(second.currentPage, 1)
    assert.isTrue(second.hasPrev())
    const third = await second.next()
    assert.isFalse(third.hasNext())
    assert.match((await rejection(third.next())).message, /^WDE0165: /)
    assert.match((await rejection(first.prev())).message, /^WDE0159: /)
    const back = await second.prev()
    assert.deepStrictEqual(ids(back.items), ids(first.items))

    const walked = [...first.items, ...second.items, ...third.items].map((p) => p._id)
    assert.strictEqual(new Set(walked).size, 30)
    const sitefxIds = await sitefx((d) =>
      d.query(c).gt("likes", 4).descending("likes").ascending("title").stream.pipe(Stream.map((p) => p._id), Stream.runCollect)
    )
    assert.deepStrictEqual(walked, [...sitefxIds])

    // skip starts in the middle, and the page knows where it is
    const skipped = await data.query(c).ascending("_id").skip(20).limit(10).find()
    assert.deepStrictEqual(ids(skipped.items), posts(60).slice(20, 30).map((p) => p._id))
    assert.strictEqual(skipped.currentPage, 2)
    assert.isTrue(skipped.hasPrev())
    assert.deepStrictEqual(ids((await skipped.prev()).items), posts(60).slice(10, 20).map((p) => p._id))
  })

  it("query operators: and, or, not, hasSome, hasAll, between, dates, startsWith, contains, in, isEmpty", async () => {
    const c = await run(freshCollection("OfficialOperators"))
    await sitefx((d) => d.bulkInsert(c, [...posts(40), { _id: "bare", title: "No likes here" }]))
    const data = official()
    const all = posts(40)
    const match = async (q: ReturnType<typeof data.query>, expected: ReadonlyArray<string | undefined>) => {
      const found = await q.ascending("_id").limit(1000).find()
      assert.deepStrictEqual(ids(found.items), [...expected].sort())
    }

    await match(data.query(c).hasSome("tags", ["odd"]).lt("likes", 3), all.filter((p) => p.tags[0] === "odd" && p.likes < 3).map((p) => p._id))
    await match(data.query(c).hasAll("tags", ["even"]), all.filter((p) => p.tags[0] === "even").map((p) => p._id))
    await match(data.query(c).between("likes", 2, 4), all.filter((p) => p.likes >= 2 && p.likes < 4).map((p) => p._id))
    const from = new Date(Date.UTC(2026, 0, 26))
    await match(data.query(c).ge("published", from), all.filter((p) => p.published >= from).map((p) => p._id))
    await match(
      data.query(c).between("published", new Date(Date.UTC(2026, 0, 3)), new Date(Date.UTC(2026, 0, 5))),
      all.filter((p) => p.published.getUTCDate() >= 3 && p.published.getUTCDate() < 5).map((p) => p._id)
    )
    await match(
      data.query(c).eq("likes", 1).or(data.filter().eq("likes", 8)),
      all.filter((p) => p.likes === 1 || p.likes === 8).map((p) => p._id)
    )
    await match(
      data.query(c).gt("likes", 6).and(data.filter().hasSome("tags", ["even"]).or(data.filter().eq("likes", 7))),
      all.filter((p) => p.likes > 6 && (p.tags[0] === "even" || p.likes === 7)).map((p) => p._id)
    )
    await match(
      data.query(c).isNotEmpty("likes").not(data.filter().lt("likes", 8)),
      all.filter((p) => p.likes >= 8).map((p) => p._id)
    )
    await match(data.query(c).startsWith("title", "post 3"), all.filter((p) => p.title.startsWith("Post 3")).map((p) => p._id))
    await match(data.query(c).contains("title", "likes"), ["bare"])
    await match(data.query(c).isEmpty("likes"), ["bare"])
    await match(data.query(c).hasSome("_id", ["p0001", "p0003", "nope"]), ["p0001", "p0003"])
    await match(data.query(c).ne("likes", 0).le("likes", 1), all.filter((p) => p.likes === 1).map((p) => p._id))

    // the same filters through sitefx give the same items
    const viaSitefx = await sitefx((d) =>
      d.query(c).gt("likes", 6).ascending("_id").limit(1000).find.pipe(Effect.map((page) => ids(page.items)))
    )
    assert.deepStrictEqual(ids((await data.query(c).gt("likes", 6).ascending("_id").limit(1000).find()).items), viaSitefx)

    // projected fields, with _id always present
    const projected = await data.query(c).fields("title").eq("_id", "p0002").find()
    assert.deepStrictEqual(Object.keys(projected.items[0]!).sort(), ["_id", "title"])
  })

  it("count and distinct: on the query builder and as top-level calls", async () => {
    const c = await run(freshCollection("OfficialCount"))
    await sitefx((d) => d.bulkInsert(c, posts(50)))
    const data = official()

    assert.strictEqual(await data.query(c).count(), 50)
    assert.strictEqual(await data.query(c).hasSome("tags", ["odd"]).gt("likes", 5).count(), 10)
    assert.strictEqual(await data.count(c), 50)
    assert.strictEqual(await data.count(c, { filter: { likes: 3 } }), 5)

    const distinct = await data.query(c).ascending("likes").distinct("likes")
    assert.deepStrictEqual(distinct.items, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    const distinctFiltered = await data.query(c).gt("likes", 6).descending("likes").distinct("likes")
    assert.deepStrictEqual(distinctFiltered.items, [9, 8, 7])
    const tags = await data.query(c).distinct("tags")
    assert.deepStrictEqual([...tags.items].sort(), ["even", "odd"])

    const topLevel = await data.distinct(c, "likes", { filter: { likes: { $lt: 3 } }, order: "ASC" as any /* the typings want the client's own enum */ })
    assert.deepStrictEqual(topLevel.values, [0, 1, 2])

    // sitefx agrees
    assert.strictEqual(await sitefx((d) => d.query(c).hasSome("tags", ["odd"]).gt("likes", 5).count), 10)
  })

  it("bulkInsert, bulkSave, bulkUpdate, bulkRemove: partial failures skipped or reported by original index", async () => {
    const c = await run(freshCollection("OfficialBulk"))
    const data = official()
    await data.insert(c, { _id: "taken", n: 0 })

    // an existing id is skipped by insert (WDE0074 ignored); an item without _id gets one
    const inserted = await data.bulkInsert(c, [{ _id: "a", n: 1 }, { _id: "taken", n: 2 }, { n: 3 }, { _id: "b", n: 4 }])
    assert.strictEqual(inserted.inserted, 3)
    assert.strictEqual(inserted.skipped, 1)
    assert.deepStrictEqual(inserted.errors, [])
    assert.strictEqual(inserted.insertedItemIds.length, 3)
    assert.includeMembers(inserted.insertedItemIds as Array<string>, ["a", "b"])
    assert.strictEqual(Option.getOrThrow(await sitefx((d) => d.get(c, "taken")))["n"], 0, "the existing item is untouched")

    // save inserts the new and replaces the existing
    const saved = await data.bulkSave(c, [{ _id: "a", n: 10 }, { _id: "c", n: 12 }, { _id: "taken", n: 13 }])
    assert.strictEqual(saved.inserted, 1)
    assert.strictEqual(saved.updated, 2)
    assert.deepStrictEqual(saved.insertedItemIds, ["c"])
    assert.deepStrictEqual([...saved.updatedItemIds].sort(), ["a", "taken"])

    // update skips missing ids (WDE0073 ignored)
    const updated = await data.bulkUpdate(c, [{ _id: "ghost", n: 0 }, { _id: "b", n: 40 }])
    assert.strictEqual(updated.updated, 1)
    assert.strictEqual(updated.skipped, 1)
    assert.deepStrictEqual(updated.updatedItemIds, ["b"])

    // an error other than the ignored ones is reported with its original index and item
    const strict = await data.bulkPatch(c, ["a", "ghost", "c"]).incrementField("n", 1).run()
    assert.strictEqual(strict.updated, 2)
    assert.strictEqual(strict.skipped, 1)
    await data.insert(c, { _id: "list", n: [1] })
    const mixed = await data.bulkPatch(c, ["list", "b", "ghost"]).appendToArray("n", 5).run()
    assert.strictEqual(mixed.updated, 1)
    assert.strictEqual(mixed.skipped, 1)
    assert.strictEqual(mixed.errors.length, 1)
    const [error] = mixed.errors as Array<any>
    assert.strictEqual(error.originalIndex, 1)
    assert.strictEqual(error.item, "b")
    assert.isString(error.code)
    assert.include(error.message, "not an array")
    assert.deepStrictEqual(Option.getOrThrow(await sitefx((d) => d.get(c, "list")))["n"], [1, 5])
    await data.remove(c, "list")

    // remove: missing ids are skipped
    const removed = await data.bulkRemove(c, ["a", "ghost", "c"])
    assert.strictEqual(removed.removed, 2)
    assert.strictEqual(removed.skipped, 1)
    assert.deepStrictEqual([...removed.removedItemIds].sort(), ["a", "c"])

    const generated = inserted.insertedItemIds.find((x) => x !== "a" && x !== "b")!
    const left = await sitefx((d) => d.query(c).find.pipe(Effect.map((p) => new Map(p.items.map((i) => [i._id, i["n"]])))))
    assert.deepStrictEqual(left, new Map<string, unknown>([["taken", 13], [generated, 3], ["b", 40]]))
  })

  it("bulkInsert of 1000 items in one call, read back by sitefx", async () => {
    const c = await run(freshCollection("OfficialBulkBig"))
    const rows = Array.from({ length: 1000 }, (_, i) => ({ i, name: `row ${i}`, at: new Date(Date.UTC(2026, 1, 1, 0, 0, i)) }))
    const result = await official().bulkInsert(c, rows)
    assert.strictEqual(result.inserted, 1000)
    assert.strictEqual(new Set(result.insertedItemIds).size, 1000)
    const sum = await sitefx((d) => d.query(c).stream.pipe(Stream.runFold(() => 0, (acc, item: Item) => acc + (item["i"] as number))))
    assert.strictEqual(sum, (999 * 1000) / 2)
    const last = await sitefx((d) => d.query(c).eq("i", 999).find)
    assert.strictEqual((last.items[0]!["at"] as Date).toISOString(), "2026-02-01T00:16:39.000Z")
  })

  it("aggregate: group, count, sum, having, sort, and whole-collection statistics", async () => {
    const c = await run(freshCollection("OfficialAggregate"))
    await sitefx((d) => d.bulkInsert(c, posts(40)))
    const data = official()

    const grouped = await data.aggregate(c)
      .filter(data.filter().ge("likes", 2))
      .group("likes")
      .count()
      .sum("likes")
      .having(data.filter().gt("count", 3))
      .ascending("likes")
      .run()
    assert.deepStrictEqual(grouped.items.map((r: any) => [r._id, r.count, r.likesSum]), [
      [2, 4, 8],
      [3, 4, 12],
      [4, 4, 16],
      [5, 4, 20],
      [6, 4, 24],
      [7, 4, 28],
      [8, 4, 32],
      [9, 4, 36]
    ])

    const twoFields = await data.aggregate(c).group("likes", "tags").count().descending("count").limit(3).run()
    assert.strictEqual(twoFields.items.length, 3)
    assert.isObject((twoFields.items[0] as any)._id)

    const whole = await data.aggregate(c).count().avg("likes").max("likes").min("likes").run()
    assert.strictEqual(whole.items.length, 1)
    assert.include(whole.items[0] as object, { count: 40, likesAvg: 4.5, likesMax: 9, likesMin: 0 })

    // sitefx computes the same groups
    const viaSitefx = await sitefx((d) => d.aggregate(c).group("likes").count().ascending("likes").run)
    assert.deepStrictEqual(viaSitefx.items.map((r) => r["count"]), Array.from({ length: 10 }, () => 4))
  })

  it("references: insertReference, isReferenced, queryReferenced, replaceReferences, removeReference", async () => {
    const authors = await run(freshCollection("OfficialAuthors"))
    const books = await run(freshCollection("OfficialBooks", {
      fields: [
        { key: "title", type: "TEXT" },
        { key: "authors", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: authors } } }
      ]
    }))
    const data = official()
    await data.bulkInsert(authors, [{ _id: "ann", name: "Ann" }, { _id: "bob", name: "Bob" }, { _id: "cy", name: "Cy" }])
    await data.insert(books, { _id: "b1", title: "Book" })

    await data.insertReference(books, "authors", "b1", ["ann", "bob"])
    assert.isTrue(await data.isReferenced(books, "authors", "b1", "ann"))
    assert.isTrue(await data.isReferenced(books, "authors", { _id: "b1" }, { _id: "bob" }))
    assert.isFalse(await data.isReferenced(books, "authors", "b1", "cy"))

    const referenced = await data.queryReferenced(books, "b1", "authors", { order: "asc" })
    assert.deepStrictEqual(ids(referenced.items).sort(), ["ann", "bob"])
    assert.strictEqual((referenced.items as Array<any>).find((a) => a._id === "ann").name, "Ann")

    await data.replaceReferences(books, "authors", "b1", ["cy"])
    assert.deepStrictEqual(ids((await data.queryReferenced(books, "b1", "authors")).items), ["cy"])
    assert.deepStrictEqual((await sitefx((d) => d.queryReferenced(books, "b1", "authors"))).items.map((a) => a._id), ["cy"])

    await data.removeReference(books, "authors", "b1", "cy")
    assert.strictEqual((await data.queryReferenced(books, "b1", "authors")).items.length, 0)
    assert.isFalse(await sitefx((d) => d.isReferenced(books, "authors", "b1", "cy")))

    // a page size below the number of references pages with next()
    await data.insertReference(books, "authors", "b1", ["ann", "bob", "cy"])
    const page = await data.queryReferenced(books, "b1", "authors", { limit: 2 })
    assert.strictEqual(page.items.length, 2)
    assert.isTrue(page.hasNext())
    const rest = await page.next()
    assert.strictEqual(rest.items.length, 1)
    assert.deepStrictEqual([...ids(page.items), ...ids(rest.items)].sort(), ["ann", "bob", "cy"])

    // include resolves the references on the query
    const withAuthors = await data.query(books).include("authors").find()
    assert.deepStrictEqual((withAuthors.items[0]!["authors"] as Array<any>).map((a) => a.name).sort(), ["Ann", "Bob", "Cy"])
  })

  it("patch: increment, set, remove, append and remove from an array", async () => {
    const c = await run(freshCollection("OfficialPatch"))
    const data = official()
    await data.insert(c, { _id: "x", title: "t", likes: 1, tags: ["a", "b"], old: true })
    const patched = await data.patch(c, "x")
      .incrementField("likes", 5)
      .setField("title", "new")
      .removeField("old")
      .appendToArray("tags", "c")
      .removeFromArray("tags", "a")
      .run()
    assert.strictEqual(patched["likes"], 6)
    assert.strictEqual(patched["title"], "new")
    assert.isFalse("old" in patched)
    assert.deepStrictEqual(patched["tags"], ["b", "c"])
    const at = new Date("2026-03-03T03:03:03.000Z")
    const dated = await data.patch(c, "x").setField("when", at).run()
    assert.strictEqual((dated["when"] as Date).toISOString(), at.toISOString())

    const back = Option.getOrThrow(await sitefx((d) => d.get(c, "x")))
    assert.strictEqual(back["likes"], 6)
    assert.strictEqual((back["when"] as Date).toISOString(), at.toISOString())
  })

  it("truncate removes every item", async () => {
    const c = await run(freshCollection("OfficialTruncate"))
    await sitefx((d) => d.bulkInsert(c, posts(25)))
    const data = official()
    assert.strictEqual(await data.query(c).count(), 25)
    await data.truncate(c)
    assert.strictEqual(await data.query(c).count(), 0)
    assert.strictEqual(await sitefx((d) => d.count(c)), 0)
  })

  it("a long query (URL over 2048 characters) goes by POST and still finds the items", async () => {
    const c = await run(freshCollection("OfficialLong"))
    await sitefx((d) => d.bulkInsert(c, posts(5)))
    const many = Array.from({ length: 300 }, (_, i) => `p${String(i).padStart(4, "0")}`)
    const from = called.length
    const found = await official().query(c).hasSome("_id", many).find()
    assert.strictEqual(found.items.length, 5)
    assert.deepStrictEqual(called.slice(from), ["POST /wix-data/v2/items/query"])
  })
})

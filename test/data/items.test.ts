import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { DataError, WDE } from "../../src/data/DataError.ts"
import type { Item } from "../../src/data/calls.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { Filter } from "../../src/data/Filter.ts"
import { bulkItemId, newBulkKey } from "../../src/data/ids.ts"
import { dev, LocalPlatform, stats } from "../support/platform.ts"
import { asAdmin, asVisitor, freshCollection, posts } from "./support.ts"

const failure = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect)


it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("data items over real HTTP", (it) => {
  it.effect("insert, get, update, save, remove: dates round trip, missing items are none", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Items")
      yield* asAdmin(Effect.gen(function*() {
        const published = new Date("2026-05-01T10:00:00.000Z")
        const inserted = yield* DataItems.insert(c, { title: "Hello", likes: 1, published })
        assert.isString(inserted._id)
        assert.instanceOf(inserted["published"], Date)
        assert.strictEqual((inserted["published"] as Date).toISOString(), published.toISOString())
        assert.instanceOf(inserted._createdDate, Date)

        const got = yield* DataItems.get(c, inserted._id)
        assert.isTrue(Option.isSome(got))
        assert.strictEqual(Option.getOrThrow(got)["title"], "Hello")

        const updated = yield* DataItems.update(c, { ...Option.getOrThrow(got), title: "Hello again" })
        assert.strictEqual(updated["title"], "Hello again")

        const saved = yield* DataItems.save(c, { _id: "fixed-id", title: "Saved" })
        assert.strictEqual(saved.action, "INSERTED")
        const resaved = yield* DataItems.save(c, { _id: "fixed-id", title: "Saved twice" })
        assert.strictEqual(resaved.action, "UPDATED")

        const removed = yield* DataItems.remove(c, inserted._id)
        assert.strictEqual(Option.getOrThrow(removed)._id, inserted._id)
        assert.isTrue(Option.isNone(yield* DataItems.get(c, inserted._id)))
        assert.isTrue(Option.isNone(yield* DataItems.remove(c, inserted._id)))
      }))
    }))

  it.effect("insert with an existing id fails WDE0074; update of a missing item WDE0073", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Conflicts")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.insert(c, { _id: "a", n: 1 })
        const exists = yield* failure(DataItems.insert(c, { _id: "a", n: 2 }))
        assert.instanceOf(exists, DataError)
        assert.strictEqual((exists as DataError).code, WDE.itemAlreadyExists)
        const missing = yield* failure(DataItems.update(c, { _id: "nope", n: 1 }))
        assert.strictEqual((missing as DataError).code, WDE.itemNotFound)
      }))
    }))

  it.effect("client-side validation fails before any request", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Validation")
      yield* asAdmin(Effect.gen(function*() {
        const before = yield* stats
        const errors = [
          yield* failure(DataItems.insert(42 as unknown as string, { a: 1 })),
          yield* failure(DataItems.get(c, 7 as unknown as string)),
          yield* failure(DataItems.insert(c, "not an object" as unknown as Item)),
          yield* failure(DataItems.update(c, { title: "no id" } as unknown as Item)),
          yield* failure(DataItems.insert(c, { a: 1 }, { suppressHooks: "yes" } as unknown as { suppressHooks: boolean })),
          yield* failure(DataItems.bulkInsert(c, Array.from({ length: 1001 }, (_, i) => ({ i })))),
          yield* failure(DataItems.bulkRemove(c, Array.from({ length: 1001 }, (_, i) => `id${i}`))),
          yield* failure(DataItems.query(c).limit(0).find),
          yield* failure(DataItems.query(c).skip(-1).find),
          yield* failure(DataItems.query(c).limit(2.5).find),
          yield* failure(DataItems.query(c).eq("a", 1).startsWith("title", 5 as unknown as string).find),
          yield* failure(DataItems.query(c).hasSome("tags", [{}] as unknown as Array<string>).find),
          yield* failure(DataItems.query(c).language("").find),
          yield* failure(DataItems.patch(c, "x").incrementField("n", "1" as unknown as number).run)
        ]
        const codes = errors.map((e) => (e as DataError).code)
        assert.deepStrictEqual(codes, [
          WDE.collectionNameNotString,
          WDE.itemIdNotString,
          WDE.itemNotObject,
          WDE.updateWithoutId,
          WDE.optionsNotBooleans,
          WDE.tooManyBulkItems,
          WDE.tooManyIdsToRemove,
          WDE.notPositive,
          WDE.negative,
          WDE.notInteger,
          WDE.notString,
          WDE.setOperand,
          WDE.emptyString,
          WDE.notANumber
        ])
        const after = yield* stats
        // only the two stats calls themselves reached the platform
        assert.strictEqual(after.requests - before.requests, 1)
      }))
    }))

  it.effect("query: filter, sort, paging with next/prev, totals, fields", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Query")
      yield* asAdmin(Effect.gen(function*() {
        const report = yield* DataItems.bulkInsert(c, posts(60))
        assert.strictEqual(report.inserted, 60)

        const page = yield* DataItems.query(c).gt("likes", 4).descending("likes").ascending("title").limit(10).withTotalCount().find
        assert.strictEqual(page.totalCount, 30)
        assert.strictEqual(page.items.length, 10)
        assert.strictEqual(page.pageSize, 10)
        assert.strictEqual(page.totalPages, 3)
        assert.isTrue(page.hasNext)
        assert.isFalse(page.hasPrev)
        assert.isTrue(page.items.every((p) => (p["likes"] as number) > 4))
        assert.deepStrictEqual(page.items.slice(0, 3).map((p) => p["likes"]), [9, 9, 9])

        const second = yield* page.next
        assert.strictEqual(second.currentPage, 1)
        assert.isTrue(second.hasPrev)
        const third = yield* second.next
        assert.isFalse(third.hasNext)
        const noMore = yield* failure(third.next)
        assert.strictEqual((noMore as DataError).code, WDE.noNextPage)
        const back = yield* second.prev
        assert.deepStrictEqual(back.items.map((p) => p._id), page.items.map((p) => p._id))
        const all = [...page.items, ...second.items, ...third.items].map((p) => p._id)
        assert.strictEqual(new Set(all).size, 30)
        const noPrev = yield* failure(page.prev)
        assert.strictEqual((noPrev as DataError).code, WDE.noPreviousPage)

        const projected = yield* DataItems.query(c).fields("title").limit(1).find
        assert.deepStrictEqual(Object.keys(projected.items[0]!).filter((k) => k !== "_id").sort(), ["title"])

        const dated = yield* DataItems.query(c).ge("published", new Date(Date.UTC(2026, 0, 28))).find
        assert.isTrue(dated.items.length > 0)
        assert.isTrue(dated.items.every((p) => (p["published"] as Date).getUTCDate() === 28))

        assert.strictEqual(yield* DataItems.query(c).hasSome("tags", ["odd"]).count, 30)
        assert.strictEqual(yield* DataItems.query(c).where(Filter.fromJson({ likes: { $in: [1, 2] }, tags: { $hasAll: ["odd"] } })).count, 6)
        const regex = yield* failure(DataItems.query(c).where(Filter.fromJson({ title: { $regex: "^Post" } })).find)
        assert.strictEqual((regex as DataError).code, WDE.regexNotAllowed)
        assert.strictEqual(yield* DataItems.count(c, Filter.eq("likes", 3)), 6)
        const distinct = yield* DataItems.query(c).ascending("likes").distinct("likes")
        assert.deepStrictEqual(distinct.values, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      }))
    }))

  it.effect("query.stream and query.pages walk every item exactly once", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Stream")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.bulkInsert(c, Stream.fromIterable(posts(2345)))
        const ids = yield* DataItems.query(c).ascending("title").stream.pipe(Stream.map((p) => p._id), Stream.runCollect)
        assert.strictEqual(ids.length, 2345)
        assert.strictEqual(new Set(ids).size, 2345)
        const pages = yield* DataItems.query(c).limit(500).pages.pipe(Stream.map((p) => p.items.length), Stream.runCollect)
        assert.deepStrictEqual(pages, [500, 500, 500, 500, 345])
        const filtered = yield* DataItems.query(c).eq("likes", 7).stream.pipe(Stream.runCount)
        assert.strictEqual(filtered, 234)
      }))
    }))

  it.effect("patch: set, remove, increment, append, remove from array", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Patch")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.insert(c, { _id: "x", title: "t", likes: 1, tags: ["a", "b"], old: true })
        const patched = yield* DataItems.patch(c, "x")
          .setField("title", "new")
          .removeField("old")
          .incrementField("likes", 5)
          .appendToArray("tags", "c")
          .removeFromArray("tags", "a")
          .run
        assert.strictEqual(patched["title"], "new")
        assert.isFalse("old" in patched)
        assert.strictEqual(patched["likes"], 6)
        assert.deepStrictEqual(patched["tags"], ["b", "c"])
        const missing = yield* failure(DataItems.patch(c, "nope").setField("a", 1).run)
        assert.strictEqual((missing as DataError).code, WDE.itemNotFound)
      }))
    }))

  it.effect("bulk writes report every item's fate, by original index", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Bulk")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.insert(c, { _id: "taken", n: 0 })
        const given = [{ _id: "a", n: 1 }, { _id: "taken", n: 2 }, { n: 3 }, { n: 4, at: new Date(5), tags: ["t"] }]
        const report = yield* DataItems.bulkInsert(c, given)
        assert.strictEqual(report.inserted, 3)
        assert.strictEqual(report.skipped, 1)
        assert.deepStrictEqual(report.errors, [])
        assert.strictEqual(report.insertedItemIds.length, 3)
        // the caller's items are not changed: no ids added, dates left as dates
        assert.deepStrictEqual(given, [{ _id: "a", n: 1 }, { _id: "taken", n: 2 }, { n: 3 }, { n: 4, at: new Date(5), tags: ["t"] }])
        const stored = Option.getOrThrow(yield* DataItems.get(c, report.insertedItemIds[2]!))
        assert.strictEqual(stored["n"], 4)
        assert.strictEqual((stored["at"] as Date).getTime(), 5)
        assert.deepStrictEqual(stored["tags"], ["t"])

        const strict = yield* DataItems.bulkInsert(c, [{ _id: "taken", n: 2 }, { _id: "b", n: 4 }], { overrideExisting: true })
        assert.strictEqual(strict.inserted, 1)
        assert.strictEqual(strict.errors.length, 1)
        assert.strictEqual(strict.errors[0]!.index, 0)
        assert.strictEqual(strict.errors[0]!.code, WDE.itemAlreadyExists)

        const updated = yield* DataItems.bulkUpdate(c, [{ _id: "a", n: 10 }, { _id: "ghost", n: 0 }])
        assert.strictEqual(updated.updated, 1)
        assert.strictEqual(updated.skipped, 1)

        const saved = yield* DataItems.bulkSave(c, [{ _id: "a", n: 11 }, { _id: "c", n: 12 }])
        assert.strictEqual(saved.updated + saved.inserted, 2)
        assert.deepStrictEqual(saved.insertedItemIds, ["c"])

        const patched = yield* DataItems.bulkPatch(c, ["a", "c", "ghost"]).incrementField("n", 1).run
        assert.strictEqual(patched.updated, 2)
        assert.strictEqual(patched.skipped, 1)

        const removed = yield* DataItems.bulkRemove(c, ["a", "ghost", "c"])
        assert.strictEqual(removed.removed, 2)
        assert.strictEqual(removed.skipped, 1)
        assert.deepStrictEqual([...removed.removedItemIds].sort(), ["a", "c"])
      }))
    }))

  it.effect("a stream of 5000 items imports in chunks with bounded concurrency, ids assigned client-side", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Import")
      yield* asAdmin(Effect.gen(function*() {
        const rows = Stream.range(0, 4999).pipe(Stream.map((i) => ({ i, name: `row ${i}` })))
        const report = yield* DataItems.bulkInsert(c, rows, { concurrency: 3 })
        assert.strictEqual(report.inserted, 5000)
        assert.strictEqual(report.errors.length, 0)
        assert.strictEqual(new Set(report.insertedItemIds).size, 5000)
        assert.strictEqual(yield* DataItems.count(c), 5000)
      }))
    }))

  it.effect("a bulk write without ids in its report counts every item and still lists every failure", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Counted")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.insert(c, { _id: "taken", i: -1 })
        const rows = Stream.range(0, 2499).pipe(Stream.map((i) => (i === 1234 ? { _id: "taken", i } : { i })))
        const report = yield* DataItems.bulkInsert(c, rows, { chunkSize: 500, keepIds: false, overrideExisting: true })
        assert.strictEqual(report.inserted, 2499)
        assert.deepStrictEqual(report.insertedItemIds, [])
        assert.deepStrictEqual(report.errors.map((e) => [e.index, e.id]), [[1234, "taken"]])
        assert.strictEqual(yield* DataItems.count(c), 2500)
      }))
    }))

  it.effect("an import that stops part-way resumes from its last checkpoint with its key: every item once, none twice", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Resume")
      yield* asAdmin(Effect.gen(function*() {
        const input = Stream.range(0, 2499).pipe(Stream.map((i) => ({ i })))
        const key = newBulkKey()
        // the job keeps a checkpoint; it stops while saving the one at 1500, after the chunk before had landed
        let saved = 0
        const first = yield* Effect.exit(DataItems.bulkInsert(c, input, {
          chunkSize: 500,
          concurrency: 3,
          resumeKey: key,
          onProgress: (p) => p.settled >= 1500 ? Effect.die("stopped") : Effect.sync(() => void (saved = p.settled))
        }))
        assert.isTrue(first._tag === "Failure")
        assert.strictEqual(saved, 1000)
        const landed = yield* DataItems.count(c)
        assert.isAtLeast(landed, 1500)
        // run again from the checkpoint, with the same key
        const report = yield* DataItems.bulkInsert(c, input.pipe(Stream.drop(saved)), { chunkSize: 500, resumeKey: key, startAt: saved })
        assert.strictEqual(report.inserted, 1500)
        assert.strictEqual(report.skipped, 0)
        assert.deepStrictEqual(report.errors, [])
        assert.deepStrictEqual(report.insertedItemIds, Array.from({ length: 1500 }, (_, k) => bulkItemId(key, 1000 + k)))
        assert.strictEqual(yield* DataItems.count(c), 2500)
        const seen = yield* DataItems.query(c).limit(1000).stream.pipe(Stream.map((item) => item["i"] as number), Stream.runCollect)
        assert.deepStrictEqual([...seen].sort((a, b) => a - b), Array.from({ length: 2500 }, (_, i) => i))
      }))
    }))

  it.effect("a resume key that newBulkKey did not make, or a start position that is not a whole number, fails before any request", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("ResumeCheck")
      yield* asAdmin(Effect.gen(function*() {
        const before = yield* stats
        const errors = [
          yield* failure(DataItems.bulkInsert(c, [{ a: 1 }], { resumeKey: "job-1" })),
          yield* failure(DataItems.bulkSave(c, Stream.make({ a: 1 }), { resumeKey: crypto.randomUUID() })),
          yield* failure(DataItems.bulkInsert(c, [{ a: 1 }], { startAt: -1 })),
          yield* failure(DataItems.bulkRemove(c, ["x"], { startAt: 2.5 })),
          yield* failure(DataItems.bulkInsert(c, [{ a: 1 }], { startAt: "3" as unknown as number }))
        ]
        assert.deepStrictEqual(errors.map((e) => [(e as DataError).code, (e as DataError).field]), [
          ["INVALID_RESUME_KEY", "resumeKey"],
          ["INVALID_RESUME_KEY", "resumeKey"],
          [WDE.negative, "startAt"],
          [WDE.notInteger, "startAt"],
          [WDE.notANumber, "startAt"]
        ])
        const after = yield* stats
        assert.strictEqual(after.requests - before.requests, 1)
      }))
    }))

  it.effect("transient failures (503, 429) of a chunk are retried: nothing lost, nothing doubled", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Retry")
      yield* dev("/faults", { body: { path: "/wix-data/v2/bulk/items/insert", status: 503, count: 2 } })
      yield* asAdmin(Effect.gen(function*() {
        const report = yield* DataItems.bulkInsert(c, Stream.range(0, 2499).pipe(Stream.map((i) => ({ i }))), { concurrency: 2 })
        assert.strictEqual(report.inserted, 2500)
        assert.strictEqual(report.errors.length, 0)
        assert.strictEqual(yield* DataItems.count(c), 2500)
      }))
    }))

  it.effect("aggregate: group, count, sum, having, sort", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Aggregate")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.bulkInsert(c, posts(40))
        const result = yield* DataItems.aggregate(c)
          .filter(Filter.ge("likes", 2))
          .group("likes")
          .count()
          .sum("likes")
          .having(Filter.gt("count", 3))
          .ascending("likes")
          .run
        assert.deepStrictEqual(result.items.map((r) => [r["_id"], r["count"], r["likesSum"]]), [
          [2, 4, 8],
          [3, 4, 12],
          [4, 4, 16],
          [5, 4, 20],
          [6, 4, 24],
          [7, 4, 28],
          [8, 4, 32],
          [9, 4, 36]
        ])
        const whole = yield* DataItems.aggregate(c).count().avg("likes").max("likes").min("likes").run
        assert.strictEqual(whole.items.length, 1)
        assert.include(whole.items[0]!, { count: 40, likesAvg: 4.5, likesMax: 9, likesMin: 0 })
      }))
    }))

  it.effect("references: insert, is-referenced, query-referenced, replace, remove, include", () =>
    Effect.gen(function*() {
      const authors = yield* freshCollection("Authors")
      const books = yield* freshCollection("Books", {
        fields: [
          { key: "title", type: "TEXT" },
          { key: "authors", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: authors } } }
        ]
      })
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.bulkInsert(authors, [{ _id: "ann", name: "Ann" }, { _id: "bob", name: "Bob" }, { _id: "cy", name: "Cy" }])
        yield* DataItems.insert(books, { _id: "b1", title: "Book" })
        yield* DataItems.insertReference(books, "authors", "b1", ["ann", "bob"])
        assert.isTrue(yield* DataItems.isReferenced(books, "authors", "b1", "ann"))
        assert.isFalse(yield* DataItems.isReferenced(books, "authors", "b1", "cy"))
        const referenced = yield* DataItems.queryReferenced(books, "b1", "authors")
        assert.deepStrictEqual(referenced.items.map((a) => a._id).sort(), ["ann", "bob"])
        yield* DataItems.replaceReferences(books, "authors", "b1", ["cy"])
        assert.deepStrictEqual((yield* DataItems.queryReferenced(books, "b1", "authors")).items.map((a) => a._id), ["cy"])
        yield* DataItems.removeReference(books, "authors", "b1", ["cy"])
        assert.strictEqual((yield* DataItems.queryReferenced(books, "b1", "authors")).items.length, 0)
        yield* DataItems.insertReference(books, "authors", "b1", ["bob"])
        const withAuthors = yield* DataItems.query(books).include("authors").find
        const included = withAuthors.items[0]!["authors"] as ReadonlyArray<Item>
        assert.deepStrictEqual(included.map((a) => a["name"]), ["Bob"])
      }))
    }))

  it.effect("search by expression, with a filter", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Search")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.bulkInsert(c, [
          { title: "Effect pipelines in practice", likes: 5 },
          { title: "Practical streams", likes: 1 },
          { title: "Cooking pasta", likes: 9 }
        ])
        const hits = yield* DataItems.search(c, "practice").find
        assert.deepStrictEqual(hits.items.map((h) => h["title"]), ["Effect pipelines in practice"])
        const filtered = yield* DataItems.search(c, "pasta practice", { mode: "OR" }).gt("likes", 4).ascending("likes").find
        assert.deepStrictEqual(filtered.items.map((h) => h["title"]), ["Effect pipelines in practice", "Cooking pasta"])
      }))
    }))

  it.effect("async patch and remove by filter, with job status", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Async")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.bulkInsert(c, posts(300))
        const patchJob = yield* DataItems.patchByFilter(c, Filter.eq("likes", 1)).setField("flag", true).run
        const patched = yield* DataItems.awaitJob(patchJob, { every: "20 millis" })
        assert.strictEqual(patched.status, "SUCCEEDED")
        assert.strictEqual(patched.successCount, 30)
        assert.strictEqual(yield* DataItems.count(c, Filter.eq("flag", true)), 30)
        const removeJob = yield* DataItems.removeByFilter(c, Filter.eq("flag", true))
        assert.strictEqual((yield* DataItems.awaitJob(removeJob, { every: "20 millis" })).status, "SUCCEEDED")
        assert.strictEqual(yield* DataItems.count(c), 270)
      }))
    }))

  it.effect("permissions: a visitor may read a public collection but not write an admin one", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Guarded", { permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } })
      yield* asAdmin(DataItems.insert(c, { _id: "one", v: 1 }))
      yield* asVisitor(Effect.gen(function*() {
        assert.strictEqual((yield* DataItems.query(c).find).items.length, 1)
        const refused = yield* failure(DataItems.insert(c, { v: 2 }))
        assert.strictEqual((refused as DataError).status, 403)
      }))
      assert.strictEqual(yield* asAdmin(DataItems.count(c)), 1)
    }))

  it.effect("a hook error comes back as WDE0078 with the hook's name, message and code", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Hooked")
      yield* dev("/data/hooks", { body: { dataCollectionId: c, hook: "beforeInsert", error: { name: "Forbidden", message: "no titles in caps", code: "CAPS" } } })
      const error = yield* asAdmin(failure(DataItems.insert(c, { title: "LOUD" })))
      yield* dev("/data/hooks", { method: "DELETE" })
      assert.strictEqual((error as DataError).code, WDE.hookError)
      assert.deepStrictEqual((error as DataError).hook, { name: "Forbidden", message: "no titles in caps", code: "CAPS" })
    }))

  it.effect("an oversized payload is WDE0109", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Big")
      const error = yield* asAdmin(failure(DataItems.insert(c, { blob: "x".repeat(6 * 1024 * 1024) })))
      assert.strictEqual((error as DataError).code, WDE.payloadTooLarge)
    }))

  it.effect("a long query falls back from GET to POST with the same body", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Long")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.bulkInsert(c, posts(5))
        const many = Array.from({ length: 300 }, (_, i) => `p${String(i).padStart(4, "0")}`)
        const page = yield* DataItems.query(c).in("_id", many).find
        assert.strictEqual(page.items.length, 5)
      }))
    }))

  it.effect("collections reader: by id, missing, query", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Reader")
      yield* asAdmin(Effect.gen(function*() {
        const found = yield* DataItems.collections.get(c)
        assert.strictEqual(Option.getOrThrow(found).id, c)
        assert.isTrue(Option.isNone(yield* DataItems.collections.get("NoSuchCollection")))
        const listed = yield* DataItems.collections.query({ limit: 1000 })
        assert.isTrue(listed.some((x) => x.id === c))
      }))
    }))

  it.effect("myPermissions: what the caller may do with a collection's items; a missing collection is WDE0025", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Mine", { permissions: { read: "ANYONE", insert: "SITE_MEMBER", update: "SITE_MEMBER_AUTHOR", remove: "ADMIN" } })
      assert.deepStrictEqual(yield* asVisitor(DataItems.myPermissions(c)), { read: true, insert: false, update: false, remove: false })
      assert.deepStrictEqual(yield* asAdmin(DataItems.myPermissions(c)), { read: true, insert: true, update: true, remove: true })
      const missing = yield* asVisitor(DataItems.myPermissions("NoSuchCollection")).pipe(Effect.flip)
      assert.strictEqual(missing._tag === "DataError" ? missing.code : missing._tag, WDE.collectionNotFound)
      const invalid = yield* asVisitor(DataItems.myPermissions(42 as unknown as string)).pipe(Effect.flip)
      assert.strictEqual(invalid._tag === "DataError" ? invalid.code : invalid._tag, WDE.collectionNameNotString)
    }))

  it.effect("truncate empties a collection", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Truncate")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.bulkInsert(c, posts(12))
        yield* DataItems.truncate(c)
        assert.strictEqual(yield* DataItems.count(c), 0)
      }))
    }))
})

import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type DataError } from "../../src/data/DataError.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { bulkItemId, newBulkKey } from "../../src/data/ids.ts"
import { LocalPlatform } from "../support/platform.ts"
import { Authors } from "../types/generated/collections.ts"
import { asAdmin, asVisitor, freshCollection } from "./support.ts"

/** The ids sitefx makes for items that come without one (version 7 UUIDs); the platform's own are version 4. */
const CLIENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

class Post extends Schema.Class<Post>("Post")({
  _id: Schema.String,
  title: Schema.String,
  likes: Schema.Number,
  published: Schema.Date
}) {}

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("typed collections", (it) => {
  it.effect("reads decode to the schema's type and writes encode from it", () =>
    Effect.gen(function*() {
      const name = yield* freshCollection("Typed")
      const posts = DataItems.collection(name, Post)
      yield* asAdmin(Effect.gen(function*() {
        const inserted = yield* posts.insert(new Post({ _id: "p1", title: "Typed", likes: 3, published: new Date("2026-03-01T00:00:00Z") }))
        assert.instanceOf(inserted, Post)
        assert.strictEqual(inserted.published.toISOString(), "2026-03-01T00:00:00.000Z")
        yield* posts.bulkInsert(Array.from({ length: 20 }, (_, i) => new Post({ _id: `q${i}`, title: `T${i}`, likes: i, published: new Date(0) })))
        const top = yield* posts.query.gt("likes", 15).descending("likes").find
        assert.deepStrictEqual(top.items.map((p) => p.likes), [19, 18, 17, 16])
        assert.isTrue(top.items.every((p) => p instanceof Post))
        const all = yield* posts.query.stream.pipe(Stream.runCount)
        assert.strictEqual(all, 21)
        assert.strictEqual(Option.getOrThrow(yield* posts.get("p1")).title, "Typed")

        // a projection decodes through the Schema picked to its fields: the whole Post's required fields are not asked for
        const titles = yield* posts.query.fields("title", "published").gt("likes", 17).ascending("likes").find
        assert.deepStrictEqual(titles.items, [
          { _id: "q18", title: "T18", published: new Date(0) },
          { _id: "q19", title: "T19", published: new Date(0) }
        ])
        // a projected field that is not of its type still fails typed
        yield* asAdmin(DataItems.insert(name, { _id: "bad-title", title: 7, likes: 100, published: new Date(0) }))
        const refused = yield* posts.query.fields("title").gt("likes", 99).find.pipe(Effect.flip)
        assert.strictEqual((refused as DataError).code, "ITEM_DECODE_ERROR")
      }))
    }))

  it.effect("an invalid stored item surfaces as a typed decode error", () =>
    Effect.gen(function*() {
      const name = yield* freshCollection("TypedBad")
      const posts = DataItems.collection(name, Post)
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.insert(name, { _id: "bad", title: 42 })
        const error = yield* Effect.flip(posts.query.find)
        assert.strictEqual((error as DataError).code, "ITEM_DECODE_ERROR")
        assert.strictEqual((error as DataError).reason._tag, "AnswerError")
        assert.include((error as DataError).message, "(_id bad)")
        const got = yield* Effect.flip(posts.get("bad"))
        assert.strictEqual((got as DataError).code, "ITEM_DECODE_ERROR")
      }))
    }))

  it.effect("an item without an _id is inserted with the id the untyped insert makes, answered as stored, and read back by it", () =>
    Effect.gen(function*() {
      // the Schema `sitefx data types` writes: `_id` required, the system fields optional, other keys kept
      const authors = DataItems.collection(yield* freshCollection("TypedNew"), Authors)
      yield* asAdmin(Effect.gen(function*() {
        const ada = yield* authors.insert({ name: "Ada" })
        assert.match(ada._id, CLIENT_ID)
        assert.instanceOf(ada._createdDate, Date)
        assert.strictEqual(ada._updatedDate.getTime(), ada._createdDate.getTime())
        // an API key writes without a signed-in caller: the item has no owner, as StoredItem leaves `_owner` optional
        assert.isFalse("_owner" in ada)
        assert.deepStrictEqual(Option.getOrThrow(yield* authors.get(ada._id)), ada)

        // an item with an _id keeps it
        const grace = yield* authors.insert({ _id: "grace", name: "Grace", bio: "Compilers" })
        assert.deepStrictEqual([grace._id, grace.name, grace.bio], ["grace", "Grace", "Compilers"])
        assert.instanceOf(grace._createdDate, Date)

        // a value that does not encode is refused before anything is sent
        const refused = yield* Effect.flip(authors.insert({ name: 7 } as never))
        assert.strictEqual((refused as DataError).code, "ITEM_ENCODE_ERROR")
        assert.strictEqual(yield* authors.query.count, 2)
      }))
      // a visitor's insert is owned by the visitor
      const visitors = yield* asVisitor(authors.insert({ name: "Visitor" }))
      assert.match(visitors._id, CLIENT_ID)
      assert.isString(visitors._owner)
    }))

  it.effect("a Class's collection takes a plain object without _id and answers an instance", () =>
    Effect.gen(function*() {
      const posts = DataItems.collection(yield* freshCollection("TypedClass"), Post)
      yield* asAdmin(Effect.gen(function*() {
        const post = yield* posts.insert({ title: "No id yet", likes: 1, published: new Date("2026-03-01T00:00:00Z") })
        assert.instanceOf(post, Post)
        assert.match(post._id, CLIENT_ID)
        const read = Option.getOrThrow(yield* posts.get(post._id))
        assert.deepStrictEqual([read.title, read.likes, read.published.toISOString()], ["No id yet", 1, "2026-03-01T00:00:00.000Z"])
        // the Class declares no dates: the answer is a Post, and its type claims only the `_id` it declares
        assert.isFalse("_createdDate" in post)
      }))
    }))

  it.effect("save inserts an item without an _id under an id of sitefx's, and replaces it when given that id", () =>
    Effect.gen(function*() {
      const authors = DataItems.collection(yield* freshCollection("TypedSave"), Authors)
      yield* asAdmin(Effect.gen(function*() {
        const saved = yield* authors.save({ name: "Draft" })
        assert.match(saved._id, CLIENT_ID)
        const renamed = yield* authors.save({ ...saved, name: "Final" })
        assert.strictEqual(renamed._id, saved._id)
        assert.strictEqual(renamed._createdDate.getTime(), saved._createdDate.getTime())
        assert.isAtLeast(renamed._updatedDate.getTime(), saved._updatedDate.getTime())
        const updated = yield* authors.update({ ...renamed, bio: "Kept" })
        assert.instanceOf(updated._updatedDate, Date)
        assert.deepStrictEqual((yield* authors.query.find).items.map((a) => [a._id, a.name, a.bio]), [[saved._id, "Final", "Kept"]])
      }))
    }))

  it.effect("bulkInsert gives items without an _id distinct ids of sitefx's and reports each item's fate", () =>
    Effect.gen(function*() {
      const authors = DataItems.collection(yield* freshCollection("TypedBulk"), Authors)
      yield* asAdmin(Effect.gen(function*() {
        yield* authors.insert({ _id: "taken", name: "First" })
        const report = yield* authors.bulkInsert(
          [{ name: "A" }, { name: "B" }, { _id: "given", name: "C" }, { name: "D" }, { _id: "taken", name: "Again" }],
          { overrideExisting: true }
        )
        assert.strictEqual(report.inserted, 4)
        const ids = report.insertedItemIds
        assert.strictEqual(new Set(ids).size, 4)
        assert.deepStrictEqual(ids.map((id) => CLIENT_ID.test(id)), [true, true, false, true])
        assert.strictEqual(ids[2], "given")
        assert.deepStrictEqual(report.errors.map((e) => [e.index, e.code, e.id]), [[4, "WDE0074", "taken"]])
        const names = yield* Effect.forEach(ids, (id) => Effect.map(authors.get(id), (a) => Option.getOrThrow(a).name))
        assert.deepStrictEqual(names, ["A", "B", "C", "D"])

        // a Stream, and a resumable write: the ids are those the untyped bulkInsert makes from the key
        const key = newBulkKey()
        const keyed = yield* authors.bulkInsert(Stream.fromIterable([{ name: "K0" }, { name: "K1" }, { name: "K2" }]), { resumeKey: key })
        assert.deepStrictEqual(keyed.insertedItemIds, [0, 1, 2].map((i) => bulkItemId(key, i)))

        // bulkSave: a new item gets an id of sitefx's, a given one is replaced
        const saved = yield* authors.bulkSave([{ name: "E" }, { _id: "given", name: "C, again" }])
        assert.deepStrictEqual([saved.inserted, saved.updated, saved.updatedItemIds], [1, 1, ["given"]])
        assert.match(saved.insertedItemIds[0]!, CLIENT_ID)
        assert.strictEqual(Option.getOrThrow(yield* authors.get("given")).name, "C, again")
        assert.strictEqual(yield* authors.query.count, 1 + 4 + 3 + 1)
      }))
    }))
})

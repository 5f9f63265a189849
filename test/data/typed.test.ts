import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type DataError } from "../../src/data/DataError.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { LocalPlatform } from "../support/platform.ts"
import { asAdmin, freshCollection } from "./support.ts"

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
})

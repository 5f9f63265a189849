/**
 * sitefx/data/indexes against the local platform: create, list, get, drop, awaitActive; unique and
 * case-insensitive indexes refuse what they should (one item, a bulk item, an update, a save); an index
 * over values that already clash ends FAILED with its failure; visitors are refused; bad arguments are
 * refused before anything is sent.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as DataItems from "../../src/data/DataItems.ts"
import * as Indexes from "../../src/data/Indexes.ts"
import { LocalPlatform } from "../support/platform.ts"
import { asAdmin, asVisitor, freshCollection } from "./support.ts"

const refusal = <A, E extends { readonly _tag: string; readonly code?: string; readonly status?: number | undefined }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flip(effect).pipe(Effect.map((e) => ({ tag: e._tag, code: e.code, status: e.status })))

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("sitefx/data/indexes", (it) => {
  it.effect("create answers BUILDING, awaitActive gives it ACTIVE; list, stream, get and drop", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Indexed")
      yield* asAdmin(DataItems.bulkInsert(c, Array.from({ length: 50 }, (_, i) => ({ rank: i % 5, code: `c${i}` }))))
      const created = yield* asAdmin(Indexes.create(c, { name: "byRank", fields: [{ path: "rank", order: "DESC" }, { path: "code" }] }))
      assert.deepInclude(created, { name: "byRank", status: "BUILDING", source: "USER" })
      const active = yield* asAdmin(Indexes.awaitActive(c, "byRank", { timeout: "10 seconds", interval: "5 millis" }))
      assert.strictEqual(active.status, "ACTIVE")
      assert.deepStrictEqual(active.fields, [{ path: "rank", order: "DESC" }, { path: "code" }])

      yield* asAdmin(Indexes.create(c, { name: "byCode", fields: [{ path: "code" }] }))
      const page = yield* asAdmin(Indexes.list(c, { limit: 1 }))
      assert.deepStrictEqual([page.indexes.map((i) => i.name), page.total, page.hasNext], [["byRank"], 2, true])
      const all = yield* asAdmin(Indexes.stream(c).pipe(Stream.map((i) => i.name), Stream.runCollect))
      assert.deepStrictEqual(all, ["byRank", "byCode"])
      assert.isTrue(Option.isSome(yield* asAdmin(Indexes.get(c, "byCode"))))

      yield* asAdmin(Indexes.drop(c, "byCode"))
      assert.isTrue(Option.isNone(yield* asAdmin(Indexes.get(c, "byCode"))))
      assert.deepStrictEqual(yield* refusal(asAdmin(Indexes.drop(c, "byCode"))), { tag: "DataError", code: "NOT_FOUND", status: 404 })
      assert.deepStrictEqual(yield* refusal(asAdmin(Indexes.awaitActive(c, "byCode"))), { tag: "DataError", code: "NOT_FOUND", status: undefined })
      const twice = yield* refusal(asAdmin(Indexes.create(c, { name: "byRank", fields: [{ path: "code" }] })))
      assert.deepStrictEqual(twice, { tag: "DataError", code: "ALREADY_EXISTS", status: 409 })
    }))

  it.effect("a unique, case-insensitive index refuses a clashing insert, update, save and bulk item, and nothing else", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Unique")
      yield* asAdmin(DataItems.insert(c, { _id: "ada", email: "Ada@example.com" }))
      yield* asAdmin(DataItems.insert(c, { _id: "grace", email: "grace@example.com" }))
      yield* asAdmin(Indexes.create(c, { name: "uniqueEmail", fields: [{ path: "email" }], unique: true, caseInsensitive: true }))
      yield* asAdmin(Indexes.awaitActive(c, "uniqueEmail", { interval: "5 millis" }))

      const clash = { tag: "DataError", code: "UNIQUE_INDEX_VIOLATION", status: 409 }
      assert.deepStrictEqual(yield* refusal(asAdmin(DataItems.insert(c, { email: "ADA@example.com" }))), clash)
      assert.deepStrictEqual(yield* refusal(asAdmin(DataItems.update(c, { _id: "grace", email: "ada@EXAMPLE.com" }))), clash)
      assert.deepStrictEqual(yield* refusal(asAdmin(DataItems.save(c, { _id: "alan", email: "ada@example.com" }))), clash)
      const report = yield* asAdmin(DataItems.bulkInsert(c, [{ email: "linus@example.com" }, { email: "Grace@Example.com" }, { email: "barbara@example.com" }]))
      assert.strictEqual(report.inserted, 2)
      assert.deepStrictEqual(report.errors.map((e) => [e.index, e.code]), [[1, "UNIQUE_INDEX_VIOLATION"]])
      // items without the field are not constrained, and nothing refused was written
      yield* asAdmin(DataItems.bulkInsert(c, [{ other: 1 }, { other: 2 }]))
      assert.strictEqual(yield* asAdmin(DataItems.query(c).count), 6)
      assert.strictEqual((yield* asAdmin(DataItems.get(c, "grace"))).pipe(Option.map((g) => g["email"]), Option.getOrUndefined), "grace@example.com")
    }))

  it.effect("an index over values that already clash ends FAILED with DUPLICATE_VALUES naming an item; awaitActive fails with it", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Clashing")
      yield* asAdmin(DataItems.bulkInsert(c, [{ _id: "a", tag: "x" }, { _id: "b", tag: "y" }, { _id: "c", tag: "x" }]))
      yield* asAdmin(Indexes.create(c, { name: "uniqueTag", fields: [{ path: "tag" }], unique: true }))
      const failed = yield* Effect.flip(asAdmin(Indexes.awaitActive(c, "uniqueTag", { interval: "5 millis" })))
      assert.strictEqual(failed._tag === "DataError" ? failed.reason._tag : failed._tag, "AnswerError")
      assert.strictEqual(failed.code, "DUPLICATE_VALUES")
      const index = Option.getOrThrow(yield* asAdmin(Indexes.get(c, "uniqueTag")))
      assert.strictEqual(index.status, "FAILED")
      assert.strictEqual(index.failure?.code, "DUPLICATE_VALUES")
      assert.include(["a", "c"], index.failure?.itemId)
    }))

  it.effect("visitors are refused; bad arguments are refused before sending", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Guarded")
      assert.deepStrictEqual(yield* refusal(asVisitor(Indexes.list(c))), { tag: "DataError", code: "PERMISSION_DENIED", status: 403 })
      assert.deepStrictEqual(yield* refusal(asVisitor(Indexes.create(c, { name: "x", fields: [{ path: "a" }] }))), { tag: "DataError", code: "PERMISSION_DENIED", status: 403 })
      assert.deepStrictEqual(yield* refusal(asAdmin(Indexes.create(c, { name: "", fields: [{ path: "a" }] }))), { tag: "DataError", code: "WDE0094", status: undefined })
      assert.deepStrictEqual(yield* refusal(asAdmin(Indexes.create(c, { name: "none", fields: [] }))), { tag: "DataError", code: "WDE0043", status: undefined })
      assert.deepStrictEqual(yield* refusal(asAdmin(Indexes.list(c, { limit: 0 }))), { tag: "DataError", code: "WDE0033", status: undefined })
      assert.deepStrictEqual(yield* refusal(asAdmin(Indexes.list("no-such-collection"))), { tag: "DataError", code: "WDE0025", status: 404 })
    }))
})

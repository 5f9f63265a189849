/**
 * Bulk writes of items whose JSON text is written already (`JsonItem`, what `sitefx data import` makes
 * of a JSONL line it checked), against the real local platform: the text goes on the wire as it is,
 * beside plain items in the same chunk; an item without `_id` gets the id a keyed write gives its
 * position, so the same write run again writes nothing twice.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { bulkItems } from "../../src/data/bulkWrites.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { bulkItemId, newBulkKey } from "../../src/data/ids.ts"
import { JsonItem, withId } from "../../src/data/JsonItem.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { LocalPlatform } from "../support/platform.ts"
import { asAdmin, freshCollection } from "./support.ts"

/** A fetch that keeps the body of every bulk insert it sends. */
const keepingBodies = () => {
  const bodies: Array<string> = []
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (String(input).endsWith("/bulk/items/insert") && typeof init?.body === "string") bodies.push(init.body)
    return globalThis.fetch(input, init)
  }
  return { fetch, bodies }
}

it("withId puts the id first, also into an empty object", () => {
  assert.strictEqual(withId("{}", "x"), "{\"_id\":\"x\"}")
  assert.strictEqual(withId("{ \n\t}", "x"), "{\"_id\":\"x\" \n\t}")
  assert.strictEqual(withId("{\"a\":1}", "x\"y"), "{\"_id\":\"x\\\"y\",\"a\":1}")
  for (const text of ["{}", "{ \n\t}", "{\"a\":1}", "{ \"a\" : [1, {}] }"]) assert.deepStrictEqual(Object.keys(JSON.parse(withId(text, "x"))).at(0), "_id")
})

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("bulk writes of JSON text", (it) => {
  it.effect("the text is sent as it is, plain items beside it; ids follow the key, and a second run writes nothing twice", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("JsonItems")
      const key = newBulkKey()
      const given = "{\"_id\":\"a\",  \"title\":\"A\",\"when\":{\"$date\":\"2024-01-02T03:04:05.678Z\"},\"tags\":[\"x\"]}"
      const items = [
        new JsonItem(given, "a"),
        new JsonItem("{}", undefined),
        new JsonItem("{\"title\":\"B\",\"when\":{\"$date\":\"2024-01-02\"}}", undefined),
        { title: "C", when: new Date("2024-03-04T00:00:00.000Z") }
      ]
      const sent = keepingBodies()
      yield* asAdmin(Effect.gen(function*() {
        const first = yield* bulkItems("insert", c, items, { resumeKey: key }).pipe(Effect.provideService(PlatformFetch, sent.fetch))
        assert.strictEqual(first.inserted, 4)
        assert.deepStrictEqual(first.errors, [])
        assert.deepStrictEqual(first.insertedItemIds, ["a", bulkItemId(key, 1), bulkItemId(key, 2), bulkItemId(key, 3)])
        // the text as it was given, blanks included; the id given to an item without one comes first
        assert.include(sent.bodies[0]!, `{"id":"a","data":${given}}`)
        assert.include(sent.bodies[0]!, `{"id":"${bulkItemId(key, 1)}","data":{"_id":"${bulkItemId(key, 1)}"}}`)
        assert.include(sent.bodies[0]!, `{"id":"${bulkItemId(key, 3)}","data":{"title":"C","when":{"$date":"2024-03-04T00:00:00.000Z"},"_id":"${bulkItemId(key, 3)}"}}`)

        const a = Option.getOrThrow(yield* DataItems.get(c, "a"))
        assert.deepStrictEqual([a["title"], a["when"], a["tags"]], ["A", new Date("2024-01-02T03:04:05.678Z"), ["x"]])
        // the platform reads a date in another form as the same date
        assert.deepStrictEqual(Option.getOrThrow(yield* DataItems.get(c, bulkItemId(key, 2)))["when"], new Date("2024-01-02T00:00:00.000Z"))

        // the same write again, as a resumed import sends it: items of the key's ids found there are
        // reported written, the one with its own id is left alone, and nothing is doubled
        const again = yield* bulkItems("insert", c, items, { resumeKey: key })
        assert.deepStrictEqual([again.inserted, again.skipped], [3, 1])
        assert.strictEqual(yield* DataItems.count(c), 4)
      }))
    }))

  it.effect("a save and an update take JSON text too", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("JsonItemsSave")
      yield* asAdmin(Effect.gen(function*() {
        yield* DataItems.insert(c, { _id: "s", title: "before" })
        const saved = yield* bulkItems("save", c, [new JsonItem("{\"_id\":\"s\",\"title\":\"saved\"}", "s"), new JsonItem("{\"title\":\"new\"}", undefined)])
        assert.deepStrictEqual([saved.inserted, saved.updated], [1, 1])
        const updated = yield* bulkItems("update", c, [new JsonItem("{\"_id\":\"s\",\"title\":\"updated\"}", "s"), new JsonItem("{\"_id\":\"missing\"}", "missing")])
        assert.deepStrictEqual([updated.updated, updated.skipped], [1, 1])
        assert.strictEqual(Option.getOrThrow(yield* DataItems.get(c, "s"))["title"], "updated")
      }))
    }))
})

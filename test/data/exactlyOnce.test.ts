/**
 * Single-item writes when answers are lost, against the real local platform: the request reaches the
 * platform and is carried out, then the connection breaks before the answer arrives (a `fetch` that
 * reads the whole answer and throws a reset in its place). A write that cannot write twice is retried
 * and ends with the item written once; one that could (an insert with the caller's own id, an increment)
 * is sent once and fails saying it may have been carried out.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as DataItems from "../../src/data/DataItems.ts"
import { Filter } from "../../src/data/Filter.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { LocalPlatform } from "../support/platform.ts"
import { asAdmin, freshCollection } from "./support.ts"

/**
 * A fetch that loses the answers of the next `count` requests whose path ends with `suffix`: the
 * platform gets them and answers, and the caller sees a connection reset instead.
 */
const losingAnswers = (suffix: string, count: number) => {
  const sent: Array<string> = []
  let left = count
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input)
    const path = new URL(url).pathname
    sent.push(`${init?.method ?? "GET"} ${path}`)
    const response = await globalThis.fetch(input, init)
    if (path.endsWith(suffix) && left > 0) {
      left--
      await response.arrayBuffer()
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) })
    }
    return response
  }
  return { fetch, sent: (p: string) => sent.filter((s) => s.endsWith(p)).length }
}

const titled = (c: string, title: string) => DataItems.query(c).eq("title", title).count

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("single writes whose answers are lost", (it) => {
  it.effect("an insert without an id is retried and stored once, and answers the stored item", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("LostInsert")
      const lossy = losingAnswers("/wix-data/v2/items", 2)
      yield* asAdmin(Effect.gen(function*() {
        const item = yield* DataItems.insert(c, { title: "once", likes: 1 }).pipe(Effect.provideService(PlatformFetch, lossy.fetch))
        assert.strictEqual(lossy.sent("/wix-data/v2/items"), 3, "two lost answers, then the retry that found it there")
        assert.strictEqual(item["title"], "once")
        assert.instanceOf(item._createdDate, Date, "the item as the platform stored it")
        assert.strictEqual(yield* titled(c, "once"), 1)
        assert.strictEqual(Option.getOrThrow(yield* DataItems.get(c, item._id))["likes"], 1)
      }))
    }))

  it.effect("an insert with the caller's own id is sent once and fails saying it may have been carried out", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("LostOwnId")
      const lossy = losingAnswers("/wix-data/v2/items", 1)
      yield* asAdmin(Effect.gen(function*() {
        const error = yield* Effect.flip(DataItems.insert(c, { _id: "mine", title: "mine" }).pipe(Effect.provideService(PlatformFetch, lossy.fetch)))
        assert.strictEqual(error._tag, "PlatformError")
        assert.strictEqual(error.code, "TRANSPORT_ERROR")
        assert.isTrue(error.mayHaveApplied)
        assert.strictEqual(lossy.sent("/wix-data/v2/items"), 1)
        // and reading it back decides: it was
        assert.isTrue(Option.isSome(yield* DataItems.get(c, "mine")))
      }))
    }))

  it.effect("save without an id, update, remove and a patch that sets are retried; each writes once", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("LostOthers")
      yield* asAdmin(Effect.gen(function*() {
        const saveLoss = losingAnswers("/items/save", 1)
        const saved = yield* DataItems.save(c, { title: "saved" }).pipe(Effect.provideService(PlatformFetch, saveLoss.fetch))
        assert.strictEqual(saved.action, "INSERTED", "the retry replaced what the lost attempt inserted: still an insert of a new item")
        assert.strictEqual(saveLoss.sent("/items/save"), 2)
        assert.strictEqual(yield* titled(c, "saved"), 1)

        const updateLoss = losingAnswers("/items/update", 1)
        const updated = yield* DataItems.update(c, { ...saved.item, title: "updated" }).pipe(Effect.provideService(PlatformFetch, updateLoss.fetch))
        assert.strictEqual(updated["title"], "updated")
        assert.strictEqual(updateLoss.sent("/items/update"), 2)

        const patchLoss = losingAnswers("/patch", 1)
        const patched = yield* DataItems.patch(c, saved.item._id).setField("title", "patched").removeField("nothing").run.pipe(
          Effect.provideService(PlatformFetch, patchLoss.fetch)
        )
        assert.strictEqual(patched["title"], "patched")
        assert.strictEqual(patchLoss.sent("/patch"), 2)

        const removeLoss = losingAnswers("/items/remove", 1)
        const removed = yield* DataItems.remove(c, saved.item._id).pipe(Effect.provideService(PlatformFetch, removeLoss.fetch))
        assert.isTrue(Option.isNone(removed), "the retry found it gone: removed by the lost attempt")
        assert.strictEqual(removeLoss.sent("/items/remove"), 2)
        assert.strictEqual(yield* DataItems.query(c).count, 0)
      }))
    }))

  it.effect("a patch that increments is sent once: the field goes up once, and the failure says it may have", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("LostIncrement")
      yield* asAdmin(Effect.gen(function*() {
        const item = yield* DataItems.insert(c, { title: "counter", likes: 1 })
        const lossy = losingAnswers("/patch", 1)
        const error = yield* Effect.flip(DataItems.patch(c, item._id).incrementField("likes", 1).run.pipe(Effect.provideService(PlatformFetch, lossy.fetch)))
        assert.strictEqual(error._tag, "PlatformError")
        assert.isTrue(error.mayHaveApplied)
        assert.strictEqual(lossy.sent("/patch"), 1)
        assert.strictEqual(yield* DataItems.query(c).and(Filter.eq("likes", 2)).count, 1, "incremented exactly once")
      }))
    }))
})

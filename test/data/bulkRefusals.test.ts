/**
 * A bulk write whose requests are refused as a whole fails as a call, with the module's error and the
 * platform's code, against the local platform over real HTTP; a report's `errors` hold single items
 * alone: a malformed item among valid ones, an item too large to send.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import type { BulkProgress } from "../../src/data/Bulk.ts"
import type { ItemInput } from "../../src/data/calls.ts"
import { DataError, WDE } from "../../src/data/DataError.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { newBulkKey } from "../../src/data/ids.ts"
import { PlatformError } from "../../src/http/PlatformError.ts"
import { Site } from "../../src/Site.ts"
import { dev, LocalPlatform } from "../support/platform.ts"
import { asAdmin, asVisitor, freshCollection, retryFast } from "./support.ts"

/** Runs an effect with an API key the platform never issued (a key kept from another start of it). */
const withStaleKey = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const site = Site.apiKey({ baseUrl: platform.url, apiKey: "IST.stale-key-of-an-earlier-start", siteId: platform.siteId, retry: retryFast })
    return yield* Effect.provide(effect, Layer.fresh(site), { local: true })
  })

const rows = (n: number) => Stream.range(1, n).pipe(Stream.map((i): ItemInput => ({ title: `Post ${i}`, n: i })))

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("bulk writes refused as a whole", (it) => {
  it.effect("a stale API key fails the write with the platform's 401, not a report of 2500 failed items", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Stale")
      const error = yield* Effect.flip(withStaleKey(DataItems.bulkInsert(c, rows(2500), { concurrency: 4 })))
      assert.instanceOf(error, DataError)
      assert.strictEqual(error.status, 401)
      assert.include(["UNAUTHENTICATED", "INVALID_TOKEN", "UNAUTHORIZED"], error.code, `code ${error.code}`)
      assert.strictEqual(yield* asAdmin(DataItems.query(c).count), 0)
    }))

  it.effect("the same for an array of items, a save, a removal and a patch", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("StaleArray")
      for (
        const write of [
          DataItems.bulkInsert(c, [{ title: "a" }, { title: "b" }]),
          DataItems.bulkSave(c, [{ _id: "x", title: "a" }]),
          DataItems.bulkRemove(c, ["x", "y"]),
          DataItems.bulkPatch(c, ["x"]).setField("title", "b").run
        ]
      ) {
        const error = yield* Effect.flip(withStaleKey(write))
        assert.strictEqual(error.status, 401)
      }
    }))

  it.effect("no permission (403) and no such collection (WDE0025) fail the write with the module's error", () =>
    Effect.gen(function*() {
      const owned = yield* freshCollection("OwnerOnly", { permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } })
      const denied = yield* Effect.flip(asVisitor(DataItems.bulkInsert(owned, rows(1500))))
      assert.instanceOf(denied, DataError)
      assert.strictEqual(denied.status, 403)
      assert.strictEqual(denied.code, WDE.permissionDenied)
      assert.strictEqual(yield* asAdmin(DataItems.query(owned).count), 0)

      const missing = yield* Effect.flip(asAdmin(DataItems.bulkInsert(`NoSuch_${Date.now()}`, rows(10))))
      assert.instanceOf(missing, DataError)
      assert.strictEqual(missing.code, WDE.collectionNotFound)
    }))

  it.effect("a write the platform stops taking part-way fails after telling its progress up to there; resumed with its key, every item lands once", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("PartWay")
      const seen: Array<number> = []
      const key = newBulkKey()
      // once 2000 items are settled, the platform answers every bulk insert with 503: unavailable past the retries
      const outage = dev("/faults", { body: { path: "/wix-data/v2/bulk/items/insert", status: 503, count: 1000 } })
      const platform = yield* LocalPlatform
      const error = yield* Effect.flip(asAdmin(DataItems.bulkInsert(c, rows(5000), {
        concurrency: 1,
        resumeKey: key,
        onProgress: (p) =>
          Effect.sync(() => seen.push(p.settled)).pipe(
            Effect.andThen(p.settled === 2000 ? Effect.asVoid(Effect.provideService(outage, LocalPlatform, platform)) : Effect.void)
          )
      })))
      assert.instanceOf(error, PlatformError)
      assert.strictEqual(error.code, "UNAVAILABLE")
      assert.deepStrictEqual(seen, [1000, 2000])
      assert.strictEqual(yield* asAdmin(DataItems.query(c).count), 2000)
      yield* dev("/faults", { method: "DELETE" })
      const report = yield* asAdmin(DataItems.bulkInsert(c, rows(5000).pipe(Stream.drop(2000)), { resumeKey: key, startAt: 2000 }))
      assert.strictEqual(report.inserted, 3000)
      assert.strictEqual(yield* asAdmin(DataItems.query(c).count), 5000)
    }))

  it.effect("an insert or save resumed at a position needs the key of the run it resumes", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("NoKey")
      for (const write of [DataItems.bulkInsert(c, rows(10), { startAt: 5 }), DataItems.bulkSave(c, rows(10), { startAt: 5 })]) {
        const error = yield* Effect.flip(asAdmin(write))
        assert.strictEqual(error.code, "MISSING_RESUME_KEY")
      }
      // an update carries its ids: it resumes without one
      const report = yield* asAdmin(DataItems.bulkUpdate(c, [{ _id: "none" }], { startAt: 5 }))
      assert.strictEqual(report.skipped, 1)
      assert.strictEqual(yield* asAdmin(DataItems.query(c).count), 0)
    }))

  it.effect("one malformed item among valid ones is reported alone; the others are written", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Malformed")
      const items: Array<unknown> = Array.from({ length: 1500 }, (_, i) => ({ title: `Item ${i}` }))
      items[700] = "not an item"
      const report = yield* asAdmin(DataItems.bulkInsert(c, Stream.fromIterable(items as Array<ItemInput>)))
      assert.deepStrictEqual(report.errors.map((e) => [e.index, e.code]), [[700, WDE.bulkItemsNotObjects]])
      assert.strictEqual(report.inserted, 1499)
      assert.strictEqual(yield* asAdmin(DataItems.query(c).count), 1499)
    }))

  it.effect("a chunk over the platform's payload limit goes again in parts: only the item too large on its own fails (WDE0109)", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Large")
      // about 300 KB an item: a chunk of 1000 is far over the limit, an item alone is within it, but one of 9 MB is not
      const items = Array.from({ length: 40 }, (_, i): ItemInput => ({ _id: `big-${i}`, body: (i === 17 ? "y" : "x").repeat(i === 17 ? 9_000_000 : 300_000) }))
      const report = yield* asAdmin(DataItems.bulkInsert(c, Stream.fromIterable(items)))
      assert.deepStrictEqual(report.errors.map((e) => [e.index, e.code, e.id]), [[17, WDE.payloadTooLarge, "big-17"]])
      assert.strictEqual(report.inserted, 39)
      assert.strictEqual(yield* asAdmin(DataItems.query(c).count), 39)
    }))
})

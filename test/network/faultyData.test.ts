/**
 * The data client through the local platform's faults, 100 000 items each way: an export stream through
 * 5% connection resets and 5% 503s yields every item once, in order; a bulk import through 10% resets
 * (half before the route ran, half after it committed) ends with the collection holding exactly the
 * input, nothing twice, and a report that accounts for every item. The faults are seeded, so a failure
 * repeats.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as Redacted from "effect/Redacted"
import * as References from "effect/References"
import * as Stream from "effect/Stream"
import * as DataItems from "../../src/data/DataItems.ts"
import { asAdmin, freshCollection } from "../data/support.ts"
import { dev, LocalPlatform } from "../support/platform.ts"

const TOTAL = 100_000

interface FaultHits {
  readonly faults: ReadonlyArray<{ readonly id: string; readonly hits: number }>
}

/** Adds seeded faults, runs `effect`, and answers its result with each fault's hits; the faults are cleared either way. */
const withFaults = <A, E, R>(faults: ReadonlyArray<Record<string, unknown>>, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    for (const fault of faults) yield* dev("/faults", { body: fault })
    const result = yield* effect
    const { faults: met } = yield* dev<FaultHits>("/faults")
    return { result, hits: met.map((f) => f.hits) }
  }).pipe(Effect.ensuring(Effect.orDie(dev("/faults", { method: "DELETE" }))))

it.layer(LocalPlatform.layer({ seed: "none" }), { excludeTestServices: true })("100 000 items through faults", (it) => {
  it.effect("an export through 5% resets and 5% 503s yields every item once, in order", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("FaultyExport")
      const input = Stream.fromIterable(Array.from({ length: TOTAL }, (_, i) => ({ _id: `e${String(i).padStart(6, "0")}`, n: i })))
      assert.strictEqual((yield* asAdmin(DataItems.bulkInsert(c, input, { keepIds: false }))).inserted, TOTAL)
      const logged: Array<string> = []
      const capture = Logger.layer([Logger.make((o) => logged.push(String(o.message)))])
      const { result: { ns, span }, hits } = yield* withFaults(
        [
          { path: "/wix-data/v2/items/query", kind: "reset", rate: 0.05, seed: 11 },
          { path: "/wix-data/v2/items/query", kind: "status", status: 503, rate: 0.05, seed: 12 }
        ],
        asAdmin(Effect.gen(function*() {
          const span = yield* Effect.currentSpan
          const ns = yield* DataItems.query(c).ascending("_id").stream.pipe(Stream.map((item) => item["n"] as number), Stream.runCollect)
          return { ns, span }
        }).pipe(Effect.withSpan("export"), Effect.provide(capture), Effect.provideService(References.MinimumLogLevel, "Debug")))
      )
      assert.strictEqual(ns.length, TOTAL)
      assert.isTrue(ns.every((n, i) => n === i), "every item once, in order")
      assert.isTrue(hits.every((h) => h > 0), `both faults were met: ${hits}`)
      // every fault met was retried, and each retry is an event on the caller's span with its cause
      const retries = (span as unknown as { events: Array<[string, bigint, Record<string, unknown>]> }).events.filter(([name]) => name === "sitefx.retry")
      assert.strictEqual(retries.length, hits[0]! + hits[1]!)
      const causes = new Set(retries.map(([, , a]) => String(a["sitefx.retry.cause"]).split(":")[0]))
      assert.deepStrictEqual([...causes].sort(), ["reset", "status 503"])
      const platform = yield* LocalPlatform
      const key = Redacted.value(platform.apiKey)
      assert.isFalse(logged.some((l) => l.includes(key)), "no log line holds the API key")
      assert.notInclude(JSON.stringify(retries, (_, v) => (typeof v === "bigint" ? String(v) : v)), key)
    }), 180_000)

  it.effect("a bulk import through 10% resets stores exactly the input, and its report accounts for every item", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("FaultyImport")
      const input = Array.from({ length: TOTAL }, (_, i) => ({ op: i, word: `w${i % 97}` }))
      const { result: report, hits } = yield* withFaults(
        [
          { path: "/wix-data/v2/bulk/items/insert", kind: "reset", when: "before", rate: 0.05, seed: 21 },
          { path: "/wix-data/v2/bulk/items/insert", kind: "reset", when: "after", rate: 0.05, seed: 22 }
        ],
        asAdmin(DataItems.bulkInsert(c, Stream.fromIterable(input), { concurrency: 4 }))
      )
      assert.isTrue(hits.every((h) => h > 0), `both faults were met: ${hits}`)
      assert.deepStrictEqual({ inserted: report.inserted, skipped: report.skipped, errors: report.errors.length, ids: report.insertedItemIds.length }, {
        inserted: TOTAL,
        skipped: 0,
        errors: 0,
        ids: TOTAL
      })
      const stored = yield* asAdmin(DataItems.query(c).stream.pipe(Stream.map((item) => [item._id, item["op"] as number] as const), Stream.runCollect))
      assert.strictEqual(stored.length, TOTAL, "nothing twice, nothing missing")
      const ops = stored.map(([, op]) => op).sort((a, b) => a - b)
      assert.isTrue(ops.every((op, i) => op === i), "each input item stored once")
      assert.deepStrictEqual(new Set(stored.map(([id]) => id)), new Set(report.insertedItemIds), "the report's ids are the stored ones")
    }), 180_000)
})

/**
 * Random bulk workloads against the real local platform, with injected transient failures (503/429)
 * and items that are refused (existing ids, malformed items): every item is accounted for exactly
 * once, nothing is lost and nothing is written twice.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import fc from "fast-check"
import type { ItemInput } from "../../src/data/calls.ts"
import type { BulkServices } from "../../src/data/bulkWrites.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { dev, LocalPlatform } from "../support/platform.ts"
import { asAdmin, freshCollection } from "./support.ts"

const Workload = fc.record({
  size: fc.integer({ min: 1, max: 2600 }),
  existing: fc.integer({ min: 0, max: 30 }),
  malformedEvery: fc.option(fc.integer({ min: 50, max: 400 }), { nil: undefined }),
  faults: fc.integer({ min: 0, max: 3 }),
  status: fc.constantFrom(503, 429, 502),
  concurrency: fc.integer({ min: 1, max: 4 }),
  chunkSize: fc.constantFrom(250, 700, 1000)
})

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("bulk workloads", (it) => {
  it.effect("every item is inserted, skipped or reported, exactly once", () =>
    Effect.flatMap(Effect.context<LocalPlatform>(), (context) => Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(Workload, (w) =>
          Effect.runPromiseWith(context)(Effect.gen(function*() {
            const c = yield* freshCollection("Prop")
            const d = <A, E>(f: (data: typeof DataItems) => Effect.Effect<A, E, BulkServices>) => asAdmin(f(DataItems))
            // some ids exist before the import
            const preexisting = Array.from({ length: w.existing }, (_, i) => ({ _id: `row-${i * 7}`, before: true }))
            if (preexisting.length > 0) yield* d((x) => x.bulkInsert(c, preexisting))
            const malformed = new Set<number>()
            const items = Array.from({ length: w.size }, (_, i): ItemInput => {
              if (w.malformedEvery !== undefined && i % w.malformedEvery === 17) {
                malformed.add(i)
                return "not an item" as unknown as ItemInput
              }
              return i % 3 === 0 ? { _id: `row-${i}`, i } : { i }
            })
            if (w.faults > 0) {
              yield* dev("/faults", { body: { path: "/wix-data/v2/bulk/items/insert", status: w.status, count: w.faults, retryAfter: 0 } })
            }
            const report = yield* d((x) => x.bulkInsert(c, Stream.fromIterable(items), { concurrency: w.concurrency, chunkSize: w.chunkSize }))
            const clashes = items.filter((it, i) => !malformed.has(i) && typeof it._id === "string" && preexisting.some((p) => p._id === it._id)).length

            assert.strictEqual(report.inserted + report.skipped + report.errors.length, w.size)
            assert.strictEqual(report.skipped, clashes)
            assert.deepStrictEqual(report.errors.map((e: { index: number }) => e.index), [...malformed].sort((a, b) => a - b))
            assert.strictEqual(new Set(report.insertedItemIds).size, report.inserted)
            const stored = yield* d((x) => x.count(c))
            assert.strictEqual(stored, w.existing + report.inserted)
            // items the platform holds are exactly the reported ones (no lost or doubled writes)
            const ids = yield* asAdmin(DataItems.query(c).ne("before", true).stream.pipe(Stream.map((p) => p._id), Stream.runCollect))
            assert.deepStrictEqual([...ids].sort(), [...report.insertedItemIds].sort())
          }))),
        { numRuns: 25 }
      )
    )))
})

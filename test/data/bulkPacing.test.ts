/**
 * A bulk write with an API key against the local platform over real HTTP, where the platform answers
 * 429 with a Retry-After: the key's limiter holds the calls for it and sends the refused chunks again,
 * without the retry policy (turned off here), and every item lands once.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import type { ItemInput } from "../../src/data/calls.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { DataPaths } from "../../src/data/protocol.ts"
import { makeRateLimiter } from "../../src/http/RateLimit.ts"
import { Site } from "../../src/Site.ts"
import { dev, LocalPlatform } from "../support/platform.ts"
import { asAdmin, freshCollection } from "./support.ts"

const rows = (n: number) => Stream.range(1, n).pipe(Stream.map((i): ItemInput => ({ title: `Post ${i}`, n: i })))

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("bulk writes under a rate limit", (it) => {
  it.effect("429s with Retry-After are waited out and every one of 3 500 items lands once", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const c = yield* freshCollection("Paced")
      yield* dev("/faults", { body: { path: DataPaths.bulkInsert, method: "POST", status: 429, retryAfter: 1, count: 3 } })
      const limiter = makeRateLimiter()
      const site = Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId, retry: { times: 0 }, rateLimit: limiter })
      const started = Date.now()
      const report = yield* Effect.provide(DataItems.bulkInsert(c, rows(3500), { concurrency: 4 }), Layer.fresh(site), { local: true })
      const seconds = (Date.now() - started) / 1000
      assert.strictEqual(report.inserted, 3500)
      assert.deepStrictEqual(report.errors, [])
      assert.strictEqual(limiter.stats().throttled, 3)
      assert.isAtLeast(seconds, 0.9, "the Retry-After of one second was waited out")
      const items = yield* asAdmin(DataItems.query(c).limit(1000).stream.pipe(Stream.runCollect))
      const ns = Array.from(items, (i) => i["n"] as number)
      assert.strictEqual(ns.length, 3500)
      assert.strictEqual(new Set(ns).size, 3500)
      const left = yield* dev<{ faults: ReadonlyArray<unknown> }>("/faults")
      assert.deepStrictEqual(left.faults, [])
    }))

  it.effect("a limit of 4 calls per 600 ms spreads 8 chunks over at least one more window", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const c = yield* freshCollection("Windowed")
      const limiter = makeRateLimiter({ requests: 4, windowMillis: 600 })
      const site = Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId, rateLimit: limiter })
      const started = Date.now()
      yield* Effect.provide(DataItems.bulkInsert(c, rows(8000), { concurrency: 4 }), Layer.fresh(site), { local: true })
      assert.isAtLeast(Date.now() - started, 590)
      assert.strictEqual(limiter.stats().calls, 8)
      assert.strictEqual(yield* asAdmin(DataItems.query(c).count), 8000)
    }))
})

/**
 * The batch command's pacing: `--rate-limit` / SITEFX_RATE_LIMIT read to a limiter (a usage error when
 * it is no limit), and the progress line's pace and honest time left.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { resolvePacer } from "../../src/cli/connection.ts"
import { serveRateLimit } from "../../src/cli/serve.ts"
import { describeProgress, pacedProgress } from "../../src/cli/output.ts"

describe("--rate-limit", () => {
  it.effect("reads none, calls a minute and calls per window; refuses the rest", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual((yield* resolvePacer(Option.some("20/2s"))).stats().limit, { requests: 20, windowMillis: 2000 })
      assert.deepStrictEqual((yield* resolvePacer(Option.some("300"))).stats().limit, { requests: 300, windowMillis: 60_000 })
      assert.isUndefined((yield* resolvePacer(Option.some("none"))).stats().limit)
      for (const bad of ["0", "fast", "5/0s"]) {
        const error = yield* Effect.flip(resolvePacer(Option.some(bad)))
        assert.include(error.message, "--rate-limit", bad)
      }
    }))
})

describe("sitefx serve --rate-limit", () => {
  it("reads calls a minute and calls per window into the profile's limit; refuses the rest with why", () => {
    assert.deepStrictEqual(serveRateLimit("200"), { requests: 200, windowSeconds: 60 })
    assert.deepStrictEqual(serveRateLimit("5/1s"), { requests: 5, windowSeconds: 1 })
    assert.deepStrictEqual(serveRateLimit("30/500ms"), { requests: 30, windowSeconds: 0.5 })
    for (const [bad, why] of [["none", "calls a minute"], ["0", "at least 1"], ["fast", "calls a minute"], ["5/0s", "window"], ["5/2000m", "at most a day"]]) {
      assert.throws(() => serveRateLimit(bad!), new RegExp(why!))
    }
  })
})

describe("the progress line under pacing", () => {
  it("shows the limit, the wait and the 429s, and a time left no shorter than the limit allows", () => {
    // 200 of 1 000 000 items done in 2 calls (1000 a call is 1000 calls in all), 998 calls left at 200 a minute
    const stats = { limit: { requests: 200, windowMillis: 60_000 }, calls: 2, throttled: 1, waitingUntil: 42_000 }
    const paced = pacedProgress(stats, 2000, 1_000_000, 0)!
    assert.strictEqual(paced.pace, "paced 200/min, waiting 0:42, 1 × 429")
    assert.approximately(paced.floorSeconds!, (998 * 60) / 200, 1e-9)
    const line = describeProgress({ label: "import Posts", done: 2000, total: 1_000_000, perSecond: 5000, etaSeconds: paced.floorSeconds, elapsedSeconds: 1, pace: paced.pace }, "rows")
    assert.strictEqual(line, "import Posts: 2 000/1 000 000 rows (0%)  5 000/s  ETA 4:59  (paced 200/min, waiting 0:42, 1 × 429)")
    assert.isUndefined(pacedProgress({ limit: undefined, calls: 3, throttled: 0, waitingUntil: 0 }, 10, 100, 0))
  })
})

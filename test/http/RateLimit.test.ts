/**
 * The limiter of an API key's calls, on a TestClock: a sliding window of N calls (the N+1st waits until
 * the window moves), a 429's Retry-After holding every call, the platform's 200 a minute on its own
 * hosts and nothing elsewhere, a limit adopted from `X-Sitefx-Rate-Limit`; and the same through the
 * platform client, over a stub transport.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { TestClock } from "effect/testing"
import { PlatformClient } from "../../src/http/PlatformClient.ts"
import { isTransient, PlatformError } from "../../src/http/PlatformError.ts"
import { SystemError } from "../../src/http/reasons.ts"
import { PlatformHttp, type TransportRequest, type TransportResponse } from "../../src/http/PlatformHttp.ts"
import { makeRateLimiter, pacedTransport, paceOf, parseRateLimit, type RateLimiter } from "../../src/http/RateLimit.ts"
import { currentTimeMillis } from "../../src/http/time.ts"
import { Site } from "../../src/Site.ts"

const LOCAL = "http://127.0.0.1:8787"
const REAL = "https://www.wixapis.com"

/** Starts `n` takes, each noting the time it was let through. */
const takes = (limiter: RateLimiter, n: number, baseUrl = LOCAL) =>
  Effect.gen(function*() {
    const at: Array<number> = []
    const fibers = []
    for (let i = 0; i < n; i++) {
      fibers.push(yield* Effect.forkChild(Effect.andThen(limiter.take(baseUrl), Effect.flatMap(currentTimeMillis, (t) => Effect.sync(() => at.push(t))))))
    }
    yield* Effect.yieldNow
    return { at, join: Effect.forEach(fibers, Fiber.join, { discard: true }) }
  })

describe("the rate limiter", () => {
  it.effect("lets N calls through at once, and the N+1st when the window has moved", () =>
    Effect.gen(function*() {
      const limiter = makeRateLimiter({ requests: 3, windowMillis: 1000 })
      const { at, join } = yield* takes(limiter, 4)
      assert.deepStrictEqual(at, [0, 0, 0])
      yield* TestClock.adjust(999)
      assert.deepStrictEqual(at, [0, 0, 0])
      yield* TestClock.adjust(1)
      yield* join
      assert.deepStrictEqual(at, [0, 0, 0, 1000])
      assert.strictEqual(limiter.stats().calls, 4)
    }))

  it.effect("is a sliding window: a slot frees a window after the call that took it", () =>
    Effect.gen(function*() {
      const limiter = makeRateLimiter({ requests: 2, windowMillis: 1000 })
      const first = yield* takes(limiter, 1)
      yield* TestClock.adjust(600)
      const second = yield* takes(limiter, 3)
      // one slot free at 600; the next when the call of 0 leaves the window (1000), then the one of 600 (1600)
      assert.deepStrictEqual([...first.at, ...second.at], [0, 600])
      yield* TestClock.adjust(400)
      assert.deepStrictEqual(second.at, [600, 1000])
      yield* TestClock.adjust(600)
      yield* second.join
      assert.deepStrictEqual(second.at, [600, 1000, 1600])
    }))

  it.effect("holds every call while a 429's Retry-After runs", () =>
    Effect.gen(function*() {
      const limiter = makeRateLimiter("none")
      yield* limiter.answered(429, { "retry-after": "2" })
      const { at, join } = yield* takes(limiter, 2)
      yield* TestClock.adjust(1999)
      assert.deepStrictEqual(at, [])
      yield* TestClock.adjust(1)
      yield* join
      assert.deepStrictEqual(at, [2000, 2000])
      assert.strictEqual(limiter.stats().throttled, 1)
    }))

  it.effect("a call already waiting for its slot waits for a hold that began meanwhile", () =>
    Effect.gen(function*() {
      const limiter = makeRateLimiter({ requests: 1, windowMillis: 1000 })
      const { at, join } = yield* takes(limiter, 2)
      assert.deepStrictEqual(at, [0])
      yield* TestClock.adjust(500)
      yield* limiter.answered(429, { "retry-after": "3" })
      yield* TestClock.adjust(500)
      assert.deepStrictEqual(at, [0])
      yield* TestClock.adjust(2500)
      yield* join
      assert.deepStrictEqual(at, [0, 3500])
    }))

  it.effect("paces the platform's own hosts at 200 a minute by default, and no other host", () =>
    Effect.gen(function*() {
      const real = makeRateLimiter()
      const { at, join } = yield* takes(real, 201, REAL)
      assert.strictEqual(at.length, 200)
      yield* TestClock.adjust(60_000)
      yield* join
      assert.strictEqual(at[200], 60_000)
      assert.deepStrictEqual(real.stats().limit, { requests: 200, windowMillis: 60_000 })

      const local = makeRateLimiter()
      const others = yield* takes(local, 1000, LOCAL)
      yield* others.join
      assert.strictEqual(others.at.length, 1000)
      assert.isUndefined(local.stats().limit)
    }))

  it.effect("adopts the limit an answer announces, counting the calls already made", () =>
    Effect.gen(function*() {
      const limiter = makeRateLimiter()
      const first = yield* takes(limiter, 1)
      yield* limiter.answered(200, { "x-sitefx-rate-limit": "5/60s" })
      const rest = yield* takes(limiter, 5)
      assert.deepStrictEqual(rest.at, [0, 0, 0, 0])
      yield* TestClock.adjust(60_000)
      yield* rest.join
      assert.deepStrictEqual([...first.at, ...rest.at], [0, 0, 0, 0, 0, 60_000])
    }))

  it.effect("a limit given in code, or none, is not replaced by an announced one", () =>
    Effect.gen(function*() {
      const none = makeRateLimiter("none")
      yield* none.answered(200, { "x-sitefx-rate-limit": "1/60s" })
      const a = yield* takes(none, 3)
      assert.strictEqual(a.at.length, 3)
      const given = makeRateLimiter({ requests: 2, windowMillis: 60_000 })
      yield* given.answered(200, { "x-sitefx-rate-limit": "1/60s" })
      const b = yield* takes(given, 3)
      assert.strictEqual(b.at.length, 2)
    }))
})

describe("rate limits as text and options", () => {
  it("reads none, calls a minute, and calls per window", () => {
    assert.strictEqual(parseRateLimit("none"), "none")
    assert.deepStrictEqual(parseRateLimit("200"), { perMinute: 200 })
    assert.deepStrictEqual(parseRateLimit("5/60s"), { requests: 5, per: 60_000 })
    assert.deepStrictEqual(parseRateLimit("20 / 2s"), { requests: 20, per: 2000 })
    assert.deepStrictEqual(parseRateLimit("10/500ms"), { requests: 10, per: 500 })
    assert.deepStrictEqual(parseRateLimit("100/1m"), { requests: 100, per: 60_000 })
    for (const bad of ["", "fast", "-5", "5/", "5/x", "1.5"]) assert.isUndefined(parseRateLimit(bad), bad)
  })

  it("says why a limit is none", () => {
    assert.deepStrictEqual(paceOf({ perMinute: 200 }), { requests: 200, windowMillis: 60_000 })
    assert.deepStrictEqual(paceOf({ requests: 20, per: "2 seconds" }), { requests: 20, windowMillis: 2000 })
    assert.isUndefined(paceOf("none"))
    for (const bad of [{ perMinute: 0 }, { perMinute: 1.5 }, { requests: 5, per: 0 }, { requests: 5, per: "Infinity" as const }]) {
      assert.isString(paceOf(bad), JSON.stringify(bad))
    }
  })
})

describe("an API key's calls through Site.apiKey", () => {
  const stub = (answer: (n: number, request: TransportRequest) => TransportResponse) => {
    const sent: Array<number> = []
    const transport = (request: TransportRequest) =>
      Effect.flatMap(currentTimeMillis, (now) => Effect.sync(() => answer(sent.push(now) - 1, request)))
    const layer = Site.apiKey({ apiKey: "key", siteId: "site", baseUrl: LOCAL, transport: pacedTransport(transport) })
    return { sent, layer }
  }
  const call = PlatformClient.use((client) => client.request({ method: "POST", path: "/x", payload: {} }))

  it.effect("an answer announcing 5/60s makes the 6th call wait for the window", () =>
    Effect.gen(function*() {
      const { sent, layer } = stub(() => ({ status: 200, headers: { "x-sitefx-rate-limit": "5/60s" }, text: "{}" }))
      const fiber = yield* Effect.forkChild(Effect.repeat(call, { times: 5 }).pipe(Effect.provide(layer)))
      yield* TestClock.adjust(59_999)
      assert.deepStrictEqual(sent, [0, 0, 0, 0, 0])
      yield* TestClock.adjust(1)
      yield* Fiber.join(fiber)
      assert.deepStrictEqual(sent, [0, 0, 0, 0, 0, 60_000])
    }))

  it.effect("a 429 is waited out for its Retry-After and sent again, past the retry policy's cap and without spending its retries", () =>
    Effect.gen(function*() {
      const { sent, layer } = stub((n) =>
        n < 2
          ? { status: 429, headers: { "retry-after": "30" }, text: JSON.stringify({ message: "Too many requests", details: { rule: { kind: "throttle", id: "rate-limit", retryAfterSeconds: 30 } } }) }
          : { status: 200, headers: {}, text: "{\"ok\":true}" }
      )
      const fiber = yield* Effect.forkChild(call.pipe(Effect.provide(layer)))
      yield* TestClock.adjust(30_000)
      assert.deepStrictEqual(sent, [0, 30_000])
      yield* TestClock.adjust(30_000)
      const answer = yield* Fiber.join(fiber)
      assert.deepStrictEqual(answer.body, { ok: true })
      assert.deepStrictEqual(sent, [0, 30_000, 60_000])
    }))
})

describe("a data call past its time limit (429 WDE0028)", () => {
  it.effect("is no throttle: sent once, neither held, paced again nor retried, and fails as the data error it is", () =>
    Effect.gen(function*() {
      const sent: Array<number> = []
      const timedOut = {
        status: 429,
        headers: {},
        text: JSON.stringify({
          message: "Operation time limit exceeded",
          details: { applicationError: { code: "WDE0028", description: "Operation time limit exceeded: the query scans 150 items", data: {} } }
        })
      }
      const transport = (_: TransportRequest) => Effect.flatMap(currentTimeMillis, (now) => Effect.sync(() => (sent.push(now), timedOut)))
      const limiter = makeRateLimiter()
      const layer = Site.apiKey({ apiKey: "key", siteId: "site", baseUrl: LOCAL, rateLimit: limiter, transport: pacedTransport(transport) })
      const query = PlatformClient.use((client) => client.request({ method: "POST", path: "/wix-data/v2/items/query", payload: {}, idempotent: true }))
      const error = yield* Effect.flip(query.pipe(Effect.provide(layer)))
      assert.deepStrictEqual(sent, [0])
      assert.strictEqual(error.code, "WDE0028")
      assert.isFalse(isTransient(error))
      assert.strictEqual(limiter.stats().throttled, 0)
      assert.strictEqual(limiter.stats().waitingUntil, 0)
      // a throttle's 429 stays transient
      assert.isTrue(isTransient(new PlatformError({ method: "GET", path: "/x", reason: new SystemError({ status: 429, message: "Too many requests", description: "" }) })))
    }))
})

describe("Site.apiKey's rate limit option", () => {
  it.effect("a limit that is no limit is a PlatformConfigError naming it", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(PlatformClient.use(() => Effect.void).pipe(Effect.provide(Site.apiKey({ apiKey: "key", baseUrl: LOCAL, rateLimit: { perMinute: 0 } }))))
      assert.isTrue(exit._tag === "Failure")
      assert.match(String(exit._tag === "Failure" ? exit.cause.reasons.map((r) => r._tag === "Die" ? String(r.defect) : "").join() : ""), /rateLimit: .*at least 1, not 0/)
    }))
})

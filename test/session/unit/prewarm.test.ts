/**
 * Session pre-warm with an injected window and a fake PlatformClient, on the TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { TestClock } from "effect/testing"
import { checkBody, PlatformClient } from "../../../src/http/PlatformClient.ts"
import { PlatformError } from "../../../src/http/PlatformError.ts"
import { SystemError } from "../../../src/http/reasons.ts"
import type { PlatformRequest } from "../../../src/http/PlatformRequest.ts"
import { isPrewarmed, prewarm, PREWARM_KEY, PREWARM_MAX_AGE_MS, type PrewarmWindow } from "../../../src/session/prewarm.ts"

const NOW = 1_750_000_000_000
const FULL_URL = "https://site.example.com/_api/oauth2/authorize?sessionToken=abc"

interface FakeFrame {
  style: { display: string }
  src: string
  onload: (() => void) | null
}

const fakeWindow = (stored?: string) => {
  const items = new Map<string, string>()
  if (stored !== undefined) items.set(PREWARM_KEY, stored)
  const frames: Array<FakeFrame> = []
  const win: PrewarmWindow = {
    localStorage: {
      getItem: (k) => items.get(k) ?? null,
      setItem: (k, v) => {
        items.set(k, v)
      },
      removeItem: (k) => {
        items.delete(k)
      }
    },
    document: {
      createElement: () => ({ style: { display: "" }, src: "", onload: null }),
      body: {
        appendChild: <T>(node: T): T => {
          frames.push(node as FakeFrame)
          return node
        }
      }
    }
  }
  return { win, items, frames }
}

const fakeClient = (answer: unknown = {
  redirectSession: { id: "rs-1", fullUrl: FULL_URL, urlDetails: { endpoint: "https://site.example.com/_api/oauth2/authorize", searchParams: {} } }
}) => {
  const calls: Array<PlatformRequest> = []
  const layer = Layer.succeed(PlatformClient, PlatformClient.of({
    request: (req) =>
      Effect.sync(() => {
        calls.push(req)
        return { body: answer, headers: {}, requestId: undefined }
      }),
    json: (req, guard) =>
      Effect.flatMap(Effect.sync(() => calls.push(req)), () => checkBody(req, { body: answer, headers: {}, requestId: undefined }, guard))
  }))
  return { layer, calls }
}

const settle = Effect.gen(function*() {
  for (let i = 0; i < 10; i++) yield* Effect.yieldNow
})

/** Runs a pre-warm, firing each iframe's onload as soon as it is attached. */
const runWithLoads = (w: ReturnType<typeof fakeWindow>, options: { force?: boolean } = {}) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(prewarm({ window: w.win, ...options }))
    yield* settle
    for (const f of w.frames) f.onload?.()
    return yield* Fiber.join(fiber)
  })

describe("prewarm", () => {
  it.effect("runs when there is no pre-warm record: POSTs {login:{}} for a redirect session, loads it hidden, then records the time", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const w = fakeWindow()
      const client = fakeClient()
      const fiber = yield* Effect.forkChild(prewarm({ window: w.win }).pipe(Effect.provide(client.layer)))
      yield* settle
      assert.deepStrictEqual(client.calls, [{ method: "POST", path: "/_api/redirects-api/v1/redirect-session", host: "api", payload: { login: {} } }])
      assert.strictEqual(w.frames.length, 1)
      assert.strictEqual(w.frames[0]!.src, FULL_URL)
      assert.strictEqual(w.frames[0]!.style.display, "none")
      // not recorded until the iframe has loaded
      assert.isUndefined(fiber.pollUnsafe())
      assert.isFalse(w.items.has(PREWARM_KEY))
      yield* TestClock.adjust("3 seconds")
      w.frames[0]!.onload?.()
      assert.isTrue(yield* Fiber.join(fiber))
      assert.strictEqual(w.items.get(PREWARM_KEY), String(NOW + 3000))
    }))

  it.effect("is skipped while the last pre-warm is younger than 604 800 000 ms", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      for (const age of [0, 1, 60_000, PREWARM_MAX_AGE_MS - 1]) {
        const w = fakeWindow(String(NOW - age))
        const client = fakeClient()
        assert.isFalse(yield* runWithLoads(w).pipe(Effect.provide(client.layer)), `age ${age}`)
        assert.deepStrictEqual(client.calls, [])
        assert.deepStrictEqual(w.frames, [])
        assert.strictEqual(w.items.get(PREWARM_KEY), String(NOW - age))
      }
    }))

  it.effect("runs again once the last pre-warm is 604 800 000 ms old or older", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      for (const age of [PREWARM_MAX_AGE_MS, PREWARM_MAX_AGE_MS + 1, 30 * 86_400_000]) {
        const w = fakeWindow(String(NOW - age))
        const client = fakeClient()
        assert.isTrue(yield* runWithLoads(w).pipe(Effect.provide(client.layer)), `age ${age}`)
        assert.strictEqual(client.calls.length, 1)
        assert.strictEqual(w.frames.length, 1)
        assert.strictEqual(w.items.get(PREWARM_KEY), String(NOW))
      }
    }))

  it.effect("force runs it even right after a pre-warm", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const w = fakeWindow(String(NOW - 1000))
      const client = fakeClient()
      assert.isTrue(yield* runWithLoads(w, { force: true }).pipe(Effect.provide(client.layer)))
      assert.strictEqual(client.calls.length, 1)
      assert.strictEqual(w.items.get(PREWARM_KEY), String(NOW))
    }))

  it.effect("an unreadable record counts as no pre-warm", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const w = fakeWindow("yesterday")
      const client = fakeClient()
      assert.isTrue(yield* runWithLoads(w).pipe(Effect.provide(client.layer)))
      assert.strictEqual(w.items.get(PREWARM_KEY), String(NOW))
    }))

  it.effect("a redirect session of the wrong shape is an error and loads nothing", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const w = fakeWindow()
      const client = fakeClient({ redirectSession: { id: "x" } })
      const exit = yield* Effect.exit(runWithLoads(w).pipe(Effect.provide(client.layer)))
      const error = Exit.findErrorOption(exit)
      assert.isTrue(Option.isSome(error))
      assert.instanceOf(Option.getOrThrow(error), PlatformError)
      assert.deepStrictEqual(w.frames, [])
      assert.isFalse(w.items.has(PREWARM_KEY))
    }))

  it.effect("a failing platform call fails the pre-warm without recording it", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(NOW)
      const w = fakeWindow(String(NOW - PREWARM_MAX_AGE_MS - 5))
      const failing = Layer.succeed(PlatformClient, PlatformClient.of({
        request: (req) =>
          Effect.fail(new PlatformError({ method: req.method, path: req.path, reason: new SystemError({ status: 503, message: "busy", description: "busy" }) })),
        json: () => Effect.die("unused")
      }))
      const exit = yield* Effect.exit(runWithLoads(w).pipe(Effect.provide(failing)))
      assert.strictEqual(Option.getOrThrow(Exit.findErrorOption(exit)).status, 503)
      assert.deepStrictEqual(w.frames, [])
      assert.isFalse(w.items.has(PREWARM_KEY))
    }))
})

describe("isPrewarmed", () => {
  const win = (value: string | null) => ({
    localStorage: { getItem: () => value, setItem: () => undefined, removeItem: () => undefined }
  })

  it("is true only for a readable time younger than seven days", () => {
    assert.strictEqual(PREWARM_MAX_AGE_MS, 7 * 24 * 60 * 60 * 1000)
    assert.isFalse(isPrewarmed(win(null), NOW))
    assert.isFalse(isPrewarmed(win(""), NOW))
    assert.isFalse(isPrewarmed(win("abc"), NOW))
    assert.isTrue(isPrewarmed(win(String(NOW)), NOW))
    assert.isTrue(isPrewarmed(win(String(NOW - PREWARM_MAX_AGE_MS + 1)), NOW))
    assert.isFalse(isPrewarmed(win(String(NOW - PREWARM_MAX_AGE_MS)), NOW))
  })
})

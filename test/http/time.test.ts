/**
 * time.ts reads time without effect/Duration: `inputMillis` reads every `Duration.Input` as
 * `Duration.toMillis` does, and the clock it reads under Effect's key is Effect's own Clock when one is
 * provided (a TestClock moves its waits and its time on), `Date.now()` and `setTimeout` otherwise.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { TestClock } from "effect/testing"
import { currentTimeMillis, inputMillis, sleepMillis } from "../../src/http/time.ts"

const INPUTS: ReadonlyArray<Duration.Input> = [
  0, 250, 1.5, -3, 10n ** 9n, 1500n,
  "100 millis", "1 milli", "5 seconds", "1 second", "2.5 minutes", "1 hour", "3 hours", "1 day", "2 days", "1 week",
  "7 weeks", "250 micros", "1 micro", "1500 nanos", "1 nano", "-2 seconds", "0 millis", "Infinity", "-Infinity",
  [1, 500_000_000], [0, 1],
  Duration.millis(42), Duration.seconds(3), Duration.nanos(1_500_000n), Duration.infinity,
  { seconds: 30 }, { days: 1, hours: 2 }, { milliseconds: 5, microseconds: 250, nanoseconds: 500 }, { weeks: 1, minutes: 1 }, {}
]

describe("inputMillis", () => {
  it("reads every form of Duration.Input as Duration.toMillis does", () => {
    for (const input of INPUTS) assert.strictEqual(inputMillis(input), Duration.toMillis(input), JSON.stringify(input, (_, v) => (typeof v === "bigint" ? `${v}n` : v)))
  })
})

describe("the clock", () => {
  it("is read under the key of Effect's Clock", () => {
    assert.strictEqual(Clock.Clock.key, "effect/Clock")
  })

  it.effect("follows a TestClock: its time, and its waits", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* currentTimeMillis, 0)
      const fiber = yield* Effect.forkChild(sleepMillis(90_000))
      yield* TestClock.adjust("89 seconds")
      assert.isUndefined(fiber.pollUnsafe())
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      assert.strictEqual(yield* currentTimeMillis, 90_000)
    }))

  it.live("is Date.now() and a timer where no Clock is provided", () =>
    Effect.gen(function*() {
      const before = Date.now()
      assert.approximately(yield* currentTimeMillis, before, 50)
      yield* sleepMillis(30)
      assert.isAtLeast(Date.now() - before, 25)
    }))

  it.live("waits on Effect's own clock, given in milliseconds, when it is provided", () =>
    Effect.gen(function*() {
      const clock = yield* Effect.clockWith(Effect.succeed)
      const before = Date.now()
      yield* Effect.provideService(sleepMillis(30), Clock.Clock, clock)
      assert.isAtLeast(Date.now() - before, 25)
    }))

  it.live("an endless wait never ends, and interrupting a wait clears its timer", () =>
    Effect.gen(function*() {
      const endless = yield* Effect.forkChild(sleepMillis(Infinity))
      const long = yield* Effect.forkChild(sleepMillis(2 ** 31 + 10))
      yield* sleepMillis(20)
      assert.isUndefined(endless.pollUnsafe())
      assert.isUndefined(long.pollUnsafe())
      yield* Fiber.interrupt(endless)
      yield* Fiber.interrupt(long)
    }))
})

/**
 * Time without effect/Duration: Effect's Clock read under its own key, and `Duration.Input` read as
 * milliseconds. effect/Clock's default clock and `Effect.sleep` go through effect/Duration, which weighs
 * about 2 KB (gzip) in every browser page; the session and the wire need only the time and a wait.
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/** What sitefx asks of a clock: the time, and a wait in milliseconds. */
interface Timer {
  readonly currentTimeMillisUnsafe: () => number
  readonly sleep: (millis: number) => Effect.Effect<void>
}

// setTimeout waits at most 2^31 - 1 ms; a longer wait is taken in parts, an endless one never ends
const MAX_TIMER_MILLIS = 2 ** 31 - 1

const wait = (millis: number): Effect.Effect<void> =>
  !(millis < Infinity) ? Effect.never : Effect.callback<void>((resume) => {
    const timer = setTimeout(() => resume(millis > MAX_TIMER_MILLIS ? wait(millis - MAX_TIMER_MILLIS) : Effect.void), Math.min(millis, MAX_TIMER_MILLIS))
    return Effect.sync(() => clearTimeout(timer))
  })

/**
 * The Clock under Effect's key (`Clock.Clock.key`): a provided Clock (TestClock in tests) when there is
 * one, otherwise `Date.now()` and `setTimeout`. A provided Clock's `sleep` is given milliseconds: Effect's
 * clocks read their argument with `Duration.toMillis`, which takes a number of milliseconds as well
 * (test/http/time.test.ts holds both to it).
 */
const CurrentClock = Context.Reference<Timer>("effect/Clock", {
  defaultValue: () => ({ currentTimeMillisUnsafe: () => Date.now(), sleep: wait })
})

/** The time in epoch milliseconds, from Effect's Clock. */
export const currentTimeMillis: Effect.Effect<number> = Effect.map(CurrentClock, (clock) => clock.currentTimeMillisUnsafe())

/** Waits `millis` milliseconds on Effect's Clock (so a TestClock moves it on). */
export const sleepMillis = (millis: number): Effect.Effect<void> => Effect.flatMap(CurrentClock, (clock) => clock.sleep(millis))

// Milliseconds per unit, by DurationObject field; a text unit (`milli`, `second`) names its field.
const UNIT_MILLIS: Readonly<Record<string, number>> = {
  weeks: 604_800_000, days: 86_400_000, hours: 3_600_000, minutes: 60_000, seconds: 1000, milliseconds: 1, microseconds: 1e-3, nanoseconds: 1e-6
}

/**
 * The milliseconds of a `Duration.Input`, as `Duration.toMillis` reads it (test/http/time.test.ts holds
 * them equal). An input Duration would not accept counts as no wait.
 */
export const inputMillis = (input: Duration.Input): number => {
  if (typeof input === "number") return input
  if (typeof input === "bigint") return Number(input) / 1e6
  if (typeof input === "string") {
    if (input === "Infinity" || input === "-Infinity") return Number(input)
    const match = /^(-?\d+(?:\.\d+)?)\s+(nano|micro|milli|second|minute|hour|day|week)s?$/.exec(input)
    if (match === null) return 0
    // nano, micro, milli are fractions of a second: their field is nanoseconds, microseconds, milliseconds
    const unit = match[2]!
    return Number(match[1]) * UNIT_MILLIS[/[io]$/.test(unit) ? `${unit}seconds` : `${unit}s`]!
  }
  if (Array.isArray(input)) return input[0] * 1000 + input[1] / 1e6
  // a Duration keeps its amount as `value`; a DurationObject has its fields
  const value = (input as { readonly value?: { readonly _tag: string; readonly millis?: number; readonly nanos?: bigint } }).value
  if (value !== undefined) {
    return value._tag === "Millis" ? value.millis! : value._tag === "Nanos" ? Number(value.nanos!) / 1e6 : value._tag === "Infinity" ? Infinity : -Infinity
  }
  let millis = 0
  for (const field in UNIT_MILLIS) millis += ((input as Record<string, number | undefined>)[field] ?? 0) * UNIT_MILLIS[field]!
  return millis
}

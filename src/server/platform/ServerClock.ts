/**
 * The platform's notion of "now": the wall clock plus a skew that dev tools can set, so tests can
 * expire tokens and codes without waiting. What follows from the time by itself (carts abandoned once
 * the platform's delay has passed) registers with {@link ServerClockShape.onChange}: the kernel names
 * no module, the modules name the clock.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "./Database.ts"

export interface ServerClockShape {
  readonly millis: () => number
  readonly seconds: () => number
  readonly skewSeconds: () => number
  /** Sets the skew, then runs every change listener in the caller's fiber, in the order they registered. */
  readonly setSkewSeconds: (skew: number) => Effect.Effect<void>
  /**
   * Registers what runs after each change of the skew (not after a reset or a restore, which put it
   * back to 0 while the modules' reset hooks are still bringing their state in line).
   */
  readonly onChange: (listener: Effect.Effect<void>) => void
}

export class ServerClock extends Context.Service<ServerClock, ServerClockShape>()("sitefx/server/ServerClock") {
  static readonly layer: Layer.Layer<ServerClock, never, Database> = Layer.effect(
    ServerClock,
    Effect.gen(function*() {
      const db = yield* Database
      let skew = 0
      db.onReset(() => {
        skew = 0
      })
      const listeners: Array<Effect.Effect<void>> = []
      const millis = () => Date.now() + skew * 1000
      return ServerClock.of({
        millis,
        seconds: () => Math.floor(millis() / 1000),
        skewSeconds: () => skew,
        setSkewSeconds: (value) =>
          Effect.suspend(() => {
            skew = value
            return Effect.forEach(listeners, (listener) => listener, { discard: true })
          }),
        onChange: (listener) => void listeners.push(listener)
      })
    })
  )
}

/**
 * The most the skew may move the clock either way: a thousand years keeps the platform's time in years
 * of four digits, whose ISO text (how the tables store times) sorts as the times do.
 */
export const MAX_SKEW_SECONDS = 1000 * 365 * 24 * 60 * 60

/** ISO text of a time; throws a RangeError past the years JavaScript dates hold (±275 760). */
export const isoDate = (millis: number): string => new Date(millis).toISOString()

/**
 * The platform's notion of "now": the wall clock plus a skew that dev tools can set, so tests can
 * expire tokens and codes without waiting.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "./Database.ts"

export interface ServerClockShape {
  readonly millis: () => number
  readonly seconds: () => number
  readonly skewSeconds: () => number
  readonly setSkewSeconds: (skew: number) => void
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
      const millis = () => Date.now() + skew * 1000
      return ServerClock.of({
        millis,
        seconds: () => Math.floor(millis() / 1000),
        skewSeconds: () => skew,
        setSkewSeconds: (value) => {
          skew = value
        }
      })
    })
  )
}

export const isoDate = (millis: number): string => new Date(millis).toISOString()

/**
 * Slows password guessing: after too many wrong passwords for one email within a window, logins for
 * that email answer 429 with `Retry-After` until the oldest failure leaves the window. A correct
 * password clears the count. Kept in memory: a restart forgives everyone, which is fine locally.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../Database.ts"
import { type Reject, tooManyRequests } from "../responses.ts"
import { ServerClock } from "../ServerClock.ts"

export const MAX_FAILURES = 10
export const WINDOW_SECONDS = 15 * 60

export interface LoginThrottleShape {
  /** Fails with 429 while the email is locked out. */
  readonly check: (email: string) => Effect.Effect<void, Reject>
  readonly failed: (email: string) => void
  readonly succeeded: (email: string) => void
}

export class LoginThrottle extends Context.Service<LoginThrottle, LoginThrottleShape>()("sitefx/server/LoginThrottle") {
  static readonly layer: Layer.Layer<LoginThrottle, never, ServerClock | Database> = Layer.effect(
    LoginThrottle,
    Effect.gen(function*() {
      const clock = yield* ServerClock
      const db = yield* Database
      const failures = new Map<string, Array<number>>()
      db.onReset(() => failures.clear())
      const recent = (email: string): Array<number> => {
        const key = email.trim().toLowerCase()
        const since = clock.seconds() - WINDOW_SECONDS
        const kept = (failures.get(key) ?? []).filter((at) => at > since)
        if (kept.length === 0) failures.delete(key)
        else failures.set(key, kept)
        return kept
      }
      return LoginThrottle.of({
        check: (email) => {
          const kept = recent(email)
          if (kept.length < MAX_FAILURES) return Effect.void
          const retryAfter = Math.max(1, (kept[0] ?? 0) + WINDOW_SECONDS - clock.seconds())
          return Effect.fail(tooManyRequests("Too many failed logins for this email; try again later", retryAfter))
        },
        failed: (email) => {
          failures.set(email.trim().toLowerCase(), [...recent(email), clock.seconds()])
        },
        succeeded: (email) => {
          failures.delete(email.trim().toLowerCase())
        }
      })
    })
  )
}

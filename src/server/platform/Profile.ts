/**
 * The production profile: off by default, and when on, the platform holds an app to the real platform's
 * documented limits. Calls made with an API key are limited to `rateLimit` per key in each window of
 * `rateLimitWindowSeconds` (the platform's "Rate Limits" page: 200 a minute per app instance), and a data query that would scan more
 * unindexed rows than the plan's timeout stands for is refused as a timed-out call (the data module
 * judges queries with {@link ProfileShape.scanThreshold}). The window is fixed: it opens with a key's
 * first call and lasts `rateLimitWindowSeconds` (60 by default) on the server clock, so `Retry-After` says exactly when calls are admitted
 * again, a client pacing itself can count the same window, and moving the clock ends it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PLAN_TIMEOUT_SECONDS } from "../../dev/plans.ts"
import { ServerClock } from "./ServerClock.ts"

/** The site's plan, which sets how long a data call may run: 5 s on free and premium plans, 10 s on elite ones. */
export type Plan = "free" | "premium" | "elite"

/** The platform's documented limit on an app's REST calls: 200 a minute per instance. */
export const DEFAULT_RATE_LIMIT = 200

/**
 * How many unindexed rows a second stand for a data call's time: measured on node:sqlite, a scan of
 * 500 000 items of about 300 bytes with a filter on one field ran at 570 000 to 860 000 rows a second
 * (on 2 shared cores); the platform publishes no scan rate of its own.
 */
export const DEFAULT_SCAN_ROWS_PER_SECOND = 500_000

/** The data API's documented request timeouts, in seconds, by plan (one table for the platform and sitefx/dev). */
export { PLAN_TIMEOUT_SECONDS }

/** The rate limit's window, in seconds, by default: the platform's limit is a minute's. */
export const DEFAULT_RATE_WINDOW_SECONDS = 60

/** The header each answer to a limited caller carries under the profile: `<limit>/<window>s`, as sitefx's `--rate-limit` writes a limit. */
export const RATE_LIMIT_HEADER = "x-sitefx-rate-limit"

/** The profile's state, as `GET /_sitefx/profile` answers it. */
export interface ProfileState {
  readonly profile: "none" | "production"
  readonly plan: Plan
  /** Calls an API key may make in a window. */
  readonly rateLimit: number
  /**
   * The window's length in seconds: 60, the platform's, by default. A shorter one scales the limit's time
   * down (5 calls in 1 s), for a test or a bench that would otherwise wait minutes.
   */
  readonly rateLimitWindowSeconds: number
  readonly scanRowsPerSecond: number
}

/** What the layer starts with; any field left out keeps its default. */
export type ProfileOptions = Partial<ProfileState>

/** Whether a call is admitted, and if not, how many seconds until its window ends. */
export type Admission = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number }

export interface ProfileShape {
  readonly get: () => ProfileState
  /** Changes the fields given; a change of the limit, its window or the profile starts every window afresh. */
  readonly set: (patch: ProfileOptions) => ProfileState
  /** Counts one call of `key` in its window (when the profile is on), or refuses it past the limit. */
  readonly admit: (key: string) => Admission
  /** The most unindexed rows a data call may scan on this plan before it stands for a timeout. */
  readonly scanThreshold: () => number
}

/** Holds the profile and the windows of the rate limit. */
export class Profile extends Context.Service<Profile, ProfileShape>()("sitefx/server/Profile") {
  static readonly layer = (options: ProfileOptions = {}): Layer.Layer<Profile, never, ServerClock> =>
    Layer.effect(
      Profile,
      Effect.gen(function*() {
        const clock = yield* ServerClock
        let state: ProfileState = {
          profile: options.profile ?? "none",
          plan: options.plan ?? "free",
          rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
          rateLimitWindowSeconds: options.rateLimitWindowSeconds ?? DEFAULT_RATE_WINDOW_SECONDS,
          scanRowsPerSecond: options.scanRowsPerSecond ?? DEFAULT_SCAN_ROWS_PER_SECOND
        }
        const windows = new Map<string, { start: number; count: number }>()
        return Profile.of({
          get: () => state,
          set: (patch) => {
            const next = { ...state, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) }
            if (next.profile !== state.profile || next.rateLimit !== state.rateLimit || next.rateLimitWindowSeconds !== state.rateLimitWindowSeconds) {
              windows.clear()
            }
            state = next
            return state
          },
          admit: (key) => {
            if (state.profile !== "production") return { ok: true }
            const now = clock.millis()
            const windowMillis = state.rateLimitWindowSeconds * 1000
            const open = windows.get(key)
            // a window the clock has left (or, moved back, not reached) is over: the call opens a new one
            if (open === undefined || now - open.start >= windowMillis || now < open.start) {
              windows.set(key, { start: now, count: 1 })
              return { ok: true }
            }
            if (open.count >= state.rateLimit) {
              return { ok: false, retryAfterSeconds: (open.start + windowMillis - now) / 1000 }
            }
            open.count += 1
            return { ok: true }
          },
          scanThreshold: () => PLAN_TIMEOUT_SECONDS[state.plan] * state.scanRowsPerSecond
        })
      })
    )
}

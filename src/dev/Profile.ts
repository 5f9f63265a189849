/**
 * The local platform's production profile: off by default; on, it holds an app to the platform's
 * documented limits. Calls made with an API key are limited to `rateLimit` in each window of
 * `rateLimitWindowSeconds` (past it: 429 with the rule `rate-limit` and a `Retry-After`), and a data
 * query that would scan more unindexed items than the plan's timeout stands for is refused as timed out
 * (429 `WDE0028`, the rule `data.query.timeout`). Off, such a query answers, and its entry in the request log
 * carries an index advice (`Requests.list({ advice: true })` lists them). Visitors, members and the dev
 * endpoints are never limited.
 *
 * @example
 * import { Profile } from "sitefx/dev"
 * yield* Profile.set({ profile: "production", plan: "free", rateLimit: 5, rateLimitWindowSeconds: 1 })
 * // an API key's sixth call within a second is refused with 429 until the second is over
 * yield* Profile.set({ profile: "none" })
 */
import type * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { ProfileState as ProfileAnswer } from "./guards/platform.ts"
import type { ProfileRequest, ProfileState as ProfileWire } from "./wire/platform.ts"
import { DEV_PREFIX, devCall } from "./call.ts"
import { PLAN_TIMEOUT_SECONDS } from "./plans.ts"

/**
 * The profile as the platform holds it: whether it is on (`production`) or off (`none`), the site's
 * plan, the rate limit (calls an API key may make in each window of `rateLimitWindowSeconds`) and the
 * items a second that stand for a data call's time.
 */
export type ProfileState = ProfileWire

/** What `set` changes: any of the state's fields; those left out keep their value. */
export type ProfilePatch = ProfileRequest

/** The site's plan, which sets how long a data call may run. */
export type Plan = ProfileState["plan"]

/** How long a data call may run on each plan, in seconds (the data API's documented timeouts). */
export { PLAN_TIMEOUT_SECONDS }

/** The most unindexed items a data query may scan under this state before it stands for the plan's timeout. */
export const scanThreshold = (state: Pick<ProfileState, "plan" | "scanRowsPerSecond">): number =>
  PLAN_TIMEOUT_SECONDS[state.plan] * state.scanRowsPerSecond

const PATH = `${DEV_PREFIX}/profile`

/** The profile as it is now. */
export const get: Effect.Effect<ProfileState, PlatformError, PlatformHttp> = devCall({ method: "GET", path: PATH }, ProfileAnswer)

/**
 * Changes the fields given (the others keep their value) and answers the profile as it is now; a change
 * of the profile, the limit or its window starts every key's window afresh. A bad value (a limit below 1,
 * a window of 0 or past a day, a plan the platform has not) is a 400 naming the field, and changes nothing.
 */
export const set = (patch: ProfilePatch): Effect.Effect<ProfileState, PlatformError, PlatformHttp> =>
  devCall({ method: "POST", path: PATH, payload: { ...patch }, idempotent: true }, ProfileAnswer)

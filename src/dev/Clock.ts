/**
 * The local platform's clock, which can run ahead (or behind) of this machine's: moving it expires
 * tokens, codes and links without waiting for them.
 *
 * @example
 * import { Clock } from "sitefx/dev"
 * yield* Clock.setSkew(4 * 3600 + 1) // every 4-hour access token has expired
 */
import type * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { ClockResponse } from "./guards/platform.ts"
import type { ClockResponse as ClockWire } from "./wire/platform.ts"
import { DEV_PREFIX, devCall } from "./call.ts"

/** The platform's clock: how many seconds it runs ahead (negative: behind), and the time it reads (ISO). */
export type ClockState = typeof ClockWire.Type

const PATH = `${DEV_PREFIX}/clock`

/** The clock's skew and the time it reads now. */
export const get: Effect.Effect<ClockState, PlatformError, PlatformHttp> = devCall({ method: "GET", path: PATH }, ClockResponse)

/** Sets how many seconds the platform's clock runs ahead (negative: behind; 0: this machine's time). */
export const setSkew = (seconds: number): Effect.Effect<ClockState, PlatformError, PlatformHttp> =>
  devCall({ method: "POST", path: PATH, payload: { skewSeconds: seconds }, idempotent: true }, ClockResponse)

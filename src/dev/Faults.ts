/**
 * Injected faults, to see how a client copes with an unavailable platform: the next `count` requests
 * under a path answer 429, 502, 503 or 504 (with `Retry-After` when given) and change nothing. Dev
 * endpoints are never faulted.
 *
 * @example
 * import { Faults } from "sitefx/dev"
 * yield* Faults.add({ path: "/wix-data/v2/items", status: 503, count: 2 })
 * // the next two data item calls meet a 503; sitefx retries them
 */
import * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { type FaultRequest, FaultsResponse, Health, type PendingFault } from "../server/platform/devWire.ts"
import { DEV_PREFIX, devCall, devSend } from "./call.ts"

export type { FaultRequest, PendingFault }

const PATH = `${DEV_PREFIX}/faults`

/** The faults still pending, in the order they were added, each with the requests it has left. */
export const list: Effect.Effect<ReadonlyArray<PendingFault>, PlatformError, PlatformHttp> = Effect.map(
  devCall({ method: "GET", path: PATH }, FaultsResponse),
  (r) => r.faults
)

/** Faults the next `count` requests whose path starts with `path` (it starts with `/`). A bad fault is a 400. */
export const add = (fault: FaultRequest): Effect.Effect<void, PlatformError, PlatformHttp> =>
  Effect.asVoid(devCall({ method: "POST", path: PATH, payload: { ...fault } }, Health))

/** Clears every pending fault. */
export const clear: Effect.Effect<void, PlatformError, PlatformHttp> = devSend({ method: "DELETE", path: PATH })

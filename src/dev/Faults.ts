/**
 * Injected faults, to see how a client copes with an unreliable platform. A fault covers the requests
 * whose path starts with `path` (of one `method`, when given): the next `count` of them, or each with
 * probability `rate` drawn from a PRNG seeded with `seed` (1 by default, so a run repeats), or both (at
 * most `count`). Its `kind` says what they meet:
 *
 * - `status` (the default): the answer `status` (429, 500, 502, 503 or 504, with `Retry-After` when
 *   `retryAfter` is given); the route never runs, so nothing changes.
 * - `latency`: a delay of `ms` before the route runs.
 * - `reset`: the connection is reset `when: "before"` the route runs (nothing changes) or `"after"` it ran
 *   (its writes stay although the client saw no answer: the case that shows a client never writes twice).
 * - `truncate`: the route runs; its answer goes out with its full `Content-Length` but about half its body,
 *   then the connection closes.
 * - `slow`: the route runs; its body goes out in small pieces over `ms`.
 *
 * Faults are checked in the order added; the first that fires for a request wins. Each has an `id` (to
 * `remove` it) and counts its `hits`; every faulted request is in the request log with a `dev.fault` rule.
 * Dev endpoints are never faulted; resetting or restoring the platform clears them.
 *
 * @example
 * import { Faults } from "sitefx/dev"
 * yield* Faults.add({ path: "/wix-data/v2/items", status: 503, count: 2 })
 * // the next two data item calls meet a 503; sitefx retries them
 * const cut = yield* Faults.add({ path: "/wix-data/v2/items", method: "POST", kind: "reset", when: "after", rate: 0.2, seed: 7 })
 * // a fifth of the inserts are written but their answers are lost, the same ones every run
 * yield* Faults.remove(cut.id)
 */
import * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { AddedFault, FaultsResponse } from "./guards/platform.ts"
import type { FaultKind, FaultRequest, PendingFault } from "./wire/platform.ts"
import { DEV_PREFIX, devCall, devSend, segment } from "./call.ts"

export type { FaultKind, FaultRequest, PendingFault }

const PATH = `${DEV_PREFIX}/faults`

/** The faults still pending, in the order they were added, each with its id, the requests it has left (`count`, when counted) and its `hits`. */
export const list: Effect.Effect<ReadonlyArray<PendingFault>, PlatformError, PlatformHttp> = Effect.map(
  devCall({ method: "GET", path: PATH }, FaultsResponse),
  (r) => r.faults
)

/** Adds a fault after the pending ones and answers it with its id; a bad fault (say a status on a reset) is a 400. */
export const add = (fault: FaultRequest): Effect.Effect<PendingFault, PlatformError, PlatformHttp> =>
  Effect.map(devCall({ method: "POST", path: PATH, payload: { ...fault } }, AddedFault), (r) => r.fault)

/** Removes one pending fault; an id no pending fault has is a 404. */
export const remove = (id: string): Effect.Effect<void, PlatformError, PlatformHttp> =>
  devSend({ method: "DELETE", path: `${PATH}/${segment(id)}` })

/** Clears every pending fault. */
export const clear: Effect.Effect<void, PlatformError, PlatformHttp> = devSend({ method: "DELETE", path: PATH })

/**
 * What every module's argument checks share. A check answers its module's refusal (a `DataError`, a
 * `CatalogError`, ...) or undefined; the first refusal among a call's checks wins, and the call is sent
 * only when none refused, so a bad argument fails before any request.
 */
import * as Effect from "effect/Effect"

/** The first refusal among checks, or undefined when every argument is fine. */
export const first = <E>(...checks: ReadonlyArray<E | undefined>): E | undefined => checks.find((c) => c !== undefined)

/** Fails with a check's refusal before anything is sent, or runs the call. */
export const unlessInvalid = <X, A, E, R>(refusal: X | undefined, call: () => Effect.Effect<A, E, R>): Effect.Effect<A, E | X, R> =>
  refusal === undefined ? Effect.suspend(call) : Effect.fail(refusal)

/**
 * `Effect.catchIf` for the failures `refine` picks, built on `catchCause`: `catchIf` and `catch` bring
 * Cause filtering (about 0.4 KB gzip) into every browser page, and the wire's few recoveries need none.
 */
import * as Effect from "effect/Effect"

export const catchFailure = <A, E, R, A2, E2, R2>(
  self: Effect.Effect<A, E, R>,
  refine: (error: E) => boolean,
  recover: (error: E) => Effect.Effect<A2, E2, R2>
): Effect.Effect<A | A2, E | E2, R | R2> =>
  Effect.catchCause(self, (cause): Effect.Effect<A2, E | E2, R2> => {
    const failure = cause.reasons.find((reason) => reason._tag === "Fail")
    return failure !== undefined && refine(failure.error) ? recover(failure.error) : Effect.failCause(cause)
  })

/**
 * Retrying transient failures (`isTransient`, in PlatformError.ts): how long to wait before each retry
 * (backoff with jitter, or the platform's `Retry-After` that answer.ts kept), how a retry is told on the
 * caller's span, and the loop.
 */
import * as Effect from "effect/Effect"
import { retryAfterMs } from "./answer.ts"
import { catchFailure } from "./catchFailure.ts"
import { isTransient, PlatformError } from "./PlatformError.ts"
import { currentTimeMillis, sleepMillis } from "./time.ts"

/** A retry policy in milliseconds: retries after the first attempt, the first backoff (doubling), the longest wait. */
export interface RetryMillis {
  readonly times: number
  readonly base: number
  readonly cap: number
}

/** The default policy (three retries, 100 ms doubling, at most 5 s) in milliseconds. */
export const DEFAULT_RETRY_MILLIS: RetryMillis = { times: 3, base: 100, cap: 5000 }

/**
 * How long to wait, in milliseconds, before retry number `attempt + 1`: capped exponential backoff with
 * jitter, or the error's `Retry-After` when it asks for longer (also capped).
 */
export const retryDelayMillis = (policy: RetryMillis, attempt: number, error: PlatformError): number => {
  const backoff = Math.min(policy.cap, policy.base * 2 ** attempt)
  const jittered = backoff / 2 + Math.random() * (backoff / 2)
  const hinted = retryAfterMs.get(error)
  return hinted === undefined ? jittered : Math.min(policy.cap, Math.max(hinted, jittered))
}

/** What a retry is told by: the call's method and path, and the failure that caused it (a PlatformError, or a code, a message and a kind). */
export type RetryCause = PlatformError | { readonly code: string; readonly message: string; readonly kind?: string | undefined }

/**
 * The attributes of a `sitefx.retry` span event: the attempt, the wait, and the failure that caused it.
 * Only the method, the path (never its query) and the failure's code and message: no header, no body.
 */
export const retryAttributes = (what: { readonly method: string; readonly path: string }, attempt: number, delayMillis: number, error: RetryCause) => {
  const kind = "reason" in error ? (error.reason._tag === "TransportError" ? error.reason.kind ?? "unknown" : `status ${error.reason.status}`) : error.kind
  return {
    "sitefx.retry.attempt": attempt,
    "sitefx.retry.delay_ms": Math.round(delayMillis),
    "http.request.method": what.method,
    "url.path": what.path,
    "error.type": error.code,
    "sitefx.retry.cause": kind === undefined ? error.message : `${kind}: ${error.message}`
  }
}

/**
 * Tells of a retry about to happen: an event `sitefx.retry` on the current span (when the caller runs in
 * one) with {@link retryAttributes}. Not a log line: effect's logging would weigh about 4 KB gzip in every
 * browser page; a program that wants retries in its log has them from its tracer.
 */
export const noteRetry = (what: { readonly method: string; readonly path: string }, attempt: number, delayMillis: number, error: RetryCause): Effect.Effect<void> =>
  Effect.flatMap(Effect.exit(Effect.currentSpan), (span) =>
    span._tag === "Success"
      ? Effect.map(currentTimeMillis, (now) => span.value.event("sitefx.retry", BigInt(Math.round(now)) * 1_000_000n, retryAttributes(what, attempt, delayMillis, error)))
      : Effect.void)

/**
 * A transient failure that a call which must not run twice may be sent again after: one the platform
 * cannot have carried out (429, 503, no connection made).
 */
export const isTransientUnapplied = (error: PlatformError): boolean => isTransient(error) && !error.mayHaveApplied

/**
 * Retries the failures `retryable` picks (transient ones by default) up to `policy.times`, waiting
 * {@link retryDelayMillis} before each.
 */
export const retrying = <A>(
  effect: Effect.Effect<A, PlatformError>,
  policy: RetryMillis,
  retryable: (error: PlatformError) => boolean = isTransient
): Effect.Effect<A, PlatformError> => {
  // `applied`: an attempt before this one may have been carried out, which the last failure must say
  const loop = (n: number, applied: boolean): Effect.Effect<A, PlatformError> =>
    catchFailure(effect, () => true, (error) => {
      if (n < policy.times && retryable(error)) {
        const delay = retryDelayMillis(policy, n, error)
        return noteRetry(error, n + 1, delay, error).pipe(Effect.andThen(sleepMillis(delay)), Effect.andThen(loop(n + 1, applied || error.mayHaveApplied)))
      }
      return Effect.fail(applied && !error.mayHaveApplied ? new PlatformError({ ...error, earlierAttemptMayHaveApplied: true }) : error)
    })
  return loop(0, false)
}

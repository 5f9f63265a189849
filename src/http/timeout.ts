/**
 * How long each attempt of a platform call may take: the default, and `withTimeout` for the calls inside
 * one effect. The transport enforces it (transport.ts); a timed-out attempt is retried like any other
 * transient failure (retry.ts).
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { inputMillis } from "./time.ts"

/** How long a call's attempt may take by default, in milliseconds (PlatformConfig's `timeout`). */
export const DEFAULT_TIMEOUT_MILLIS = 30_000

/**
 * The timeout, in milliseconds, of every platform call made inside an effect `withTimeout` wraps; when
 * unset, the configuration's.
 */
export const CallTimeout = Context.Reference<number | undefined>("sitefx/CallTimeout", { defaultValue: () => undefined })

/**
 * Gives every platform call inside `effect` this timeout instead of the configuration's: each attempt
 * (each retry has its own) must have its whole answer within it, or it is aborted and fails with a
 * `timeout` TransportError, which an idempotent call retries under the retry policy.
 *
 * @example
 * const client = yield* PlatformClient
 * // this call's attempts may take 2 seconds each, whatever the layer's timeout
 * const me = yield* client.request({ method: "GET", path: "/members/v1/members/my" }).pipe(withTimeout("2 seconds"))
 */
export const withTimeout = (timeout: Duration.Input) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, CallTimeout, inputMillis(timeout))

/**
 * One POST of JSON to the API host, without the data wire's encodings (`.r`, `$date`): the transport,
 * the answer read and checked, transient failures retried. The token service's own call (siteTokens)
 * uses it alone, so a page that only reads the session carries none of PlatformHttp; the member flows of
 * a sign-in page (siteMembers) send their POSTs through `postAnswer`. Plain functions only, so a bundler
 * keeps just what a page calls.
 */
import * as Effect from "effect/Effect"
import { checkBody, type PlatformResponse, readAnswer } from "./answer.ts"
import type { Guard } from "./guard.ts"
import { REQUEST_ID_HEADER } from "./headers.ts"
import { PlatformError } from "./PlatformError.ts"
import type { PlatformErrorReason } from "./reasons.ts"
import { type RetryMillis, retrying } from "./retry.ts"
import { CallTimeout, DEFAULT_TIMEOUT_MILLIS } from "./timeout.ts"
import { fetchTransport } from "./transport.ts"

/** What `postAnswer` and `postJson` take: where, what, the headers, and how failures are retried. */
export interface PostOptions {
  readonly apiUrl: string
  readonly path: string
  readonly payload: Record<string, unknown>
  readonly retry?: RetryMillis | undefined
  /** Which failures are retried (transient ones by default: for calls that may be sent twice). */
  readonly retryable?: ((error: PlatformError) => boolean) | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Each attempt's timeout (default {@link DEFAULT_TIMEOUT_MILLIS}); `withTimeout` wins over it. */
  readonly timeoutMillis?: number | undefined
}

/**
 * A POST of JSON to the API host, its 200 answer read as JSON (any other status as its PlatformError);
 * the failures `retryable` picks retried. The headers are the ones PlatformHttp sends: the caller's, and
 * `content-type`.
 */
export const postAnswer = (options: PostOptions): Effect.Effect<PlatformResponse, PlatformError> => {
  const { path } = options
  const fail = (reason: PlatformErrorReason) => new PlatformError({ method: "POST", path, reason })
  const once = Effect.flatMap(CallTimeout, (timeout) =>
    fetchTransport({
      method: "POST",
      url: `${options.apiUrl}${path}`,
      body: JSON.stringify(options.payload),
      headers: options.headers ?? {},
      timeoutMillis: timeout ?? options.timeoutMillis ?? DEFAULT_TIMEOUT_MILLIS
    })).pipe(
    Effect.mapError(fail),
    Effect.flatMap((response) =>
      Effect.map(readAnswer(response, fail), (body): PlatformResponse => ({ body, headers: response.headers, requestId: response.headers[REQUEST_ID_HEADER] }))
    )
  )
  return options.retry === undefined || options.retry.times <= 0 ? once : retrying(once, options.retry, options.retryable)
}

/**
 * A POST of JSON to the API host, its answer read as JSON and checked with `guard`; transient failures
 * retried (for calls that may be sent twice). The headers are the ones PlatformHttp sends: the caller's,
 * and `content-type`. (Not written over `postAnswer`: the token service's page would carry the difference.)
 */
export const postJson = <A>(options: PostOptions & { readonly guard: Guard<A> }): Effect.Effect<A, PlatformError> => {
  const { path } = options
  const fail = (reason: PlatformErrorReason) => new PlatformError({ method: "POST", path, reason })
  const once = Effect.flatMap(CallTimeout, (timeout) =>
    fetchTransport({
      method: "POST",
      url: `${options.apiUrl}${path}`,
      body: JSON.stringify(options.payload),
      headers: options.headers ?? {},
      timeoutMillis: timeout ?? options.timeoutMillis ?? DEFAULT_TIMEOUT_MILLIS
    })).pipe(
    Effect.mapError(fail),
    Effect.flatMap((response) =>
      Effect.flatMap(readAnswer(response, fail), (body) =>
        checkBody({ method: "POST", path }, { body, headers: response.headers, requestId: response.headers[REQUEST_ID_HEADER] }, options.guard))
    )
  )
  return options.retry === undefined || options.retry.times <= 0 ? once : retrying(once, options.retry)
}

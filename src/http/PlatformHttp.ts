/**
 * The platform's HTTP transport: sends a {@link PlatformRequest} the way the platform wants it (`.r`
 * queries with POST fallback, `$date` values, the repeated `X-Wix-Consistent` header), turns every
 * non-200 answer into a typed {@link PlatformError}, and retries transient failures of idempotent calls.
 * Authentication is not its business: callers pass headers, PlatformClient adds the session's.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { notJson, type PlatformResponse, readAnswer } from "./answer.ts"
import { CONSISTENT_HEADER, REQUEST_ID_HEADER, reviveDates } from "./codec.ts"
import { PlatformConfig, type RetryPolicy } from "./PlatformConfig.ts"
import { isTransient, PlatformError } from "./PlatformError.ts"
import { isIdempotent, type PlatformRequest, toWire } from "./PlatformRequest.ts"
import { isTransientUnapplied, retryDelayMillis, retrying } from "./retry.ts"
import { inputMillis } from "./time.ts"
import { CallTimeout } from "./timeout.ts"
import { fetchTransport, type Transport } from "./transport.ts"

export { type PlatformResponse, readErrorBody, STATUS_TEXT } from "./answer.ts"
export { catchFailure } from "./catchFailure.ts"
export { isTransient } from "./PlatformError.ts"
export { CallTimeout, withTimeout } from "./timeout.ts"
export { fetchTransport, PlatformFetch, type Transport, type TransportRequest, type TransportResponse } from "./transport.ts"
export { inputMillis } from "./time.ts"

/** What the wire does: send one request, succeeding only on HTTP 200. */
export interface PlatformHttpShape {
  /** Sends a request with the given extra headers; succeeds only on HTTP 200. */
  readonly send: (request: PlatformRequest) => Effect.Effect<PlatformResponse, PlatformError>
}

/** The platform's wire, unauthenticated: encodes requests, retries transient failures, types every error. */
export class PlatformHttp extends Context.Service<PlatformHttp, PlatformHttpShape>()("sitefx/PlatformHttp") {
  /** The platform's wire over any transport. */
  static readonly layerTransport = (transport: Transport): Layer.Layer<PlatformHttp, never, PlatformConfig> =>
    Layer.effect(PlatformHttp, Effect.map(PlatformConfig, (config) => PlatformHttp.of(makeSend(config, transport))))

  /** The platform's wire over `fetch`. */
  static readonly layerFetch: Layer.Layer<PlatformHttp, never, PlatformConfig> = PlatformHttp.layerTransport(fetchTransport)
}

/** `traceparent` and `b3` of the current span, when there is one (the platform's spans become its children). */
const traceHeaders = Effect.map(Effect.exit(Effect.currentSpan), (span): Record<string, string> => {
  if (span._tag === "Failure") return {}
  const { traceId, spanId, sampled } = span.value
  return { traceparent: `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`, b3: `${traceId}-${spanId}-${sampled ? "1" : "0"}` }
})

const makeSend = (
  config: PlatformConfig["Service"],
  transport: Transport
): PlatformHttpShape => {
  const retryMillis = { times: config.retry.times, base: inputMillis(config.retry.base), cap: inputMillis(config.retry.cap) }
  const timeoutMillis = inputMillis(config.timeout)
  // The consistency token the platform last handed out; repeated on every later request.
  let consistent: string | undefined

  // Built when it runs (not when it is created), so every attempt, retries included, sends the newest token.
  const attempt = (request: PlatformRequest): Effect.Effect<PlatformResponse, PlatformError> => Effect.suspend(() => {
    const baseUrl = request.host === "module" && config.cdn ? config.edgeUrl : config.apiUrl
    const wire = toWire(request, baseUrl)
    const path = wire.url.slice(baseUrl.length).split("?")[0] ?? request.path
    const fail = (reason: PlatformError["reason"]) => new PlatformError({ method: wire.method, path, reason })
    const headers: Record<string, string> = { ...request.headers }
    if (consistent !== undefined) headers[CONSISTENT_HEADER] = consistent
    const exchange = Effect.flatMap(CallTimeout, (timeout) => {
      const out = { ...wire, headers, timeoutMillis: timeout ?? timeoutMillis }
      return config.tracePropagation
        ? Effect.flatMap(traceHeaders, (trace) => transport({ ...out, headers: { ...trace, ...headers } }))
        : transport(out)
    })
    return exchange.pipe(
      Effect.mapError(fail),
      Effect.flatMap((response): Effect.Effect<PlatformResponse, PlatformError> => {
        const requestId = response.headers[REQUEST_ID_HEADER]
        const token = response.headers[CONSISTENT_HEADER]
        if (token !== undefined && token !== "") consistent = token
        if (response.status === 200 && request.raw === true) return Effect.succeed({ body: response.text, headers: response.headers, requestId })
        return Effect.map(readAnswer(response, fail), (json) => ({
          body: request.dates === true ? withDates(json, response.text) : json,
          headers: response.headers,
          requestId
        }))
      })
    )
  })

  // a call that must not run twice is still sent again after a failure the platform cannot have acted on
  const send = (request: PlatformRequest): Effect.Effect<PlatformResponse, PlatformError> =>
    config.retry.times > 0
      ? retrying(attempt(request), retryMillis, isIdempotent(request) ? isTransient : isTransientUnapplied)
      : attempt(request)

  return { send }
}

// the body was just parsed and is ours: dates are revived in place, and only when there are any
const withDates = (json: unknown, text: string): unknown => (text.includes("\"$date\"") ? reviveDates(json) : json)

/** The body of a `raw` answer parsed as {@link PlatformHttpShape.send} would have parsed it (JSON, `$date` values). */
export const parseAnswer = (request: PlatformRequest, response: PlatformResponse): Effect.Effect<PlatformResponse, PlatformError> =>
  Effect.suspend(() => {
    const text = typeof response.body === "string" ? response.body : ""
    try {
      const json: unknown = JSON.parse(text)
      return Effect.succeed({ ...response, body: request.dates === true ? withDates(json, text) : json })
    } catch {
      return Effect.fail(new PlatformError({ method: request.method, path: request.path, reason: notJson(text, response.requestId) }))
    }
  })

/**
 * How long to wait, in milliseconds, before retry number `attempt + 1`: capped exponential backoff with
 * jitter, or the error's `Retry-After` when it asks for longer (also capped).
 */
export const retryDelay = (policy: RetryPolicy, attempt: number, error: PlatformError): number =>
  retryDelayMillis({ times: policy.times, base: inputMillis(policy.base), cap: inputMillis(policy.cap) }, attempt, error)

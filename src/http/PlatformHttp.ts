/**
 * The platform's HTTP transport: sends a {@link PlatformRequest} the way the platform wants it (`.r`
 * queries with POST fallback, `$date` values, the repeated `X-Wix-Consistent` header), turns every
 * non-200 answer into a typed {@link PlatformError}, and retries transient failures of idempotent calls.
 * Authentication is not its business: callers pass headers, PlatformClient adds the session's.
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpBody from "effect/http/HttpBody"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { PlatformConfig, type RetryPolicy } from "./PlatformConfig.ts"
import { PlatformError, reasonFromResponse, SystemError, TransportError } from "./PlatformError.ts"
import { isIdempotent, type PlatformRequest, toWire } from "./PlatformRequest.ts"
import { CONSISTENT_HEADER, ErrorBody, REQUEST_ID_HEADER, reviveDates } from "./wire.ts"

/** A successful (HTTP 200) answer. */
export interface PlatformResponse {
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
  readonly requestId: string | undefined
}

export interface PlatformHttpShape {
  /** Sends a request with the given extra headers; succeeds only on HTTP 200. */
  readonly send: (request: PlatformRequest) => Effect.Effect<PlatformResponse, PlatformError>
}

export class PlatformHttp extends Context.Service<PlatformHttp, PlatformHttpShape>()("sitefx/PlatformHttp") {
  /** Needs an HttpClient; see {@link PlatformHttp.layerFetch} for the fetch-based one. */
  static readonly layer: Layer.Layer<PlatformHttp, never, PlatformConfig | HttpClient.HttpClient> = Layer.effect(
    PlatformHttp,
    Effect.gen(function*() {
      const config = yield* PlatformConfig
      const client = yield* HttpClient.HttpClient
      return PlatformHttp.of(makeSend(config, client))
    })
  )

  static readonly layerFetch: Layer.Layer<PlatformHttp, never, PlatformConfig> = PlatformHttp.layer.pipe(
    Layer.provide(FetchHttpClient.layer)
  )
}

const TRANSIENT = new Set([429, 502, 503, 504])

// Reason phrases for the statuses the platform uses (fetch's statusText is empty over HTTP/2 and in some runtimes).
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
  413: "Payload Too Large", 428: "Precondition Required", 429: "Too Many Requests", 500: "Internal Server Error",
  502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"
}

const decodeErrorBody = Schema.decodeUnknownOption(ErrorBody)

const makeSend = (
  config: PlatformConfig["Service"],
  client: HttpClient.HttpClient
): PlatformHttpShape => {
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
    let httpRequest = HttpClientRequest.make(wire.method)(wire.url, { headers })
    if (wire.body !== undefined) {
      // the JSON text itself goes to the runtime's HTTP client, which writes it out (and counts its bytes
      // for Content-Length) without a byte copy held by this heap
      httpRequest = HttpClientRequest.setBody(httpRequest, HttpBody.raw(wire.body, { contentType: "application/json" }))
    }
    return client.execute(httpRequest).pipe(
      Effect.provideService(HttpClient.TracerPropagationEnabled, config.tracePropagation),
      Effect.mapError((error) => fail(new TransportError({ message: error.message, cause: error }))),
      Effect.flatMap((response) =>
        Effect.gen(function*() {
          const requestId = response.headers[REQUEST_ID_HEADER]
          const token = response.headers[CONSISTENT_HEADER]
          if (token !== undefined && token !== "") consistent = token
          const text = yield* response.text.pipe(
            Effect.mapError((error) => fail(new TransportError({ message: error.message, cause: error })))
          )
          if (response.status === 200 && request.raw === true) return { body: text, headers: response.headers, requestId }
          let json: unknown = undefined
          let parsed = false
          if (text !== "") {
            try {
              json = JSON.parse(text)
              parsed = true
            } catch {
              parsed = false
            }
          }
          if (response.status !== 200) {
            const body = parsed ? Option.getOrUndefined(decodeErrorBody(json)) : undefined
            const statusText = STATUS_TEXT[response.status] ?? ""
            return yield* Effect.fail(
              fail(reasonFromResponse({ status: response.status, statusText, body, requestId })).pipe(
                (e) => withRetryAfter(e, response.headers["retry-after"])
              )
            )
          }
          if (!parsed) return yield* Effect.fail(fail(notJson(text, requestId)))
          return { body: request.dates === true ? withDates(json, text) : json, headers: response.headers, requestId }
        })
      )
    )
  })

  const send = (request: PlatformRequest): Effect.Effect<PlatformResponse, PlatformError> =>
    isIdempotent(request) && config.retry.times > 0
      ? retrying(attempt(request), config.retry)
      : attempt(request)

  return { send }
}

const notJson = (text: string, requestId: string | undefined) =>
  new SystemError({
    status: 200,
    message: "The platform answered 200 without a JSON body",
    description: text === "" ? "empty body" : "body is not JSON",
    ...(requestId === undefined ? {} : { requestId })
  })

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

// The Retry-After header of a 429/503, in milliseconds, kept beside the error for the retry loop.
const retryAfterMs = new WeakMap<PlatformError, number>()

const withRetryAfter = (error: PlatformError, header: string | undefined): PlatformError => {
  if (header !== undefined) {
    const seconds = Number(header)
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now()
    if (Number.isFinite(ms) && ms >= 0) retryAfterMs.set(error, ms)
  }
  return error
}

/** A transient failure: no answer at all, or 429/502/503/504. */
export const isTransient = (error: PlatformError): boolean =>
  error.reason._tag === "TransportError" || (error.status !== undefined && TRANSIENT.has(error.status))

/**
 * How long to wait before retry number `attempt + 1`: capped exponential backoff with jitter, or the
 * error's `Retry-After` when it asks for longer (also capped).
 */
export const retryDelay = (policy: RetryPolicy, attempt: number, error: PlatformError): Duration.Duration => {
  const base = Duration.toMillis(Duration.fromInputUnsafe(policy.base))
  const cap = Duration.toMillis(Duration.fromInputUnsafe(policy.cap))
  const backoff = Math.min(cap, base * 2 ** attempt)
  const jittered = backoff / 2 + Math.random() * (backoff / 2)
  const hinted = retryAfterMs.get(error)
  return Duration.millis(hinted === undefined ? jittered : Math.min(cap, Math.max(hinted, jittered)))
}

/** Retries transient failures up to `policy.times`, waiting {@link retryDelay} before each. */
const retrying = <A>(effect: Effect.Effect<A, PlatformError>, policy: RetryPolicy): Effect.Effect<A, PlatformError> => {
  const loop = (n: number): Effect.Effect<A, PlatformError> =>
    Effect.catchIf(effect, (e) => n < policy.times && isTransient(e), (error) =>
      Effect.sleep(retryDelay(policy, n, error)).pipe(Effect.andThen(loop(n + 1))))
  return loop(0)
}

/**
 * The platform's HTTP transport: sends a {@link PlatformRequest} the way the platform wants it (`.r`
 * queries with POST fallback, `$date` values, the repeated `X-Wix-Consistent` header), turns every
 * non-200 answer into a typed {@link PlatformError}, and retries transient failures of idempotent calls.
 * Authentication is not its business: callers pass headers, PlatformClient adds the session's.
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PlatformConfig, type RetryPolicy } from "./PlatformConfig.ts"
import { PlatformError, reasonFromResponse, SystemError, TransportError } from "./PlatformError.ts"
import { isIdempotent, type PlatformRequest, toWire, type WireRequest } from "./PlatformRequest.ts"
import { CONSISTENT_HEADER, REQUEST_ID_HEADER, reviveDates } from "./codec.ts"
import type { ErrorBody } from "./wire.ts"
import { isRecord } from "./isRecord.ts"

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

/** One HTTP exchange as the transport sees it: what goes out, and the whole answer that comes back. */
export interface TransportRequest extends WireRequest {
  readonly headers: Readonly<Record<string, string>>
}
export interface TransportResponse {
  readonly status: number
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

/**
 * Moves bytes: `fetch` by default (browsers, Node, Deno, Bun), or Effect's HttpClient through
 * `httpClientTransport` (sitefx/http) for those who want Node's own client. A failure is a request that
 * got no answer.
 */
export type Transport = (request: TransportRequest) => Effect.Effect<TransportResponse, TransportError>

/** The `fetch` requests go through; the global one unless provided (tests record or rewrite requests with it). */
export const PlatformFetch = Context.Reference<typeof globalThis.fetch>("sitefx/PlatformFetch", {
  defaultValue: () => (input, init) => globalThis.fetch(input, init)
})

const transportError = (error: unknown) =>
  new TransportError({ message: error instanceof Error ? error.message : String(error), cause: error })

/** The default transport: `fetch`, aborted when the effect is interrupted. */
export const fetchTransport: Transport = (request) =>
  Effect.flatMap(PlatformFetch, (fetch) =>
    Effect.tryPromise({
      try: async (signal) => {
        const response = await fetch(request.url, {
          method: request.method,
          headers: request.body === undefined ? request.headers : { "content-type": "application/json", ...request.headers },
          ...(request.body === undefined ? {} : { body: request.body }),
          signal
        })
        const headers: Record<string, string> = {}
        response.headers.forEach((value, name) => {
          headers[name] = value
        })
        return { status: response.status, headers, text: await response.text() }
      },
      catch: transportError
    }))

export class PlatformHttp extends Context.Service<PlatformHttp, PlatformHttpShape>()("sitefx/PlatformHttp") {
  /** The platform's wire over any transport. */
  static readonly layerTransport = (transport: Transport): Layer.Layer<PlatformHttp, never, PlatformConfig> =>
    Layer.effect(PlatformHttp, Effect.map(PlatformConfig, (config) => PlatformHttp.of(makeSend(config, transport))))

  /** The platform's wire over `fetch`. */
  static readonly layerFetch: Layer.Layer<PlatformHttp, never, PlatformConfig> = PlatformHttp.layerTransport(fetchTransport)
}

const TRANSIENT = new Set([429, 502, 503, 504])

// Reason phrases for the statuses the platform uses (fetch's statusText is empty over HTTP/2 and in some runtimes).
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
  413: "Payload Too Large", 428: "Precondition Required", 429: "Too Many Requests", 500: "Internal Server Error",
  502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"
}


/**
 * The platform's error body, as far as it has that shape: a field of the wrong type is left out, so a
 * malformed body still gives an error with what could be read (a missing message falls back to the
 * status text).
 */
export const readErrorBody = (json: unknown): ErrorBody | undefined => {
  if (!isRecord(json)) return undefined
  const message = typeof json["message"] === "string" ? { message: json["message"] } : {}
  const details = json["details"]
  if (!isRecord(details)) return message
  const app = details["applicationError"]
  const validation = details["validationError"]
  const application = isRecord(app) ? app : {}
  const code = application["code"]
  const violations = isRecord(validation) ? validation["fieldViolations"] : undefined
  return {
    ...message,
    details: {
      ...(typeof code === "string" || typeof code === "number"
        ? {
          applicationError: {
            code,
            ...(typeof application["description"] === "string" ? { description: application["description"] } : {}),
            ...(application["data"] === undefined ? {} : { data: application["data"] })
          }
        }
        : {}),
      ...(Array.isArray(violations) && violations.every(isRecord)
        ? {
          validationError: {
            fieldViolations: violations.map((v) => {
              const out: Record<string, unknown> = {}
              for (const k of ["field", "description", "violatedRule", "ruleName"] as const) if (typeof v[k] === "string") out[k] = v[k]
              if (isRecord(v["data"])) out["data"] = v["data"]
              return out
            })
          }
        }
        : {})
    }
  }
}

/** `traceparent` and `b3` of the current span, when there is one (the platform's spans become its children). */
const traceHeaders = Effect.map(Effect.exit(Effect.currentSpan), (span): Record<string, string> => {
  if (span._tag === "Failure") return {}
  const { traceId, spanId, sampled } = span.value
  return { traceparent: `00-${traceId}-${spanId}-${sampled ? "01" : "00"}`, b3: `${traceId}-${spanId}-${sampled ? "1" : "0"}` }
})

/**
 * `Effect.catchIf` for the failures `refine` picks, built on `catchCause`: `catchIf` and `catch` bring
 * Cause filtering (about 0.4 KB gzip) into every browser page, and the wire's few recoveries need none.
 */
export const catchFailure = <A, E, R, A2, E2, R2>(
  self: Effect.Effect<A, E, R>,
  refine: (error: E) => boolean,
  recover: (error: E) => Effect.Effect<A2, E2, R2>
): Effect.Effect<A | A2, E | E2, R | R2> =>
  Effect.catchCause(self, (cause): Effect.Effect<A2, E | E2, R2> => {
    const failure = cause.reasons.find((reason) => reason._tag === "Fail")
    return failure !== undefined && refine(failure.error) ? recover(failure.error) : Effect.failCause(cause)
  })

const makeSend = (
  config: PlatformConfig["Service"],
  transport: Transport
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
    const exchange = config.tracePropagation
      ? Effect.flatMap(traceHeaders, (trace) => transport({ ...wire, headers: { ...trace, ...headers } }))
      : transport({ ...wire, headers })
    return exchange.pipe(
      Effect.mapError(fail),
      Effect.flatMap((response): Effect.Effect<PlatformResponse, PlatformError> => {
        const requestId = response.headers[REQUEST_ID_HEADER]
        const token = response.headers[CONSISTENT_HEADER]
        if (token !== undefined && token !== "") consistent = token
        const text = response.text
        if (response.status === 200 && request.raw === true) return Effect.succeed({ body: text, headers: response.headers, requestId })
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
          const body = parsed ? readErrorBody(json) : undefined
          const statusText = STATUS_TEXT[response.status] ?? ""
          return Effect.fail(
            withRetryAfter(fail(reasonFromResponse({ status: response.status, statusText, body, requestId })), response.headers["retry-after"])
          )
        }
        if (!parsed) return Effect.fail(fail(notJson(text, requestId)))
        return Effect.succeed({ body: request.dates === true ? withDates(json, text) : json, headers: response.headers, requestId })
      })
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

const UNIT_MILLIS: Readonly<Record<string, number>> = {
  nano: 1e-6, micro: 1e-3, milli: 1, second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000
}

/**
 * The milliseconds of a `Duration.Input`, read here rather than with effect/Duration: that module would
 * otherwise weigh about 2 KB (gzip) in every browser page, for a retry policy that is nearly always
 * the default. An input Duration would not accept counts as no wait.
 */
export const inputMillis = (input: Duration.Input): number => {
  switch (typeof input) {
    case "number":
      return input
    case "bigint":
      return Number(input) / 1e6
    case "string": {
      if (input === "Infinity") return Infinity
      if (input === "-Infinity") return -Infinity
      const match = /^(-?\d+(?:\.\d+)?)\s+(nano|micro|milli|second|minute|hour|day|week)s?$/.exec(input)
      return match === null ? 0 : Number(match[1]) * UNIT_MILLIS[match[2]!]!
    }
  }
  if (Array.isArray(input)) return input[0] * 1000 + input[1] / 1e6
  // a Duration keeps its amount as `value`; a DurationObject has its fields
  const value = (input as { readonly value?: { readonly _tag: string; readonly millis?: number; readonly nanos?: bigint } }).value
  if (value !== undefined) {
    return value._tag === "Millis" ? value.millis! : value._tag === "Nanos" ? Number(value.nanos!) / 1e6 : value._tag === "Infinity" ? Infinity : -Infinity
  }
  const o = input as Duration.DurationObject
  return (o.weeks ?? 0) * 604_800_000 + (o.days ?? 0) * 86_400_000 + (o.hours ?? 0) * 3_600_000 + (o.minutes ?? 0) * 60_000 +
    (o.seconds ?? 0) * 1000 + (o.milliseconds ?? 0) + (o.microseconds ?? 0) / 1000 + (o.nanoseconds ?? 0) / 1e6
}

/**
 * How long to wait, in milliseconds, before retry number `attempt + 1`: capped exponential backoff with
 * jitter, or the error's `Retry-After` when it asks for longer (also capped).
 */
export const retryDelay = (policy: RetryPolicy, attempt: number, error: PlatformError): number => {
  const base = inputMillis(policy.base)
  const cap = inputMillis(policy.cap)
  const backoff = Math.min(cap, base * 2 ** attempt)
  const jittered = backoff / 2 + Math.random() * (backoff / 2)
  const hinted = retryAfterMs.get(error)
  return hinted === undefined ? jittered : Math.min(cap, Math.max(hinted, jittered))
}

// A timer of its own rather than Effect.sleep, which brings effect/Duration along (see inputMillis).
const sleepMillis = (millis: number): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), millis)
    return Effect.sync(() => clearTimeout(timer))
  })

/** Retries transient failures up to `policy.times`, waiting {@link retryDelay} before each. */
const retrying = <A>(effect: Effect.Effect<A, PlatformError>, policy: RetryPolicy): Effect.Effect<A, PlatformError> => {
  const loop = (n: number): Effect.Effect<A, PlatformError> =>
    catchFailure(effect, (e) => n < policy.times && isTransient(e), (error) =>
      sleepMillis(retryDelay(policy, n, error)).pipe(Effect.andThen(loop(n + 1))))
  return loop(0)
}

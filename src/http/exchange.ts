/**
 * One JSON exchange with the platform, without the data wire's encodings (`.r`, `$date`): the `fetch`
 * transport, the answer read into a body or a typed PlatformError, and the retries of transient
 * failures. PlatformHttp builds the whole wire on it; the token service's own call (siteTokens) uses it
 * alone, so a page that only reads the session carries none of the rest. Plain functions only, so a
 * bundler keeps just what a page calls.
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { describe, type Guard } from "./guard.ts"
import { REQUEST_ID_HEADER } from "./headers.ts"
import { isRecord } from "./isRecord.ts"
import { PlatformError, reasonFromResponse } from "./PlatformError.ts"
import { type PlatformErrorReason, SystemError, TransportError, type TransportKind } from "./reasons.ts"
import type { PlatformRequest, WireRequest } from "./PlatformRequest.ts"
import { Rule } from "./rule.ts"
import { currentTimeMillis, inputMillis, sleepMillis } from "./time.ts"
import type { ErrorBody } from "./wire.ts"

export const DEFAULT_API_URL = "https://www.wixapis.com"
export const DEFAULT_EDGE_URL = "https://edge.wixapis.com"

export const trimSlash = (url: string) => url.replace(/\/+$/, "")

/** A successful (HTTP 200) answer. */
export interface PlatformResponse {
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
  readonly requestId: string | undefined
}

/** One HTTP exchange as the transport sees it: what goes out, and the whole answer that comes back. */
export interface TransportRequest extends WireRequest {
  readonly headers: Readonly<Record<string, string>>
  /** The whole answer must be in within this many milliseconds, or the request is aborted (a `timeout` TransportError). */
  readonly timeoutMillis?: number | undefined
}
/** The whole HTTP answer a transport hands back, whatever its status: status, headers and body text. */
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

/** The `fetch` requests go through; the global one unless provided (tests record or rewrite requests with it). */
export const PlatformFetch = Context.Reference<typeof globalThis.fetch>("sitefx/PlatformFetch", {
  defaultValue: () => (input, init) => globalThis.fetch(input, init)
})

/** Thrown inside the fetch transport when its own timer aborted the request. */
class TimedOut {
  readonly millis: number
  constructor(millis: number) {
    this.millis = millis
  }
}

// Node's fetch names the socket's fate in an error code on the error or one of its causes
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"])
const BROKEN = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNABORTED"])

/** How a failed exchange got no answer, from the error codes along its causes. */
export const transportKind = (error: unknown): TransportKind => {
  if (error instanceof TimedOut) return "timeout"
  for (let e: unknown = error, depth = 0; isRecord(e) && depth < 4; e = e["cause"], depth++) {
    const code = e["code"]
    if (typeof code === "string") {
      if (UNREACHABLE.has(code)) return "unreachable"
      if (BROKEN.has(code)) return "reset"
    }
  }
  return "unknown"
}

/** An attempt that had no whole answer within `millis`. */
export const timeoutError = (millis: number): TransportError => new TransportError({ message: `No answer within ${millis} ms`, kind: "timeout" })

/** A failed exchange as a TransportError of its kind. */
export const transportError = (error: unknown): TransportError =>
  error instanceof TimedOut
    ? timeoutError(error.millis)
    : new TransportError({ message: error instanceof Error ? error.message : String(error), cause: error, kind: transportKind(error) })

/** The default transport: `fetch`, aborted when the effect is interrupted or its timeout passes. */
export const fetchTransport: Transport = (request) =>
  Effect.flatMap(PlatformFetch, (fetch) =>
    Effect.tryPromise({
      try: async (interrupted) => {
        // one signal for both ends of the attempt, the effect's interruption and the timeout (without
        // AbortSignal.any, which browsers before 2024 lack)
        const limit = request.timeoutMillis
        const abort = new AbortController()
        const stop = () => abort.abort()
        interrupted.addEventListener("abort", stop, { once: true })
        let timedOut = false
        const timer = limit === undefined || !(limit < Infinity) ? undefined : setTimeout(() => {
          timedOut = true
          abort.abort()
        }, limit)
        try {
          const response = await fetch(request.url, {
            method: request.method,
            headers: request.body === undefined ? request.headers : { "content-type": "application/json", ...request.headers },
            ...(request.body === undefined ? {} : { body: request.body }),
            signal: abort.signal
          })
          const headers: Record<string, string> = {}
          response.headers.forEach((value, name) => {
            headers[name] = value
          })
          // the body is read under the same timer: a body that trickles in or stops halfway times out too
          return { status: response.status, headers, text: await response.text() }
        } catch (error) {
          throw timedOut ? new TimedOut(limit!) : error
        } finally {
          clearTimeout(timer)
          interrupted.removeEventListener("abort", stop)
        }
      },
      catch: transportError
    }))

// Reason phrases for the statuses the platform uses (fetch's statusText is empty over HTTP/2 and in some runtimes).
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
  413: "Payload Too Large", 428: "Precondition Required", 429: "Too Many Requests", 500: "Internal Server Error",
  502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"
}

/**
 * The platform's error body, as far as it has that shape: a field of the wrong type is left out, so a
 * malformed body still gives an error with what could be read (a missing message falls back to the
 * status text), and a rule that does not have its kind's shape is left out whole.
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
        : {}),
      ...(Rule(details["rule"]) === undefined ? { rule: details["rule"] as Rule } : {})
    }
  }
}

/** A 200 whose body is not JSON. */
export const notJson = (text: string, requestId: string | undefined) =>
  new SystemError({
    status: 200,
    message: "The platform answered 200 without a JSON body",
    description: text === "" ? "empty body" : "body is not JSON",
    ...(requestId === undefined ? {} : { requestId })
  })

/**
 * The JSON of a 200 answer; any other status as the PlatformError its error body (or status) stands
 * for, with its `Retry-After` kept for the retry loop; a 200 that is not JSON as a SystemError.
 */
export const readAnswer = (
  response: TransportResponse,
  fail: (reason: PlatformErrorReason) => PlatformError
): Effect.Effect<unknown, PlatformError> => {
  const requestId = response.headers[REQUEST_ID_HEADER]
  const text = response.text
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
  return parsed ? Effect.succeed(json) : Effect.fail(fail(notJson(text, requestId)))
}

/** Checks a 200 body with a guard; a mismatch is reported as a SystemError naming the call and the place. */
export const checkBody = <A>(req: PlatformRequest, res: PlatformResponse, guard: Guard<A>): Effect.Effect<A, PlatformError> => {
  const wrong = guard(res.body)
  return wrong === undefined ? Effect.succeed(res.body as A) : Effect.fail(
    new PlatformError({
      method: req.method,
      path: req.path,
      reason: new SystemError({
        status: 200,
        message: `Unexpected response body: ${describe(wrong)}`,
        description: "unexpected response body",
        ...(res.requestId === undefined ? {} : { requestId: res.requestId })
      })
    })
  )
}

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

const TRANSIENT = new Set([429, 502, 503, 504])

/** A transient failure: no answer at all, or 429/502/503/504. */
export const isTransient = (error: PlatformError): boolean =>
  error.reason._tag === "TransportError" || (error.status !== undefined && TRANSIENT.has(error.status))

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

/**
 * A POST of JSON to the API host, its answer read as JSON and checked with `guard`; transient failures
 * retried (for calls that may be sent twice). The headers are the ones PlatformHttp sends: the caller's,
 * and `content-type`.
 */
export const postJson = <A>(
  options: {
    readonly apiUrl: string
    readonly path: string
    readonly payload: Record<string, unknown>
    readonly guard: Guard<A>
    readonly retry?: RetryMillis | undefined
    readonly headers?: Readonly<Record<string, string>> | undefined
    /** Each attempt's timeout (default {@link DEFAULT_TIMEOUT_MILLIS}); `withTimeout` wins over it. */
    readonly timeoutMillis?: number | undefined
  }
): Effect.Effect<A, PlatformError> => {
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

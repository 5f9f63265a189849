/**
 * How a request reaches the platform: the shapes a transport takes and hands back, and the default
 * transport over `fetch`, which aborts an attempt past its timeout and says how a request got no answer
 * (`TransportError` and its `kind`).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { isRecord } from "./isRecord.ts"
import type { WireRequest } from "./PlatformRequest.ts"
import { TransportError, type TransportKind } from "./reasons.ts"

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

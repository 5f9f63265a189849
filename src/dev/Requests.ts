/**
 * The local platform's request log: every request it served, with its caller, status, duration, for a
 * refusal the error code and the rule behind it, and for a data query that scanned a collection past the
 * plan's threshold without an index the index it needed (`advice`). Filter by status (`4xx`, `404`),
 * caller (`member:<id>`), path prefix, method and advice; `tail` follows new requests as they arrive
 * (long polling).
 *
 * @example
 * import { Requests } from "sitefx/dev"
 * const { requests } = yield* Requests.list({ status: "4xx", path: "/wix-data" })
 * yield* Requests.tail({ caller: "admin" }).pipe(Stream.take(1), Stream.runForEach((r) => Console.log(r.path)))
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { DEV_PREFIX, devCall } from "./call.ts"
import type { Rule } from "../http/wire.ts"
import { RequestsResponse } from "./guards/platform.ts"
import type { RequestCaller as Caller, RequestRecord, RequestsResponse as RequestsWire } from "./wire/platform.ts"

/** One request the platform answered (the platform's own `RequestRecord`). */
export type LoggedRequest = RequestRecord
/** The rule that refused a request. */
export type RequestRule = Rule
/** Who made a logged request: its kind, and an id (never a credential). */
export type RequestCaller = typeof Caller.Type

/** The answer of a read of the log: the requests that match, and the number of the log's last request. */
export type RequestsPage = typeof RequestsWire.Type

/** A status class (`4xx`) or one status (`404`). */
export type StatusFilter = "1xx" | "2xx" | "3xx" | "4xx" | "5xx" | number

/** Which requests to read; every field narrows, none reads them all. */
export interface RequestFilter {
  readonly status?: StatusFilter | undefined
  /** `visitor`, `member`, `admin`, or one member: `member:<id>`. */
  readonly caller?: "visitor" | "member" | "admin" | `member:${string}` | undefined
  /** A path prefix: `/wix-data` takes every data call. */
  readonly path?: string | undefined
  readonly method?: string | undefined
  /** Only data queries that scanned a collection past the plan's threshold without an index: those with an `advice`. */
  readonly advice?: boolean | undefined
}

/** A read of the log: the filter, and from where (`after` a request's number), how many, and how long to wait for one. */
export interface ReadOptions extends RequestFilter {
  /** Only requests with a greater number than this. */
  readonly after?: number | undefined
  readonly limit?: number | undefined
  /** Waits up to this many seconds for a matching request when there is none yet (long polling). */
  readonly waitSeconds?: number | undefined
}

const PATH = `${DEV_PREFIX}/requests`

/** The query parameters of a read, as the endpoint names them. */
const queryOf = (options: ReadOptions): Record<string, string> => {
  const query: Record<string, string> = {}
  if (options.status !== undefined) query["status"] = String(options.status)
  if (options.caller !== undefined) query["caller"] = options.caller
  if (options.path !== undefined && options.path !== "") query["path"] = options.path
  if (options.method !== undefined && options.method !== "") query["method"] = options.method
  if (options.advice === true) query["advice"] = "true"
  if (options.after !== undefined) query["after"] = String(options.after)
  if (options.limit !== undefined) query["limit"] = String(options.limit)
  if (options.waitSeconds !== undefined) query["wait"] = String(options.waitSeconds)
  return query
}

/** The requests that match, and the number of the log's last request (where a `tail` would start). */
export const list = (options: ReadOptions = {}): Effect.Effect<RequestsPage, PlatformError, PlatformHttp> =>
  devCall({ method: "GET", path: PATH, payload: queryOf(options) }, RequestsResponse)

/** The greatest request number seen: the next read starts after it. */
const nextAfter = (after: number, page: RequestsPage): number =>
  page.requests.reduce((max, r) => Math.max(max, r.seq), page.requests.length === 0 ? Math.max(after, page.last) : after)

/**
 * The matching requests as they arrive, after request number `after` (by default, those from now on),
 * each read waiting up to `waitSeconds` (default 20) for one. It runs until interrupted.
 */
export const tail = (
  filter: RequestFilter = {},
  options: { readonly after?: number | undefined; readonly waitSeconds?: number | undefined } = {}
): Stream.Stream<LoggedRequest, PlatformError, PlatformHttp> => {
  const waitSeconds = options.waitSeconds ?? 20
  const start = options.after === undefined ? Effect.map(list({ ...filter, limit: 1 }), (page) => page.last) : Effect.succeed(options.after)
  return Stream.unwrap(Effect.map(start, (after) =>
    Stream.paginate(after, (after) =>
      Effect.flatMap(list({ ...filter, after, waitSeconds }), (page) => {
        const requests = [...page.requests].sort((a, b) => a.seq - b.seq)
        const next = [requests, Option.some(nextAfter(after, page))] as const
        // a platform that logs the log's own reads would answer each read with the one before it at once:
        // such a page waits a moment, so a tail never spins on its own reads
        return ownReadsOnly(requests) ? Effect.as(Effect.sleep(OWN_READS_PAUSE), next) : Effect.succeed(next)
      }))))
}

const OWN_READS_PAUSE = "1 second"

const ownReadsOnly = (requests: ReadonlyArray<LoggedRequest>): boolean =>
  requests.length > 0 && requests.every((r) => r.method === "GET" && r.path === PATH)

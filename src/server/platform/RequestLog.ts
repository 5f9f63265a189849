/**
 * The platform's request log: the last requests it answered (a ring of {@link DEFAULT_REQUEST_LOG_SIZE}
 * unless `requestLogSize` says otherwise), each with its method, path (never its query string, which can
 * carry codes and tokens), status, duration, caller, for a refusal the rule that refused, and for a
 * data query that scanned a collection past the plan's threshold the index it needed. Recording
 * costs one small object per request and no I/O; `GET /_sitefx/requests` reads it, and a follower
 * long-polls it for what comes next.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { CallerRole, Rule } from "../../http/wire.ts"
import { isDevPath } from "./devAccess.ts"
import type { Caller } from "./Caller.ts"
import { CurrentRequestNote, type IndexAdvice, newNote, type RequestNote } from "./requestNote.ts"

export const DEFAULT_REQUEST_LOG_SIZE = 5000

/** Who made a request, as the log keeps it: a member's or visitor's id, an API key's id; never a credential. */
export interface LoggedCaller {
  readonly kind: CallerRole
  readonly id?: string
}

/** One answered request. */
export interface RequestEntry {
  readonly seq: number
  /** When it arrived (epoch milliseconds). */
  readonly at: number
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
  readonly caller: LoggedCaller
  readonly rule: Rule | undefined
  readonly code: string | undefined
  /** A request to a dev endpoint (`/_sitefx/*`). */
  readonly dev: boolean
  /** The index a data query of the request needed: it scanned more unindexed items than the plan's threshold. */
  readonly advice?: IndexAdvice | undefined
}

/** Which entries a reader wants: all its conditions hold. */
export interface RequestFilter {
  /** Statuses from `from` to `to`, both included (`4xx` is 400–499). */
  readonly status?: { readonly from: number; readonly to: number } | undefined
  /** The caller's kind, and its id when given. */
  readonly caller?: LoggedCaller | undefined
  /** Paths starting with this. */
  readonly path?: string | undefined
  readonly method?: string | undefined
  /** Only entries after this seq. */
  readonly after?: number | undefined
  /** The newest this many. */
  readonly limit: number
  /** Dev endpoint requests too (always, when `path` is under `/_sitefx`). */
  readonly dev: boolean
  /** Only entries with an index advice. */
  readonly advice?: boolean | undefined
}

export interface RequestLogShape {
  readonly record: (entry: Omit<RequestEntry, "seq">) => void
  /** The newest `limit` entries that match, oldest first. */
  readonly select: (filter: RequestFilter) => ReadonlyArray<RequestEntry>
  /** The seq of the newest entry (0 before the first). */
  readonly last: () => number
  /**
   * The entries that match, and the newest seq at the moment they were read (where a follower goes on
   * from); when none match after `filter.after`, waits up to `waitMillis` for the first that does (a live
   * tail's long poll). Without `after`, or with one past the newest seq, it answers at once.
   */
  readonly follow: (filter: RequestFilter, waitMillis: number) => Effect.Effect<Followed>
}

/** What a follower gets: the entries, and the seq to ask after next time. */
export interface Followed {
  readonly entries: ReadonlyArray<RequestEntry>
  readonly last: number
}

const matches = (e: RequestEntry, f: RequestFilter, dev: boolean): boolean =>
  (dev || !e.dev) &&
  (f.status === undefined || (e.status >= f.status.from && e.status <= f.status.to)) &&
  (f.caller === undefined || (e.caller.kind === f.caller.kind && (f.caller.id === undefined || e.caller.id === f.caller.id))) &&
  (f.path === undefined || e.path.startsWith(f.path)) &&
  (f.method === undefined || e.method === f.method) &&
  (f.advice !== true || e.advice !== undefined)

/** The request log of one platform. */
export class RequestLog extends Context.Service<RequestLog, RequestLogShape>()("sitefx/server/RequestLog") {
  /** A log keeping the last `size` requests. */
  static readonly layer = (size: number = DEFAULT_REQUEST_LOG_SIZE): Layer.Layer<RequestLog> =>
    Layer.sync(RequestLog, () => {
      const capacity = Math.max(1, Math.floor(size))
      const ring: Array<RequestEntry | undefined> = new Array(capacity)
      let seq = 0
      const waiters = new Set<() => void>()

      const select = (filter: RequestFilter): ReadonlyArray<RequestEntry> => {
        const found: Array<RequestEntry> = []
        const oldest = Math.max(1, seq - capacity + 1, (filter.after ?? 0) + 1)
        const dev = filter.dev || (filter.path?.startsWith("/_sitefx") ?? false)
        for (let s = seq; s >= oldest && found.length < filter.limit; s--) {
          const entry = ring[(s - 1) % capacity]!
          if (matches(entry, filter, dev)) found.push(entry)
        }
        return found.reverse()
      }

      // wakes when any request is recorded; the follower then looks again
      const next = Effect.callback<void>((resume) => {
        const wake = () => resume(Effect.void)
        waiters.add(wake)
        return Effect.sync(() => {
          waiters.delete(wake)
        })
      })

      // read in one step with the seq they go up to, so a follower continuing from `last` misses nothing
      const read = (filter: RequestFilter): Followed => ({ entries: select(filter), last: seq })

      const follow = (filter: RequestFilter, waitMillis: number): Effect.Effect<Followed> =>
        Effect.suspend(() => {
          const found = read(filter)
          // a follower ahead of the log follows an earlier run of the platform: `last` tells it to start over
          if (found.entries.length > 0 || filter.after === undefined || filter.after > seq || waitMillis <= 0) return Effect.succeed(found)
          const deadline = Date.now() + waitMillis
          const loop: Effect.Effect<Followed> = Effect.suspend(() => {
            const left = deadline - Date.now()
            if (left <= 0) return Effect.succeed(read(filter))
            return Effect.flatMap(Effect.timeoutOption(next, left), () => {
              const later = read(filter)
              return later.entries.length > 0 ? Effect.succeed(later) : loop
            })
          })
          return loop
        })

      return RequestLog.of({
        record: (entry) => {
          seq += 1
          ring[(seq - 1) % capacity] = { seq, ...entry }
          if (waiters.size > 0) {
            const woken = [...waiters]
            waiters.clear()
            for (const wake of woken) wake()
          }
        },
        select,
        last: () => seq,
        follow
      })
    })
}

/** Where the log is read: its own polls are not logged, so a live tail never fills the log with itself. */
export const REQUESTS_PATH = "/_sitefx/requests"

const NOBODY: LoggedCaller = { kind: "none" }

const logged = (caller: Caller): LoggedCaller => {
  switch (caller.kind) {
    case "none":
      return NOBODY
    case "admin":
      return { kind: "admin", id: caller.keyId }
    default:
      return { kind: caller.kind, id: caller.id }
  }
}

/**
 * Resolves a request's credentials into its caller (the accounts' `Callers.resolve`), for a request no
 * route asked about. The kernel takes it as a function: resolving needs the tokens and the members above it.
 */
export type ResolveCaller = (authorization: string, siteId: string | undefined) => Effect.Effect<Caller, unknown>

/**
 * The caller as a route resolved it; when no route asked, the request's credentials resolved here
 * (reads only: a token's signature, a member's or a key's row). Credentials that do not resolve log as
 * nobody.
 */
const callerOf = (note: RequestNote, request: HttpServerRequest.HttpServerRequest, resolve: ResolveCaller): Effect.Effect<LoggedCaller> => {
  if (note.caller !== undefined) return Effect.succeed(logged(note.caller))
  const authorization = request.headers["authorization"]
  if (note.unresolved || authorization === undefined || authorization.trim() === "") return Effect.succeed(NOBODY)
  return resolve(authorization, request.headers["wix-site-id"]).pipe(Effect.map(logged), Effect.orElseSucceed(() => NOBODY))
}

/**
 * Answers one request with a fresh note and records it in the log: method, path without its query,
 * status, duration, caller, and the refusal's rule and code.
 */
export const logRequest = <E, R>(
  answer: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  resolveCaller: ResolveCaller
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | RequestLog | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const at = request.url.indexOf("?")
    const path = at < 0 ? request.url : request.url.slice(0, at)
    if (path === REQUESTS_PATH) return yield* answer
    const log = yield* RequestLog
    const note = newNote()
    const arrived = Date.now()
    const started = performance.now()
    const record = (status: number) =>
      Effect.gen(function*() {
        const durationMs = performance.now() - started
        const caller = yield* callerOf(note, request, resolveCaller)
        log.record({
          at: arrived,
          method: request.method,
          path,
          status: note.fault?.status ?? status,
          durationMs,
          caller,
          rule: note.fault?.rule ?? note.reject?.rule,
          code: note.reject?.code,
          dev: isDevPath(path),
          ...(note.advice === undefined ? {} : { advice: note.advice })
        })
      })
    // recorded on exit, which nothing interrupts: a fault that destroys the connection gets the request
    // interrupted when it closes, and is logged all the same
    return yield* Effect.provideService(answer, CurrentRequestNote, note).pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) ? record(exit.value.status) : note.fault !== undefined && Exit.hasInterrupts(exit) ? record(0) : Effect.void
      )
    )
  })

/**
 * The request log panel's atoms: the filter, and per filter the matching requests, newest first: the
 * latest ones, then (while live) each new one as the platform serves it, through a long-polling tail;
 * and the index an advice suggests, created with the site's API key as the owner's script would.
 */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import * as Stream from "effect/Stream"
import * as Indexes from "sitefx/data/indexes"
import { Requests } from "sitefx/dev"
import { adminRuntime } from "../admin.ts"
import { runtime } from "../runtime.ts"
import type { Outcome } from "../shell/Result.tsx"

/** The filter as the form holds it: "" is "any". */
export interface LogFilter {
  readonly status: string
  readonly caller: string
  readonly path: string
  readonly method: string
  /** Only data queries with an index advice. */
  readonly advice: boolean
  readonly live: boolean
}

export const NO_FILTER: LogFilter = { status: "", caller: "", path: "", method: "", advice: false, live: true }

/** How many requests the panel keeps on screen. */
export const SHOWN = 200

export const filterAtom = Atom.make<LogFilter>(NO_FILTER)

/** The filter as the endpoint takes it. */
export const readFilter = (f: LogFilter): Requests.RequestFilter => ({
  ...(f.status === "" ? {} : { status: /^\d+$/.test(f.status) ? Number(f.status) : f.status as Requests.StatusFilter }),
  ...(f.caller === "" ? {} : { caller: f.caller as Requests.RequestFilter["caller"] }),
  ...(f.path.trim() === "" ? {} : { path: f.path.trim() }),
  ...(f.method === "" ? {} : { method: f.method }),
  ...(f.advice ? { advice: true } : {})
})

const newestFirst = (requests: ReadonlyArray<Requests.LoggedRequest>) => [...requests].sort((a, b) => b.seq - a.seq).slice(0, SHOWN)

/** The requests a filter matches (keyed by the filter's JSON, so one filter is read once however often it is shown). */
export const requestsAtom = Atom.family((key: string) => {
  const f = JSON.parse(key) as LogFilter
  const filter = readFilter(f)
  return runtime.atom(Stream.unwrap(Effect.map(Requests.list({ ...filter, limit: SHOWN }), (page) => {
    const first = newestFirst(page.requests)
    if (!f.live) return Stream.make(first)
    return Requests.tail(filter, { after: page.last }).pipe(
      Stream.scan((): ReadonlyArray<Requests.LoggedRequest> => first, (shown, request) => [request, ...shown].slice(0, SHOWN))
    )
  })))
})

/** What a data query needed: the collection it scanned, the fields to index in order, the items it read. */
export type IndexAdvice = NonNullable<Requests.LoggedRequest["advice"]>

/** The name the console gives the index an advice suggests: `by_rank_likes`. */
export const indexNameOf = (advice: IndexAdvice): string => `by_${advice.fields.map((f) => f.replace(/[^A-Za-z0-9]+/g, "_")).join("_")}`

/**
 * Creates the index an advice suggests (its fields in order, ascending). The platform answers it
 * BUILDING and builds it in the background; a script waits with `Indexes.awaitActive`, the panel does
 * not, since waiting would bring effect's schedules into the console's first load (1.7 KB gzipped).
 */
export const createIndex = adminRuntime.fn((advice: IndexAdvice) => {
  const name = indexNameOf(advice)
  return Effect.as(Indexes.create(advice.collection, { name, fields: advice.fields.map((path) => ({ path })) }), {
    message: `The index ${name} of ${advice.collection} is building: queries on ${advice.fields.join(", ")} read through it once it is active.`
  } satisfies Outcome)
})

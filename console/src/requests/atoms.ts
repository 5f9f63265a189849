/**
 * The request log panel's atoms: the filter, and per filter the matching requests, newest first: the
 * latest ones, then (while live) each new one as the platform serves it, through a long-polling tail.
 */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import * as Stream from "effect/Stream"
import { Requests } from "sitefx/dev"
import { runtime } from "../runtime.ts"

/** The filter as the form holds it: "" is "any". */
export interface LogFilter {
  readonly status: string
  readonly caller: string
  readonly path: string
  readonly method: string
  readonly live: boolean
}

export const NO_FILTER: LogFilter = { status: "", caller: "", path: "", method: "", live: true }

/** How many requests the panel keeps on screen. */
export const SHOWN = 200

export const filterAtom = Atom.make<LogFilter>(NO_FILTER)

/** The filter as the endpoint takes it. */
export const readFilter = (f: LogFilter): Requests.RequestFilter => ({
  ...(f.status === "" ? {} : { status: /^\d+$/.test(f.status) ? Number(f.status) : f.status as Requests.StatusFilter }),
  ...(f.caller === "" ? {} : { caller: f.caller as Requests.RequestFilter["caller"] }),
  ...(f.path.trim() === "" ? {} : { path: f.path.trim() }),
  ...(f.method === "" ? {} : { method: f.method })
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

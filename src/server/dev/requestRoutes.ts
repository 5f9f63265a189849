/**
 * `GET /_sitefx/requests`: the platform's request log (RequestLog), filtered, newest last; with `after`
 * and `wait` it is a live tail's long poll. Mounted with the other dev endpoints, behind their guard.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import type { CallerRole } from "../../http/wire.ts"
import { type RequestRecord, RequestsQuery, RequestsResponse } from "../../dev/wire/platform.ts"
import { type RequestEntry, type RequestFilter, RequestLog, REQUESTS_PATH } from "../platform/RequestLog.ts"
import { replyAsIs } from "../platform/responses.ts"
import { decode, query, route } from "../platform/routing.ts"

export const requestRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const log = yield* RequestLog
  return [
    route(
      "GET",
      REQUESTS_PATH,
      Effect.gen(function*() {
        const params = yield* query
        const given: Record<string, string> = {}
        for (const key of KEYS) {
          const value = params.get(key)
          if (value !== null) given[key] = value
        }
        const q = yield* decode(RequestsQuery, given)
        const followed = yield* log.follow(toFilter(q), (q.wait ?? 0) * 1000)
        return replyAsIs(RequestsResponse, { requests: followed.entries.map(toRecord), last: followed.last })
      })
    )
  ]
}))

const DEFAULT_LIMIT = 100

// the parameters read, each once (a repeated one counts as its first)
const KEYS = ["status", "caller", "path", "method", "after", "limit", "wait", "dev", "advice"] as const

/** `4xx` as 400–499, `404` as itself. */
const statusRange = (status: string): RequestFilter["status"] => {
  const hundreds = Number(status[0]) * 100
  return status.endsWith("xx") ? { from: hundreds, to: hundreds + 99 } : { from: Number(status), to: Number(status) }
}

/** `member` as every member, `member:<id>` as one. */
const callerOf = (caller: string): RequestFilter["caller"] => {
  const colon = caller.indexOf(":")
  return colon < 0 ? { kind: caller as CallerRole } : { kind: caller.slice(0, colon) as CallerRole, id: caller.slice(colon + 1) }
}

const toFilter = (q: RequestsQuery): RequestFilter => ({
  status: q.status === undefined ? undefined : statusRange(q.status),
  caller: q.caller === undefined ? undefined : callerOf(q.caller),
  path: q.path,
  method: q.method?.toUpperCase(),
  after: q.after,
  limit: q.limit ?? DEFAULT_LIMIT,
  dev: q.dev === "true",
  advice: q.advice === "true"
})

const toRecord = (e: RequestEntry): RequestRecord => ({
  seq: e.seq,
  time: new Date(e.at).toISOString(),
  method: e.method,
  path: e.path,
  status: e.status,
  durationMs: Math.round(e.durationMs * 100) / 100,
  caller: e.caller,
  ...(e.rule === undefined ? {} : { rule: e.rule }),
  ...(e.code === undefined ? {} : { code: e.code }),
  ...(e.advice === undefined ? {} : { advice: { ...e.advice, fields: [...e.advice.fields] } })
})

/**
 * Injected faults, to see how a client copes with an unreliable platform: requests under a path prefix
 * (of one method, when given), the next `count` of them or each with a seeded probability `rate`, meet
 * a status, a delay, a reset connection, a cut-short answer or a slow one. Checked in the request
 * pipeline (see App.ts), so every module gets them; dev endpoints are never faulted. A reset of the
 * database clears them.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { FaultRule } from "../../http/wire.ts"
import { Database } from "../platform/Database.ts"
import type { FaultKind, FaultRequest, PendingFault } from "../../dev/wire/platform.ts"
import { application, Reject } from "../platform/responses.ts"
import { seededRandom } from "../platform/seededRandom.ts"

/** A fault that fired for a request: what it asked for, and the rule the request log records. */
export interface FiredFault {
  readonly id: string
  readonly kind: FaultKind
  readonly request: FaultRequest
  /** The rule naming this fault, with the status the client got (0 for a reset connection). */
  readonly rule: (status: number) => typeof FaultRule.Type
}

export interface FaultsShape {
  /** Adds a fault after the others; it is checked after them. */
  readonly add: (fault: FaultRequest) => PendingFault
  readonly clear: () => void
  /** Removes one fault; false when no pending fault has this id. */
  readonly remove: (id: string) => boolean
  /** The faults still pending, in the order they were added. */
  readonly list: () => ReadonlyArray<PendingFault>
  /** The first pending fault that fires for this request (each matching fault draws once until one fires), used up by one. */
  readonly take: (path: string, method: string) => FiredFault | undefined
}

interface Stored {
  readonly id: string
  readonly request: FaultRequest
  readonly method: string | undefined
  readonly draw: (() => number) | undefined
  left: number | undefined
  hits: number
}

const describe = (request: FaultRequest, kind: FaultKind): string => {
  switch (kind) {
    case "status":
      return `answers ${request.status}`
    case "latency":
      return `delays it ${request.ms} ms`
    case "reset":
      return request.when === "after" ? "resets the connection after the route ran" : "resets the connection before the route runs"
    case "truncate":
      return "cuts its answer short"
    case "slow":
      return `sends its answer over ${request.ms} ms`
  }
}

/** The answer of a status fault: 429 is an application refusal; 5xx are system errors, which carry no code (their details hold the rule alone). */
export const statusAnswer = (fired: FiredFault): Reject => {
  const status = fired.request.status ?? 503
  const retryAfter = fired.request.retryAfter
  const headers = retryAfter === undefined ? {} : { headers: { "retry-after": String(retryAfter) } }
  const rule = fired.rule(status)
  if (status === 429) {
    const reject = application(429, "TOO_MANY_REQUESTS", "Too many requests").because(rule)
    return new Reject({ status: 429, body: reject.body, ...headers })
  }
  return new Reject({ status, body: { message: "The service is temporarily unavailable", details: { rule } }, ...headers })
}

export class Faults extends Context.Service<Faults, FaultsShape>()("sitefx/server/Faults") {
  static readonly layer: Layer.Layer<Faults, never, Database> = Layer.effect(
    Faults,
    Effect.gen(function*() {
      const db = yield* Database
      let pending: Array<Stored> = []
      let nextId = 1
      db.onReset(() => {
        pending = []
      })

      const view = (f: Stored): PendingFault => {
        const { count: _, ...asked } = f.request
        return { id: f.id, ...asked, ...(f.left === undefined ? {} : { count: f.left }), hits: f.hits }
      }

      const fires = (f: Stored, path: string, method: string): boolean =>
        path.startsWith(f.request.path) && (f.method === undefined || f.method === method) && (f.draw === undefined || f.draw() < f.request.rate!)

      return Faults.of({
        add: (request) => {
          const stored: Stored = {
            id: String(nextId++),
            request,
            method: request.method?.toUpperCase(),
            draw: request.rate === undefined ? undefined : seededRandom(request.seed ?? 1),
            left: request.count,
            hits: 0
          }
          pending.push(stored)
          return view(stored)
        },
        clear: () => {
          pending = []
        },
        remove: (id) => {
          const before = pending.length
          pending = pending.filter((f) => f.id !== id)
          return pending.length < before
        },
        list: () => pending.map(view),
        take: (path, method) => {
          const fault = pending.find((f) => fires(f, path, method.toUpperCase()))
          if (fault === undefined) return undefined
          fault.hits += 1
          if (fault.left !== undefined) {
            fault.left -= 1
            if (fault.left <= 0) pending = pending.filter((f) => f !== fault)
          }
          const kind = fault.request.kind ?? "status"
          const message = `A fault injected for ${fault.request.path} ${describe(fault.request, kind)}`
          return {
            id: fault.id,
            kind,
            request: fault.request,
            rule: (status) => ({ kind: "fault", id: "dev.fault", message, path: fault.request.path, status, fault: kind, faultId: fault.id })
          }
        }
      })
    })
  )
}

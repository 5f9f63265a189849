/**
 * Injected faults for client retry tests: the next `count` requests whose path starts with a prefix
 * answer a transient status (429, 502, 503, 504) instead of reaching their route, so nothing changes.
 * Checked in the request pipeline, so every module gets it; dev endpoints are never faulted.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../platform/Database.ts"
import type { FaultRequest, PendingFault } from "../platform/devWire.ts"
import { application, Reject } from "../platform/responses.ts"

export interface FaultsShape {
  readonly add: (fault: FaultRequest) => void
  readonly clear: () => void
  /** The faults still pending, in the order they were added, each with the requests it has left to fault. */
  readonly list: () => ReadonlyArray<PendingFault>
  /** The refusal for this path when a fault is pending for it (and uses one up); its rule is the fault. */
  readonly take: (path: string) => Reject | undefined
}

export class Faults extends Context.Service<Faults, FaultsShape>()("sitefx/server/Faults") {
  static readonly layer: Layer.Layer<Faults, never, Database> = Layer.effect(
    Faults,
    Effect.gen(function*() {
      const db = yield* Database
      let pending: Array<{ path: string; status: FaultRequest["status"]; left: number; retryAfter: number | undefined }> = []
      db.onReset(() => {
        pending = []
      })
      return Faults.of({
        add: (fault) => {
          pending.push({ path: fault.path, status: fault.status, left: fault.count, retryAfter: fault.retryAfter })
        },
        clear: () => {
          pending = []
        },
        list: () =>
          pending.map((f) => ({ path: f.path, status: f.status, count: f.left, ...(f.retryAfter === undefined ? {} : { retryAfter: f.retryAfter }) })),
        take: (path) => {
          const fault = pending.find((f) => path.startsWith(f.path))
          if (fault === undefined) return undefined
          fault.left -= 1
          if (fault.left <= 0) pending = pending.filter((f) => f !== fault)
          const headers = fault.retryAfter === undefined ? {} : { headers: { "retry-after": String(fault.retryAfter) } }
          const rule = {
            kind: "fault",
            id: "dev.fault",
            message: `A fault injected for ${fault.path} answers ${fault.status}`,
            path: fault.path,
            status: fault.status
          } as const
          // 429 is an application refusal; 5xx are system errors, which carry no code (their details hold the rule alone)
          if (fault.status === 429) {
            const reject = application(429, "TOO_MANY_REQUESTS", "Too many requests").because(rule)
            return new Reject({ status: 429, body: reject.body, ...headers })
          }
          return new Reject({ status: fault.status, body: { message: "The service is temporarily unavailable", details: { rule } }, ...headers })
        }
      })
    })
  )
}

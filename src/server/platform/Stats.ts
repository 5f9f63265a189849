/**
 * Counters the dev endpoints expose, so tests can prove how many calls reached the platform (for
 * example that many concurrent client calls caused exactly one token refresh).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "./Database.ts"

export const GRANTS = ["anonymous", "refresh_token", "authorization_code", "authorized_client"] as const
export type GrantName = typeof GRANTS[number]

export interface StatsSnapshot {
  readonly tokenRequests: Record<GrantName, number>
  readonly requests: number
}

export interface StatsShape {
  readonly tokenRequest: (grant: GrantName) => void
  readonly request: () => void
  readonly snapshot: () => StatsSnapshot
}

export class Stats extends Context.Service<Stats, StatsShape>()("sitefx/server/Stats") {
  static readonly layer: Layer.Layer<Stats, never, Database> = Layer.effect(
    Stats,
    Effect.gen(function*() {
      const db = yield* Database
      const empty = () => ({ anonymous: 0, refresh_token: 0, authorization_code: 0, authorized_client: 0 })
      let tokenRequests: Record<GrantName, number> = empty()
      let requests = 0
      db.onReset(() => {
        tokenRequests = empty()
        requests = 0
      })
      return Stats.of({
        tokenRequest: (grant) => {
          tokenRequests[grant] += 1
        },
        request: () => {
          requests += 1
        },
        snapshot: () => ({ tokenRequests: { ...tokenRequests }, requests })
      })
    })
  )
}

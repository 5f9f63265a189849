/**
 * Redirect sessions: what a client asked for (an authorization, a logout, a visitor pre-warm, a checkout) and who
 * asked, kept behind a random id that the session's page URL carries.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import type { AuthRequest, Prompt } from "../../session/wire/index.ts"
import { Database } from "../platform/Database.ts"
import { ServerClock } from "../platform/ServerClock.ts"

/** How long a redirect session's URL stays usable. */
export const REDIRECT_SESSION_SECONDS = 30 * 60

export type RedirectRequest =
  | { readonly kind: "auth"; readonly authRequest: AuthRequest; readonly prompt: Prompt }
  | { readonly kind: "logout"; readonly clientId: string; readonly postFlowUrl: string | undefined }
  | { readonly kind: "login" }
  /** The hosted checkout of a checkout; the callbacks were checked against the client's origins. */
  | {
    readonly kind: "ecomCheckout"
    readonly checkoutId: string
    readonly postFlowUrl: string | undefined
    readonly thankYouPageUrl: string | undefined
  }

export interface RedirectSessionRecord<R extends RedirectRequest = RedirectRequest> {
  readonly id: string
  readonly request: R
  /** Who created the session. */
  readonly role: "visitor" | "member"
  readonly subject: string
  readonly completed: boolean
}

export interface RedirectSessionsShape {
  readonly create: (request: RedirectRequest, caller: { readonly kind: "visitor" | "member"; readonly id: string }) => string
  /** A live (unexpired) session of the given kind. */
  readonly load: <K extends RedirectRequest["kind"]>(
    kind: K,
    id: string | null
  ) => RedirectSessionRecord<Extract<RedirectRequest, { kind: K }>> | undefined
  readonly complete: (id: string) => void
}

export class RedirectSessions extends Context.Service<RedirectSessions, RedirectSessionsShape>()(
  "sitefx/server/RedirectSessions"
) {
  static readonly layer: Layer.Layer<RedirectSessions, never, Database | ServerClock> = Layer.effect(
    RedirectSessions,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      db.migrate(
        "redirect-sessions/1",
        `CREATE TABLE redirect_sessions (
          id TEXT PRIMARY KEY,
          request TEXT NOT NULL,
          role TEXT NOT NULL,
          subject TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          completed_at INTEGER
        )`
      )
      return RedirectSessions.of({
        create: (request, caller) => {
          const id = randomUUID()
          const now = clock.millis()
          db.run(
            "INSERT INTO redirect_sessions (id, request, role, subject, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
            id,
            JSON.stringify(request),
            caller.kind,
            caller.id,
            now,
            now + REDIRECT_SESSION_SECONDS * 1000
          )
          return id
        },
        load: <K extends RedirectRequest["kind"]>(kind: K, id: string | null) => {
          if (id === null) return undefined
          const row = db.get("SELECT * FROM redirect_sessions WHERE id = ? AND expires_at > ?", id, clock.millis())
          if (row === undefined) return undefined
          const request = JSON.parse(String(row.request)) as RedirectRequest
          if (request.kind !== kind) return undefined
          return {
            id: String(row.id),
            request: request as Extract<RedirectRequest, { kind: K }>,
            role: row.role as "visitor" | "member",
            subject: String(row.subject),
            completed: row.completed_at !== null
          }
        },
        complete: (id) => {
          db.run("UPDATE redirect_sessions SET completed_at = ? WHERE id = ?", clock.millis(), id)
        }
      })
    })
  )
}

/**
 * Refresh tokens: random and opaque, stored as digests, bound to one client and one subject (a visitor
 * or a member). They do not expire; they are revoked on logout and when a member's password changes.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../platform/Database.ts"
import { digest, opaqueToken } from "../platform/secrets.ts"
import { ServerClock } from "../platform/ServerClock.ts"
import type { AccessRole } from "./tokens.ts"

export interface RefreshGrant {
  readonly clientId: string
  readonly role: AccessRole
  readonly subject: string
}

export interface RefreshTokensShape {
  readonly issue: (grant: RefreshGrant) => string
  /** The grant of a live (unrevoked) token. */
  readonly find: (token: string) => RefreshGrant | undefined
  /** Revokes every live token of a subject, for one client or all; returns how many. */
  readonly revoke: (role: AccessRole, subject: string, clientId?: string) => number
}

export class RefreshTokens extends Context.Service<RefreshTokens, RefreshTokensShape>()("sitefx/server/RefreshTokens") {
  static readonly layer: Layer.Layer<RefreshTokens, never, Database | ServerClock> = Layer.effect(
    RefreshTokens,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      db.migrate(
        "refresh-tokens/1",
        `CREATE TABLE refresh_tokens (
          digest TEXT PRIMARY KEY,
          client_id TEXT NOT NULL,
          role TEXT NOT NULL,
          subject TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          revoked_at INTEGER
        );
        CREATE INDEX refresh_tokens_subject ON refresh_tokens (subject, client_id);`
      )
      return RefreshTokens.of({
        issue: (grant) => {
          const token = opaqueToken("sfxrt")
          db.run(
            "INSERT INTO refresh_tokens (digest, client_id, role, subject, created_at) VALUES (?, ?, ?, ?, ?)",
            digest(token),
            grant.clientId,
            grant.role,
            grant.subject,
            clock.millis()
          )
          return token
        },
        find: (token) => {
          const row = db.get("SELECT * FROM refresh_tokens WHERE digest = ? AND revoked_at IS NULL", digest(token))
          return row === undefined
            ? undefined
            : { clientId: String(row.client_id), role: row.role as AccessRole, subject: String(row.subject) }
        },
        revoke: (role, subject, clientId) =>
          clientId === undefined
            ? db.run(
              "UPDATE refresh_tokens SET revoked_at = ? WHERE role = ? AND subject = ? AND revoked_at IS NULL",
              clock.millis(),
              role,
              subject
            )
            : db.run(
              "UPDATE refresh_tokens SET revoked_at = ? WHERE role = ? AND subject = ? AND client_id = ? AND revoked_at IS NULL",
              clock.millis(),
              role,
              subject,
              clientId
            )
      })
    })
  )
}

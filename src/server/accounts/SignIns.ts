/**
 * Sign-ins from a visitor's session: when a member's tokens come from a flow a visitor started (the
 * redirect session of a login, an external login acting for a visitor), the visitor's id is handed over
 * to the member here. What a visitor kept before signing in (their current cart) follows them: the
 * module that keeps it asks which visitors became a member, takes their things over, and forgets the
 * hand-over. Nothing is lost when no module asks.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../platform/Database.ts"
import { ServerClock } from "../platform/ServerClock.ts"

export interface SignInsShape {
  /** The visitor signed in as the member (a later sign-in of the same visitor wins). */
  readonly record: (visitorId: string, memberId: string) => void
  /** The visitors who signed in as the member and were not taken over yet, oldest first. */
  readonly visitorsOf: (memberId: string) => ReadonlyArray<string>
  /** The visitor's hand-over is done. */
  readonly forget: (visitorId: string) => void
}

export class SignIns extends Context.Service<SignIns, SignInsShape>()("sitefx/server/SignIns") {
  static readonly layer: Layer.Layer<SignIns, never, Database | ServerClock> = Layer.effect(
    SignIns,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      db.migrate(
        "sign-ins/1",
        `CREATE TABLE account_sign_ins (
          visitor_id TEXT PRIMARY KEY,
          member_id TEXT NOT NULL,
          at INTEGER NOT NULL
        );
        CREATE INDEX account_sign_ins_member ON account_sign_ins (member_id);`
      )
      return SignIns.of({
        record: (visitorId, memberId) => {
          db.run(
            "INSERT INTO account_sign_ins (visitor_id, member_id, at) VALUES (?, ?, ?) ON CONFLICT (visitor_id) DO UPDATE SET member_id = excluded.member_id, at = excluded.at",
            visitorId,
            memberId,
            clock.millis()
          )
        },
        visitorsOf: (memberId) =>
          db.all("SELECT visitor_id FROM account_sign_ins WHERE member_id = ? ORDER BY at, visitor_id", memberId).map((r) => String(r.visitor_id)),
        forget: (visitorId) => {
          db.run("DELETE FROM account_sign_ins WHERE visitor_id = ?", visitorId)
        }
      })
    })
  )
}

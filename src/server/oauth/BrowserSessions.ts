/**
 * The member session a browser holds with the platform's own pages (the authorize page's login form
 * sets it as an HttpOnly cookie), so a later authorize request can complete without a new login.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { Database } from "../platform/Database.ts"
import { digest, opaqueToken } from "../platform/secrets.ts"
import { ServerClock } from "../platform/ServerClock.ts"

export const MEMBER_COOKIE = "sfx_member"
export const VISITOR_COOKIE = "sfx_visitor"
export const BROWSER_SESSION_SECONDS = 7 * 24 * 60 * 60

export interface BrowserSessionsShape {
  readonly open: (memberId: string) => string
  /** The member of a live session. */
  readonly member: (cookie: string) => string | undefined
  readonly close: (cookie: string) => void
}

export class BrowserSessions extends Context.Service<BrowserSessions, BrowserSessionsShape>()(
  "sitefx/server/BrowserSessions"
) {
  static readonly layer: Layer.Layer<BrowserSessions, never, Database | ServerClock> = Layer.effect(
    BrowserSessions,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      db.migrate(
        "browser-sessions/1",
        `CREATE TABLE browser_sessions (
          digest TEXT PRIMARY KEY, member_id TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL
        )`
      )
      return BrowserSessions.of({
        open: (memberId) => {
          const cookie = opaqueToken("sfxbs")
          const now = clock.millis()
          db.run(
            "INSERT INTO browser_sessions (digest, member_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
            digest(cookie),
            memberId,
            now,
            now + BROWSER_SESSION_SECONDS * 1000
          )
          return cookie
        },
        member: (cookie) => {
          const row = db.get(
            "SELECT member_id FROM browser_sessions WHERE digest = ? AND expires_at > ?",
            digest(cookie),
            clock.millis()
          )
          return row === undefined ? undefined : String(row.member_id)
        },
        close: (cookie) => {
          db.run("DELETE FROM browser_sessions WHERE digest = ?", digest(cookie))
        }
      })
    })
  )
}

/** Sets the member session cookie (HttpOnly, whole site, first-party navigations only). */
export const withMemberCookie = (response: HttpServerResponse.HttpServerResponse, value: string) =>
  HttpServerResponse.setCookie(response, MEMBER_COOKIE, value, {
    httpOnly: true,
    path: "/",
    sameSite: "lax",
    maxAge: `${BROWSER_SESSION_SECONDS} seconds`
  }).pipe(Effect.orDie)

export const withoutMemberCookie = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.expireCookie(response, MEMBER_COOKIE, { httpOnly: true, path: "/", sameSite: "lax" }).pipe(
    Effect.orDie
  )

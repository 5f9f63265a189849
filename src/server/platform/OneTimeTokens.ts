/**
 * Short-lived single-use secrets: authorization codes, session tokens (proof of a fresh login), state
 * tokens (a login waiting for a second step), recovery and activation tokens, captcha tokens. Only a
 * digest is stored; a token can be looked at without using it, so a refused request changes nothing.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "./Database.ts"
import { digest, opaqueToken } from "./secrets.ts"
import { ServerClock } from "./ServerClock.ts"

export type Purpose = "code" | "session" | "state" | "recovery" | "captcha"

const PREFIX: Record<Purpose, string> = {
  code: "sfxcode",
  session: "sfxsess",
  state: "sfxstate",
  recovery: "sfxrec",
  captcha: "sfxcap"
}

export interface OneTimeToken<D> {
  readonly digest: string
  readonly subject: string
  readonly data: D
  readonly expiresAt: number
  readonly attempts: number
}

export interface OneTimeTokensShape {
  /** Mints a token for `subject`, valid for `ttlSeconds` of server time. */
  readonly issue: <D>(purpose: Purpose, subject: string, ttlSeconds: number, data: D) => string
  /** The live (unused, unexpired) token, without using it. */
  readonly peek: <D>(purpose: Purpose, token: string) => OneTimeToken<D> | undefined
  /** Uses a live token; undefined when it was not live. */
  readonly consume: <D>(purpose: Purpose, token: string) => OneTimeToken<D> | undefined
  /** Counts a failed attempt; after `limit` the token is dead. Returns the new count. */
  readonly failAttempt: (purpose: Purpose, token: string, limit: number) => number
}

export class OneTimeTokens extends Context.Service<OneTimeTokens, OneTimeTokensShape>()("sitefx/server/OneTimeTokens") {
  static readonly layer: Layer.Layer<OneTimeTokens, never, Database | ServerClock> = Layer.effect(
    OneTimeTokens,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      db.migrate(
        "one-time-tokens/1",
        `CREATE TABLE one_time_tokens (
          digest TEXT PRIMARY KEY,
          purpose TEXT NOT NULL,
          subject TEXT NOT NULL,
          data TEXT NOT NULL,
          expires_at INTEGER NOT NULL,
          used_at INTEGER,
          attempts INTEGER NOT NULL DEFAULT 0
        )`
      )
      const peek = <D>(purpose: Purpose, token: string): OneTimeToken<D> | undefined => {
        const row = db.get(
          "SELECT * FROM one_time_tokens WHERE digest = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?",
          digest(token),
          purpose,
          clock.millis()
        )
        if (row === undefined) return undefined
        return {
          digest: String(row.digest),
          subject: String(row.subject),
          data: JSON.parse(String(row.data)) as D,
          expiresAt: Number(row.expires_at),
          attempts: Number(row.attempts)
        }
      }
      return OneTimeTokens.of({
        issue: (purpose, subject, ttlSeconds, data) => {
          const token = opaqueToken(PREFIX[purpose])
          db.run(
            "INSERT INTO one_time_tokens (digest, purpose, subject, data, expires_at) VALUES (?, ?, ?, ?, ?)",
            digest(token),
            purpose,
            subject,
            JSON.stringify(data),
            clock.millis() + ttlSeconds * 1000
          )
          return token
        },
        peek,
        consume: <D>(purpose: Purpose, token: string) =>
          db.transaction(() => {
            const live = peek<D>(purpose, token)
            if (live !== undefined) db.run("UPDATE one_time_tokens SET used_at = ? WHERE digest = ?", clock.millis(), live.digest)
            return live
          }),
        failAttempt: (purpose, token, limit) =>
          db.transaction(() => {
            const live = peek(purpose, token)
            if (live === undefined) return limit
            const attempts = live.attempts + 1
            db.run(
              "UPDATE one_time_tokens SET attempts = ?, used_at = CASE WHEN ? >= ? THEN ? ELSE used_at END WHERE digest = ?",
              attempts,
              attempts,
              limit,
              clock.millis(),
              live.digest
            )
            return attempts
          })
      })
    })
  )
}

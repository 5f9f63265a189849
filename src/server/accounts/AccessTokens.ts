/**
 * Mints and checks access tokens with the database's current signing secret, the site's token
 * lifetime setting and the server clock.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../platform/Database.ts"
import { ServerClock } from "../platform/ServerClock.ts"
import { Settings } from "../platform/Settings.ts"
import { type AccessClaims, type AccessRole, signAccessToken, verifyAccessToken, type VerifyFailure } from "./tokens.ts"

export interface AccessTokensShape {
  readonly issue: (subject: { readonly sub: string; readonly role: AccessRole; readonly clientId: string }) => {
    readonly token: string
    readonly expiresIn: number
  }
  readonly verify: (
    token: string
  ) => { readonly ok: true; readonly claims: AccessClaims } | { readonly ok: false; readonly reason: VerifyFailure }
}

export class AccessTokens extends Context.Service<AccessTokens, AccessTokensShape>()("sitefx/server/AccessTokens") {
  static readonly layer: Layer.Layer<AccessTokens, never, Database | ServerClock | Settings> = Layer.effect(
    AccessTokens,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const settings = yield* Settings
      return AccessTokens.of({
        issue: (subject) => {
          const ttl = settings.get().accessTokenTtlSeconds
          const { token } = signAccessToken(db.instance().tokenSecret, subject, clock.seconds(), ttl)
          return { token, expiresIn: ttl }
        },
        verify: (token) => verifyAccessToken(db.instance().tokenSecret, token, clock.seconds())
      })
    })
  )
}

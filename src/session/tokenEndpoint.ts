/**
 * The token endpoint as the session's parts call it: one POST to `/oauth2/token` on the API host, its
 * answer checked, and turned into the token set the client keeps. No Schema, no OAuth error: the token
 * service's path in a browser page.
 */
import * as Effect from "effect/Effect"
import { checkBody } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { TokenResponse } from "./guards/tokens.ts"
import { Paths } from "./protocol.ts"
import type { TokenResponse as TokenAnswer, TokenRole, Tokens } from "./wire/tokens.ts"

/**
 * The time in epoch seconds, the unit of `expiresAt`. Read from `Date` rather than effect/Clock: the
 * Clock service brings effect/Duration (about 2 KB gzip) into every page that holds a session.
 */
export const nowSeconds = Effect.sync(() => Math.floor(Date.now() / 1000))

/** The access token is missing or its expiry has passed (the same rule the platform's own client uses). */
export const isExpired = (tokens: Tokens, now: number): boolean =>
  tokens.accessToken.value === "" || tokens.accessToken.expiresAt < now

/** The token set of an answer; a refresh keeps the refresh token it was made with. */
export const tokensFrom = (response: TokenAnswer, role: TokenRole, now: number, keepRefresh?: string): Tokens => ({
  accessToken: { value: response.access_token, expiresAt: now + Number(response.expires_in) },
  refreshToken: { value: keepRefresh ?? response.refresh_token, role }
})

/** One grant at the token endpoint; only grants that may be sent twice (anonymous, refresh) are retried. */
export const tokenCall = (
  http: PlatformHttp["Service"],
  payload: Record<string, unknown>,
  extra: { readonly idempotent: boolean; readonly headers?: Record<string, string> }
): Effect.Effect<TokenAnswer, PlatformError> => {
  const req: PlatformRequest = {
    method: "POST",
    path: Paths.token,
    host: "api",
    payload,
    idempotent: extra.idempotent,
    ...(extra.headers === undefined ? {} : { headers: extra.headers })
  }
  return Effect.flatMap(http.send(req), (res) => checkBody(req, res, TokenResponse))
}

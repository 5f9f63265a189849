/**
 * The authorization-code grant both flows use: a redirect session for an authorize request with PKCE,
 * and the exchange of the code for member tokens. Also the token endpoint's failure as an OAuthError,
 * with the text the platform's own client reports.
 */
import * as Effect from "effect/Effect"
import { checkBody } from "../http/answer.ts"
import { authorized } from "../http/authorized.ts"
import type { PlatformAuthShape } from "../http/PlatformAuth.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import type { Guard } from "../http/guard.ts"
import { RedirectSessionResponse } from "./guards/redirects.ts"
import { OAuthError, TokenRequestFailed } from "./OAuthError.ts"
import { Paths } from "./protocol.ts"
import type { SessionTokensShape } from "./SessionTokens.ts"
import { nowSeconds, tokenCall, tokensFrom } from "./tokenEndpoint.ts"
import type { Prompt, RedirectSessionRequest, ResponseMode } from "./wire/redirects.ts"

/** The token endpoint's failure text, the same as the platform's own client reports it. */
export const tokenFailureMessage = (error: PlatformError): string => {
  const r = error.reason
  if (r._tag === "TransportError") return `Failed to fetch tokens from OAuth API: ${r.message}`
  const body = r._tag === "SystemError" ? { message: r.message } : r._tag === "ApplicationError"
    ? { message: r.message, details: { applicationError: { code: r.code, description: r.description, data: r.data } } }
    : { message: r.message, details: { validationError: { fieldViolations: r.fieldViolations } } }
  return `Failed to fetch tokens from OAuth API: ${r.message}. request id: ${r.requestId ?? null}. Response: ${JSON.stringify(body)}`
}

export const toOAuthError = (error: PlatformError) =>
  new OAuthError({ reason: new TokenRequestFailed({ message: tokenFailureMessage(error) }), cause: error })

/** A POST of the session's own (identity, redirects): on the API host whatever the CDN setting. */
export const apiCall = (http: PlatformHttp["Service"], auth: PlatformAuthShape) => {
  const apiAuth: PlatformAuthShape = { ...auth, host: "api" }
  return <A>(path: string, payload: Record<string, unknown>, guard: Guard<A>): Effect.Effect<A, PlatformError> => {
    const req = { method: "POST" as const, path, payload }
    return authorized(http, apiAuth, req).pipe(Effect.flatMap((res) => checkBody(req, res, guard)))
  }
}

export type ApiCall = ReturnType<typeof apiCall>

export const createRedirectSession = (call: ApiCall, payload: RedirectSessionRequest) =>
  Effect.map(call(Paths.redirectSession, payload as Record<string, unknown>, RedirectSessionResponse), (r) => r.redirectSession)

export const authRequest = (
  clientId: string,
  pkce: { readonly codeChallenge: string; readonly state: string },
  opts: {
    readonly redirectUri: string | undefined
    readonly responseMode: ResponseMode
    readonly prompt: Prompt
    readonly sessionToken?: string | undefined
    readonly idp?: string | undefined
  }
): RedirectSessionRequest => ({
  auth: {
    authRequest: {
      ...(opts.redirectUri === undefined ? {} : { redirectUri: opts.redirectUri }),
      clientId,
      codeChallenge: pkce.codeChallenge,
      codeChallengeMethod: "S256",
      responseMode: opts.responseMode,
      responseType: "code",
      scope: "offline_access",
      state: pkce.state,
      ...(opts.sessionToken === undefined ? {} : { sessionToken: opts.sessionToken }),
      ...(opts.idp === undefined ? {} : { idp: opts.idp })
    },
    prompt: opts.prompt
  }
})

/** Exchanges an authorization code for member tokens and stores them. */
export const exchangeCode = (
  http: PlatformHttp["Service"],
  tokens: SessionTokensShape,
  code: string,
  data: { readonly codeVerifier: string; readonly redirectUri: string | undefined }
) =>
  Effect.gen(function*() {
    const response = yield* tokenCall(http, {
      clientId: tokens.clientId,
      grantType: "authorization_code",
      ...(data.redirectUri === undefined || data.redirectUri === "" ? {} : { redirectUri: data.redirectUri }),
      code,
      codeVerifier: data.codeVerifier
    }, { idempotent: false }).pipe(Effect.mapError(toOAuthError))
    const member = tokensFrom(response, "member", yield* nowSeconds)
    yield* tokens.setTokens(member)
    return member
  })

/**
 * The OAuth token endpoint: anonymous visitors, refreshes (the same refresh token comes back),
 * authorization codes with PKCE, and external login for apps holding an API key.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { createHash, randomUUID } from "node:crypto"
import {
  AnonymousGrant,
  AuthorizationCodeGrant,
  AuthorizedClientGrant,
  Paths,
  RefreshGrant,
  TokenResponse
} from "../../session/wire/index.ts"
import { AccessTokens } from "../accounts/AccessTokens.ts"
import { Callers } from "../accounts/Callers.ts"
import { MemberStore } from "../accounts/MemberStore.ts"
import { OneTimeTokens } from "../platform/OneTimeTokens.ts"
import { RefreshTokens } from "../accounts/RefreshTokens.ts"
import { SignIns } from "../accounts/SignIns.ts"
import { application, type Reject, reply, unauthorized } from "../platform/responses.ts"
import { decode, header, jsonBody, route } from "../platform/routing.ts"
import { SiteRegistry } from "../platform/SiteRegistry.ts"
import { Stats } from "../platform/Stats.ts"
import type { AccessRole } from "../accounts/tokens.ts"

export const tokenRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const site = yield* SiteRegistry
  const accessTokens = yield* AccessTokens
  const refreshTokens = yield* RefreshTokens
  const oneTime = yield* OneTimeTokens
  const members = yield* MemberStore
  const callers = yield* Callers
  const stats = yield* Stats
  const signIns = yield* SignIns

  const issue = (subject: { readonly role: AccessRole; readonly sub: string; readonly clientId: string }, refreshToken?: string) => {
    const access = accessTokens.issue(subject)
    return reply(TokenResponse, {
      access_token: access.token,
      expires_in: access.expiresIn,
      refresh_token: refreshToken ??
        refreshTokens.issue({ clientId: subject.clientId, role: subject.role, subject: subject.sub }),
      token_type: "Bearer",
      ...(subject.role === "member" ? { scope: "offline_access" } : {})
    })
  }

  const knownClient = (clientId: string): Effect.Effect<string, Reject> =>
    site.client(clientId) === undefined ? Effect.fail(invalidClient()) : Effect.succeed(clientId)

  /** A member who may hold tokens: exists and is not blocked. */
  const activeMember = (memberId: string): Effect.Effect<string, Reject> => {
    const member = members.byId(memberId)
    if (member === undefined) return Effect.fail(invalidGrant("The member does not exist"))
    if (member.status === "BLOCKED") return Effect.fail(application(403, "access_denied", "The member is blocked").because({ kind: "permission", id: "identity.member.blocked" }))
    return Effect.succeed(member.id)
  }

  const anonymous = (input: unknown) =>
    Effect.gen(function*() {
      const grant = yield* decode(AnonymousGrant, input)
      const clientId = yield* knownClient(grant.clientId)
      return issue({ role: "visitor", sub: randomUUID(), clientId })
    })

  const refresh = (input: unknown) =>
    Effect.gen(function*() {
      const grant = yield* decode(RefreshGrant, input)
      const clientId = yield* knownClient(grant.clientId)
      const found = refreshTokens.find(grant.refreshToken)
      if (found === undefined) return yield* invalidGrant("The refresh token is unknown or revoked")
      if (found.clientId !== clientId) return yield* invalidGrant("The refresh token belongs to another client")
      if (found.role === "member") yield* activeMember(found.subject)
      return issue({ role: found.role, sub: found.subject, clientId }, grant.refreshToken)
    })

  const authorizationCode = (input: unknown) =>
    Effect.gen(function*() {
      const grant = yield* decode(AuthorizationCodeGrant, input)
      const clientId = yield* knownClient(grant.clientId)
      const code = oneTime.peek<CodeBinding>("code", grant.code)
      if (code === undefined) return yield* invalidGrant("The authorization code is unknown, used or expired")
      const binding = code.data
      if (binding.clientId !== clientId) return yield* invalidGrant("The authorization code belongs to another client")
      if (!VERIFIER.test(grant.codeVerifier) || s256(grant.codeVerifier) !== binding.codeChallenge) {
        return yield* invalidGrant("The code verifier does not match the code challenge")
      }
      if (binding.redirectUri !== undefined && binding.redirectUri !== grant.redirectUri) {
        return yield* invalidGrant("The redirect URI does not match the authorization request")
      }
      const memberId = yield* activeMember(code.subject)
      if (oneTime.consume("code", grant.code) === undefined) {
        return yield* invalidGrant("The authorization code is unknown, used or expired")
      }
      if (binding.visitorId !== undefined) signIns.record(binding.visitorId, memberId)
      return issue({ role: "member", sub: memberId, clientId })
    })

  const authorizedClient = (input: unknown) =>
    Effect.gen(function*() {
      const caller = yield* callers.resolve(yield* header("authorization"), yield* header("wix-site-id"))
      if (caller.kind !== "admin") return yield* unauthorized("External login needs an API key", "unauthorized_client")
          .because({ kind: "authentication", id: "auth.api-key.required", required: "ADMIN", caller: caller.kind })
      const grant = yield* decode(AuthorizedClientGrant, input)
      const memberId = yield* activeMember(grant.member_id)
      if (grant.session_token !== undefined) {
        const session = oneTime.peek("session", grant.session_token)
        if (session === undefined || session.subject !== memberId) {
          return yield* invalidGrant("The session token is unknown, used, expired or for another member")
        }
      }
      const clientId = caller.session?.clientId ?? site.defaultClient()?.id
      if (clientId === undefined) return yield* invalidClient()
      if (grant.session_token !== undefined && oneTime.consume("session", grant.session_token) === undefined) {
        return yield* invalidGrant("The session token is unknown, used, expired or for another member")
      }
      if (caller.session?.kind === "visitor") signIns.record(caller.session.id, memberId)
      return issue({ role: "member", sub: memberId, clientId })
    })

  const token = Effect.gen(function*() {
    const input = yield* jsonBody
    const fields = typeof input === "object" && input !== null ? input as Record<string, unknown> : {}
    const grantType = fields.grantType ?? fields.grant_type
    switch (grantType) {
      case "anonymous":
        stats.tokenRequest("anonymous")
        return yield* anonymous(input)
      case "refresh_token":
        stats.tokenRequest("refresh_token")
        return yield* refresh(input)
      case "authorization_code":
        stats.tokenRequest("authorization_code")
        return yield* authorizationCode(input)
      case "authorized_client":
        stats.tokenRequest("authorized_client")
        return yield* authorizedClient(input)
      default:
        return yield* application(400, "unsupported_grant_type", `Unsupported grant type: ${String(grantType)}`)
    }
  })

  return [route("POST", Paths.token, token)]
}))

/** What an authorization code is bound to. */
export interface CodeBinding {
  readonly clientId: string
  readonly codeChallenge: string
  readonly redirectUri: string | undefined
  /** The visitor whose session started the login, when a visitor's did. */
  readonly visitorId?: string | undefined
}

export const CODE_SECONDS = 10 * 60

const invalidGrant = (description: string) => application(400, "invalid_grant", description)

const invalidClient = () => application(400, "invalid_client", "Unknown client id")

/** base64url(SHA-256(verifier)), the S256 challenge. */
export const s256 = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url")

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

/**
 * Redirect sessions (`POST /_api/redirects-api/v1/redirect-session`) and the pages they lead to,
 * except the authorize page (authorizeRoutes.ts) and the checkout page (the ecom module's): the logout
 * page, the visitor pre-warm page, and the server-side logout call.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { CHECKOUT_PAGE_PATH } from "../../ecom/checkoutProtocol.ts"
import type { FieldViolation } from "../../http/wire.ts"
import { type AuthRequest, Paths, RedirectSessionRequest, RedirectSessionResponse } from "../../session/wire/index.ts"
import { AUTHORIZE_PATH } from "./authorizeRoutes.ts"
import { BrowserSessions, MEMBER_COOKIE, VISITOR_COOKIE, withoutMemberCookie } from "./BrowserSessions.ts"
import { Callers } from "../accounts/Callers.ts"
import { Database } from "../platform/Database.ts"
import { urlAllowed } from "../platform/origins.ts"
import { blankPage, html, messagePage, PAGE_HEADERS } from "./pages.ts"
import { type RedirectRequest, RedirectSessions } from "./RedirectSessions.ts"
import { RefreshTokens } from "../accounts/RefreshTokens.ts"
import { invalidField, reply, replyEmpty, validation } from "../platform/responses.ts"
import { body, query, requestOrigin, route } from "../platform/routing.ts"
import { derive } from "../platform/secrets.ts"
import { SiteRegistry } from "../platform/SiteRegistry.ts"

export const LOGOUT_PAGE_PATH = "/oauth2/logout"

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
export const PREWARM_PATH = "/oauth2/session"

export const redirectRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const db = yield* Database
  const callers = yield* Callers
  const site = yield* SiteRegistry
  const refreshTokens = yield* RefreshTokens
  const browserSessions = yield* BrowserSessions
  const sessions = yield* RedirectSessions

  const validateAuth = (authRequest: AuthRequest): ReadonlyArray<FieldViolation> => {
    const violations: Array<FieldViolation> = []
    const at = (field: string, description: string) =>
      violations.push({ field: `auth.authRequest.${field}`, description, violatedRule: "OTHER", data: {} })
    const client = site.client(authRequest.clientId)
    if (client === undefined) at("clientId", "Unknown client id")
    if (!/^[A-Za-z0-9_-]{43}$/.test(authRequest.codeChallenge)) {
      at("codeChallenge", "The code challenge must be the base64url SHA-256 of the code verifier")
    }
    if (authRequest.state.trim() === "") at("state", "A state is required")
    if (authRequest.redirectUri === undefined) {
      if (authRequest.responseMode !== "web_message") {
        at("redirectUri", `A redirect URI is required for ${authRequest.responseMode}`)
      }
    } else if (client !== undefined && !urlAllowed(client.allowedOrigins, authRequest.redirectUri)) {
      at("redirectUri", "The redirect URI's origin is not allowed for this client")
    }
    return violations
  }

  const createSession = Effect.gen(function*() {
    const caller = yield* callers.session
    const request = yield* body(RedirectSessionRequest)
    const kinds = [request.auth, request.logout, request.login, request.ecomCheckout].filter((k) => k !== undefined)
    if (kinds.length !== 1) return yield* invalidField("", "Exactly one of auth, logout, login or ecomCheckout is required")
    let stored: RedirectRequest
    let path: string
    if (request.auth !== undefined) {
      const violations = validateAuth(request.auth.authRequest)
      if (violations.length > 0) return yield* validation(violations[0]?.description ?? "Invalid auth request", violations)
      stored = { kind: "auth", authRequest: request.auth.authRequest, prompt: request.auth.prompt ?? "login" }
      path = AUTHORIZE_PATH
    } else if (request.logout !== undefined) {
      const client = site.client(request.logout.clientId)
      if (client === undefined) return yield* invalidField("logout.clientId", "Unknown client id")
      const postFlowUrl = request.callbacks?.postFlowUrl
      if (postFlowUrl !== undefined && !urlAllowed(client.allowedOrigins, postFlowUrl)) {
        return yield* invalidField("callbacks.postFlowUrl", "The post-flow URL's origin is not allowed for this client")
      }
      stored = { kind: "logout", clientId: client.id, postFlowUrl }
      path = LOGOUT_PAGE_PATH
    } else if (request.ecomCheckout !== undefined) {
      const checkoutId = request.ecomCheckout.checkoutId
      if (!GUID.test(checkoutId)) return yield* invalidField("ecomCheckout.checkoutId", "The checkout id must be a GUID", "FORMAT")
      // the page sends the buyer on to these: only to the client's own origins
      const allowed = site.client(caller.clientId)?.allowedOrigins ?? []
      for (const key of ["postFlowUrl", "thankYouPageUrl"] as const) {
        const url = request.callbacks?.[key]
        if (url !== undefined && !urlAllowed(allowed, url)) {
          return yield* invalidField(`callbacks.${key}`, `The ${key}'s origin is not allowed for this client`)
        }
      }
      stored = { kind: "ecomCheckout", checkoutId, postFlowUrl: request.callbacks?.postFlowUrl, thankYouPageUrl: request.callbacks?.thankYouPageUrl }
      path = CHECKOUT_PAGE_PATH
    } else {
      stored = { kind: "login" }
      path = PREWARM_PATH
    }
    const id = sessions.create(stored, caller)
    const endpoint = `${yield* requestOrigin}${path}`
    return reply(RedirectSessionResponse, {
      redirectSession: {
        id,
        fullUrl: `${endpoint}?redirectSession=${encodeURIComponent(id)}`,
        urlDetails: { endpoint, searchParams: { redirectSession: id } }
      }
    })
  })

  /** Ends the browser's member session and revokes the refresh tokens of the members involved. */
  const signOut = (memberIds: ReadonlyArray<string | undefined>, clientId: string | undefined) =>
    Effect.gen(function*() {
      const cookie = (yield* HttpServerRequest.HttpServerRequest).cookies[MEMBER_COOKIE]
      const fromCookie = cookie === undefined ? undefined : browserSessions.member(cookie)
      if (cookie !== undefined) browserSessions.close(cookie)
      for (const id of new Set([...memberIds, fromCookie])) {
        if (id !== undefined) refreshTokens.revoke("member", id, clientId)
      }
    })

  const logoutPage = Effect.gen(function*() {
    const session = sessions.load("logout", (yield* query).get("redirectSession"))
    if (session === undefined) {
      return html(messagePage("Sign-out link not valid", "This sign-out link is not valid or has expired."), 400)
    }
    const { clientId, postFlowUrl } = session.request
    yield* signOut([session.role === "member" ? session.subject : undefined], clientId)
    sessions.complete(session.id)
    const response = postFlowUrl === undefined
      ? html(messagePage("Signed out", "You are signed out."))
      : HttpServerResponse.redirect(postFlowUrl, { status: 302, headers: PAGE_HEADERS })
    return yield* withoutMemberCookie(response)
  })

  const prewarmPage = Effect.gen(function*() {
    const session = sessions.load("login", (yield* query).get("redirectSession"))
    if (session === undefined) return html(blankPage(), 400)
    // signed, so the cookie cannot be forged into another visitor's id
    const value = `${session.subject}.${derive(db.instance().tokenSecret, `visitor:${session.subject}`)}`
    return yield* HttpServerResponse.setCookie(html(blankPage()), VISITOR_COOKIE, value, {
      httpOnly: true,
      path: "/",
      sameSite: "lax",
      maxAge: "365 days"
    }).pipe(Effect.orDie)
  })

  const serverLogout = Effect.gen(function*() {
    const params = yield* query
    // logging out works with a stale token too: the cookie alone is enough
    const caller = yield* callers.current.pipe(Effect.orElseSucceed(() => ({ kind: "none" as const })))
    const clientId = params.get("clientId") ?? undefined
    const memberId = caller.kind === "member"
      ? caller.id
      : caller.kind === "admin" && caller.session?.kind === "member"
      ? caller.session.id
      : undefined
    yield* signOut([memberId], clientId)
    const target = params.get("postLogoutRedirectUri")
    const client = clientId === undefined ? undefined : site.client(clientId)
    const response = target !== null && client !== undefined && urlAllowed(client.allowedOrigins, target)
      ? HttpServerResponse.redirect(target, { status: 302, headers: PAGE_HEADERS })
      : replyEmpty()
    return yield* withoutMemberCookie(response)
  })

  return [
    route("POST", Paths.redirectSession, createSession),
    route("GET", LOGOUT_PAGE_PATH, logoutPage),
    route("GET", PREWARM_PATH, prewarmPage),
    route("GET", Paths.logout, serverLogout)
  ]
}))

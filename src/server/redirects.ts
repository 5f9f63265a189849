/**
 * Redirect sessions and the pages they lead to: the authorize page (login form, silent login with a
 * session token or the browser's member cookie, results by fragment, query or `postMessage`), the
 * logout page, the visitor pre-warm page, and the server-side logout call.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { randomUUID } from "node:crypto"
import type { FieldViolation } from "../http/wire.ts"
import {
  type AuthorizeMessage,
  type AuthRequest,
  Paths,
  type Prompt,
  RedirectSessionRequest,
  RedirectSessionResponse
} from "../session/wire.ts"
import { BROWSER_SESSION_SECONDS, BrowserSessions, MEMBER_COOKIE, VISITOR_COOKIE } from "./BrowserSessions.ts"
import { Callers } from "./Callers.ts"
import { Database } from "./Database.ts"
import { type MemberRecord, Members } from "./identity/Members.ts"
import { CODE_SECONDS, type CodeBinding } from "./oauth.ts"
import { OneTimeTokens } from "./OneTimeTokens.ts"
import { originOf, urlAllowed } from "./origins.ts"
import { blankPage, loginPage, messagePage, webMessagePage } from "./pages.ts"
import { verifyPassword } from "./passwords.ts"
import { RefreshTokens } from "./RefreshTokens.ts"
import { invalidField, reply, replyEmpty, validation } from "./responses.ts"
import { body, formBody, query, requestOrigin, route } from "./routing.ts"
import { derive } from "./secrets.ts"
import { ServerClock } from "./ServerClock.ts"
import { Settings } from "./Settings.ts"
import { Site } from "./Site.ts"

/** How long a redirect session's URL stays usable. */
export const REDIRECT_SESSION_SECONDS = 30 * 60

export const AUTHORIZE_PATH = "/oauth2/authorize"
export const LOGOUT_PAGE_PATH = "/oauth2/logout"
export const PREWARM_PATH = "/oauth2/session"

type Stored =
  | { readonly kind: "auth"; readonly authRequest: AuthRequest; readonly prompt: Prompt }
  | { readonly kind: "logout"; readonly clientId: string; readonly postFlowUrl: string | undefined }
  | { readonly kind: "login" }

interface RedirectSessionRecord {
  readonly id: string
  readonly stored: Stored
  readonly role: "visitor" | "member"
  readonly subject: string
  readonly completed: boolean
}

const PAGE_HEADERS = { "cache-control": "no-store", "referrer-policy": "no-referrer" }

const html = (text: string, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.text(text, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: { ...PAGE_HEADERS, ...headers }
  })

const withMemberCookie = (response: HttpServerResponse.HttpServerResponse, value: string) =>
  HttpServerResponse.setCookie(response, MEMBER_COOKIE, value, {
    httpOnly: true,
    path: "/",
    sameSite: "lax",
    maxAge: `${BROWSER_SESSION_SECONDS} seconds`
  }).pipe(Effect.orDie)

const withoutMemberCookie = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.expireCookie(response, MEMBER_COOKIE, { httpOnly: true, path: "/", sameSite: "lax" }).pipe(
    Effect.orDie
  )

export const redirectRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const db = yield* Database
  const callers = yield* Callers
  const site = yield* Site
  const members = yield* Members
  const oneTime = yield* OneTimeTokens
  const refreshTokens = yield* RefreshTokens
  const browserSessions = yield* BrowserSessions
  const settings = yield* Settings
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

  const load = (id: string | null): RedirectSessionRecord | undefined => {
    if (id === null) return undefined
    const row = db.get("SELECT * FROM redirect_sessions WHERE id = ? AND expires_at > ?", id, clock.millis())
    if (row === undefined) return undefined
    return {
      id: String(row.id),
      stored: JSON.parse(String(row.request)) as Stored,
      role: row.role as "visitor" | "member",
      subject: String(row.subject),
      completed: row.completed_at !== null
    }
  }

  const complete = (id: string) => {
    db.run("UPDATE redirect_sessions SET completed_at = ? WHERE id = ?", clock.millis(), id)
  }

  /** Members who may receive a code: active ones only. */
  const signedInMember = (memberId: string | undefined): MemberRecord | undefined => {
    const member = memberId === undefined ? undefined : members.byId(memberId)
    return member?.status === "ACTIVE" ? member : undefined
  }

  // -------------------------------------------------------------------------------------------------
  // POST /_api/redirects-api/v1/redirect-session

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
      if (authRequest.responseMode !== "web_message") at("redirectUri", `A redirect URI is required for ${authRequest.responseMode}`)
    } else if (client !== undefined && !urlAllowed(client.allowedOrigins, authRequest.redirectUri)) {
      at("redirectUri", "The redirect URI's origin is not allowed for this client")
    }
    return violations
  }

  const createSession = Effect.gen(function*() {
    const caller = yield* callers.session
    const request = yield* body(RedirectSessionRequest)
    const kinds = [request.auth, request.logout, request.login].filter((k) => k !== undefined)
    if (kinds.length !== 1) return yield* invalidField("", "Exactly one of auth, logout or login is required")
    let stored: Stored
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
    } else {
      stored = { kind: "login" }
      path = PREWARM_PATH
    }
    const id = randomUUID()
    const now = clock.millis()
    db.run(
      "INSERT INTO redirect_sessions (id, request, role, subject, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
      id,
      JSON.stringify(stored),
      caller.kind,
      caller.id,
      now,
      now + REDIRECT_SESSION_SECONDS * 1000
    )
    const endpoint = `${yield* requestOrigin}${path}`
    return reply(RedirectSessionResponse, {
      redirectSession: {
        id,
        fullUrl: `${endpoint}?redirectSession=${encodeURIComponent(id)}`,
        urlDetails: { endpoint, searchParams: { redirectSession: id } }
      }
    })
  })

  // -------------------------------------------------------------------------------------------------
  // The authorize page

  const invalidLink = () => html(messagePage("Sign-in link not valid", "This sign-in link is not valid, was used already or has expired."), 400)

  /** Answers an authorize request with a code for `member`, or with an OAuth error. */
  const finish = (
    session: RedirectSessionRecord,
    authRequest: AuthRequest,
    outcome: { readonly member: MemberRecord } | { readonly error: string; readonly description: string }
  ) =>
    Effect.gen(function*() {
      const client = site.client(authRequest.clientId)
      if (client === undefined) return invalidLink()
      let targetOrigin: string | undefined
      if (authRequest.responseMode === "web_message") {
        const referer = (yield* HttpServerRequest.HttpServerRequest).headers["referer"]
        if (referer !== undefined) {
          const origin = originOf(referer)
          // a parent we may not talk to gets nothing, not even an error
          if (origin === undefined || !urlAllowed(client.allowedOrigins, origin)) {
            return html(webMessagePage({ message: undefined, targetOrigin: undefined, allowedOrigins: [] }))
          }
          targetOrigin = origin
        }
      }
      let params: AuthorizeMessage
      if ("member" in outcome) {
        const binding: CodeBinding = {
          clientId: client.id,
          codeChallenge: authRequest.codeChallenge,
          redirectUri: authRequest.redirectUri
        }
        const code = oneTime.issue("code", outcome.member.id, CODE_SECONDS, binding)
        complete(session.id)
        params = { code, state: authRequest.state }
      } else {
        params = { error: outcome.error, error_description: outcome.description, state: authRequest.state }
      }
      if (authRequest.responseMode === "web_message") {
        return html(webMessagePage({ message: params, targetOrigin, allowedOrigins: client.allowedOrigins }))
      }
      const location = new URL(authRequest.redirectUri ?? "")
      const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))
      if (authRequest.responseMode === "query") {
        for (const [key, value] of search) location.searchParams.append(key, value)
      } else {
        location.hash = search.toString()
      }
      return HttpServerResponse.redirect(location.toString(), { status: 302, headers: PAGE_HEADERS })
    })

  const authorizePage = (session: RedirectSessionRecord, error?: string, email?: string) => {
    const stored = session.stored as Extract<Stored, { kind: "auth" }>
    const client = site.client(stored.authRequest.clientId)
    return html(
      loginPage({
        action: `${AUTHORIZE_PATH}?redirectSession=${encodeURIComponent(session.id)}`,
        clientName: client?.name ?? "this site",
        ...(error === undefined ? {} : { error }),
        ...(email === undefined ? {} : { email })
      }),
      error === undefined ? 200 : 401,
      // the form is never shown inside another site's frame
      { "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'" }
    )
  }

  const authSession = Effect.map(query, (params) => {
    const session = load(params.get("redirectSession"))
    return session !== undefined && session.stored.kind === "auth" && !session.completed ? session : undefined
  })

  const authorize = Effect.gen(function*() {
    const session = yield* authSession
    if (session === undefined) return invalidLink()
    const { authRequest, prompt } = session.stored as Extract<Stored, { kind: "auth" }>
    if (authRequest.sessionToken !== undefined) {
      const token = oneTime.peek("session", authRequest.sessionToken)
      const member = signedInMember(token?.subject)
      if (member !== undefined && oneTime.consume("session", authRequest.sessionToken) !== undefined) {
        return yield* finish(session, authRequest, { member })
      }
    }
    if (prompt !== "login") {
      const cookie = (yield* HttpServerRequest.HttpServerRequest).cookies[MEMBER_COOKIE]
      const member = signedInMember(cookie === undefined ? undefined : browserSessions.member(cookie))
      if (member !== undefined) return yield* finish(session, authRequest, { member })
    }
    if (prompt === "none") {
      return yield* finish(session, authRequest, { error: "login_required", description: "The member is not logged in" })
    }
    return authorizePage(session)
  })

  const submitLogin = Effect.gen(function*() {
    const session = yield* authSession
    if (session === undefined) return invalidLink()
    const { authRequest } = session.stored as Extract<Stored, { kind: "auth" }>
    const form = yield* formBody
    const email = (form.get("email") ?? "").trim()
    const password = form.get("password") ?? ""
    const member = members.byEmail(email)
    const ok = member?.passwordHash !== undefined && (yield* verifyPassword(password, member.passwordHash))
    if (member === undefined || !ok) return authorizePage(session, "Wrong email or password", email)
    if (member.mustReset) return authorizePage(session, "This password must be reset before signing in", email)
    if (member.status !== "ACTIVE") return authorizePage(session, "This account cannot sign in yet", email)
    const rules = settings.get()
    if (
      members.factors(member.id).length > 0 || rules.mfaRequired || (!member.emailVerified && rules.emailVerification)
    ) {
      return authorizePage(session, "This account needs a verification step: sign in through the site instead", email)
    }
    const cookie = browserSessions.open(member.id)
    const response = yield* finish(session, authRequest, { member })
    return yield* withMemberCookie(response, cookie)
  })

  // -------------------------------------------------------------------------------------------------
  // Logout and pre-warm pages, server logout

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
    const session = load((yield* query).get("redirectSession"))
    if (session === undefined || session.stored.kind !== "logout") {
      return html(messagePage("Sign-out link not valid", "This sign-out link is not valid or has expired."), 400)
    }
    const { clientId, postFlowUrl } = session.stored
    yield* signOut([session.role === "member" ? session.subject : undefined], clientId)
    complete(session.id)
    const response = postFlowUrl === undefined
      ? html(messagePage("Signed out", "You are signed out."))
      : HttpServerResponse.redirect(postFlowUrl, { status: 302, headers: PAGE_HEADERS })
    return yield* withoutMemberCookie(response)
  })

  const prewarmPage = Effect.gen(function*() {
    const session = load((yield* query).get("redirectSession"))
    if (session === undefined || session.stored.kind !== "login") return html(blankPage(), 400)
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
    route("GET", AUTHORIZE_PATH, authorize),
    route("POST", AUTHORIZE_PATH, submitLogin),
    route("GET", LOGOUT_PAGE_PATH, logoutPage),
    route("GET", PREWARM_PATH, prewarmPage),
    route("GET", Paths.logout, serverLogout)
  ]
}))

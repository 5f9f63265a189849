/**
 * The authorize page, where a redirect session for an authorization leads. It completes at once with
 * a fresh session token (direct login) or the browser's member session, answers `login_required`
 * for `prompt=none`, and otherwise shows a login form. Results go back by fragment, query, or a page
 * that posts them to the parent window (`web_message`), never to an origin the client does not own.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { AuthorizeMessage } from "../../session/wire/index.ts"
import { BrowserSessions, MEMBER_COOKIE, withMemberCookie } from "./BrowserSessions.ts"
import { type MemberRecord, MemberStore } from "../accounts/MemberStore.ts"
import { CODE_SECONDS, type CodeBinding } from "./tokenRoutes.ts"
import { LoginThrottle } from "../accounts/LoginThrottle.ts"
import { OneTimeTokens } from "../platform/OneTimeTokens.ts"
import { originOf, urlAllowed } from "../platform/origins.ts"
import { html, loginPage, messagePage, PAGE_HEADERS, webMessagePage } from "./pages.ts"
import { verifyPassword } from "../accounts/passwords.ts"
import { type RedirectRequest, type RedirectSessionRecord, RedirectSessions } from "./RedirectSessions.ts"
import { clientAddress, formBody, query, route } from "../platform/routing.ts"
import { Settings } from "../platform/Settings.ts"
import { SiteRegistry } from "../platform/SiteRegistry.ts"

export const AUTHORIZE_PATH = "/oauth2/authorize"

export const authorizeRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const site = yield* SiteRegistry
  const members = yield* MemberStore
  const oneTime = yield* OneTimeTokens
  const browserSessions = yield* BrowserSessions
  const settings = yield* Settings
  const sessions = yield* RedirectSessions
  const throttle = yield* LoginThrottle

  const invalidLink = () =>
    html(messagePage("Sign-in link not valid", "This sign-in link is not valid, was used already or has expired."), 400)

  /** Members who may receive a code: active ones only. */
  const signedInMember = (memberId: string | undefined): MemberRecord | undefined => {
    const member = memberId === undefined ? undefined : members.byId(memberId)
    return member?.status === "ACTIVE" ? member : undefined
  }

  /** Answers the authorization with a code for a member, or with an OAuth error. */
  const finish = (session: AuthSession, outcome: Outcome) =>
    Effect.gen(function*() {
      const { authRequest } = session.request
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
      let message: AuthorizeMessage
      if ("member" in outcome) {
        const binding: CodeBinding = {
          clientId: client.id,
          codeChallenge: authRequest.codeChallenge,
          redirectUri: authRequest.redirectUri,
          // the visitor whose session asked for the login hands what they kept over to the member
          ...(session.role === "visitor" ? { visitorId: session.subject } : {})
        }
        const code = oneTime.issue("code", outcome.member.id, CODE_SECONDS, binding)
        sessions.complete(session.id)
        message = { code, state: authRequest.state }
      } else {
        message = { error: outcome.error, error_description: outcome.description, state: authRequest.state }
      }
      if (authRequest.responseMode === "web_message") {
        return html(webMessagePage({ message, targetOrigin, allowedOrigins: client.allowedOrigins }))
      }
      // validated when the session was created: fragment and query modes always have one
      const location = new URL(authRequest.redirectUri ?? "")
      const params = new URLSearchParams(
        Object.entries(message).filter((entry): entry is [string, string] => entry[1] !== undefined)
      )
      if (authRequest.responseMode === "query") {
        for (const [key, value] of params) location.searchParams.append(key, value)
      } else {
        location.hash = params.toString()
      }
      return HttpServerResponse.redirect(location.toString(), { status: 302, headers: PAGE_HEADERS })
    })

  const formPage = (session: AuthSession, error?: string, email?: string) =>
    html(
      loginPage({
        action: `${AUTHORIZE_PATH}?redirectSession=${encodeURIComponent(session.id)}`,
        clientName: site.client(session.request.authRequest.clientId)?.name ?? "this site",
        ...(error === undefined ? {} : { error }),
        ...(email === undefined ? {} : { email })
      }),
      error === undefined ? 200 : 401,
      // the form is never shown inside another site's frame
      { "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'" }
    )

  const openSession = Effect.map(query, (params) => {
    const session = sessions.load("auth", params.get("redirectSession"))
    return session === undefined || session.completed ? undefined : session
  })

  const authorize = Effect.gen(function*() {
    const session = yield* openSession
    if (session === undefined) return invalidLink()
    const { authRequest, prompt } = session.request
    if (authRequest.sessionToken !== undefined) {
      const token = oneTime.peek("session", authRequest.sessionToken)
      const member = signedInMember(token?.subject)
      if (member !== undefined && oneTime.consume("session", authRequest.sessionToken) !== undefined) {
        return yield* finish(session, { member })
      }
    }
    if (prompt !== "login") {
      const cookie = (yield* HttpServerRequest.HttpServerRequest).cookies[MEMBER_COOKIE]
      const member = signedInMember(cookie === undefined ? undefined : browserSessions.member(cookie))
      if (member !== undefined) return yield* finish(session, { member })
    }
    if (prompt === "none") {
      return yield* finish(session, { error: "login_required", description: "The member is not logged in" })
    }
    return formPage(session)
  })

  const submitLogin = Effect.gen(function*() {
    const session = yield* openSession
    if (session === undefined) return invalidLink()
    const form = yield* formBody
    const email = (form.get("email") ?? "").trim()
    const password = form.get("password") ?? ""
    const address = yield* clientAddress
    const guard = yield* Effect.exit(throttle.check(email, address))
    if (guard._tag === "Failure") return formPage(session, "Too many failed sign-ins from here; try again later", email)
    // this form has no captcha: an email that needs one signs in through the site's own login
    if (guard.value.captchaRequired) return formPage(session, "This account needs a captcha to sign in: sign in through the site instead", email)
    const member = members.byEmail(email)
    const ok = member?.passwordHash !== undefined && (yield* verifyPassword(password, member.passwordHash))
    if (member === undefined || !ok) {
      throttle.failed(email, address)
      return formPage(session, "Wrong email or password", email)
    }
    throttle.succeeded(email, address)
    if (member.mustReset) return formPage(session, "This password must be reset before signing in", email)
    if (member.status !== "ACTIVE") return formPage(session, "This account cannot sign in yet", email)
    const rules = settings.get()
    if (members.factors(member.id).length > 0 || rules.mfaRequired || (!member.emailVerified && rules.emailVerification)) {
      return formPage(session, "This account needs a verification step: sign in through the site instead", email)
    }
    const cookie = browserSessions.open(member.id)
    return yield* withMemberCookie(yield* finish(session, { member }), cookie)
  })

  return [route("GET", AUTHORIZE_PATH, authorize), route("POST", AUTHORIZE_PATH, submitLogin)]
}))

type AuthSession = RedirectSessionRecord<Extract<RedirectRequest, { kind: "auth" }>>

type Outcome = { readonly member: MemberRecord } | { readonly error: string; readonly description: string }

import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { decodeJson } from "../../src/http/decodeJson.ts"
import { PlatformClient } from "../../src/http/PlatformClient.ts"
import { OAuthError } from "../../src/session/OAuthError.ts"
import { Session } from "../../src/session/Session.ts"
import { TokenStore } from "../../src/session/TokenStore.ts"
import { MyMemberResponse, Paths } from "../../src/session/wire/index.ts"
import { LocalPlatform, stats, withSite } from "../support/platform.ts"

const currentMember = decodeJson({ method: "GET", path: Paths.myMember }, MyMemberResponse)

const demo = LocalPlatform.useSync((p: LocalPlatform["Service"]) => {
  if (p.demoMember === undefined) throw new Error("the demo seed has a member")
  return p.demoMember
})

/** Follows the authorize page like a browser: posts the login form, returns the final redirect. */
const authorizeWithForm = (url: string, email: string, password: string) =>
  Effect.promise(async () => {
    const page = await fetch(url, { redirect: "manual" })
    const html = await page.text()
    assert.strictEqual(page.status, 200, html)
    const form = new URLSearchParams({ email, password })
    const res = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString()
    })
    const location = res.headers.get("location")
    assert.strictEqual(res.status, 302, await res.text())
    if (location === null) throw new Error("no redirect")
    return location
  })

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E => {
  const error = Exit.findErrorOption(exit)
  if (Option.isNone(error)) throw new Error("expected a failure")
  return error.value
}

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("OAuth", (it) => {
  for (const responseMode of ["query", "fragment"] as const) {
    it.effect(`login URL, authorize page and code exchange (${responseMode})`, () =>
      withSite(Effect.gen(function*() {
        const session = yield* Session
        const { email, password: secret } = yield* demo
        const password = Redacted.value(secret)
        const login = yield* session.loginUrl({
          redirectUri: "http://127.0.0.1:5173/callback",
          originalUri: "http://127.0.0.1:5173/account",
          responseMode
        })
        const location = yield* authorizeWithForm(login.url, email, password)
        assert.isTrue(location.startsWith("http://127.0.0.1:5173/callback"))
        const result = yield* session.completeRedirect(location, { responseMode })
        assert.strictEqual(result.originalUri, "http://127.0.0.1:5173/account")
        assert.strictEqual(result.tokens.refreshToken.role, "member")
        assert.isTrue(yield* session.loggedIn)
        assert.strictEqual((yield* currentMember).member.loginEmail, email)
        // the PKCE data is gone once used
        assert.isUndefined((yield* TokenStore.use((s) => s.load)).oauthData)
      })))
  }

  it.effect("a callback without code or state fails with 'Missing code or _state'", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      yield* session.loginUrl({ redirectUri: "http://127.0.0.1:5173/cb" })
      const error = failureOf(yield* Effect.exit(session.completeRedirect("http://127.0.0.1:5173/cb#state=abc")))
      assert.instanceOf(error, OAuthError)
      assert.strictEqual(error.message, "Missing code or _state")
    })))

  it.effect("a callback with another state fails with 'Invalid _state' and exchanges nothing", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      const { email, password: secret } = yield* demo
        const password = Redacted.value(secret)
      const login = yield* session.loginUrl({ redirectUri: "http://127.0.0.1:5173/cb", responseMode: "query" })
      const location = new URL(yield* authorizeWithForm(login.url, email, password))
      location.searchParams.set("state", "someone-elses-state")
      const before = yield* stats
      const error = failureOf(yield* Effect.exit(session.completeRedirect(location.href, { responseMode: "query" })))
      assert.strictEqual(error.message, "Invalid _state")
      assert.strictEqual((yield* stats).tokenRequests.authorization_code, before.tokenRequests.authorization_code)
      assert.isFalse(yield* session.loggedIn)
    })))

  it.effect("a wrong code verifier is refused by the token endpoint", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      const store = yield* TokenStore
      const { email, password: secret } = yield* demo
        const password = Redacted.value(secret)
      const login = yield* session.loginUrl({ redirectUri: "http://127.0.0.1:5173/cb", responseMode: "query" })
      const location = yield* authorizeWithForm(login.url, email, password)
      const stored = yield* store.load
      if (stored.oauthData === undefined) throw new Error("PKCE data stored")
      yield* store.save({ ...stored, oauthData: { ...stored.oauthData, codeVerifier: "x".repeat(43) } })
      const error = failureOf(yield* Effect.exit(session.completeRedirect(location, { responseMode: "query" })))
      assert.instanceOf(error, OAuthError)
      assert.strictEqual((error as OAuthError).reason._tag, "TokenRequestFailed")
      assert.match(error.message, /^Failed to fetch tokens from OAuth API: .*\. request id: .+\. Response: \{/)
      assert.isFalse(yield* session.loggedIn)
    })))

  it.effect("direct login: login, then the session token becomes member tokens", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      const { email, password: secret } = yield* demo
        const password = Redacted.value(secret)
      const result = yield* session.login({ email, password: Redacted.make(password) })
      assert.strictEqual(result.loginState, "SUCCESS")
      if (result.loginState !== "SUCCESS") return
      const tokens = yield* session.completeDirectLogin(result.data.sessionToken)
      assert.strictEqual(tokens.refreshToken.role, "member")
      assert.strictEqual((yield* currentMember).member.loginEmail, email)
      // a session token is single use
      const again = yield* Effect.exit(session.completeDirectLogin(result.data.sessionToken))
      assert.isTrue(Exit.isFailure(again))
    })))

  it.effect("logout returns the logout URL, clears both tokens and revokes the refresh token", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      const { email, password: secret } = yield* demo
        const password = Redacted.value(secret)
      const result = yield* session.login({ email, password })
      if (result.loginState !== "SUCCESS") throw new Error(result.loginState)
      const member = yield* session.completeDirectLogin(result.data.sessionToken)
      const { logoutUrl } = yield* session.logout({ postFlowUrl: "http://127.0.0.1:5173/bye" })
      const tokens = yield* session.tokens
      assert.deepStrictEqual(tokens, { accessToken: { value: "", expiresAt: 0 }, refreshToken: { value: "", role: "none" } })
      assert.isFalse(yield* session.loggedIn)
      const page = yield* Effect.promise(() => fetch(logoutUrl, { redirect: "manual" }))
      assert.strictEqual(page.status, 302)
      assert.strictEqual(page.headers.get("location"), "http://127.0.0.1:5173/bye")
      // the member's refresh token no longer works: a session holding it falls back to a visitor
      yield* session.setTokens({ ...member, accessToken: { value: "", expiresAt: 0 } })
      const after = yield* session.ensureTokens
      assert.strictEqual(after.refreshToken.role, "visitor")
    })))

  it.effect("external login with an API key, by member id and by email with sign-on", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      const platform = yield* LocalPlatform
      const byEmail = yield* session.externalLoginWithSession("external-" + Date.now() + "@example.com", platform.apiKey)
      assert.strictEqual(byEmail.refreshToken.role, "member")
      const me = yield* currentMember
      yield* session.logout({ postFlowUrl: "http://127.0.0.1/" })
      const byId = yield* session.externalLogin(me.member.id, platform.apiKey)
      assert.strictEqual(byId.refreshToken.role, "member")
      assert.strictEqual((yield* currentMember).member.id, me.member.id)
      // a wrong API key is refused
      yield* session.logout({ postFlowUrl: "http://127.0.0.1/" })
      const refused = yield* Effect.exit(session.externalLogin(me.member.id, "not-an-api-key"))
      assert.isTrue(Exit.isFailure(refused))
      assert.isFalse(yield* session.loggedIn)
    })))
})

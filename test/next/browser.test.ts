/**
 * sitefx/next's browser half (`cookieTokenStore`) with the server half's session route, against the
 * local platform: a page's session over a fake document whose cookies are a browser's jar (the httpOnly
 * one hidden from the page), posting to `site.route.POST` as the browser would and keeping what it sets.
 * A sign-in shows in every session over the same cookies without a token request; an expired or
 * rejected access token is renewed by the route, which holds the refresh token; a sign-out clears both
 * cookies; a redirect login started by the page completes at the route.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { NextRequest } from "next/server"
import { PlatformClient } from "../../src/http/PlatformClient.ts"
import { PlatformError } from "../../src/http/PlatformError.ts"
import { cookieTokenStore } from "../../src/next/browser.ts"
import { readPrivate, readReadable, REFRESH_STAND_IN, writeReadable } from "../../src/next/cookies.ts"
import { nextSite, type NextSite } from "../../src/next/server.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { MyMemberResponse } from "../../src/session/guards/members.ts"
import { Paths } from "../../src/session/protocol.ts"
import { Session } from "../../src/session/Session.ts"
import { SessionTokens } from "../../src/session/SessionTokens.ts"
import { siteSession } from "../../src/session/SiteSession.ts"
import { LocalPlatform, stats } from "../support/platform.ts"
import { APP, Jar, SAME_ORIGIN } from "./support.ts"

const READABLE = "sitefx.session"
const SECRET = "sitefx.session.refresh"

const tokenRequests = Effect.map(stats, (s) => s.tokenRequests)
const nowSeconds = () => Math.floor(Date.now() / 1000)

/** A browser on the app: its cookie jar, and the route's `fetch` of its pages (what they post, in order). */
const browserOf = (site: NextSite) => {
  const jar = new Jar()
  const posts: Array<unknown> = []
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    const body = String(init.body)
    posts.push(JSON.parse(body))
    const request = new NextRequest(new URL(String(input), APP), {
      method: init.method ?? "GET",
      headers: { ...init.headers as Record<string, string>, ...SAME_ORIGIN, ...(jar.header === "" ? {} : { cookie: jar.header }) },
      body,
      ...(init.signal === undefined || init.signal === null ? {} : { signal: init.signal })
    })
    const response = await site.route.POST(request)
    jar.apply(response)
    return response
  }
  return { jar, posts, fetch }
}

type Browser = ReturnType<typeof browserOf>

/** While the scope lasts, a `document` whose cookies are the jar's, as a page's script reads them. */
const documentOf = (browser: Browser) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      ;(globalThis as { document?: unknown }).document = { get cookie() { return browser.jar.script } }
    }),
    () => Effect.sync(() => void delete (globalThis as { document?: unknown }).document)
  )

/** Runs `effect` in a page of the browser: a session of its own over the browser's cookies. */
const inPage = <A, E>(browser: Browser, effect: Effect.Effect<A, E, Session | PlatformClient>) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.scoped(Effect.gen(function*() {
      yield* documentOf(browser)
      return yield* Effect.provide(
        effect,
        siteSession({ clientId: platform.clientId, baseUrl: platform.url, tokens: cookieTokenStore({ fetch: browser.fetch }), authorizeAgent: AuthorizeAgent.http() })
      )
    }))
  })

const myEmail = Effect.gen(function*() {
  const client = yield* PlatformClient
  const answer = yield* client.json({ method: "GET", path: Paths.myMember }, MyMemberResponse)
  return answer.member.loginEmail
})

/** Signs the demo member in from a page, with a direct login (the member flows and the authorize page over HTTP). */
const signIn = (browser: Browser) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const { email, password } = platform.demoMember!
    return yield* inPage(browser, Effect.gen(function*() {
      const session = yield* Session
      const result = yield* session.login({ email, password })
      if (result.loginState !== "SUCCESS") throw new Error(`the demo member's login: ${result.loginState}`)
      yield* session.completeDirectLogin(result.data.sessionToken)
      return { loggedIn: yield* session.loggedIn, email: yield* myEmail }
    }))
  })

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("sitefx/next's cookie session in a page", (it) => {
  it.effect("signs a member in, and a second page over the same cookies is the member without a token request", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const browser = browserOf(nextSite({ clientId: platform.clientId, baseUrl: platform.url }))
      const signedIn = yield* signIn(browser)
      assert.deepStrictEqual(signedIn, { loggedIn: true, email: platform.demoMember!.email })

      // the visitor's tokens came from the route, then the login's tokens were saved through it
      assert.deepStrictEqual(browser.posts[0], { renew: "" })
      const saves = browser.posts.filter((p): p is { save: { tokens: { refreshToken: { value: string; role: string } } } } => typeof p === "object" && p !== null && "save" in p)
      assert.strictEqual(saves.at(-1)!.save.tokens.refreshToken.role, "member")
      const readable = readReadable(browser.jar.get(READABLE))!
      const secret = readPrivate(browser.jar.get(SECRET))!
      assert.strictEqual(readable.r, "member")
      assert.strictEqual(secret.t, saves.at(-1)!.save.tokens.refreshToken.value)
      // the page's script sees the readable cookie only
      assert.notInclude(browser.jar.script, SECRET)
      assert.notInclude(browser.jar.script, secret.t)

      const before = yield* tokenRequests
      const posted = browser.posts.length
      const again = yield* inPage(browser, Effect.gen(function*() {
        const session = yield* Session
        const tokens = yield* session.tokens
        return { loggedIn: yield* session.loggedIn, email: yield* myEmail, refresh: tokens.refreshToken.value }
      }))
      assert.deepStrictEqual(again, { loggedIn: true, email: platform.demoMember!.email, refresh: `${REFRESH_STAND_IN}${secret.s}` })
      assert.deepStrictEqual(yield* tokenRequests, before)
      assert.strictEqual(browser.posts.length, posted)
    }))

  it.effect("renews an expired access token through the route, which refreshes with the token it holds", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const browser = browserOf(nextSite({ clientId: platform.clientId, baseUrl: platform.url }))
      yield* signIn(browser)
      const held = readPrivate(browser.jar.get(SECRET))!
      const signedIn = readReadable(browser.jar.get(READABLE))!
      // the access token expired while the page was closed (and no proxy ran)
      browser.jar.set(READABLE, writeReadable({ ...signedIn, e: nowSeconds() - 10 }))

      const before = yield* tokenRequests
      const posted = browser.posts.length
      const email = yield* inPage(browser, myEmail)
      const after = yield* tokenRequests
      assert.strictEqual(email, platform.demoMember!.email)
      assert.deepStrictEqual(browser.posts.slice(posted), [{ renew: signedIn.a }])
      assert.strictEqual(after.refresh_token - before.refresh_token, 1)
      assert.strictEqual(after.anonymous - before.anonymous, 0)
      const renewed = readReadable(browser.jar.get(READABLE))!
      assert.notStrictEqual(renewed.a, signedIn.a)
      assert.isTrue(renewed.e > nowSeconds())
      assert.strictEqual(renewed.s, held.s)
      assert.deepStrictEqual(readPrivate(browser.jar.get(SECRET)), held)
    }))

  it.effect("renews an access token the platform rejects through the route, and the call goes through", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const browser = browserOf(nextSite({ clientId: platform.clientId, baseUrl: platform.url }))
      yield* signIn(browser)
      const signedIn = readReadable(browser.jar.get(READABLE))!
      // unexpired, but not one the platform takes (revoked, or from another platform)
      browser.jar.set(READABLE, writeReadable({ ...signedIn, a: "rejected-access-token" }))

      const before = yield* tokenRequests
      const posted = browser.posts.length
      assert.strictEqual(yield* inPage(browser, myEmail), platform.demoMember!.email)
      assert.deepStrictEqual(browser.posts.slice(posted), [{ renew: "rejected-access-token" }])
      assert.strictEqual((yield* tokenRequests).refresh_token - before.refresh_token, 1)
      assert.strictEqual(readReadable(browser.jar.get(READABLE))!.r, "member")
    }))

  it.effect("signs the member out: both cookies cleared, and the next call is a new visitor's", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const browser = browserOf(nextSite({ clientId: platform.clientId, baseUrl: platform.url }))
      yield* signIn(browser)
      const { logoutUrl } = yield* inPage(browser, Session.use((s) => s.logout({ postFlowUrl: `${APP}/` })))
      assert.match(logoutUrl, /^http/)
      assert.deepStrictEqual([...browser.jar.cookies.keys()], [])

      const visitor = yield* inPage(browser, Session.use((s) => Effect.zip(s.ensureTokens, s.loggedIn)))
      assert.strictEqual(visitor[0].refreshToken.role, "visitor")
      assert.isFalse(visitor[1])
      assert.strictEqual(readReadable(browser.jar.get(READABLE))!.r, "visitor")
    }))

  it.effect("starts a redirect login from the page, which the route completes into member cookies", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = nextSite({ clientId: platform.clientId, baseUrl: platform.url })
      const browser = browserOf(site)
      const { url } = yield* inPage(browser, Session.use((s) =>
        s.loginUrl({ redirectUri: `${APP}/api/sitefx`, originalUri: "/account", responseMode: "query" })))
      // the PKCE data went to the httpOnly cookie, not to the page's
      assert.isDefined(readPrivate(browser.jar.get(SECRET))!.o)
      assert.notInclude(browser.jar.script, readPrivate(browser.jar.get(SECRET))!.o!.codeVerifier)

      const { email, password } = platform.demoMember!
      const callback = yield* Effect.promise(async () => {
        const form = { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" } } as const
        const res = await fetch(url, { ...form, body: new URLSearchParams({ email, password: Redacted.value(password) }).toString() })
        return res.headers.get("location")!
      })
      const response = yield* Effect.promise(() => site.route.GET(new NextRequest(callback, { headers: { cookie: browser.jar.header } })))
      assert.strictEqual(response.status, 303)
      assert.strictEqual(response.headers.get("location"), "/account")
      browser.jar.apply(response)
      const member = yield* inPage(browser, Session.use((s) => Effect.zip(s.loggedIn, myEmail)))
      assert.deepStrictEqual(member, [true, email])
    }))

  it.effect("fails a page's call with a PlatformError when the route is out of reach", () =>
    Effect.gen(function*() {
      const browser: Browser = { jar: new Jar(), posts: [], fetch: () => Promise.reject(new TypeError("fetch failed")) }
      const failure = yield* inPage(browser, Effect.flip(myEmail))
      assert.instanceOf(failure, PlatformError)
      assert.match(failure.message, /session route did not answer/)
    }))

  it.effect("reads nothing and renews nothing where there is no document, with a message saying why", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      let posted = 0
      const failure = yield* Effect.flip(Effect.provide(
        SessionTokens.use((s) => s.ensureTokens),
        siteSession({ clientId: platform.clientId, baseUrl: platform.url, tokens: cookieTokenStore({ fetch: () => (posted++, Promise.reject(new Error("no"))) }) })
      ))
      assert.instanceOf(failure, PlatformError)
      assert.match(failure.message, /renews in a browser/)
      assert.strictEqual(posted, 0)
    }))
})

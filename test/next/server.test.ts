/**
 * sitefx/next's server half (`nextSite`) against the local platform, with Next.js's own `NextRequest`
 * and `NextResponse`: the proxy gives a new visitor tokens and renews them before they expire, setting
 * the cookies on the response and on the request the page renders from; the session route saves and
 * renews the page's session for the app's own pages only and completes a redirect login; the server's
 * own visitor session serves public data. (`run`, `member` and `layer` read Next's request context,
 * which only a running app has: the example app's browser test covers them.)
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { Atom } from "effect/reactivity"
import { NextRequest } from "next/server"
import * as Products from "../../src/catalog/Products.ts"
import {
  cookiesOfSession,
  readPrivate,
  readReadable,
  REFRESH_STAND_IN,
  sessionOfCookies,
  writePrivate,
  writeReadable
} from "../../src/next/cookies.ts"
import { nextSite } from "../../src/next/server.ts"
import { queryAtoms } from "../../src/react/index.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { Paths } from "../../src/session/protocol.ts"
import { Session } from "../../src/session/Session.ts"
import { SessionTokens } from "../../src/session/SessionTokens.ts"
import { siteClient } from "../../src/session/SiteClient.ts"
import { siteSession } from "../../src/session/SiteSession.ts"
import type { StoredSession } from "../../src/session/storedSession.ts"
import { TokenStore } from "../../src/session/TokenStore.ts"
import type { Tokens } from "../../src/session/wire/tokens.ts"
import { LocalPlatform, stats } from "../support/platform.ts"
import { APP, Jar, pageRequest, routePost, SAME_ORIGIN, setCookies } from "./support.ts"

const READABLE = "sitefx.session"
const SECRET = "sitefx.session.refresh"

const tokenRequests = Effect.map(stats, (s) => s.tokenRequests)
const nowSeconds = () => Math.floor(Date.now() / 1000)

const siteOf = (platform: LocalPlatform["Service"]) => nextSite({ clientId: platform.clientId, baseUrl: platform.url })

/** The member the platform's access token is, or its HTTP status when it is refused. */
const whoIs = (platform: LocalPlatform["Service"], accessToken: string) =>
  Effect.promise(async () => {
    const res = await fetch(`${platform.url}${Paths.myMember}`, { headers: { authorization: accessToken } })
    const body = await res.json() as { member?: { loginEmail?: string } }
    return res.status === 200 ? body.member?.loginEmail : res.status
  }) as Effect.Effect<string | number | undefined>

/** The demo member's tokens, from a direct login through the full client. */
const memberTokens = Effect.gen(function*() {
  const platform = yield* LocalPlatform
  const { email, password } = platform.demoMember!
  return yield* Effect.gen(function*() {
    const session = yield* Session
    const result = yield* session.login({ email, password })
    if (result.loginState !== "SUCCESS") throw new Error(`the demo member's login: ${result.loginState}`)
    return yield* session.completeDirectLogin(result.data.sessionToken)
  }).pipe(Effect.provide(siteSession({ clientId: platform.clientId, baseUrl: platform.url, authorizeAgent: AuthorizeAgent.http() })))
})

/** The cookies of a session, as a `Cookie` header (what the proxy or the route would have set). */
const cookieHeader = (session: StoredSession, readable: (c: ReturnType<typeof readReadable> & {}) => object = (c) => c) => {
  const cookies = cookiesOfSession(session, undefined)!
  return { header: `${READABLE}=${writeReadable(readable(cookies.readable) as never)}; ${SECRET}=${writePrivate(cookies.secret)}`, cookies }
}

/** Follows the platform's authorize page like a browser: posts the login form, answers where it redirects. */
const authorizeWithForm = (url: string, email: string, password: string) =>
  Effect.promise(async () => {
    const page = await fetch(url, { redirect: "manual" })
    assert.strictEqual(page.status, 200, await page.text())
    const res = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password }).toString()
    })
    assert.strictEqual(res.status, 302, await res.text())
    return res.headers.get("location")!
  })

/**
 * A redirect login started by a server-side session whose store is the browser's cookies (as the
 * app's server keeps them): answers the jar with the PKCE data in it, and the platform's callback URL.
 */
const redirectLogin = (originalUri: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const jar = new Jar()
    const store = Layer.succeed(
      TokenStore,
      TokenStore.of({
        load: Effect.sync(() => sessionOfCookies(readReadable(jar.get(READABLE)), readPrivate(jar.get(SECRET)))),
        save: (session) =>
          Effect.sync(() => {
            const cookies = cookiesOfSession(session, readPrivate(jar.get(SECRET)))
            if (cookies === undefined) return void jar.cookies.clear()
            jar.set(READABLE, writeReadable(cookies.readable)).set(SECRET, writePrivate(cookies.secret), true)
          })
      })
    )
    const { url } = yield* Session.use((s) => s.loginUrl({ redirectUri: `${APP}/api/sitefx`, originalUri, responseMode: "query" })).pipe(
        Effect.provide(siteSession({ clientId: platform.clientId, baseUrl: platform.url, tokens: store }))
      )
    const { email, password } = platform.demoMember!
    const callback = yield* authorizeWithForm(url, email, Redacted.value(password))
    return { jar, callback }
  })

const text = (response: Response) => Effect.promise(() => response.text())

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("sitefx/next on the local platform", (it) => {
  // ---------------------------------------------------------------------------------------------
  // the proxy

  it.effect("the proxy gives a new visitor tokens, for the browser and for the render of the same request", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const before = yield* tokenRequests
      const response = yield* Effect.promise(() => site.proxy(pageRequest("/products")))
      const after = yield* tokenRequests
      assert.strictEqual(after.anonymous - before.anonymous, 1)
      assert.strictEqual(after.refresh_token - before.refresh_token, 0)
      assert.strictEqual(response.headers.get("x-middleware-next"), "1")

      const set = setCookies(response)
      const readable = readReadable(set.get(READABLE)?.value)!
      const secret = readPrivate(set.get(SECRET)?.value)!
      assert.strictEqual(readable.r, "visitor")
      assert.strictEqual(readable.s, secret.s)
      assert.isTrue(readable.e > nowSeconds() + 60)
      assert.strictEqual(yield* whoIs(platform, readable.a), 403, "a visitor's token reads no member")
      // the refresh token only in the httpOnly cookie
      assert.isTrue(set.get(SECRET)!.httpOnly)
      assert.isFalse(set.get(READABLE)!.httpOnly)
      assert.notInclude(set.get(READABLE)!.value, secret.t)
      for (const c of set.values()) {
        assert.strictEqual(c.path, "/")
        assert.strictEqual(c.sameSite?.toLowerCase(), "lax")
        assert.isFalse(c.secure, "http: no Secure cookie")
        assert.isTrue(c.maxAge! > 0)
      }

      // the page renders from the same cookies the browser keeps
      const overridden = response.headers.get("x-middleware-override-headers")?.split(",") ?? []
      assert.include(overridden, "cookie")
      const forwarded = new NextRequest(`${APP}/products`, { headers: { cookie: response.headers.get("x-middleware-request-cookie")! } })
      assert.strictEqual(forwarded.cookies.get(READABLE)?.value, set.get(READABLE)!.value)
      assert.strictEqual(forwarded.cookies.get(SECRET)?.value, set.get(SECRET)!.value)
    }))

  it.effect("the proxy takes cookies it cannot read for none: a new visitor, whose cookies replace them", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const before = yield* tokenRequests
      const response = yield* Effect.promise(() => siteOf(platform).proxy(pageRequest("/", `${READABLE}=%%%; ${SECRET}=not-base64-json`)))
      const after = yield* tokenRequests
      assert.strictEqual(after.anonymous - before.anonymous, 1)
      assert.strictEqual(after.refresh_token - before.refresh_token, 0)
      const set = setCookies(response)
      assert.strictEqual(readReadable(set.get(READABLE)?.value)!.r, "visitor")
      assert.strictEqual(readPrivate(set.get(SECRET)?.value)!.r, "visitor")
    }))

  it.effect("the proxy lets fresh cookies pass: no token request, no cookie set, the request as it came", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const jar = new Jar().apply(yield* Effect.promise(() => site.proxy(pageRequest("/"))))
      const before = yield* tokenRequests
      const response = yield* Effect.promise(() => site.proxy(pageRequest("/products", jar.header)))
      assert.deepStrictEqual(yield* tokenRequests, before)
      assert.deepStrictEqual(response.headers.getSetCookie(), [])
      assert.isNull(response.headers.get("x-middleware-override-headers"))
      assert.strictEqual(response.headers.get("x-middleware-next"), "1")
    }))

  it.effect("the proxy renews an access token near its expiry with the refresh token, which it keeps with its id", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const tokens = yield* memberTokens
      // 30 s left: within the 60 s margin
      const { header, cookies } = cookieHeader({ tokens }, (c) => ({ ...c, e: nowSeconds() + 30 }))
      const before = yield* tokenRequests
      const response = yield* Effect.promise(() => site.proxy(pageRequest("/account", header)))
      const after = yield* tokenRequests
      assert.strictEqual(after.refresh_token - before.refresh_token, 1)
      assert.strictEqual(after.anonymous - before.anonymous, 0)
      const set = setCookies(response)
      const readable = readReadable(set.get(READABLE)?.value)!
      const secret = readPrivate(set.get(SECRET)?.value)!
      assert.strictEqual(secret.t, tokens.refreshToken.value)
      assert.strictEqual(secret.s, cookies.secret.s)
      assert.strictEqual(readable.s, cookies.secret.s)
      assert.strictEqual(readable.r, "member")
      assert.notStrictEqual(readable.a, tokens.accessToken.value)
      assert.isTrue(readable.e > nowSeconds() + 60)
      assert.strictEqual(yield* whoIs(platform, readable.a), platform.demoMember!.email)
      const forwarded = new NextRequest(`${APP}/account`, { headers: { cookie: response.headers.get("x-middleware-request-cookie")! } })
      assert.strictEqual(forwarded.cookies.get(READABLE)?.value, set.get(READABLE)!.value)
    }))

  it.effect("the proxy turns a session whose refresh the platform refuses into a new visitor", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const revoked: Tokens = { accessToken: { value: "", expiresAt: 0 }, refreshToken: { value: "not-a-refresh-token", role: "member" } }
      const { header, cookies } = cookieHeader({ tokens: revoked })
      const before = yield* tokenRequests
      const response = yield* Effect.promise(() => site.proxy(pageRequest("/account", header)))
      const after = yield* tokenRequests
      assert.strictEqual(after.refresh_token - before.refresh_token, 1)
      assert.strictEqual(after.anonymous - before.anonymous, 1)
      const set = setCookies(response)
      const readable = readReadable(set.get(READABLE)?.value)!
      const secret = readPrivate(set.get(SECRET)?.value)!
      assert.strictEqual(readable.r, "visitor")
      assert.strictEqual(secret.r, "visitor")
      assert.notStrictEqual(secret.t, "not-a-refresh-token")
      assert.notStrictEqual(secret.s, cookies.secret.s)
      assert.strictEqual(readable.s, secret.s)
    }))

  it.effect("the proxy passes the request on unchanged when the platform is out of reach", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = nextSite({ clientId: platform.clientId, baseUrl: "http://127.0.0.1:9" })
      const { header } = cookieHeader({ tokens: { accessToken: { value: "old", expiresAt: 1 }, refreshToken: { value: "r", role: "member" } } })
      for (const cookie of ["", header]) {
        const response = yield* Effect.promise(() => site.proxy(pageRequest("/", cookie)))
        assert.strictEqual(response.headers.get("x-middleware-next"), "1")
        assert.deepStrictEqual(response.headers.getSetCookie(), [])
        assert.isNull(response.headers.get("x-middleware-override-headers"))
      }
    }))

  it.effect("the proxy sets Secure cookies for a page served over https, unless told otherwise, under the cookie name it is given", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const https = yield* Effect.promise(() => siteOf(platform).proxy(new NextRequest("https://shop.example/")))
      for (const c of setCookies(https).values()) assert.isTrue(c.secure, c.name)
      const named = nextSite({ clientId: platform.clientId, baseUrl: platform.url, cookie: "shop", secure: false, maxAgeSeconds: 3600 })
      const response = yield* Effect.promise(() => named.proxy(new NextRequest("https://shop.example/")))
      const set = setCookies(response)
      assert.deepStrictEqual([...set.keys()].sort(), ["shop", "shop.refresh"])
      for (const c of set.values()) {
        assert.isFalse(c.secure, c.name)
        assert.strictEqual(c.maxAge, 3600)
      }
      assert.strictEqual(readReadable(set.get("shop")?.value)!.r, "visitor")
    }))

  // ---------------------------------------------------------------------------------------------
  // the session route: POST

  it.effect("the route saves a member's tokens: the refresh token in the httpOnly cookie only, the page's view with its stand-in", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const tokens = yield* memberTokens
      const response = yield* Effect.promise(() => site.route.POST(routePost({ save: { tokens } })))
      const body = yield* text(response)
      assert.strictEqual(response.status, 200, body)
      assert.strictEqual(response.headers.get("cache-control"), "no-store")
      assert.notInclude(body, tokens.refreshToken.value)
      const set = setCookies(response)
      assert.isTrue(set.get(SECRET)!.httpOnly)
      assert.isFalse(set.get(READABLE)!.httpOnly)
      assert.notInclude(set.get(READABLE)!.value, tokens.refreshToken.value)
      const readable = readReadable(set.get(READABLE)?.value)!
      const secret = readPrivate(set.get(SECRET)?.value)!
      assert.deepStrictEqual(secret, { t: tokens.refreshToken.value, r: "member", s: readable.s })
      assert.deepStrictEqual(readable, { a: tokens.accessToken.value, e: tokens.accessToken.expiresAt, r: "member", s: secret.s })
      assert.deepStrictEqual(JSON.parse(body), {
        session: { tokens: { accessToken: tokens.accessToken, refreshToken: { value: `${REFRESH_STAND_IN}${secret.s}`, role: "member" } } }
      })
      assert.strictEqual(yield* whoIs(platform, readable.a), platform.demoMember!.email)
    }))

  it.effect("the route keeps the held refresh token for its stand-in, and a stand-in of another token saves no session", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const tokens = yield* memberTokens
      const jar = new Jar().apply(yield* Effect.promise(() => site.route.POST(routePost({ save: { tokens } }))))
      const page = (JSON.parse(yield* text(yield* Effect.promise(() => site.route.POST(routePost({ save: { tokens } }, jar.header))))) as { session: StoredSession }).session
      // the page saves its own view, with a redirect login's PKCE data
      const oauthData = { state: "st", codeVerifier: "cv", codeChallenge: "cc", redirectUri: `${APP}/api/sitefx`, originalUri: "/account" }
      const response = yield* Effect.promise(() => site.route.POST(routePost({ save: { ...page, oauthData } }, jar.header)))
      const body = yield* text(response)
      assert.strictEqual(response.status, 200, body)
      assert.notInclude(body, tokens.refreshToken.value)
      assert.notInclude(body, "cv")
      const secret = readPrivate(setCookies(response).get(SECRET)?.value)!
      assert.strictEqual(secret.t, tokens.refreshToken.value)
      assert.strictEqual(secret.s, readPrivate(jar.get(SECRET))!.s)
      assert.deepStrictEqual(secret.o, oauthData)
      assert.deepStrictEqual((JSON.parse(body) as { session: StoredSession }).session, page)

      // the stand-in of a token the browser no longer holds
      const other = { tokens: { ...page.tokens, refreshToken: { value: `${REFRESH_STAND_IN}${"0".repeat(24)}`, role: "member" } } }
      const refused = yield* Effect.promise(() => site.route.POST(routePost({ save: other }, jar.header)))
      assert.strictEqual(refused.status, 200)
      const cleared = setCookies(refused)
      assert.strictEqual(cleared.get(READABLE)?.maxAge, 0)
      assert.strictEqual(cleared.get(SECRET)?.maxAge, 0)
    }))

  it.effect("the route clears both cookies for an empty session", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const jar = new Jar().apply(yield* Effect.promise(() => site.proxy(pageRequest("/"))))
      const empty = { tokens: { accessToken: { value: "", expiresAt: 0 }, refreshToken: { value: "", role: "none" } } }
      const response = yield* Effect.promise(() => site.route.POST(routePost({ save: empty }, jar.header)))
      assert.strictEqual(response.status, 200)
      const set = setCookies(response)
      for (const name of [READABLE, SECRET]) {
        assert.strictEqual(set.get(name)?.maxAge, 0, name)
        assert.strictEqual(set.get(name)?.value, "", name)
      }
      assert.isTrue(set.get(SECRET)!.httpOnly)
      assert.deepStrictEqual(JSON.parse(yield* text(response)), { session: empty })
      assert.strictEqual(jar.apply(response).header, "")
    }))

  it.effect("the route renews the tokens when the page's access token is the one the platform rejected, and only then", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const tokens = yield* memberTokens
      const jar = new Jar().apply(yield* Effect.promise(() => site.route.POST(routePost({ save: { tokens } }))))
      const held = readPrivate(jar.get(SECRET))!

      // an access token the session no longer has: the current one is answered, nothing is asked
      let before = yield* tokenRequests
      const stale = yield* Effect.promise(() => site.route.POST(routePost({ renew: "an-older-access-token" }, jar.header)))
      const staleBody = yield* text(stale)
      assert.strictEqual(stale.status, 200, staleBody)
      assert.deepStrictEqual(yield* tokenRequests, before)
      assert.strictEqual((JSON.parse(staleBody) as { session: StoredSession }).session.tokens.accessToken.value, tokens.accessToken.value)

      before = yield* tokenRequests
      const response = yield* Effect.promise(() => site.route.POST(routePost({ renew: tokens.accessToken.value }, jar.header)))
      const body = yield* text(response)
      assert.strictEqual(response.status, 200, body)
      const after = yield* tokenRequests
      assert.strictEqual(after.refresh_token - before.refresh_token, 1)
      assert.strictEqual(after.anonymous - before.anonymous, 0)
      assert.notInclude(body, tokens.refreshToken.value)
      const page = (JSON.parse(body) as { session: StoredSession }).session
      assert.notStrictEqual(page.tokens.accessToken.value, tokens.accessToken.value)
      assert.deepStrictEqual(page.tokens.refreshToken, { value: `${REFRESH_STAND_IN}${held.s}`, role: "member" })
      const set = setCookies(response)
      assert.deepStrictEqual(readPrivate(set.get(SECRET)?.value), held)
      assert.strictEqual(readReadable(set.get(READABLE)?.value)!.a, page.tokens.accessToken.value)
      assert.strictEqual(yield* whoIs(platform, page.tokens.accessToken.value), platform.demoMember!.email)
    }))

  it.effect("the route gives a browser without a session a visitor's tokens when the page asks to renew", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const before = yield* tokenRequests
      const response = yield* Effect.promise(() => site.route.POST(routePost({ renew: "" })))
      assert.strictEqual(response.status, 200)
      assert.strictEqual((yield* tokenRequests).anonymous - before.anonymous, 1)
      const page = (JSON.parse(yield* text(response)) as { session: StoredSession }).session
      assert.strictEqual(page.tokens.refreshToken.role, "visitor")
      assert.isTrue(page.tokens.refreshToken.value.startsWith(REFRESH_STAND_IN))
      assert.strictEqual(readReadable(setCookies(response).get(READABLE)?.value)!.a, page.tokens.accessToken.value)
    }))

  it.effect("the route answers 502 with a message when the platform cannot renew, and sets nothing", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = nextSite({ clientId: platform.clientId, baseUrl: "http://127.0.0.1:9" })
      const response = yield* Effect.promise(() => site.route.POST(routePost({ renew: "" })))
      assert.strictEqual(response.status, 502)
      assert.match((JSON.parse(yield* text(response)) as { message: string }).message, /did not renew the session/)
      assert.deepStrictEqual(response.headers.getSetCookie(), [])
    }))

  it.effect("the route takes the app's own page behind a proxy by the host the browser asked for", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const empty = { save: { tokens: { accessToken: { value: "", expiresAt: 0 }, refreshToken: { value: "", role: "none" } } } }
      const proxied = { host: "10.0.0.5:3000", "x-forwarded-host": "shop.example", origin: "https://shop.example", "sec-fetch-site": "same-origin" }
      assert.strictEqual((yield* Effect.promise(() => site.route.POST(routePost(empty, "", proxied)))).status, 200)
      const elsewhere = { ...proxied, origin: "https://10.0.0.5:3000" }
      assert.strictEqual((yield* Effect.promise(() => site.route.POST(routePost(empty, "", elsewhere)))).status, 403)
    }))

  it.effect("the route refuses another site's pages with 403 and a message, and sets nothing", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const body = { save: { tokens: { accessToken: { value: "a", expiresAt: 1 }, refreshToken: { value: "planted", role: "member" } } } }
      const cases: ReadonlyArray<Record<string, string>> = [
        { host: "127.0.0.1:3000", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        { host: "127.0.0.1:3000", origin: "https://evil.example" },
        { host: "127.0.0.1:3000", "sec-fetch-site": "same-site" },
        { host: "127.0.0.1:3000", origin: APP, "sec-fetch-site": "cross-site" },
        // no Origin, and nothing that says the page is the app's own
        { host: "127.0.0.1:3000" },
        { host: "127.0.0.1:3000", origin: "null" },
        { origin: APP }
      ]
      for (const headers of cases) {
        const response = yield* Effect.promise(() => site.route.POST(routePost(body, "", headers)))
        const said = yield* text(response)
        assert.strictEqual(response.status, 403, JSON.stringify(headers))
        assert.match((JSON.parse(said) as { message: string }).message, /app's own pages/)
        assert.deepStrictEqual(response.headers.getSetCookie(), [])
      }
      // the app's own page without Sec-Fetch-Site (an older browser) is taken by its Origin
      const own = yield* Effect.promise(() => site.route.POST(routePost({ save: { tokens: { accessToken: { value: "", expiresAt: 0 }, refreshToken: { value: "", role: "none" } } } }, "", { host: "127.0.0.1:3000", origin: APP })))
      assert.strictEqual(own.status, 200)
    }))

  it.effect("the route answers a body it cannot take with 415, 413 or 400 and a message, and sets nothing", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const jar = new Jar().apply(yield* Effect.promise(() => site.proxy(pageRequest("/"))))
      const refresh = readPrivate(jar.get(SECRET))!.t
      const plain = new NextRequest(`${APP}/api/sitefx`, { method: "POST", headers: { ...SAME_ORIGIN, "content-type": "text/plain", cookie: jar.header }, body: "{}" })
      const cases: ReadonlyArray<readonly [NextRequest, number, RegExp]> = [
        [plain, 415, /application\/json/],
        [routePost("{ not json", jar.header), 400, /not JSON/],
        [routePost("", jar.header), 400, /not JSON/],
        [routePost({}, jar.header), 400, /\{ save \} or \{ renew \}/],
        [routePost([], jar.header), 400, /\{ save \} or \{ renew \}/],
        [routePost(null, jar.header), 400, /\{ save \} or \{ renew \}/],
        [routePost("42", jar.header), 400, /\{ save \} or \{ renew \}/],
        [routePost({ save: null }, jar.header), 400, /not a session document/],
        [routePost({ save: { tokens: { accessToken: { value: 1 } } } }, jar.header), 400, /not a session document/],
        [routePost({ save: { tokens: { accessToken: { value: "a", expiresAt: 1 }, refreshToken: { value: "r", role: "admin" } } } }, jar.header), 400, /not a session document/],
        [routePost({ renew: 5 }, jar.header), 400, /`renew` names/],
        [routePost({ renew: null }, jar.header), 400, /`renew` names/],
        // a body far larger than any session document is not read
        [routePost({ renew: "x".repeat(40_000) }, jar.header), 413, /at most 32768 bytes/]
      ]
      for (const [request, status, message] of cases) {
        const response = yield* Effect.promise(() => site.route.POST(request))
        const said = yield* text(response)
        assert.strictEqual(response.status, status, said)
        assert.match((JSON.parse(said) as { message: string }).message, message)
        assert.notInclude(said, refresh)
        assert.deepStrictEqual(response.headers.getSetCookie(), [])
      }
    }))

  // ---------------------------------------------------------------------------------------------
  // the session route: GET, a redirect login's callback

  it.effect("the route completes a redirect login: member cookies, the PKCE data gone, 303 to the page it started from", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const { jar, callback } = yield* redirectLogin("/account?tab=orders")
      assert.isDefined(readPrivate(jar.get(SECRET))!.o)
      assert.isTrue(callback.startsWith(`${APP}/api/sitefx?`), callback)
      const before = yield* tokenRequests
      const response = yield* Effect.promise(() => site.route.GET(new NextRequest(callback, { headers: { cookie: jar.header } })))
      assert.strictEqual(response.status, 303, yield* text(response.clone()))
      // a path: the browser stays on the host it is on (Next's URLs call 127.0.0.1 `localhost`)
      assert.strictEqual(response.headers.get("location"), "/account?tab=orders")
      assert.strictEqual((yield* tokenRequests).authorization_code - before.authorization_code, 1)
      const set = setCookies(response)
      const readable = readReadable(set.get(READABLE)?.value)!
      const secret = readPrivate(set.get(SECRET)?.value)!
      assert.strictEqual(readable.r, "member")
      assert.strictEqual(secret.r, "member")
      assert.isUndefined(secret.o)
      assert.isTrue(set.get(SECRET)!.httpOnly)
      assert.notInclude(set.get(READABLE)!.value, secret.t)
      assert.strictEqual(yield* whoIs(platform, readable.a), platform.demoMember!.email)
    }))

  it.effect("the route sends a login back to a page of this site only, and one of another site to the home page", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const cases = [
        [`${APP}/account#orders`, "/account#orders"],
        ["", "/"],
        [`${APP}//evil.example/steal`, "/evil.example/steal"],
        ["https://evil.example/steal", "/"],
        ["//evil.example/steal", "/"],
        ["/\\evil.example/steal", "/"],
        ["https://127.0.0.1:3000.evil.example/", "/"],
        ["javascript:alert(1)", "/"]
      ] as const
      for (const [originalUri, location] of cases) {
        const { jar, callback } = yield* redirectLogin(originalUri)
        const response = yield* Effect.promise(() => site.route.GET(new NextRequest(callback, { headers: { cookie: jar.header, host: "127.0.0.1:3000" } })))
        assert.strictEqual(response.status, 303, originalUri)
        assert.strictEqual(response.headers.get("location"), location, originalUri)
        assert.strictEqual(readReadable(setCookies(response).get(READABLE)?.value)?.r, "member")
      }
    }))

  it.effect("the route answers a callback with no login under way, or of another login, with 400 and a readable message", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const { jar, callback } = yield* redirectLogin("/account")

      // the browser lost its cookies (or never started a login here)
      const lost = yield* Effect.promise(() => site.route.GET(new NextRequest(callback)))
      assert.strictEqual(lost.status, 400)
      assert.match(lost.headers.get("content-type")!, /^text\/plain/)
      assert.match(yield* text(lost), /no sign-in is under way/)
      assert.deepStrictEqual(lost.headers.getSetCookie(), [])

      // a callback whose state is not this browser's login's
      const forged = new URL(callback)
      forged.searchParams.set("state", "another-login")
      const before = yield* tokenRequests
      const wrong = yield* Effect.promise(() => site.route.GET(new NextRequest(forged, { headers: { cookie: jar.header } })))
      assert.strictEqual(wrong.status, 400)
      assert.match(yield* text(wrong), /could not be completed: .*state/i)
      assert.deepStrictEqual(wrong.headers.getSetCookie(), [])
      assert.strictEqual((yield* tokenRequests).authorization_code, before.authorization_code)

      // the platform's refusal in the callback
      const denied = new URL(`${APP}/api/sitefx?error=access_denied&error_description=The+member+cancelled&state=${new URL(callback).searchParams.get("state")}`)
      const refused = yield* Effect.promise(() => site.route.GET(new NextRequest(denied, { headers: { cookie: jar.header } })))
      assert.strictEqual(refused.status, 400)
      assert.match(yield* text(refused), /could not be completed/)

      // and the real callback still completes afterwards
      const done = yield* Effect.promise(() => site.route.GET(new NextRequest(callback, { headers: { cookie: jar.header } })))
      assert.strictEqual(done.status, 303)
    }))

  // ---------------------------------------------------------------------------------------------
  // the server's own visitor

  it.effect("public data runs as one visitor per server process, and loads query atoms for the page", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = siteOf(platform)
      const before = yield* tokenRequests
      const first = yield* Effect.promise(() => site.runPublic(SessionTokens.use((s) => s.ensureTokens)))
      const again = yield* Effect.promise(() => siteOf(platform).runPublic(SessionTokens.use((s) => s.ensureTokens)))
      assert.strictEqual(first.refreshToken.role, "visitor")
      assert.strictEqual(again.accessToken.value, first.accessToken.value)
      assert.strictEqual((yield* tokenRequests).anonymous - before.anonymous, 1)

      const runtime = Atom.runtime(siteClient({ clientId: platform.clientId, baseUrl: platform.url }))
      const newest = queryAtoms(runtime).products(Products.query().ascending("name").limit(3))
      const dehydrated = yield* Effect.promise(() => site.dehydrate(runtime, [newest], { public: true }))
      // the server's visitor loads them: no visitor of the runtime's own
      assert.strictEqual((yield* tokenRequests).anonymous - before.anonymous, 1)
      const loaded = dehydrated.queries[newest.key]!
      const names = loaded.items.map((p) => (p as { name: string }).name)
      assert.strictEqual(names.length, 3)
      assert.deepStrictEqual(names, [...names].sort((a, b) => a.localeCompare(b)))
    }))
})

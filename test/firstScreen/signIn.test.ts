/**
 * A member's sign-in on a page's first script (`signIn` of `sitefx/first-screen`), against the local
 * platform: on a SUCCESS the member's tokens land in the tabs' store, where the full client starts as
 * the member without asking for a token; a wrong password is the FAILURE the member flows report; a step
 * left (email verification, MFA, owner approval) comes back with what the member flows go on from; calls
 * without a verdict are typed ERRORs; and what it sends is what the member flows send, with either way
 * of reaching the authorize page (its redirect, a hidden frame's message).
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { sessionToken, signIn, type SignInResult } from "../../src/firstScreen/index.ts"
import { PlatformClient } from "../../src/http/PlatformClient.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { AuthorizeAgent, type FrameWindow } from "../../src/session/AuthorizeAgent.ts"
import { MyMemberResponse } from "../../src/session/guards/members.ts"
import type { LoginResult } from "../../src/session/LoginResult.ts"
import { MemberFlows } from "../../src/session/MemberFlows.ts"
import { Paths } from "../../src/session/protocol.ts"
import { SessionTokens } from "../../src/session/SessionTokens.ts"
import { siteMembers } from "../../src/session/SiteMembers.ts"
import { siteSession } from "../../src/session/SiteSession.ts"
import { tabTokenStore } from "../../src/session/tabs.ts"
import { TokenStore } from "../../src/session/TokenStore.ts"
import { MemoryStorage, recording, type Sent } from "../support/firstScreen.ts"
import { dev, LocalPlatform, settings, stats, uniqueEmail } from "../support/platform.ts"
import { totp } from "../support/totp.ts"

const PASSWORD = "correct horse battery"
const defaults = { captcha: false, emailVerification: false, ownerApproval: false, mfaRequired: false }

let keys = 0
/** The tabs' store of one test (Node's Web Locks are one per process, so a key of its own). */
const tabs = (platform: LocalPlatform["Service"]) => {
  const storage = new MemoryStorage()
  const key = `sign-in.test.${++keys}`
  const options = { clientId: platform.clientId, baseUrl: platform.url, key, storage, locks: navigator.locks }
  const stored = () => JSON.parse(storage.getItem(key) ?? "null") as { tokens: { accessToken: { value: string }; refreshToken: { value: string; role: string } } } | null
  return { storage, key, options, stored, store: tabTokenStore({ storage, key, locks: navigator.locks }) }
}

/** The member flows over the tabs' store, as a sign-in page on the client builds them. */
const membersOn = (platform: LocalPlatform["Service"], store: Layer.Layer<TokenStore>, agent: Layer.Layer<AuthorizeAgent> = AuthorizeAgent.http()) =>
  siteMembers({ clientId: platform.clientId, baseUrl: platform.url, tokens: store, authorizeAgent: agent })

/** A member registered (with the site's settings of the moment) from a session of its own. */
const registered = (email: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* MemberFlows.use((m) => m.register({ email, password: PASSWORD })).pipe(Effect.provide(membersOn(platform, TokenStore.memory())))
  })

const idOf = (result: LoginResult | SignInResult): string => {
  if (!("identity" in result) || result.identity === undefined) throw new Error(`no identity in ${JSON.stringify(result)}`)
  return result.identity.id
}

const signedIn = (options: Parameters<typeof signIn>[0], email: string, password = PASSWORD) => Effect.promise(() => signIn(options, { email, password }))

const tokenRequests = Effect.map(stats, (s) => s.tokenRequests)

/** The requests of a direct login with what differs from one login to the next (PKCE, codes, one-time tokens, ids) named, not compared. */
const flow = (sent: ReadonlyArray<Sent>) =>
  sent.map(({ method, url, body, authorization }) => {
    const u = new URL(url)
    const fields = body === undefined ? undefined : JSON.parse(body, (k, v) => ["codeChallenge", "state", "sessionToken", "code", "codeVerifier"].includes(k) && typeof v === "string" && v.length > 0 ? `<${k}>` : v)
    // the body as sent, key order and all
    return { method, path: u.pathname, query: u.pathname === "/oauth2/authorize" ? "<redirect session>" : u.search, body: JSON.stringify(fields), fields, authorized: authorization !== undefined }
  })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("signIn of sitefx/first-screen on the local platform", (it) => {
  const fresh = <A, E, R>(effect: Effect.Effect<A, E, R>) => settings(defaults).pipe(Effect.andThen(effect), Effect.ensuring(Effect.orDie(settings(defaults))))

  it.effect("signs a member in: the full session on the same store is the member, and asks for no token", () =>
    fresh(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail("sign-in")
      yield* registered(email)
      const t = tabs(platform)
      const result = yield* signedIn(t.options, email)
      assert.strictEqual(result.loginState, "SUCCESS")
      assert.isString(idOf(result))
      assert.strictEqual(t.stored()?.tokens.refreshToken.role, "member")
      const before = yield* tokenRequests
      const session = siteSession({ clientId: platform.clientId, baseUrl: platform.url, tokens: t.store })
      const [loggedIn, member] = yield* Effect.all([
        SessionTokens.use((s) => s.loggedIn),
        PlatformClient.use((c) => c.json({ method: "GET", path: Paths.myMember }, MyMemberResponse))
      ]).pipe(Effect.provide(session))
      assert.isTrue(loggedIn)
      assert.strictEqual(member.member.loginEmail, email)
      assert.strictEqual(member.member.id, idOf(result))
      assert.deepStrictEqual(yield* tokenRequests, before)
      // and the member flows of a sign-in page on the client, too
      assert.isTrue(yield* SessionTokens.use((s) => s.loggedIn).pipe(Effect.provide(membersOn(platform, t.store))))
      assert.notInclude(JSON.stringify(result), PASSWORD)
    })))

  it.effect("sends the member flows' own requests: the login, the redirect session, the authorize page and the code's exchange", () =>
    fresh(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail("sign-in")
      yield* registered(email)
      const [early, full] = [recording(), recording()]
      const [a, b] = [tabs(platform), tabs(platform)]
      // both start from a visitor's tokens in their store
      const visitorA = yield* Effect.promise(() => sessionToken(a.options))
      yield* SessionTokens.use((s) => s.ensureTokens).pipe(Effect.provide(membersOn(platform, b.store)))
      assert.isString(visitorA)

      const result = yield* signedIn({ ...a.options, fetch: early.fetch }, email)
      assert.strictEqual(result.loginState, "SUCCESS")
      yield* Effect.gen(function*() {
        const members = yield* MemberFlows
        const login = yield* members.login({ email, password: PASSWORD })
        if (login.loginState !== "SUCCESS") return assert.fail(login.loginState)
        yield* members.completeDirectLogin(login.data.sessionToken)
      }).pipe(Effect.provide(membersOn(platform, b.store, AuthorizeAgent.http({ fetch: full.fetch }))), Effect.provideService(PlatformFetch, full.fetch))

      assert.deepStrictEqual(flow(early.sent), flow(full.sent))
      assert.deepStrictEqual(flow(early.sent).map((r) => `${r.method} ${r.path}`), [
        "POST /_api/iam/authentication/v2/login",
        "POST /_api/redirects-api/v1/redirect-session",
        "GET /oauth2/authorize",
        "POST /oauth2/token"
      ])
      // the calls of the session's own carry the visitor's token the tabs share; the exchange none
      assert.deepStrictEqual(early.sent.map((r) => r.authorization), [visitorA, visitorA, undefined, undefined])
      assert.strictEqual(JSON.parse(early.sent[0]!.body!).password, PASSWORD)
      assert.deepStrictEqual(flow(early.sent)[3]!.fields, {
        clientId: platform.clientId,
        grantType: "authorization_code",
        redirectUri: "http://127.0.0.1/sitefx/callback",
        code: "<code>",
        codeVerifier: "<codeVerifier>"
      })
      assert.strictEqual(a.stored()?.tokens.refreshToken.role, "member")
      assert.strictEqual(b.stored()?.tokens.refreshToken.role, "member")
    })))

  it.effect("answers a wrong password or an unknown email as the member flows do, and leaves the session as it was", () =>
    fresh(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail("sign-in")
      yield* registered(email)
      const t = tabs(platform)
      for (const [who, password] of [[email, "not the password"], [uniqueEmail("nobody"), PASSWORD]] as const) {
        const result = yield* signedIn(t.options, who, password)
        const theirs = yield* MemberFlows.use((m) => m.login({ email: who, password })).pipe(Effect.provide(membersOn(platform, TokenStore.memory())))
        assert.strictEqual(result.loginState, "FAILURE")
        assert.deepStrictEqual(result, theirs as SignInResult)
        assert.notInclude(JSON.stringify(result), password)
      }
      assert.deepInclude(yield* signedIn(t.options, email, "not the password"), { errorCode: "invalidPassword" })
      assert.strictEqual(t.stored()?.tokens.refreshToken.role, "visitor")
    })))

  it.effect("a member whose email is to be verified: the state token, and the member flows finish the sign-in from it", () =>
    fresh(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      yield* settings({ emailVerification: true })
      const email = uniqueEmail("verify")
      assert.strictEqual((yield* registered(email)).loginState, "EMAIL_VERIFICATION_REQUIRED")
      const t = tabs(platform)
      const result = yield* signedIn(t.options, email)
      if (result.loginState !== "EMAIL_VERIFICATION_REQUIRED") return assert.fail(JSON.stringify(result))
      assert.isNotEmpty(result.data.stateToken)
      assert.strictEqual(t.stored()?.tokens.refreshToken.role, "visitor")
      // the client, loaded later on the same store, goes on with the code the platform mailed
      const code = (yield* dev<{ messages: ReadonlyArray<{ kind: string; code?: string }> }>(`/outbox?to=${encodeURIComponent(email)}`)).messages.filter((m) => m.kind === "EMAIL_VERIFICATION").at(-1)!.code!
      yield* Effect.gen(function*() {
        const members = yield* MemberFlows
        const verified = yield* members.verify({ code, stateToken: result.data.stateToken })
        if (verified.loginState !== "SUCCESS") return assert.fail(JSON.stringify(verified))
        yield* members.completeDirectLogin(verified.data.sessionToken)
      }).pipe(Effect.provide(membersOn(platform, t.store)))
      assert.strictEqual(t.stored()?.tokens.refreshToken.role, "member")
    })))

  it.effect("a member with MFA, or waiting for the owner's approval: the step, as the member flows go on from it", () =>
    fresh(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail("mfa")
      const enrolled = yield* dev<{ secret: string }>(`/members/${idOf(yield* registered(email))}/factors`, { body: { type: "TOTP" } })
      const t = tabs(platform)
      const result = yield* signedIn(t.options, email)
      if (result.loginState !== "MFA_REQUIRED") return assert.fail(JSON.stringify(result))
      assert.deepStrictEqual(result.data.factors, ["TOTP"])
      yield* Effect.gen(function*() {
        const members = yield* MemberFlows
        const verified = yield* members.verifyFactor({ factorType: "TOTP", code: totp(enrolled.secret), stateToken: result.data.stateToken })
        if (verified.loginState !== "SUCCESS") return assert.fail(JSON.stringify(verified))
        yield* members.completeDirectLogin(verified.data.sessionToken)
      }).pipe(Effect.provide(membersOn(platform, t.store)))
      assert.strictEqual(t.stored()?.tokens.refreshToken.role, "member")

      yield* settings({ ownerApproval: true })
      const waiting = uniqueEmail("approval")
      const id = idOf(yield* registered(waiting))
      const u = tabs(platform)
      const pending = yield* signedIn(u.options, waiting)
      assert.strictEqual(pending.loginState, "OWNER_APPROVAL_REQUIRED")
      assert.strictEqual(idOf(pending), id)
      yield* dev(`/members/${id}/approve`, { body: {} })
      assert.strictEqual((yield* signedIn(u.options, waiting)).loginState, "SUCCESS")
      assert.strictEqual(u.stored()?.tokens.refreshToken.role, "member")
    })))

  it.effect("renews a token the platform rejects and sends the login again, as the client's calls do", () =>
    fresh(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail("sign-in")
      yield* registered(email)
      const t = tabs(platform)
      t.storage.setItem(t.key, JSON.stringify({ tokens: { accessToken: { value: "revoked", expiresAt: Math.floor(Date.now() / 1000) + 3600 }, refreshToken: { value: "gone", role: "visitor" } } }))
      const sent = recording()
      const result = yield* signedIn({ ...t.options, fetch: sent.fetch }, email)
      assert.strictEqual(result.loginState, "SUCCESS")
      assert.deepStrictEqual(sent.sent.map((r) => new URL(r.url).pathname).slice(0, 4), ["/_api/iam/authentication/v2/login", "/oauth2/token", "/oauth2/token", "/_api/iam/authentication/v2/login"])
      assert.strictEqual(sent.sent[0]!.authorization, "revoked")
      // the refused refresh gave way to a visitor's tokens, as the token service's does
      assert.deepStrictEqual(sent.sent.slice(1, 3).map((r) => JSON.parse(r.body!).grantType), ["refresh_token", "anonymous"])
      assert.strictEqual(t.stored()?.tokens.refreshToken.role, "member")
    })))

  it.effect("answers a call without a verdict as a typed ERROR, never rejecting", () =>
    fresh(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail("sign-in")
      yield* registered(email)
      const unreachable = yield* signedIn({ ...tabs(platform).options, baseUrl: "http://127.0.0.1:1" }, email)
      assert.deepInclude(unreachable, { loginState: "ERROR", reason: "unreachable", step: "token" })
      const unknownClient = yield* signedIn({ ...tabs(platform).options, clientId: "no-such-client" }, email)
      assert.deepInclude(unknownClient, { loginState: "ERROR", reason: "refused", step: "token" })
      assert.isAtLeast((unknownClient as { status: number }).status, 400)
      const noStorage = yield* Effect.promise(() => signIn({ clientId: platform.clientId, baseUrl: platform.url, storage: undefined }, { email, password: PASSWORD }))
      assert.deepInclude(noStorage, { loginState: "ERROR", reason: "noStorage" })
      // the authorize page's answer is checked: a page that does not redirect
      const t = tabs(platform)
      const noRedirect: typeof fetch = (input, init) => init?.redirect === "manual" ? Promise.resolve(new Response("<html>", { status: 200 })) : fetch(input, init)
      assert.deepInclude(yield* signedIn({ ...t.options, fetch: noRedirect }, email), { loginState: "ERROR", reason: "authorize", error: "no_redirect" })
      assert.strictEqual(t.stored()?.tokens.refreshToken.role, "visitor")
      for (const r of [unreachable, unknownClient, noStorage]) assert.notInclude(JSON.stringify(r), PASSWORD)
    })))

  it.effect("in a page, completes on the authorize page in a hidden frame, as the client's frame agent does", () =>
    fresh(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail("frame")
      yield* registered(email)
      const page = framePage()
      const [early, full] = [recording(), recording()]
      const [a, b] = [tabs(platform), tabs(platform)]
      yield* Effect.promise(() => sessionToken(a.options))
      yield* SessionTokens.use((s) => s.ensureTokens).pipe(Effect.provide(membersOn(platform, b.store)))
      const g = globalThis as Record<string, unknown>
      g["document"] = page.window.document
      g["addEventListener"] = page.window.addEventListener
      g["removeEventListener"] = page.window.removeEventListener
      const result = yield* signedIn({ ...a.options, fetch: early.fetch }, email).pipe(Effect.ensuring(Effect.sync(() => {
        delete g["document"]
        delete g["addEventListener"]
        delete g["removeEventListener"]
      })))
      assert.strictEqual(result.loginState, "SUCCESS")
      assert.strictEqual(a.stored()?.tokens.refreshToken.role, "member")
      assert.strictEqual(page.framesLeft(), 0)
      assert.strictEqual(page.listeners(), 0)
      yield* Effect.gen(function*() {
        const members = yield* MemberFlows
        const login = yield* members.login({ email, password: PASSWORD })
        if (login.loginState !== "SUCCESS") return assert.fail(login.loginState)
        yield* members.completeDirectLogin(login.data.sessionToken)
      }).pipe(Effect.provide(membersOn(platform, b.store, AuthorizeAgent.iframe({ window: page.window }))), Effect.provideService(PlatformFetch, full.fetch))
      // the frame's page loads are the page's, not the script's: what the two send is the rest
      assert.deepStrictEqual(flow(early.sent), flow(full.sent))
      const session = flow(early.sent)[1]!.fields as { auth: { authRequest: Record<string, unknown> } }
      assert.strictEqual(session.auth.authRequest["responseMode"], "web_message")
      assert.notProperty(session.auth.authRequest, "redirectUri")
      assert.notProperty(flow(early.sent)[2]!.fields, "redirectUri")
    })))
})

/**
 * A page for the hidden frame: a frame appended loads its page from the local platform, and the
 * message that page would post to its parent is delivered from the page's origin, after a forged one
 * from another origin and one for another login, which must both be ignored.
 */
const framePage = () => {
  type Listener = (event: { readonly data: unknown; readonly origin: string }) => void
  const listeners = new Set<Listener>()
  let frames = 0
  const deliver = (event: { data: unknown; origin: string }) => {
    for (const listener of [...listeners]) listener(event)
  }
  const window: FrameWindow = {
    document: {
      createElement: () => {
        frames++
        return { style: { display: "" }, src: "", remove: () => void frames-- }
      },
      body: {
        appendChild: <T>(node: T): T => {
          const src = (node as { src: string }).src
          void fetch(src).then((r) => r.text()).then((html) => {
            const message = JSON.parse(/var message = (.*);/.exec(html)![1]!) as { state: string }
            deliver({ data: { ...message, code: "forged" }, origin: "http://evil.example" })
            deliver({ data: { ...message, state: "another login" }, origin: new URL(src).origin })
            deliver({ data: message, origin: new URL(src).origin })
          })
          return node
        }
      }
    },
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener)
  }
  return { window, framesLeft: () => frames, listeners: () => listeners.size }
}

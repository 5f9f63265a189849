/**
 * sitefx must send what the platform's official client sends. Both run the same session calls against
 * the local platform; every request is recorded; method, path and JSON body must match (random values
 * such as PKCE challenges, states and codes compared by presence and type only).
 */
import { assert, it } from "@effect/vitest"
import { OAuthStrategy } from "@wix/sdk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { Session } from "../../src/session/Session.ts"
import { Site } from "../../src/Site.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { LocalPlatform, settings, lastMessage, uniqueEmail } from "../support/platform.ts"

interface Recorded {
  readonly method: string
  readonly path: string
  readonly body: unknown
  readonly authorization: string | null
}

const VOLATILE = new Set(["codeChallenge", "state", "codeVerifier", "code", "refreshToken", "stateToken", "sessionToken", "email", "member_id", "postFlowUrl"])

/** Keeps the shape; random values become their type. */
const normalize = (value: unknown, key?: string): unknown => {
  if (Array.isArray(value)) return value.map((v) => normalize(v))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, normalize(v, k)]))
  }
  return key !== undefined && VOLATILE.has(key) ? `<${typeof value}>` : value
}

const recorder = (baseUrl: string) => {
  const log: Array<Recorded> = []
  const original = globalThis.fetch
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url.replace(/^https:\/\/(www|edge)\.wixapis\.com/, baseUrl))
    const text = request.method === "GET" || request.method === "HEAD" ? "" : await request.clone().text()
    log.push({
      method: request.method,
      path: url.pathname,
      body: text === "" ? undefined : JSON.parse(text),
      authorization: request.headers.get("authorization")
    })
    return original(new Request(url, { method: request.method, headers: request.headers, ...(text === "" ? {} : { body: text }), redirect: request.redirect }))
  }
  return { log, fetchImpl, original }
}

const PASSWORD = "wire test password"

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("sitefx sends what the official client sends", (it) => {
  it.effect("token, redirect-session and identity calls match", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const rec = recorder(platform.url)
      globalThis.fetch = rec.fetchImpl
      yield* Effect.addFinalizer(() => Effect.sync(() => { globalThis.fetch = rec.original }))
      const redirectUri = "http://127.0.0.1:5173/callback"

      /** Runs a step and returns what it sent, minus the token calls made only to get a visitor token. */
      const sent = async (step: () => Promise<unknown>, keep: (r: Recorded) => boolean) => {
        const from = rec.log.length
        await step()
        return rec.log.slice(from).filter(keep).map((r) => ({ ...r, body: normalize(r.body) }))
      }
      const path = (p: string) => (r: Recorded) => r.path === p
      const grant = (g: string) => (r: Recorded) =>
        r.path === "/oauth2/token" && ((r.body as any)?.grantType === g || (r.body as any)?.grant_type === g)

      // the official client
      const official = OAuthStrategy({ clientId: platform.clientId })
      const followForm = async (url: string, email: string, password: string) => {
        const res = await rec.original(url, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ email, password }).toString()
        })
        return res.headers.get("location")!
      }
      const demo = { email: platform.demoMember!.email, password: Redacted.value(platform.demoMember!.password) }
      const officialEmail = uniqueEmail("wire-official")
      const o: Record<string, Array<unknown>> = yield* Effect.promise(async () => {
        const out: Record<string, Array<unknown>> = {}
        out.anonymous = await sent(async () => official.setTokens(await official.generateVisitorTokens()), grant("anonymous"))
        out.refresh = await sent(() => official.renewToken(official.getTokens().refreshToken), grant("refresh_token"))
        const data = official.generateOAuthData(redirectUri, "http://127.0.0.1:5173/account")
        let authUrl = ""
        out.loginUrl = await sent(async () => {
          authUrl = (await official.getAuthUrl(data, { responseMode: "query", prompt: "login" })).authUrl
        }, path("/_api/redirects-api/v1/redirect-session"))
        const location = await followForm(authUrl, demo.email, demo.password)
        const cb = official.parseFromUrl(location, "query")
        out.exchange = await sent(async () => official.setTokens(await official.getMemberTokens(cb.code!, cb.state!, data)), grant("authorization_code"))
        out.login = await sent(() => official.login({ email: demo.email, password: demo.password }), path("/_api/iam/authentication/v2/login"))
        out.register = await sent(
          () => official.register({ email: officialEmail, password: PASSWORD, profile: { nickname: "wire" } }),
          path("/_api/iam/authentication/v2/register")
        )
        out.reset = await sent(() => official.sendPasswordResetEmail(demo.email, "http://127.0.0.1:5173/reset"), path("/_api/iam/recovery/v1/send-email"))
        out.logout = await sent(() => official.logout("http://127.0.0.1:5173/bye"), path("/_api/redirects-api/v1/redirect-session"))
        out.external = await sent(
          () => official.getMemberTokensForExternalLogin("00000000-0000-0000-0000-000000000000", Redacted.value(platform.apiKey)).catch(() => undefined),
          grant("authorized_client")
        )
        return out
      })

      // sitefx, same calls
      const site = Site.layer({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http({ fetch: rec.original }) })
      const sitefxEmail = uniqueEmail("wire-sitefx")
      const s: Record<string, Array<unknown>> = yield* Effect.gen(function*() {
        const session = yield* Session
        const step = <A, E>(effect: Effect.Effect<A, E>, keep: (r: Recorded) => boolean) =>
          Effect.promise(() => sent(() => Effect.runPromise(Effect.ignore(effect)), keep))
        const out: Record<string, Array<unknown>> = {}
        out.anonymous = yield* step(session.ensureTokens, grant("anonymous"))
        out.refresh = yield* step(session.refresh, grant("refresh_token"))
        let authUrl = ""
        out.loginUrl = yield* step(
          Effect.map(session.loginUrl({ redirectUri, originalUri: "http://127.0.0.1:5173/account", responseMode: "query", prompt: "login" }), (u) => {
            authUrl = u.url
          }),
          path("/_api/redirects-api/v1/redirect-session")
        )
        const location = yield* Effect.promise(() => followForm(authUrl, demo.email, demo.password))
        out.exchange = yield* step(session.completeRedirect(location, { responseMode: "query" }), grant("authorization_code"))
        out.login = yield* step(session.login({ email: demo.email, password: demo.password }), path("/_api/iam/authentication/v2/login"))
        out.register = yield* step(
          session.register({ email: sitefxEmail, password: PASSWORD, profile: { nickname: "wire" } }),
          path("/_api/iam/authentication/v2/register")
        )
        out.reset = yield* step(session.sendPasswordResetEmail(demo.email, "http://127.0.0.1:5173/reset"), path("/_api/iam/recovery/v1/send-email"))
        out.logout = yield* step(session.logout({ postFlowUrl: "http://127.0.0.1:5173/bye" }), path("/_api/redirects-api/v1/redirect-session"))
        out.external = yield* step(
          session.externalLogin("00000000-0000-0000-0000-000000000000", platform.apiKey),
          grant("authorized_client")
        )
        return out
      }).pipe(
        Effect.provide(Layer.fresh(site), { local: true }),
        Effect.provideService(PlatformFetch, rec.fetchImpl)
      )

      for (const call of Object.keys(o)) {
        assert.isAbove(o[call]!.length, 0, `the official client sent ${call}`)
        assert.deepStrictEqual(
          s[call]!.map((r: any) => ({ method: r.method, path: r.path, body: r.body })),
          o[call]!.map((r: any) => ({ method: r.method, path: r.path, body: r.body })),
          call
        )
        for (const r of [...s[call]!, ...o[call]!] as Array<Recorded>) {
          assert.isFalse((r.authorization ?? "").startsWith("Bearer"), `${call}: raw token, no Bearer`)
        }
      }
    }).pipe(Effect.scoped))

  it.effect("email verification during registration: the same verify call", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      yield* settings({ emailVerification: true })
      yield* Effect.addFinalizer(() => Effect.orDie(settings({ emailVerification: false })))
      const rec = recorder(platform.url)
      globalThis.fetch = rec.fetchImpl
      yield* Effect.addFinalizer(() => Effect.sync(() => { globalThis.fetch = rec.original }))
      const verifyPath = "/_api/iam/verification/v1/auth/verify"

      const officialEmail = uniqueEmail("verify-official")
      const official = OAuthStrategy({ clientId: platform.clientId })
      const registered = yield* Effect.promise(() => official.register({ email: officialEmail, password: PASSWORD }))
      assert.strictEqual(registered.loginState, "EMAIL_VERIFICATION_REQUIRED")
      const officialCode = (yield* lastMessage(officialEmail, "EMAIL_VERIFICATION")).code!
      const from = rec.log.length
      const verified = yield* Effect.promise(() => official.processVerification({ verificationCode: officialCode }))
      assert.strictEqual(verified.loginState, "SUCCESS")
      const officialSent = rec.log.slice(from).filter((r) => r.path === verifyPath)

      const sitefxEmail = uniqueEmail("verify-sitefx")
      const sitefxSent = yield* Effect.gen(function*() {
        const session = yield* Session
        assert.strictEqual((yield* session.register({ email: sitefxEmail, password: PASSWORD })).loginState, "EMAIL_VERIFICATION_REQUIRED")
        const code = (yield* lastMessage(sitefxEmail, "EMAIL_VERIFICATION")).code!
        const start = rec.log.length
        assert.strictEqual((yield* session.verify({ code })).loginState, "SUCCESS")
        return rec.log.slice(start).filter((r) => r.path === verifyPath)
      }).pipe(
        Effect.provide(Layer.fresh(Site.layer({ baseUrl: platform.url, clientId: platform.clientId })), { local: true }),
        Effect.provideService(PlatformFetch, rec.fetchImpl)
      )
      const shape = (r: Recorded) => ({ method: r.method, path: r.path, body: normalize(r.body) })
      assert.strictEqual(officialSent.length, 1)
      assert.deepStrictEqual(sitefxSent.map(shape), officialSent.map(shape))
    }).pipe(Effect.scoped))
})

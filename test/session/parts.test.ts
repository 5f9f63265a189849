/**
 * The session's parts work alone, each with only the parts it needs: the token service over the wire
 * and a store, the member flows over the token service (no OAuth flows), the OAuth flows over the token
 * service (no authorize agent); `siteTokens` builds the token service with no flow at all; and
 * `memberFlows`, built later over a `siteClient`'s services, signs in through that client's token service;
 * `siteMembers` builds the token service and the member flows alone, and its flows send over the API host
 * with the token service's auth (a rejected token refreshed once).
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Context from "effect/Context"
import { PlatformClient } from "../../src/http/PlatformClient.ts"
import { PlatformConfig } from "../../src/http/PlatformConfig.ts"
import { PlatformHttp } from "../../src/http/PlatformHttp.ts"
import { PlatformHttpKey } from "../../src/http/PlatformHttpKey.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { MemberFlows } from "../../src/session/MemberFlows.ts"
import { OAuthFlows } from "../../src/session/OAuthFlows.ts"
import { SessionTokens } from "../../src/session/SessionTokens.ts"
import { Session } from "../../src/session/Session.ts"
import { siteMembers } from "../../src/session/SiteMembers.ts"
import { memberFlows, siteClient, siteTokens } from "../../src/session/SiteSession.ts"
import { wireTokenEndpoint } from "../../src/session/tokenEndpoint.ts"
import { TokenStore } from "../../src/session/TokenStore.ts"
import { LocalPlatform, settings, stats, uniqueEmail } from "../support/platform.ts"

const PASSWORD = "correct horse battery"

/** The token service alone over the local platform's wire and a memory store. */
const tokensOn = (platform: Platform) =>
  SessionTokens.layer.pipe(
    Layer.provide(wireTokenEndpoint({ clientId: platform.clientId })),
    Layer.provideMerge(PlatformHttp.layerFetch.pipe(Layer.provideMerge(PlatformConfig.layer({ baseUrl: platform.url })))),
    Layer.provideMerge(TokenStore.memory())
  )

const localPlatform = Effect.gen(function*() {
  return yield* LocalPlatform
})
type Platform = Effect.Success<typeof localPlatform>

const withParts = <A, E, ROut>(build: (platform: Platform) => Layer.Layer<ROut>, effect: Effect.Effect<A, E, ROut | LocalPlatform>) =>
  Effect.flatMap(localPlatform, (platform) => Effect.provide(effect, Layer.fresh(build(platform)), { local: true }))

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("session parts", (it) => {
  it.effect("the token service alone gets visitor tokens once, and tells nobody is signed in", () =>
    withParts(tokensOn, Effect.gen(function*() {
      const tokens = yield* SessionTokens
      const before = yield* stats
      const all = yield* Effect.all([tokens.ensureTokens, tokens.ensureTokens, tokens.ensureTokens], { concurrency: "unbounded" })
      const after = yield* stats
      assert.strictEqual(after.tokenRequests.anonymous - before.tokenRequests.anonymous, 1)
      assert.strictEqual(new Set(all.map((t) => t.accessToken.value)).size, 1)
      assert.isFalse(yield* tokens.loggedIn)
      assert.deepStrictEqual(yield* tokens.state, { role: "visitor", loggedIn: false })
    })))

  it.effect("the token service tells its listeners of a change, and clear forgets both tokens", () =>
    withParts(tokensOn, Effect.gen(function*() {
      const tokens = yield* SessionTokens
      const seen: Array<string> = []
      const unsubscribe = tokens.subscribe((state) => seen.push(state.role))
      yield* tokens.ensureTokens
      yield* tokens.clear
      unsubscribe()
      yield* tokens.ensureTokens
      assert.deepStrictEqual(seen, ["visitor", "none"])
      assert.strictEqual((yield* tokens.tokens).refreshToken.role, "visitor")
    })))

  it.effect("the member flows need only the token service and an agent: a member registers, signs in and is logged in", () =>
    settings({ captcha: false, emailVerification: false, ownerApproval: false, mfaRequired: false }).pipe(Effect.andThen(
      withParts(
        (platform) => MemberFlows.layer.pipe(Layer.provideMerge(tokensOn(platform)), Layer.provide(AuthorizeAgent.http())),
        Effect.gen(function*() {
          const members = yield* MemberFlows
          const tokens = yield* SessionTokens
          const email = uniqueEmail("parts")
          const registered = yield* members.register({ email, password: PASSWORD })
          assert.strictEqual(registered.loginState, "SUCCESS")
          const result = yield* members.login({ email, password: PASSWORD })
          if (result.loginState !== "SUCCESS") return assert.fail(JSON.stringify(result))
          yield* members.completeDirectLogin(result.data.sessionToken)
          assert.isTrue(yield* tokens.loggedIn)
        })
      )
    )))

  it.effect("the OAuth flows need no authorize agent: a login URL keeps its PKCE data in the store", () =>
    withParts(
      (platform) => OAuthFlows.layer.pipe(Layer.provideMerge(tokensOn(platform))),
      Effect.gen(function*() {
        const oauth = yield* OAuthFlows
        const login = yield* oauth.loginUrl({ redirectUri: "http://127.0.0.1/callback" })
        const store = yield* TokenStore
        const stored = yield* store.load
        assert.strictEqual(stored.oauthData?.state, login.state)
        assert.include(login.url, "http")
        const { logoutUrl } = yield* oauth.logout({ postFlowUrl: "http://127.0.0.1/" })
        assert.include(logoutUrl, "http")
        const tokens = yield* SessionTokens
        assert.strictEqual((yield* tokens.tokens).refreshToken.role, "none")
      })
    ))

  it.effect("siteTokens builds the token service alone from code settings; a platform client over its auth is a visitor", () =>
    Effect.flatMap(localPlatform, (platform) =>
      Effect.gen(function*() {
        const tokens = yield* SessionTokens
        assert.isFalse(yield* tokens.loggedIn)
        const visitor = yield* tokens.ensureTokens
        assert.strictEqual(visitor.refreshToken.role, "visitor")
        // the token service's auth is what a platform client sends with
        const me = yield* PlatformClient.use((client) =>
          client.json({ method: "GET", path: "/_sitefx/whoami", host: "api" }, (u) => (typeof u === "object" ? undefined : "not an object"))
        ).pipe(Effect.provide(
          PlatformClient.layer.pipe(Layer.provide(PlatformHttp.layerFetch.pipe(Layer.provide(PlatformConfig.layer({ baseUrl: platform.url })))))
        ))
        assert.strictEqual((me as { kind: string }).kind, "visitor")
        assert.strictEqual((yield* tokens.tokens).accessToken.value, visitor.accessToken.value)
      }).pipe(Effect.provide(Layer.fresh(siteTokens({ baseUrl: platform.url, clientId: platform.clientId })), { local: true }))
    ))

  it.effect("memberFlows built later over a siteClient's services signs in through that client's one token service", () =>
    settings({ captcha: false, emailVerification: false, ownerApproval: false, mfaRequired: false }).pipe(Effect.andThen(
      Effect.flatMap(localPlatform, (platform) =>
        Effect.gen(function*() {
          // the first screen's services, built once, as an atom runtime holds them
          const first = yield* Layer.build(siteClient({ baseUrl: platform.url, clientId: platform.clientId, tokens: "memory" }))
          const tokens = Context.get(first, SessionTokens)
          const seen: Array<boolean> = []
          const unsubscribe = tokens.subscribe((state) => seen.push(state.loggedIn))
          const visitor = yield* tokens.ensureTokens
          assert.strictEqual(visitor.refreshToken.role, "visitor")
          // the member area's flows, on the very services the first screen runs on
          const email = uniqueEmail("later")
          yield* Effect.gen(function*() {
            const session = yield* Session
            assert.strictEqual((yield* session.register({ email, password: PASSWORD })).loginState, "SUCCESS")
            const result = yield* session.login({ email, password: PASSWORD })
            if (result.loginState !== "SUCCESS") return assert.fail(JSON.stringify(result))
            yield* session.completeDirectLogin(result.data.sessionToken)
          }).pipe(Effect.provide(memberFlows({ authorizeAgent: AuthorizeAgent.http() }).pipe(Layer.provideMerge(Layer.succeedContext(first))), { local: true }))
          unsubscribe()
          assert.isTrue(yield* tokens.loggedIn)
          assert.include(seen, true)
          const me = yield* Context.get(first, PlatformClient).json(
            { method: "GET", path: "/_sitefx/whoami", host: "api" },
            (u) => (typeof u === "object" ? undefined : "not an object")
          )
          assert.strictEqual((me as { kind: string }).kind, "member")
        }).pipe(Effect.scoped)
      )
    )))

  it.effect("siteMembers signs a member in with the token service and the member flows alone: no platform client, session or OAuth flows", () =>
    settings({ captcha: false, emailVerification: false, ownerApproval: false, mfaRequired: false }).pipe(Effect.andThen(
      Effect.flatMap(localPlatform, (platform) =>
        Effect.gen(function*() {
          const built = yield* Layer.build(siteMembers({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http() }))
          assert.isUndefined(Context.getOrUndefined(built, PlatformClient))
          assert.isUndefined(Context.getOrUndefined(built, PlatformConfig))
          assert.isUndefined(Context.getOrUndefined(built, Session))
          assert.isUndefined(Context.getOrUndefined(built, OAuthFlows))
          const members = Context.get(built, MemberFlows)
          const tokens = Context.get(built, SessionTokens)
          const email = uniqueEmail("members")
          assert.strictEqual((yield* members.register({ email, password: PASSWORD })).loginState, "SUCCESS")
          assert.deepInclude(yield* members.login({ email, password: "wrong password" }), { loginState: "FAILURE", errorCode: "invalidPassword" })
          const result = yield* members.login({ email, password: PASSWORD })
          if (result.loginState !== "SUCCESS") return assert.fail(JSON.stringify(result))
          const member = yield* members.completeDirectLogin(result.data.sessionToken)
          assert.strictEqual(member.refreshToken.role, "member")
          assert.deepStrictEqual(yield* tokens.state, { role: "member", loggedIn: true })
        }).pipe(Effect.scoped)
      )
    )))

  it.effect("siteMembers' flows refresh a rejected access token once and send again", () =>
    settings({ captcha: false, emailVerification: false, ownerApproval: false, mfaRequired: false }).pipe(Effect.andThen(
      Effect.flatMap(localPlatform, (platform) =>
        Effect.gen(function*() {
          const built = yield* Layer.build(siteMembers({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http() }))
          const members = Context.get(built, MemberFlows)
          const tokens = Context.get(built, SessionTokens)
          const visitor = yield* tokens.ensureTokens
          // an access token the platform does not know, not yet expired here: the call is refused with a 401
          yield* tokens.setTokens({ ...visitor, accessToken: { ...visitor.accessToken, value: "not-a-token" } })
          const before = yield* stats
          const email = uniqueEmail("refused")
          assert.strictEqual((yield* members.register({ email, password: PASSWORD })).loginState, "SUCCESS")
          const after = yield* stats
          assert.strictEqual(after.tokenRequests.refresh_token - before.tokenRequests.refresh_token, 1)
          assert.notStrictEqual((yield* tokens.tokens).accessToken.value, "not-a-token")
        }).pipe(Effect.scoped)
      )
    )))

  it("siteMembers' wire is PlatformHttp under PlatformHttp's own key", () => {
    assert.strictEqual(PlatformHttpKey.key, PlatformHttp.key)
  })
})

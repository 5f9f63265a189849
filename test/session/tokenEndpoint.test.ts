/**
 * The token endpoint reached with its own JSON call (`fetchTokenEndpoint`, what `siteTokens` uses) sends
 * what the platform's wire sends (`wireTokenEndpoint`, held to the official client by test/compat) and
 * reads answers into the same errors, over real HTTP to a recording server; and the token service's
 * expiry and the call's retry waits follow Effect's Clock.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import { TestClock } from "effect/testing"
import { PlatformConfig } from "../../src/http/PlatformConfig.ts"
import { PlatformError } from "../../src/http/PlatformError.ts"
import { PlatformHttp } from "../../src/http/PlatformHttp.ts"
import { SessionTokens } from "../../src/session/SessionTokens.ts"
import { siteTokens } from "../../src/session/SiteSession.ts"
import { fetchTokenEndpoint, TokenEndpoint, wireTokenEndpoint } from "../../src/session/tokenEndpoint.ts"
import { TokenStore } from "../../src/session/TokenStore.ts"
import { type Recorded, recordingServer, type Reply } from "../support/recordingServer.ts"

const server = recordingServer()

const CLIENT_ID = "client-1"
const answer = { access_token: "access-1", expires_in: 3600, refresh_token: "refresh-1", token_type: "Bearer", scope: "offline_access" }

const overFetch = () => fetchTokenEndpoint({ clientId: CLIENT_ID, baseUrl: `${server.origin}/` })
const overWire = () =>
  wireTokenEndpoint({ clientId: CLIENT_ID }).pipe(
    Layer.provide(PlatformHttp.layerFetch),
    Layer.provide(PlatformConfig.layer({ baseUrl: server.origin }))
  )

const grant = (endpoint: Layer.Layer<TokenEndpoint>, payload: Record<string, unknown>) =>
  Effect.provide(TokenEndpoint.use((e) => e.grant(payload)), endpoint, { local: true })

/** What a request carried, without what differs between two connections (the port is the same server's). */
const sent = (r: Recorded) => {
  const { connection: _connection, "content-length": length, ...headers } = r.headers
  return { method: r.method, url: r.url, headers, length, body: r.body }
}

/** Runs one grant through each endpoint, each answered by `replies`, and gives what each sent and got. */
const both = (payload: Record<string, unknown>, replies: () => Array<Reply>) =>
  Effect.gen(function*() {
    const results = []
    for (const endpoint of [overFetch(), overWire()]) {
      server.requests.length = 0
      server.script = replies()
      const exit = yield* Effect.exit(grant(endpoint, payload))
      results.push({ requests: server.requests.map(sent), exit })
    }
    return results as [typeof results[0], typeof results[0]]
  })

const failure = <A>(exit: Exit.Exit<A, PlatformError>): PlatformError => {
  if (Exit.isSuccess(exit)) return assert.fail("expected a failure")
  const error = Exit.findErrorOption(exit)
  if (error._tag === "None") return assert.fail(`expected a failure, got ${String(exit)}`)
  return error.value
}

describe("the token endpoint with a JSON call of its own", () => {
  it.live("sends an anonymous and a refresh grant as the wire does: method, path, headers and body", () =>
    Effect.gen(function*() {
      for (const payload of [{ clientId: CLIENT_ID, grantType: "anonymous" }, { clientId: CLIENT_ID, refreshToken: "r", grantType: "refresh_token" }]) {
        const [viaFetch, viaWire] = yield* both(payload, () => [{ json: answer }])
        assert.deepStrictEqual(viaFetch.requests, viaWire.requests)
        assert.strictEqual(viaFetch.requests[0]?.url, "/oauth2/token")
        assert.strictEqual(viaFetch.requests[0]?.headers["content-type"], "application/json")
        assert.deepStrictEqual(JSON.parse(viaFetch.requests[0]!.body), payload)
        assert.deepStrictEqual(viaFetch.exit, Exit.succeed(answer))
        assert.deepStrictEqual(viaWire.exit, Exit.succeed(answer))
      }
    }))

  it.live("reads a refusal's error body into the PlatformError the wire gives (reason, code, request id)", () =>
    Effect.gen(function*() {
      const refusal: Reply = {
        status: 400,
        headers: { "x-wix-request-id": "req-7" },
        json: { message: "invalid refresh token", details: { applicationError: { code: "-19976", description: "bad token" } } }
      }
      const [viaFetch, viaWire] = yield* both({ clientId: CLIENT_ID, refreshToken: "x", grantType: "refresh_token" }, () => [refusal])
      const [a, b] = [failure(viaFetch.exit), failure(viaWire.exit)]
      assert.deepStrictEqual([a.method, a.path, a.reason], [b.method, b.path, b.reason])
      if (a.reason._tag !== "ApplicationError") return assert.fail(a.reason._tag)
      assert.strictEqual(a.reason.code, "-19976")
      assert.strictEqual(a.reason.requestId, "req-7")
    }))

  it.live("a status without a JSON body, and a 200 of another shape, fail as they do over the wire", () =>
    Effect.gen(function*() {
      for (const reply of [{ status: 401, text: "no" }, { json: { access_token: 1 } }, { text: "not json" }] satisfies Array<Reply>) {
        const [viaFetch, viaWire] = yield* both({ clientId: CLIENT_ID, grantType: "anonymous" }, () => [reply])
        const [a, b] = [failure(viaFetch.exit), failure(viaWire.exit)]
        assert.deepStrictEqual([a.method, a.path, a.reason], [b.method, b.path, b.reason])
        assert.strictEqual(a.reason._tag, "SystemError")
      }
    }))

  it.live("retries a grant that got no verdict (503, 429, a reset) and stops at retryTimes", () =>
    Effect.gen(function*() {
      server.script = [{ status: 503 }, { status: 429, headers: { "retry-after": "0" } }, "destroy", { json: answer }]
      assert.deepStrictEqual(yield* grant(overFetch(), { clientId: CLIENT_ID, grantType: "anonymous" }), answer)
      assert.strictEqual(server.requests.length, 4)

      server.requests.length = 0
      server.script = [{ status: 503 }, { json: answer }]
      const once = fetchTokenEndpoint({ clientId: CLIENT_ID, baseUrl: server.origin, retryTimes: 0 })
      const exit = yield* Effect.exit(grant(once, { clientId: CLIENT_ID, grantType: "anonymous" }))
      assert.strictEqual(failure(exit).status, 503)
      assert.strictEqual(server.requests.length, 1)
    }))

  it.effect("waits between retries on Effect's Clock", () =>
    Effect.gen(function*() {
      server.script = [{ status: 503 }, { json: answer }]
      const fiber = yield* Effect.forkChild(grant(overFetch(), { clientId: CLIENT_ID, grantType: "anonymous" }))
      // the first attempt is answered on the real network; the wait (at most 100 ms) is on the TestClock
      while (server.requests.length < 1) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 250)))
      assert.strictEqual(server.requests.length, 1)
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(yield* Fiber.join(fiber), answer)
      assert.strictEqual(server.requests.length, 2)
    }))

  it.effect("needs a client id: none is a defect that says where to give it", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(grant(fetchTokenEndpoint({ clientId: "" }), {}))
      assert.isTrue(Exit.isFailure(exit) && Exit.hasDies(exit))
      assert.include(String(exit), "a session needs a clientId")
    }))
})

describe("the token service's expiry", () => {
  it.effect("follows Effect's Clock: the access token is renewed once its expiry has passed on the TestClock", () =>
    Effect.gen(function*() {
      const grants: Array<Record<string, unknown>> = []
      const endpoint = Layer.succeed(TokenEndpoint, {
        clientId: CLIENT_ID,
        grant: (payload) => Effect.sync(() => (grants.push(payload), { ...answer, access_token: `access-${grants.length}` }))
      })
      yield* Effect.gen(function*() {
        const tokens = yield* SessionTokens
        const first = yield* tokens.ensureTokens
        assert.strictEqual(first.accessToken.expiresAt, 3600)
        yield* TestClock.adjust("3600 seconds")
        assert.strictEqual((yield* tokens.ensureTokens).accessToken.value, "access-1")
        yield* TestClock.adjust("1 second")
        assert.strictEqual((yield* tokens.ensureTokens).accessToken.value, "access-2")
        assert.deepStrictEqual(grants.map((g) => g["grantType"]), ["anonymous", "refresh_token"])
      }).pipe(Effect.provide(SessionTokens.layer.pipe(Layer.provide(Layer.merge(endpoint, TokenStore.memory()))), { local: true }))
    }))
})

describe("siteTokens", () => {
  it.live("gets visitor tokens from the endpoint its options name, and tells nobody is signed in", () =>
    Effect.gen(function*() {
      server.script = [{ json: answer }]
      const tokens = yield* SessionTokens.use((s) => Effect.zip(s.ensureTokens, s.loggedIn)).pipe(
        Effect.provide(siteTokens({ clientId: CLIENT_ID, baseUrl: server.origin }), { local: true })
      )
      assert.deepStrictEqual(tokens[0].refreshToken, { value: "refresh-1", role: "visitor" })
      assert.isFalse(tokens[1])
      assert.deepStrictEqual(server.requests.map((r) => `${r.method} ${r.url}`), ["POST /oauth2/token"])
    }))
})

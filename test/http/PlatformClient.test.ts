/**
 * PlatformClient over real HTTP: auth headers on every call, one refresh-and-retry on a 401, API-key
 * headers, and schema decoding of the 200 body.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as G from "../../src/http/guard.ts"
import { ApiKeyAuth, apiKeyHeaders, PlatformAuth, type PlatformAuthShape, PlatformClient } from "../../src/http/PlatformClient.ts"
import { PlatformConfig } from "../../src/http/PlatformConfig.ts"
import { SystemError } from "../../src/http/reasons.ts"
import { PlatformHttp } from "../../src/http/PlatformHttp.ts"
import type { PlatformRequest } from "../../src/http/PlatformRequest.ts"
import { recordingServer, type Reply } from "../support/recordingServer.ts"

const server = recordingServer()
const requests = server.requests

const unauthenticated: Reply = { status: 401, json: { message: "token expired" } }

const clientLayer = (auth: Layer.Layer<PlatformAuth>) =>
  PlatformClient.layer.pipe(
    Layer.provide(Layer.merge(PlatformHttp.layerFetch, auth)),
    Layer.provide(PlatformConfig.layer({ apiUrl: `${server.origin}/api`, edgeUrl: `${server.origin}/edge`, retry: { base: "1 millis", cap: "10 millis" } }))
  )

const withAuth = <A, E>(auth: Layer.Layer<PlatformAuth>, program: Effect.Effect<A, E, PlatformClient>) =>
  Effect.provide(program, clientLayer(auth), { local: true })

const request = (req: PlatformRequest) => PlatformClient.use((c) => c.request(req))

const failureOf = <A, E>(effect: Effect.Effect<A, E, PlatformClient>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    const error = Exit.findErrorOption(exit)
    if (Option.isNone(error)) throw new Error(`expected a failure, got ${String(exit)}`)
    return error.value
  })

/** A session-like auth whose token changes after each `unauthorized`. */
const rotatingAuth = (host: PlatformAuthShape["host"] = "module") => {
  const rejected: Array<Readonly<Record<string, string>>> = []
  let generation = 1
  const layer = Layer.succeed(PlatformAuth, PlatformAuth.of({
    headers: Effect.sync(() => ({ Authorization: `token-${generation}` })),
    unauthorized: (headers) =>
      Effect.sync(() => {
        rejected.push(headers)
        generation += 1
      }),
    host
  }))
  return { layer, rejected }
}

describe("PlatformClient with a refreshing auth", () => {
  it.live("sends the auth headers to the auth's host", () =>
    Effect.gen(function*() {
      const auth = rotatingAuth()
      yield* withAuth(auth.layer, request({ method: "GET", path: "/wix-data/v2/items/1" }))
      assert.strictEqual(requests.length, 1)
      assert.strictEqual(requests[0]!.url, "/edge/wix-data/v2/items/1")
      assert.strictEqual(requests[0]!.headers["authorization"], "token-1")
      assert.deepStrictEqual(auth.rejected, [])
    }))

  it.live("a request's own host and headers win over the auth's", () =>
    Effect.gen(function*() {
      const auth = rotatingAuth()
      yield* withAuth(auth.layer, request({ method: "POST", path: "/oauth2/token", host: "api", headers: { Authorization: "custom" } }))
      assert.strictEqual(requests[0]!.url, "/api/oauth2/token")
      assert.strictEqual(requests[0]!.headers["authorization"], "custom")
    }))

  it.live("a request with host: undefined still goes to the auth's host", () =>
    Effect.gen(function*() {
      const auth = rotatingAuth("module")
      yield* withAuth(auth.layer, request({ method: "GET", path: "/m", host: undefined }))
      assert.strictEqual(requests[0]!.url, "/edge/m")
    }))

  it.live("a 401 calls unauthorized once with the rejected headers and retries once with the new ones", () =>
    Effect.gen(function*() {
      const auth = rotatingAuth()
      server.script = [unauthenticated, { json: { ok: true } }]
      const res = yield* withAuth(auth.layer, request({ method: "POST", path: "/_api/iam/authentication/v2/login", payload: { a: 1 } }))
      assert.deepStrictEqual(res.body, { ok: true })
      assert.deepStrictEqual(auth.rejected, [{ Authorization: "token-1" }])
      assert.deepStrictEqual(requests.map((r) => [r.method, r.headers["authorization"], r.body]), [
        ["POST", "token-1", "{\"a\":1}"],
        ["POST", "token-2", "{\"a\":1}"]
      ])
    }))

  it.live("a second 401 is the error: no loop", () =>
    Effect.gen(function*() {
      const auth = rotatingAuth()
      server.script = [unauthenticated, unauthenticated, { json: {} }]
      const error = yield* withAuth(auth.layer, failureOf(request({ method: "GET", path: "/x" })))
      assert.strictEqual(error._tag, "PlatformError")
      assert.strictEqual(error.status, 401)
      assert.strictEqual(requests.length, 2)
      assert.strictEqual(auth.rejected.length, 1)
    }))

  it.live("a 401 verdict with its own application code (a wrong password) is not a token rejection", () =>
    Effect.gen(function*() {
      const auth = rotatingAuth()
      server.script = [{ status: 401, json: { message: "Wrong email or password", details: { applicationError: { code: "-19976", description: "wrong" } } } }]
      const error = yield* withAuth(auth.layer, failureOf(request({ method: "POST", path: "/_api/iam/authentication/v2/login" })))
      assert.strictEqual(error.code, "-19976")
      assert.isFalse(error.isTokenRejection)
      assert.strictEqual(requests.length, 1)
      assert.deepStrictEqual(auth.rejected, [])
    }))

  it.live("a 401 with a generic UNAUTHENTICATED code is a token rejection", () =>
    Effect.gen(function*() {
      const auth = rotatingAuth()
      server.script = [{ status: 401, json: { message: "expired", details: { applicationError: { code: "UNAUTHENTICATED", description: "expired" } } } }, { json: {} }]
      yield* withAuth(auth.layer, request({ method: "GET", path: "/x" }))
      assert.strictEqual(requests.length, 2)
      assert.strictEqual(auth.rejected.length, 1)
    }))

  it.live("other errors do not trigger a refresh", () =>
    Effect.gen(function*() {
      const auth = rotatingAuth()
      server.script = [{ status: 403, json: { message: "forbidden" } }]
      const error = yield* withAuth(auth.layer, failureOf(request({ method: "GET", path: "/x" })))
      assert.strictEqual(error.status, 403)
      assert.strictEqual(requests.length, 1)
      assert.deepStrictEqual(auth.rejected, [])
    }))
})

describe("API-key auth", () => {
  const apiKey = Redacted.make("IST.eyJraWQiOi-secret")

  it.live("sends the raw key (no Bearer) plus wix-site-id and wix-account-id, to the API host", () =>
    Effect.gen(function*() {
      yield* withAuth(
        ApiKeyAuth.layer({ apiKey, siteId: "site-1", accountId: "acc-1" }),
        request({ method: "POST", path: "/wix-data/v2/collections", payload: {} })
      )
      const h = requests[0]!.headers
      assert.strictEqual(requests[0]!.url, "/api/wix-data/v2/collections")
      assert.strictEqual(h["authorization"], "IST.eyJraWQiOi-secret")
      assert.strictEqual(h["wix-site-id"], "site-1")
      assert.strictEqual(h["wix-account-id"], "acc-1")
    }))

  it.live("omits the ids it was not given", () =>
    Effect.gen(function*() {
      yield* withAuth(ApiKeyAuth.layer({ apiKey, accountId: "acc-1" }), request({ method: "GET", path: "/x" }))
      assert.isUndefined(requests[0]!.headers["wix-site-id"])
      assert.strictEqual(requests[0]!.headers["wix-account-id"], "acc-1")
    }))

  it.live("a 401 stands: an API key cannot be refreshed, so the same headers are not sent again", () =>
    Effect.gen(function*() {
      server.script = [unauthenticated, { json: {} }]
      const error = yield* withAuth(ApiKeyAuth.layer({ apiKey, siteId: "s" }), failureOf(request({ method: "GET", path: "/x" })))
      assert.strictEqual(error.status, 401)
      assert.strictEqual(requests.length, 1)
    }))

  it("apiKeyHeaders unwraps the key only into the header; the options never show it", () => {
    const options = { apiKey, siteId: "s" }
    assert.deepStrictEqual(apiKeyHeaders(options), { Authorization: "IST.eyJraWQiOi-secret", "wix-site-id": "s" })
    assert.notInclude(String(options.apiKey), "secret")
    assert.notInclude(JSON.stringify(options), "secret")
    assert.notInclude(`${options.apiKey}`, "secret")
  })
})

describe("json(req, guard)", () => {
  const Item = G.struct({ dataItem: G.struct({ id: G.string, data: G.record(G.unknown) }) })

  it.live("decodes a body of the right shape", () =>
    Effect.gen(function*() {
      server.script = [{ json: { dataItem: { id: "i1", data: { title: "t" } }, extra: 1 } }]
      const item = yield* withAuth(rotatingAuth().layer, PlatformClient.use((c) => c.json({ method: "GET", path: "/i" }, Item)))
      assert.deepStrictEqual(item, { dataItem: { id: "i1", data: { title: "t" } }, extra: 1 } as typeof item)
    }))

  it.live("a body of the wrong shape is a SystemError naming the call", () =>
    Effect.gen(function*() {
      server.script = [{ json: { dataItem: { id: 42 } } }]
      const error = yield* withAuth(
        rotatingAuth().layer,
        failureOf(PlatformClient.use((c) => c.json({ method: "GET", path: "/wix-data/v2/items/i" }, Item)))
      )
      assert.instanceOf(error.reason, SystemError)
      assert.strictEqual(error.status, 200)
      assert.strictEqual(error.method, "GET")
      assert.strictEqual(error.path, "/wix-data/v2/items/i")
      assert.strictEqual(error.reason._tag === "SystemError" ? error.reason.message : "", "Unexpected response body: .dataItem.id: expected a string")
      assert.match(error.message, /^GET \/wix-data\/v2\/items\/i: 200 unexpected response body$/)
    }))
})

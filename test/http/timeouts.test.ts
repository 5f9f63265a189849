/**
 * Calls under a bad network, over real HTTP to a scripted node:http server: every attempt has a timeout
 * (the configuration's, or `withTimeout`'s for the calls of one effect), a timed-out idempotent call is
 * retried, an interrupted call closes its connection, a transport failure says how it failed and whether
 * the call may have been carried out, and every retry is told on the caller's span, holding no secret.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as References from "effect/References"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { PlatformConfig, type PlatformConfigOptions } from "../../src/http/PlatformConfig.ts"
import { type PlatformError } from "../../src/http/PlatformError.ts"
import { mayHaveApplied, SystemError, TransportError } from "../../src/http/reasons.ts"
import { PlatformHttp, withTimeout } from "../../src/http/PlatformHttp.ts"
import type { PlatformRequest } from "../../src/http/PlatformRequest.ts"
import { viaHttpClient } from "../../src/http/viaHttpClient.ts"
import { recordingServer } from "../support/recordingServer.ts"

const server = recordingServer()
const requests = server.requests

const fastRetry = { base: "1 millis", cap: "20 millis" } as const

const withClient = <A, E>(program: Effect.Effect<A, E, PlatformHttp>, options: PlatformConfigOptions = {}, http = PlatformHttp.layerFetch) =>
  Effect.provide(program, http.pipe(Layer.provide(PlatformConfig.layer({ baseUrl: server.origin, retry: fastRetry, ...options }))), { local: true })

const send = (req: PlatformRequest) => PlatformHttp.use((http) => http.send(req))

const failing = (req: PlatformRequest): Effect.Effect<PlatformError, never, PlatformHttp> =>
  Effect.map(Effect.exit(send(req)), (exit) => {
    const error = Exit.findErrorOption(exit)
    if (Option.isNone(error)) throw new Error(`expected ${req.method} ${req.path} to fail`)
    return error.value
  })

const transportKindOf = (error: PlatformError) => (error.reason._tag === "TransportError" ? error.reason.kind : undefined)

describe("timeouts", () => {
  it.live("an attempt that gets no answer times out, and an idempotent call tries again under the retry policy", () =>
    withClient(
      Effect.gen(function*() {
        server.fallback = () => "stall"
        const started = Date.now()
        const error = yield* failing({ method: "GET", path: "/silent" })
        const took = Date.now() - started
        assert.instanceOf(error.reason, TransportError)
        assert.strictEqual(transportKindOf(error), "timeout")
        assert.match(error.message, /^GET \/silent: No answer within 150 ms$/)
        assert.isTrue(error.mayHaveApplied)
        assert.strictEqual(requests.length, 3, "the first attempt and two retries")
        assert.isAtLeast(took, 3 * 150)
        assert.isBelow(took, 3 * 150 + 1500)
      }),
      { timeout: "150 millis", retry: { ...fastRetry, times: 2 } }
    ))

  it.live("a timed-out attempt is retried and the call succeeds when an answer comes", () =>
    withClient(
      Effect.gen(function*() {
        server.script = ["stall", { json: { ok: true } }]
        const res = yield* send({ method: "GET", path: "/late" })
        assert.deepStrictEqual(res.body, { ok: true })
        assert.strictEqual(requests.length, 2)
      }),
      { timeout: "100 millis" }
    ))

  it.live("a body that stops halfway times out as well", () =>
    withClient(
      Effect.gen(function*() {
        server.fallback = () => ({ stallAfter: "{\"items\":[" })
        const error = yield* failing({ method: "GET", path: "/half" })
        assert.strictEqual(transportKindOf(error), "timeout")
        assert.strictEqual(requests.length, 1)
      }),
      { timeout: "150 millis", retry: { ...fastRetry, times: 0 } }
    ))

  it.live("withTimeout gives the calls of one effect their own timeout, over the configuration's", () =>
    withClient(
      Effect.gen(function*() {
        server.fallback = () => "stall"
        const started = Date.now()
        const error = yield* failing({ method: "GET", path: "/quick" }).pipe(withTimeout("100 millis"))
        assert.strictEqual(transportKindOf(error), "timeout")
        assert.match(error.message, /within 100 ms/)
        assert.isBelow(Date.now() - started, 3000, "the configuration's 60 s did not apply")
      }),
      { timeout: "60 seconds", retry: { ...fastRetry, times: 0 } }
    ))

  it.live("a write that is not idempotent is sent once on a timeout, and says it may have been carried out", () =>
    withClient(
      Effect.gen(function*() {
        server.fallback = () => "stall"
        const error = yield* failing({ method: "POST", path: "/orders", payload: { n: 1 } })
        assert.strictEqual(requests.length, 1)
        assert.strictEqual(transportKindOf(error), "timeout")
        assert.isTrue(error.mayHaveApplied)
      }),
      { timeout: "100 millis" }
    ))

  it.live("the HttpClient transport keeps the same timeout", () =>
    withClient(
      Effect.gen(function*() {
        server.script = ["stall", { json: { ok: 2 } }]
        const res = yield* send({ method: "GET", path: "/node" })
        assert.deepStrictEqual(res.body, { ok: 2 })
        assert.strictEqual(requests.length, 2)
        server.fallback = () => "stall"
        const error = yield* failing({ method: "GET", path: "/node-silent" }).pipe(withTimeout("80 millis"))
        assert.strictEqual(transportKindOf(error), "timeout")
      }),
      { timeout: "100 millis", retry: { ...fastRetry, times: 1 } },
      viaHttpClient(NodeHttpClient.layerUndici)
    ))

  it.live("interrupting a call closes its connection", () =>
    withClient(Effect.gen(function*() {
      server.fallback = () => "stall"
      const before = server.closed()
      const fiber = yield* Effect.forkChild(send({ method: "GET", path: "/forever" }))
      while (requests.length === 0) yield* Effect.sleep("5 millis")
      yield* Fiber.interrupt(fiber)
      const deadline = Date.now() + 2000
      while (server.closed() === before && Date.now() < deadline) yield* Effect.sleep("10 millis")
      assert.isAbove(server.closed(), before, "the server saw the connection close")
    })))
})

describe("how a call failed", () => {
  it.live("a reset says reset, and that the call may have been carried out", () =>
    withClient(
      Effect.gen(function*() {
        server.fallback = () => "destroy"
        const error = yield* failing({ method: "POST", path: "/write", payload: {} })
        assert.strictEqual(transportKindOf(error), "reset")
        assert.isTrue(error.mayHaveApplied)
      }),
      { retry: { ...fastRetry, times: 0 } }
    ))

  it.live("a refused connection says unreachable: the request never left", () =>
    Effect.gen(function*() {
      const closed = createServer()
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve)))
      const port = (closed.address() as AddressInfo).port
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.close(() => resolve())))
      const error = yield* withClient(failing({ method: "POST", path: "/write", payload: {} }), { baseUrl: `http://127.0.0.1:${port}`, retry: { times: 0 } })
      assert.strictEqual(transportKindOf(error), "unreachable")
      assert.isFalse(error.mayHaveApplied)
    }))

  it.live("a retried call whose last attempt met a 503 still says it may have been carried out when an earlier attempt was reset", () =>
    withClient(
      Effect.gen(function*() {
        server.script = ["destroy", { status: 503, json: {} }, { status: 503, json: {} }]
        const after = yield* failing({ method: "GET", path: "/reset-then-busy" })
        assert.strictEqual(requests.length, 3)
        assert.strictEqual(after.status, 503)
        assert.isTrue(after.mayHaveApplied, "the reset attempt may have been carried out")
        assert.isTrue(after.earlierAttemptMayHaveApplied)
        requests.length = 0
        server.script = [{ status: 503, json: {} }, { status: 429, json: {} }, { status: 503, json: {} }]
        const busy = yield* failing({ method: "GET", path: "/busy" })
        assert.strictEqual(requests.length, 3)
        assert.isFalse(busy.mayHaveApplied, "no attempt was acted on")
        assert.strictEqual(busy.message, "GET /busy: 503 Service Unavailable")
      }),
      { retry: { ...fastRetry, times: 2 } }
    ))

  it("answers: a refusal or a 503 was not carried out; a 500, 502 or 504 may have been", () => {
    const system = (status: number) => new SystemError({ status, message: "m", description: "d" })
    assert.deepStrictEqual([400, 404, 409, 429, 503].map((s) => mayHaveApplied(system(s))), [false, false, false, false, false])
    assert.deepStrictEqual([500, 502, 504].map((s) => mayHaveApplied(system(s))), [true, true, true])
    assert.isTrue(mayHaveApplied(new TransportError({ message: "no kind" })), "a runtime that cannot tell")
  })
})

describe("retries are told", () => {
  const secret = "IST.secret-token-value"

  it.live("as span events with their cause, without headers or query; nothing is logged that holds a secret", () =>
    Effect.gen(function*() {
      const logged: Array<string> = []
      const capture = Logger.layer([Logger.make((o) => logged.push(String(o.message)))])
      server.script = [{ status: 503, json: { message: "busy" } }, "destroy", { json: { ok: true } }]
      const span = yield* withClient(
        Effect.gen(function*() {
          const span = yield* Effect.currentSpan
          yield* send({ method: "GET", path: "/told", payload: { apiKey: secret }, headers: { Authorization: secret } })
          return span
        }).pipe(Effect.withSpan("caller"))
      ).pipe(Effect.provide(capture), Effect.provideService(References.MinimumLogLevel, "Debug"))
      assert.strictEqual(requests.length, 3)
      const events = (span as unknown as { events: Array<[string, bigint, Record<string, unknown>]> }).events
      assert.deepStrictEqual(events.map(([name, , a]) => [name, a["sitefx.retry.attempt"], a["http.request.method"], a["url.path"], a["error.type"]]), [
        ["sitefx.retry", 1, "GET", "/told", "UNAVAILABLE"],
        ["sitefx.retry", 2, "GET", "/told", "TRANSPORT_ERROR"]
      ])
      assert.match(String(events[0]![2]["sitefx.retry.cause"]), /^status 503: GET \/told: 503 busy/)
      assert.match(String(events[1]![2]["sitefx.retry.cause"]), /^reset: /)
      assert.notInclude(JSON.stringify(events, (_, v) => (typeof v === "bigint" ? String(v) : v)), "secret")
      assert.notInclude(logged.join("\n"), "secret")
    }))
})

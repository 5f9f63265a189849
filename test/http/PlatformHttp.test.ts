/**
 * PlatformHttp over real HTTP: a recording node:http server on 127.0.0.1 answers scripted responses,
 * the client is the fetch-based layer, and every test looks at what actually crossed the wire.
 */
import { assert, describe, it } from "@effect/vitest"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { PlatformConfig, type PlatformConfigOptions } from "../../src/http/PlatformConfig.ts"
import { ApplicationError, SystemError, TransportError, ValidationError } from "../../src/http/reasons.ts"
import { PlatformHttp } from "../../src/http/PlatformHttp.ts"
import { viaHttpClient } from "../../src/http/viaHttpClient.ts"
import type { PlatformRequest } from "../../src/http/PlatformRequest.ts"
import { type Recorded, recordingServer, type Reply } from "../support/recordingServer.ts"

// ---------------------------------------------------------------------------------------------------
// Recording server

const server = recordingServer()
const requests = server.requests
/** The next answers, in order; once used up, `server.fallback` answers. */
const reply = (...replies: Array<Reply>) => {
  server.script = replies
}

// ---------------------------------------------------------------------------------------------------
// Client

const fastRetry = { base: "1 millis", cap: "20 millis" } as const

const layer = (options: PlatformConfigOptions = {}, http = PlatformHttp.layerFetch) =>
  http.pipe(Layer.provide(PlatformConfig.layer({ baseUrl: server.origin, retry: fastRetry, ...options })))

/** Runs a program against a freshly built client (its consistency token starts empty). */
const withClient = <A, E>(program: Effect.Effect<A, E, PlatformHttp>, options?: PlatformConfigOptions) =>
  Effect.provide(program, layer(options), { local: true })

const send = (req: PlatformRequest) => PlatformHttp.use((http) => http.send(req))

/** Sends and returns the PlatformError the call fails with. */
const sendFailing = (req: PlatformRequest) =>
  send(req).pipe(
    Effect.exit,
    Effect.map((exit) => {
      const error = Exit.findErrorOption(exit)
      if (Option.isNone(error)) throw new Error(`expected ${req.method} ${req.path} to fail, got ${String(exit)}`)
      return error.value
    })
  )

const only = (): Recorded => {
  assert.strictEqual(requests.length, 1, "exactly one request")
  return requests[0]!
}

const searchOf = (r: Recorded) => new URL(r.url, server.origin).searchParams

/** The payload inside a recorded `.r` URL, after checking it is the only parameter and is unpadded base64url. */
const rPayload = (r: Recorded): unknown => {
  const params = searchOf(r)
  assert.deepStrictEqual([...params.keys()], [".r"])
  const value = params.get(".r") ?? ""
  assert.match(value, /^[A-Za-z0-9_-]+$/)
  return JSON.parse(Buffer.from(value, "base64url").toString("utf8"))
}

// ---------------------------------------------------------------------------------------------------

describe("request encoding", () => {
  it.live("POST sends the payload as a JSON body", () =>
    withClient(Effect.gen(function*() {
      const payload = { dataCollectionId: "C", dataItem: { data: { title: "t", n: [1, 2], nested: { a: null } } } }
      const res = yield* send({ method: "POST", path: "/wix-data/v2/items", payload })
      assert.deepStrictEqual(res.body, {})
      const r = only()
      assert.strictEqual(r.method, "POST")
      assert.strictEqual(r.url, "/wix-data/v2/items")
      assert.match(r.headers["content-type"] ?? "", /^application\/json/)
      assert.deepStrictEqual(JSON.parse(r.body), payload)
    })))

  it.live("POST without a payload sends {}; PUT and PATCH send JSON too", () =>
    withClient(Effect.gen(function*() {
      yield* send({ method: "POST", path: "/a" })
      yield* send({ method: "PUT", path: "/b", payload: { x: 1 } })
      yield* send({ method: "PATCH", path: "/c", payload: { y: 2 } })
      assert.deepStrictEqual(requests.map((r) => [r.method, r.url, r.body, r.headers["content-type"]?.split(";")[0]]), [
        ["POST", "/a", "{}", "application/json"],
        ["PUT", "/b", "{\"x\":1}", "application/json"],
        ["PATCH", "/c", "{\"y\":2}", "application/json"]
      ])
    })))

  it.live("a body goes out whole with its Content-Length in bytes (not chunked), over fetch and over Node's own client", () =>
    Effect.gen(function*() {
      // multi-byte text: the length header must count UTF-8 bytes, not UTF-16 units
      const payload = { dataCollectionId: "C", dataItem: { data: { title: "naïve café ☕ 𝄞", big: "x".repeat(200_000) } } }
      for (const http of [PlatformHttp.layerFetch, viaHttpClient(NodeHttpClient.layerNodeHttpOptions({ keepAlive: true }))]) {
        yield* send({ method: "POST", path: "/wix-data/v2/items", payload }).pipe(Effect.provide(layer({}, http), { local: true }))
      }
      assert.strictEqual(requests.length, 2)
      for (const r of requests) {
        assert.isUndefined(r.headers["transfer-encoding"])
        assert.strictEqual(Number(r.headers["content-length"]), Buffer.byteLength(r.body))
        assert.match(r.headers["content-type"] ?? "", /^application\/json/)
        assert.deepStrictEqual(JSON.parse(r.body), payload)
      }
    }))

  it.live("GET flattens a simple payload into query params: nested with dots, arrays repeated", () =>
    withClient(Effect.gen(function*() {
      yield* send({
        method: "GET",
        path: "/wix-data/v2/items/i1",
        payload: { dataCollectionId: "C", dataItemId: "i1", options: { consistentRead: true, lang: { code: "en" } }, fields: ["a", "b c"] }
      })
      const r = only()
      assert.strictEqual(r.method, "GET")
      assert.strictEqual(r.body, "")
      assert.strictEqual(new URL(r.url, server.origin).pathname, "/wix-data/v2/items/i1")
      assert.deepStrictEqual([...searchOf(r)], [
        ["dataCollectionId", "C"],
        ["dataItemId", "i1"],
        ["options.consistentRead", "true"],
        ["options.lang.code", "en"],
        ["fields", "a"],
        ["fields", "b c"]
      ])
    })))

  it.live("GET without a payload has no query string", () =>
    withClient(Effect.gen(function*() {
      yield* send({ method: "GET", path: "/stores/v3/provision/version" })
      assert.strictEqual(only().url, "/stores/v3/provision/version")
    })))

  it.live("GET with complex: {} sends only .r=<base64url JSON>, decodable back to the payload", () =>
    withClient(Effect.gen(function*() {
      // characters chosen so that standard base64 of the JSON needs "+", "/" and padding
      const payload = {
        dataCollectionId: "C",
        query: { filter: { title: { $startsWith: "???~~~>>>" }, tags: { $hasSome: ["é", "€"] } }, sort: [{ fieldName: "a", order: "ASC" }] }
      }
      const standard = Buffer.from(JSON.stringify(payload)).toString("base64")
      assert.match(standard, /[+/]/, "test payload must exercise + or /")
      assert.match(standard, /=$/, "test payload must need padding")
      yield* send({ method: "GET", path: "/wix-data/v2/items/query", payload, complex: {} })
      const r = only()
      assert.strictEqual(r.method, "GET")
      assert.strictEqual(new URL(r.url, server.origin).pathname, "/wix-data/v2/items/query")
      assert.deepStrictEqual(rPayload(r), payload)
      assert.strictEqual(searchOf(r).get(".r"), Buffer.from(JSON.stringify(payload)).toString("base64url"))
    })))
})

// ---------------------------------------------------------------------------------------------------

/** Finds a path and a payload whose GET URL (`server.origin + path + "?.r=" + base64url(json)`) is exactly `length` long. */
const urlOfLength = (length: number) => {
  for (const path of ["/wix-data/v2/items/query", "/wix-data/v2/items/query/", "/wix-data/v2/items/query//"]) {
    for (let n = 0; n < 4000; n++) {
      const payload = { dataCollectionId: "C", query: { filter: { title: "x".repeat(n) } } }
      const url = `${server.origin}${path}?.r=${Buffer.from(JSON.stringify(payload)).toString("base64url")}`
      if (url.length === length) return { path, payload }
    }
  }
  throw new Error(`no URL of length ${length}`)
}

/** A payload whose `.r=` query string is exactly `length` long (not every length exists: base64 never ends in 4k+1). */
const queryOfLength = (length: number) => {
  for (let n = 0; n < 6000; n++) {
    const payload = { query: { filter: { name: "p".repeat(n) } } }
    if (`.r=${Buffer.from(JSON.stringify(payload)).toString("base64url")}`.length === length) return payload
  }
  throw new Error(`no query of length ${length}`)
}

describe("query fallback to POST", () => {
  const dataFallback = (path: string) => ({ fallback: { path, limit: { kind: "url" as const, max: 2048 } } })

  it.live("data queries: a 2048-char URL stays GET, a 2049-char one becomes a POST with the same JSON body", () =>
    withClient(Effect.gen(function*() {
      const at = urlOfLength(2048)
      yield* send({ method: "GET", path: at.path, payload: at.payload, complex: dataFallback("/wix-data/v2/items/query") })
      const get = only()
      assert.strictEqual(get.method, "GET")
      assert.strictEqual(`${server.origin}${get.url}`.length, 2048)
      assert.deepStrictEqual(rPayload(get), at.payload)

      requests.length = 0
      const over = urlOfLength(2049)
      yield* send({ method: "GET", path: over.path, payload: over.payload, complex: dataFallback("/wix-data/v2/items/query") })
      const post = only()
      assert.strictEqual(post.method, "POST")
      assert.strictEqual(post.url, "/wix-data/v2/items/query")
      assert.match(post.headers["content-type"] ?? "", /^application\/json/)
      assert.deepStrictEqual(JSON.parse(post.body), over.payload)
    })))

  it.live("catalog queries measure the query string only: 3999 chars GET, 4001 chars POST", () =>
    withClient(Effect.gen(function*() {
      const complex = { fallback: { path: "/stores-reader/v1/products/query", limit: { kind: "query" as const, max: 4000 } } }
      const path = "/stores-reader/v1/products/query-platformized"
      // (a `.r=` query of exactly 4000 chars does not exist; the wire test checks the inclusive limit itself)
      const under = queryOfLength(3999)
      yield* send({ method: "GET", path, payload: under, complex })
      const get = only()
      assert.strictEqual(get.method, "GET")
      // the whole URL is longer than 4000: only the query string counts
      assert.isAbove(`${server.origin}${get.url}`.length, 4000)
      assert.strictEqual(new URL(get.url, server.origin).search.length - 1, 3999)
      assert.deepStrictEqual(rPayload(get), under)

      requests.length = 0
      const over = queryOfLength(4001)
      yield* send({ method: "GET", path, payload: over, complex })
      const post = only()
      assert.strictEqual(post.method, "POST")
      assert.strictEqual(post.url, "/stores-reader/v1/products/query")
      assert.deepStrictEqual(JSON.parse(post.body), over)
    })))

  it.live("an error of a fallen-back query names the POST and its path", () =>
    withClient(Effect.gen(function*() {
      reply({ status: 400, json: { message: "bad query", details: { validationError: { fieldViolations: [] } } } })
      const over = urlOfLength(2100)
      const error = yield* sendFailing({ method: "GET", path: over.path, payload: over.payload, complex: dataFallback("/wix-data/v2/items/query") })
      assert.strictEqual(error.method, "POST")
      assert.strictEqual(error.path, "/wix-data/v2/items/query")
      assert.strictEqual(error.message, "POST /wix-data/v2/items/query: bad query")
    })))
})

// ---------------------------------------------------------------------------------------------------

describe("$date values", () => {
  const a = new Date(Date.UTC(2024, 1, 29, 12, 30, 0, 123))
  const b = new Date(Date.UTC(1999, 11, 31, 23, 59, 59))
  const answer = {
    dataItem: { id: "i1", data: { when: { $date: a.toISOString() }, list: [{ $date: b.toISOString() }, { at: { $date: a.toISOString() } }] } }
  }

  it.live("dates: true sends Dates as {$date} and reads {$date} back as Dates, nested in arrays and objects", () =>
    withClient(Effect.gen(function*() {
      reply({ json: answer })
      const res = yield* send({
        method: "POST",
        path: "/wix-data/v2/items",
        payload: { dataItem: { data: { when: a, list: [b, { at: a }], plain: "2024-02-29" } } },
        dates: true
      })
      assert.deepStrictEqual(JSON.parse(only().body), {
        dataItem: { data: { when: { $date: a.toISOString() }, list: [{ $date: b.toISOString() }, { at: { $date: a.toISOString() } }], plain: "2024-02-29" } }
      })
      const data = (res.body as { dataItem: { data: { when: unknown; list: [unknown, { at: unknown }] } } }).dataItem.data
      assert.instanceOf(data.when, Date)
      assert.strictEqual((data.when as Date).getTime(), a.getTime())
      assert.instanceOf(data.list[0], Date)
      assert.strictEqual((data.list[0] as Date).getTime(), b.getTime())
      assert.instanceOf(data.list[1].at, Date)
      assert.deepStrictEqual(res.body, { dataItem: { id: "i1", data: { when: a, list: [b, { at: a }] } } })
    })))

  it.live("without dates the payload's Dates travel as JSON strings and {$date} answers stay objects", () =>
    withClient(Effect.gen(function*() {
      reply({ json: answer })
      const res = yield* send({ method: "POST", path: "/wix-data/v2/items", payload: { when: a } })
      assert.deepStrictEqual(JSON.parse(only().body), { when: a.toISOString() })
      assert.deepStrictEqual(res.body, answer)
    })))

  it.live("dates: true on a .r query encodes the Dates inside the base64 JSON", () =>
    withClient(Effect.gen(function*() {
      yield* send({ method: "GET", path: "/q", payload: { query: { filter: { d: { $gt: a } } } }, complex: {}, dates: true })
      assert.deepStrictEqual(rPayload(only()), { query: { filter: { d: { $gt: { $date: a.toISOString() } } } } })
    })))
})

// ---------------------------------------------------------------------------------------------------

describe("headers", () => {
  it.live("X-Wix-Consistent is repeated on every later request, the newest value winning", () =>
    withClient(Effect.gen(function*() {
      reply({ json: {} }, { json: {}, headers: { "X-Wix-Consistent": "token-1" } }, { json: {} }, { json: {}, headers: { "X-Wix-Consistent": "token-2" } })
      yield* send({ method: "GET", path: "/1" })
      yield* send({ method: "POST", path: "/2" })
      yield* send({ method: "GET", path: "/3" })
      yield* send({ method: "DELETE", path: "/4" })
      yield* send({ method: "PUT", path: "/5" })
      yield* send({ method: "GET", path: "/6" })
      assert.deepStrictEqual(requests.map((r) => r.headers["x-wix-consistent"]), [undefined, undefined, "token-1", "token-1", "token-2", "token-2"])
    })))

  it.live("a consistency token also reaches requests whose effect was built before it arrived", () =>
    withClient(Effect.gen(function*() {
      reply({ json: {}, headers: { "X-Wix-Consistent": "early" } })
      const http = yield* PlatformHttp
      const first = http.send({ method: "GET", path: "/first" })
      const second = http.send({ method: "GET", path: "/second" })
      yield* first
      yield* second
      assert.deepStrictEqual(requests.map((r) => r.headers["x-wix-consistent"]), [undefined, "early"])
    })))

  it.live("a retried request carries the token its failed attempt handed out", () =>
    withClient(Effect.gen(function*() {
      reply({ status: 503, json: { message: "busy" }, headers: { "X-Wix-Consistent": "from-503" } }, { json: {} })
      yield* send({ method: "GET", path: "/r" })
      assert.deepStrictEqual(requests.map((r) => r.headers["x-wix-consistent"]), [undefined, "from-503"])
    })))

  it.live("caller headers are sent as given", () =>
    withClient(Effect.gen(function*() {
      yield* send({ method: "GET", path: "/h", headers: { authorization: "tok", "x-extra": "1" } })
      assert.strictEqual(only().headers["authorization"], "tok")
      assert.strictEqual(only().headers["x-extra"], "1")
    })))

  it.live("x-wix-request-id is read into the response and into errors", () =>
    withClient(Effect.gen(function*() {
      reply({ json: { ok: true }, headers: { "x-wix-request-id": "rid-ok" } }, {
        status: 404,
        json: { message: "gone", details: { applicationError: { code: "WDE0073", description: "Item not found" } } },
        headers: { "X-Wix-Request-Id": "rid-404" }
      })
      const ok = yield* send({ method: "GET", path: "/ok" })
      assert.strictEqual(ok.requestId, "rid-ok")
      const error = yield* sendFailing({ method: "GET", path: "/gone", payload: { id: "1" } })
      assert.strictEqual(error.requestId, "rid-404")
      assert.strictEqual(error.message, "GET /gone: WDE0073 Item not found (request id rid-404)")
    })))
})

// ---------------------------------------------------------------------------------------------------

describe("error decoding (success is 200 only)", () => {
  it.live("400 with validationError → ValidationError with every field violation", () =>
    withClient(Effect.gen(function*() {
      const fieldViolations = [
        { field: "loginId.email", description: "not an email", violatedRule: "FORMAT", ruleName: "EMAIL_FORMAT", data: { type: "EMAIL" } },
        { field: "password", description: "too short", violatedRule: "MIN_LENGTH" },
        { description: "no field at all" }
      ]
      reply({ status: 400, json: { message: "invalid request", details: { validationError: { fieldViolations } } } })
      const error = yield* sendFailing({ method: "POST", path: "/register", payload: {} })
      assert.instanceOf(error.reason, ValidationError)
      assert.strictEqual(error.status, 400)
      assert.strictEqual(error.code, "VALIDATION_ERROR")
      assert.strictEqual(error.reason.message, "invalid request")
      assert.deepStrictEqual(error.fieldViolations, fieldViolations)
      assert.strictEqual(error.message, "POST /register: invalid request")
    })))

  it.live("404 with applicationError → ApplicationError with string code, description and data", () =>
    withClient(Effect.gen(function*() {
      reply({
        status: 404,
        json: { message: "Item i1 not found", details: { applicationError: { code: "WDE0073", description: "Item does not exist", data: { itemId: "i1" } } } }
      })
      const error = yield* sendFailing({ method: "GET", path: "/wix-data/v2/items/i1", payload: { dataCollectionId: "C" } })
      const reason = error.reason as ApplicationError
      assert.instanceOf(reason, ApplicationError)
      assert.strictEqual(reason.status, 404)
      assert.strictEqual(reason.code, "WDE0073")
      assert.strictEqual(error.code, "WDE0073")
      assert.strictEqual(reason.description, "Item does not exist")
      assert.strictEqual(reason.message, "Item i1 not found")
      assert.deepStrictEqual(reason.data, { itemId: "i1" })
      // the path in the error has no query string
      assert.strictEqual(error.path, "/wix-data/v2/items/i1")
      assert.strictEqual(error.message, "GET /wix-data/v2/items/i1: WDE0073 Item does not exist")
    })))

  it.live("a numeric application code becomes a string; a missing description falls back to the message", () =>
    withClient(Effect.gen(function*() {
      reply({ status: 409, json: { message: "exists", details: { applicationError: { code: -19995 } } } })
      const error = yield* sendFailing({ method: "POST", path: "/x" })
      const reason = error.reason as ApplicationError
      assert.instanceOf(reason, ApplicationError)
      assert.strictEqual(reason.code, "-19995")
      assert.strictEqual(reason.description, "exists")
      assert.isFalse("data" in reason)
    })))

  it.live("500 with a non-JSON body → SystemError with status 500", () =>
    withClient(Effect.gen(function*() {
      reply({ status: 500, text: "<html>oops</html>", headers: { "content-type": "text/html" } })
      const error = yield* sendFailing({ method: "GET", path: "/boom" })
      assert.instanceOf(error.reason, SystemError)
      assert.strictEqual(error.status, 500)
      assert.strictEqual((error.reason as SystemError).description, "Internal Server Error")
      assert.strictEqual(error.message, "GET /boom: 500 Internal Server Error")
    })))

  it.live("a body without details → SystemError whose description is the message", () =>
    withClient(Effect.gen(function*() {
      reply({ status: 403, json: { message: "You may not" } })
      const error = yield* sendFailing({ method: "POST", path: "/secret" })
      assert.instanceOf(error.reason, SystemError)
      assert.strictEqual(error.status, 403)
      assert.strictEqual((error.reason as SystemError).description, "You may not")
      assert.strictEqual(error.message, "POST /secret: 403 You may not")
    })))

  it.live("201 and 204 are errors too", () =>
    withClient(Effect.gen(function*() {
      reply({ status: 201, json: { created: true } }, { status: 204 })
      const created = yield* sendFailing({ method: "POST", path: "/created" })
      assert.instanceOf(created.reason, SystemError)
      assert.strictEqual(created.status, 201)
      const empty = yield* sendFailing({ method: "POST", path: "/empty" })
      assert.instanceOf(empty.reason, SystemError)
      assert.strictEqual(empty.status, 204)
      assert.strictEqual(requests.length, 2)
    })))

  it.live("200 with a non-JSON or empty body → SystemError", () =>
    withClient(Effect.gen(function*() {
      reply({ status: 200, text: "not json", headers: { "x-wix-request-id": "rid-200" } }, { status: 200, text: "" })
      const bad = yield* sendFailing({ method: "GET", path: "/text" })
      assert.instanceOf(bad.reason, SystemError)
      assert.strictEqual(bad.status, 200)
      assert.strictEqual((bad.reason as SystemError).description, "body is not JSON")
      assert.strictEqual(bad.requestId, "rid-200")
      const empty = yield* sendFailing({ method: "GET", path: "/nothing" })
      assert.strictEqual((empty.reason as SystemError).description, "empty body")
    })))

  it.live("a refused connection is a TransportError naming the call", () =>
    Effect.gen(function*() {
      // a port that was free a moment ago: bind, read it, close
      const closed = createServer()
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve)))
      const port = (closed.address() as AddressInfo).port
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.close(() => resolve())))
      const error = yield* withClient(sendFailing({ method: "POST", path: "/nowhere" }), { baseUrl: `http://127.0.0.1:${port}` })
      assert.instanceOf(error.reason, TransportError)
      assert.isUndefined(error.status)
      assert.match(error.message, /^POST \/nowhere: /)
    }))
})

// ---------------------------------------------------------------------------------------------------

describe("retries", () => {
  const statusOf = (n: number) => ({ status: n, json: { message: `attempt ${requests.length}` } })

  it.live("an idempotent GET retries 503, 502, 504 and 429 and then succeeds", () =>
    withClient(
      Effect.gen(function*() {
        reply(statusOf(503), statusOf(502), statusOf(504), statusOf(429), { json: { done: true } })
        const res = yield* send({ method: "GET", path: "/flaky" })
        assert.deepStrictEqual(res.body, { done: true })
        assert.strictEqual(requests.length, 5)
        assert.isTrue(requests.every((r) => r.method === "GET" && r.url === "/flaky"))
      }),
      { retry: { ...fastRetry, times: 4 } }
    ))

  it.live("connection resets are retried", () =>
    withClient(Effect.gen(function*() {
      reply("destroy", "destroy", { json: { ok: 1 } })
      const res = yield* send({ method: "GET", path: "/reset" })
      assert.deepStrictEqual(res.body, { ok: 1 })
      assert.strictEqual(requests.length, 3)
    })))

  it.live("after retry.times retries the last error is returned", () =>
    withClient(Effect.gen(function*() {
      server.fallback = () => ({ status: 503, json: { message: `attempt ${requests.length}` } })
      const error = yield* sendFailing({ method: "GET", path: "/down" })
      // 1 attempt + 3 retries (the default times)
      assert.strictEqual(requests.length, 4)
      assert.strictEqual(error.status, 503)
      assert.strictEqual(error.reason._tag === "SystemError" ? error.reason.message : "", "attempt 4")
    })))

  it.live("after retry.times connection resets the error is a TransportError", () =>
    withClient(
      Effect.gen(function*() {
        server.fallback = () => "destroy"
        const error = yield* sendFailing({ method: "PUT", path: "/reset-always" })
        assert.strictEqual(requests.length, 3)
        assert.instanceOf(error.reason, TransportError)
      }),
      { retry: { ...fastRetry, times: 2 } }
    ))

  it.live("a non-idempotent POST is sent once on a reset, a 502 or a 504, which may have come after the work was done", () =>
    withClient(Effect.gen(function*() {
      for (const status of [502, 504]) {
        requests.length = 0
        reply({ status, json: {} }, { json: {} })
        const failed = yield* sendFailing({ method: "POST", path: "/insert", payload: { a: 1 } })
        assert.strictEqual(failed.status, status)
        assert.isTrue(failed.mayHaveApplied)
        assert.strictEqual(requests.length, 1)
      }
      requests.length = 0
      reply("destroy", { json: {} })
      const reset = yield* sendFailing({ method: "PATCH", path: "/patch" })
      assert.instanceOf(reset.reason, TransportError)
      assert.isTrue(reset.mayHaveApplied)
      assert.strictEqual(requests.length, 1)
    })))

  it.live("a non-idempotent POST is sent again after a 429 or a 503, which the platform answers without acting", () =>
    withClient(Effect.gen(function*() {
      reply({ status: 503, json: {} }, { status: 429, json: {} }, { json: { made: 1 } })
      const res = yield* send({ method: "POST", path: "/insert", payload: { a: 1 } })
      assert.deepStrictEqual(res.body, { made: 1 })
      assert.strictEqual(requests.length, 3)
    })))

  it.live("POST with idempotent: true and DELETE are retried", () =>
    withClient(Effect.gen(function*() {
      reply({ status: 503, json: {} }, { json: { a: 1 } }, { status: 429, json: {} }, { json: { b: 2 } })
      const post = yield* send({ method: "POST", path: "/count", payload: { q: 1 }, idempotent: true })
      assert.deepStrictEqual(post.body, { a: 1 })
      const del = yield* send({ method: "DELETE", path: "/thing/1" })
      assert.deepStrictEqual(del.body, { b: 2 })
      assert.deepStrictEqual(requests.map((r) => `${r.method} ${r.url} ${r.body}`), [
        "POST /count {\"q\":1}",
        "POST /count {\"q\":1}",
        "DELETE /thing/1 ",
        "DELETE /thing/1 "
      ])
    })))

  it.live("400, 401, 404 and 500 are never retried", () =>
    withClient(Effect.gen(function*() {
      for (const status of [400, 401, 404, 500]) {
        requests.length = 0
        reply({ status, json: { message: "no" } }, { json: {} })
        const error = yield* sendFailing({ method: "GET", path: `/s${status}` })
        assert.strictEqual(error.status, status)
        assert.strictEqual(requests.length, 1, `status ${status}`)
      }
    })))

  it.live("Retry-After: 0 retries right away", () =>
    withClient(
      Effect.gen(function*() {
        reply({ status: 429, json: {}, headers: { "Retry-After": "0" } }, { json: {} })
        const started = Date.now()
        yield* send({ method: "GET", path: "/now" })
        assert.strictEqual(requests.length, 2)
        assert.isBelow(Date.now() - started, 500)
      }),
      { retry: { base: "1 millis", cap: "5 seconds" } }
    ))

  it.live("Retry-After is honoured up to the cap", () =>
    withClient(
      Effect.gen(function*() {
        // backoff alone would wait about 1 ms; Retry-After: 1 asks for 1000 ms, the cap allows 250
        reply({ status: 503, json: {}, headers: { "Retry-After": "1" } }, { json: {} })
        yield* send({ method: "GET", path: "/later" })
        assert.strictEqual(requests.length, 2)
        const waited = requests[1]!.at - requests[0]!.at
        assert.isAtLeast(waited, 200)
        assert.isBelow(waited, 900)
      }),
      { retry: { base: "1 millis", cap: "250 millis" } }
    ))

  it.live("a huge Retry-After is capped: cap 50 ms and Retry-After 10 finishes well under 1 s", () =>
    withClient(
      Effect.gen(function*() {
        reply({ status: 429, json: {}, headers: { "Retry-After": "10" } }, { status: 503, json: {}, headers: { "Retry-After": "10" } }, { json: {} })
        const started = Date.now()
        yield* send({ method: "GET", path: "/capped" })
        assert.strictEqual(requests.length, 3)
        assert.isBelow(Date.now() - started, 1000)
      }),
      { retry: { base: "1 millis", cap: "50 millis" } }
    ))

  it.live("retry.times: 0 turns retrying off", () =>
    withClient(
      Effect.gen(function*() {
        reply({ status: 503, json: {} }, { json: {} })
        const error = yield* sendFailing({ method: "GET", path: "/once" })
        assert.strictEqual(error.status, 503)
        reply("destroy", { json: {} })
        const reset = yield* sendFailing({ method: "GET", path: "/once-reset" })
        assert.instanceOf(reset.reason, TransportError)
        assert.strictEqual(requests.length, 2)
      }),
      { retry: { ...fastRetry, times: 0 } }
    ))
})

// ---------------------------------------------------------------------------------------------------

describe("hosts", () => {
  it.live("module calls go to the edge host while the CDN is on; everything else to the API host", () =>
    Effect.gen(function*() {
      const hosts = { apiUrl: `${server.origin}/api/`, edgeUrl: `${server.origin}/edge` }
      yield* withClient(
        Effect.gen(function*() {
          yield* send({ method: "GET", path: "/m", host: "module" })
          yield* send({ method: "GET", path: "/a", host: "api" })
          yield* send({ method: "GET", path: "/d" })
        }),
        hosts
      )
      yield* withClient(send({ method: "GET", path: "/m", host: "module" }), { ...hosts, cdn: false })
      assert.deepStrictEqual(requests.map((r) => r.url), ["/edge/m", "/api/a", "/api/d", "/api/m"])
    }))

  it.live("errors name the path relative to the host", () =>
    withClient(
      Effect.gen(function*() {
        reply({ status: 404, json: { message: "nope" } })
        const error = yield* sendFailing({ method: "GET", path: "/m/1", host: "module", payload: { x: "y" } })
        assert.strictEqual(error.path, "/m/1")
        assert.strictEqual(requests[0]!.url, "/edge/m/1?x=y")
      }),
      { edgeUrl: `${server.origin}/edge` }
    ))
})


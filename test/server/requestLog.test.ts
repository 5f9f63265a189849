/**
 * The request log over real HTTP (`GET /_sitefx/requests`): what each request leaves (method, path
 * without its query, status, duration, caller, a refusal's rule and code), the filters, the bound of
 * the ring, the long poll of a live tail, bad filters, and that no credential ever shows in it.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { request } from "node:http"
import { RequestsResponse } from "../../src/dev/wire/platform.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { apiKey, call, get, login, post, registerMember, visitor } from "./support.ts"
import { data, freshCollection, OPEN } from "./data/support.ts"

const decodeLog = Schema.decodeUnknownSync(RequestsResponse)

/** `GET /_sitefx/requests` with these parameters; must answer 200 in the log's shape. */
const requests = (params: Record<string, string | number> = {}) =>
  Effect.gen(function*() {
    const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()
    const answer = yield* get(`/_sitefx/requests${search === "" ? "" : `?${search}`}`)
    if (answer.status !== 200) return yield* Effect.die(new Error(`requests: ${answer.status} ${answer.text}`))
    return { ...decodeLog(answer.body), text: answer.text }
  })

/** The seq a test starts after, so it sees only its own requests. */
const mark = Effect.map(requests({ limit: 1, dev: "true" }), (r) => r.last)

/** Who a credential makes its caller, as the dev endpoint `whoami` says. */
const whoami = (authorization: string) => Effect.map(get("/_sitefx/whoami", authorization), (a) => a.body as { kind: string; id: string })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("the request log", (it) => {
  it.effect("each request leaves its method, path without the query, status, duration, caller, and a refusal's rule and code", () =>
    Effect.gen(function*() {
      const key = yield* apiKey
      const admin = yield* whoami(key)
      const guest = yield* visitor
      const member = yield* registerMember()
      const tokens = yield* login(member.email, member.password)
      const after = yield* mark
      const c = yield* freshCollection({ permissions: { ...OPEN, insert: "ADMIN" } })
      yield* data("POST", "/items/count", { dataCollectionId: c }, guest.access_token)
      const refused = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: { a: 1 } } }, tokens.access_token)
      assert.strictEqual(refused.status, 403)
      yield* get(`/wix-data/v2/items/no-such-item?dataCollectionId=${c}&note=left-out-of-the-log`, key)

      const log = yield* requests({ after })
      assert.notInclude(log.text, "left-out-of-the-log")
      const [created, counted, inserted, got] = log.requests
      assert.strictEqual(log.requests.length, 4)
      assert.deepInclude(created, { method: "POST", path: "/wix-data/v2/collections", status: 200, caller: { kind: "admin", id: admin.id } })
      assert.isUndefined(created!.rule)
      assert.deepInclude(counted, { method: "POST", path: "/wix-data/v2/items/count", status: 200 })
      assert.deepStrictEqual(counted!.caller, { kind: "visitor", id: (yield* whoami(guest.access_token)).id })
      assert.deepInclude(inserted, { method: "POST", path: "/wix-data/v2/items", status: 403, code: "WDE0027", caller: { kind: "member", id: member.id } })
      assert.deepStrictEqual(inserted!.rule, refused.body.details.rule)
      assert.deepInclude(got, { method: "GET", path: "/wix-data/v2/items/no-such-item", status: 404, code: "WDE0073" })
      assert.strictEqual(got!.rule?.id, "data.item.not-found")
      for (const r of log.requests) {
        assert.isAbove(r.seq, after)
        assert.isAtLeast(r.durationMs, 0)
        assert.isTrue(Math.abs(Date.parse(r.time) - Date.now()) < 60_000)
      }
      assert.deepStrictEqual(log.requests.map((r) => r.seq), [...log.requests.map((r) => r.seq)].sort((a, b) => a - b))
      assert.strictEqual(log.last, got!.seq)
    }))

  it.effect("filters: status class or code, caller kind or one caller, path prefix, method, the newest N oldest first; dev endpoints only when asked; its own polls never", () =>
    Effect.gen(function*() {
      const key = yield* apiKey
      const admin = yield* whoami(key)
      const one = yield* registerMember()
      const other = yield* registerMember()
      const oneToken = (yield* login(one.email, one.password)).access_token
      const otherToken = (yield* login(other.email, other.password)).access_token
      const after = yield* mark
      const c = yield* freshCollection({ permissions: { ...OPEN, remove: "ADMIN" } })
      for (const token of [oneToken, otherToken]) {
        yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: { a: 1 } } }, token)
        yield* data("POST", "/items/remove", { dataCollectionId: c, dataItemId: "x" }, token)
      }
      yield* get("/_sitefx/health")
      yield* requests({ after })

      const paths = (r: { requests: ReadonlyArray<{ path: string }> }) => r.requests.map((x) => x.path)
      assert.strictEqual((yield* requests({ after })).requests.length, 5)
      assert.strictEqual((yield* requests({ after, status: "4xx" })).requests.length, 2)
      assert.strictEqual((yield* requests({ after, status: "403" })).requests.length, 2)
      assert.strictEqual((yield* requests({ after, status: "404" })).requests.length, 0)
      assert.strictEqual((yield* requests({ after, status: "2xx" })).requests.length, 3)
      assert.strictEqual((yield* requests({ after, caller: "member" })).requests.length, 4)
      const ones = (yield* requests({ after, caller: `member:${one.id}` })).requests
      assert.deepStrictEqual(ones.map((r) => [r.path, r.status]), [["/wix-data/v2/items", 200], ["/wix-data/v2/items/remove", 403]])
      assert.deepStrictEqual(paths(yield* requests({ after, caller: `admin:${admin.id}` })), ["/wix-data/v2/collections"])
      assert.strictEqual((yield* requests({ after, caller: "admin:someone-else" })).requests.length, 0)
      assert.strictEqual((yield* requests({ after, path: "/wix-data/v2/items/remove" })).requests.length, 2)
      assert.strictEqual((yield* requests({ after, path: "/wix-data/v2/items" })).requests.length, 4)
      assert.strictEqual((yield* requests({ after, method: "post" })).requests.length, 5)
      assert.strictEqual((yield* requests({ after, method: "GET" })).requests.length, 0)
      // the newest two, oldest first
      const newest = yield* requests({ after, limit: 2 })
      assert.deepStrictEqual(newest.requests.map((r) => [r.path, r.caller.id]), [["/wix-data/v2/items", other.id], ["/wix-data/v2/items/remove", other.id]])
      // dev endpoint requests only when asked for (or when the path asks for them); the log's own reads never
      const withDev = yield* requests({ after, dev: "true" })
      assert.deepStrictEqual(paths(withDev).slice(-1), ["/_sitefx/health"])
      assert.deepStrictEqual(paths(yield* requests({ after, path: "/_sitefx" })), ["/_sitefx/health"])
      assert.isFalse(paths(yield* requests({ dev: "true", limit: 1000 })).includes("/_sitefx/requests"))
    }))

  it.effect("bad filters are a 400 in the platform's shape, naming the parameter", () =>
    Effect.gen(function*() {
      const bad: ReadonlyArray<readonly [string, string]> = [
        ["status", "4"],
        ["status", "6xx"],
        ["status", "abc"],
        ["caller", "robot"],
        ["caller", "member:"],
        ["path", "wix-data"],
        ["method", "G E T"],
        ["after", "-1"],
        ["after", "x"],
        ["limit", "0"],
        ["limit", "1001"],
        ["limit", "2.5"],
        ["wait", "31"],
        ["wait", "-1"],
        ["dev", "yes"]
      ]
      for (const [name, value] of bad) {
        const answer = yield* get(`/_sitefx/requests?${name}=${encodeURIComponent(value)}`)
        assert.strictEqual(answer.status, 400, `${name}=${value}: ${answer.text}`)
        assert.strictEqual(answer.body.details.validationError.fieldViolations[0].field, name, `${name}=${value}`)
        assert.deepInclude(answer.body.details.rule, { kind: "validation", fields: [name] })
      }
      const malformed = yield* get("/_sitefx/requests?status=%ff")
      assert.strictEqual(malformed.status, 400)
    }))

  it.effect("a follower's request waits for the first request that matches, and answers empty when the wait ends", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const after = yield* mark
      const started = Date.now()
      const poll = fetch(`${platform.url}/_sitefx/requests?after=${after}&path=/wix-data/v2/items/count&wait=10`).then(async (r) => decodeLog(await r.json()))
      yield* Effect.sleep("300 millis")
      // another path does not end the wait
      yield* call("GET", "/no/such/route")
      yield* Effect.sleep("200 millis")
      const sent = Date.now()
      yield* data("POST", "/items/count", { dataCollectionId: "Posts" })
      const answer = yield* Effect.promise(() => poll)
      assert.deepStrictEqual(answer.requests.map((r) => r.path), ["/wix-data/v2/items/count"])
      assert.isAtLeast(Date.now() - started, sent - started)
      assert.isBelow(Date.now() - started, 5000)
      assert.strictEqual(answer.last, answer.requests[0]!.seq)

      const quiet = Date.now()
      const nothing = yield* requests({ after: answer.last, path: "/nowhere", wait: 1 })
      assert.deepStrictEqual(nothing.requests, [])
      assert.isAtLeast(Date.now() - quiet, 900)
      // without `after` there is nothing to wait for, and an `after` past the log's newest seq (a follower of an
      // earlier run of the platform) learns at once where the log stands: both answer at once
      const atOnce = Date.now()
      yield* requests({ path: "/nowhere", wait: 5 })
      const ahead = yield* requests({ after: answer.last + 1000, wait: 5 })
      assert.isBelow(ahead.last, answer.last + 1000)
      assert.isBelow(Date.now() - atOnce, 900)
    }))

  it.effect("no password, access token, refresh token or API key appears anywhere in the log", () =>
    Effect.gen(function*() {
      const key = yield* apiKey
      const password = "log-secret-pass-7"
      const member = yield* registerMember(password)
      const tokens = yield* login(member.email, member.password)
      const guest = yield* visitor
      yield* data("POST", "/items/count", { dataCollectionId: "Posts" }, tokens.access_token)
      yield* data("POST", "/items/count", { dataCollectionId: "Posts" }, `${tokens.access_token},${key}`)
      yield* data("POST", "/items/count", { dataCollectionId: "Posts" }, key)
      const platform = yield* LocalPlatform
      yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: tokens.refresh_token })
      // credentials in a query string, where some clients put them
      yield* get(`/wix-data/v2/items/x?access_token=${encodeURIComponent(tokens.access_token)}&key=${encodeURIComponent(key)}`)
      yield* get(`/_sitefx/whoami?token=${encodeURIComponent(guest.access_token)}`, guest.access_token)
      const log = yield* requests({ dev: "true", limit: 1000 })
      assert.isAbove(log.requests.length, 8)
      for (const secret of [password, tokens.access_token, tokens.refresh_token, key, guest.access_token, guest.refresh_token]) {
        assert.notInclude(log.text, secret)
      }
    }))

  it.effect("the dev guard covers it: a page of another origin is refused", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const url = new URL(platform.url)
      const status = yield* Effect.promise(() =>
        new Promise<number>((resolve, reject) => {
          const req = request({ host: url.hostname, port: url.port, path: "/_sitefx/requests", headers: { origin: "http://evil.example" } }, (res) => {
            res.resume()
            resolve(res.statusCode ?? 0)
          })
          req.on("error", reject)
          req.end()
        })
      )
      assert.strictEqual(status, 403)
    }))
})

it.layer(LocalPlatform.layer({ requestLogSize: 5 }), { excludeTestServices: true })("a small request log", (it) => {
  it.effect("keeps the newest `requestLogSize` requests; seqs go on increasing", () =>
    Effect.gen(function*() {
      const before = (yield* requests({ dev: "true" })).last
      for (let i = 0; i < 8; i++) yield* call("GET", `/no/route/${i}`)
      const log = yield* requests({ dev: "true" })
      assert.deepStrictEqual(log.requests.map((r) => r.path), ["/no/route/3", "/no/route/4", "/no/route/5", "/no/route/6", "/no/route/7"])
      assert.deepStrictEqual(log.requests.map((r) => r.seq), [4, 5, 6, 7, 8].map((n) => before + n))
      assert.strictEqual(log.last, before + 8)
    }))
})

it.layer(LocalPlatform.layer({ dev: false }), { excludeTestServices: true })("without dev endpoints", (it) => {
  it.effect("the log is not served", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* get("/_sitefx/requests")).status, 404)
    }))
})

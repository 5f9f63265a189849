import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { request } from "node:http"
import * as Dev from "../../src/dev/index.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { login, registerMember } from "./support.ts"

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: any
}

/** One request exactly as given (path bytes, Host and browser headers), which `fetch` would not send. */
const raw = (path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  Effect.flatMap(LocalPlatform, (platform) =>
    Effect.promise(() =>
      new Promise<Raw>((resolve, reject) => {
        const url = new URL(platform.url)
        const req = request(
          { host: url.hostname, port: url.port, path, method: options.method ?? "GET", headers: options.headers ?? {} },
          (res) => {
            let text = ""
            res.setEncoding("utf8")
            res.on("data", (chunk: string) => (text += chunk))
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === "" ? undefined : JSON.parse(text) }))
          }
        )
        req.on("error", reject)
        req.end(options.body)
      })
    ))

const hostOf = Effect.map(LocalPlatform, (p) => new URL(p.url).host)

/** The member still exists (a reset would have removed it): it logs in. */
const stillThere = (member: { readonly email: string; readonly password: string }) =>
  Effect.map(login(member.email, member.password), (tokens) => tokens.access_token.length > 0)

it.layer(LocalPlatform.layer({ devOrigins: ["http://localhost:5173"] }), { excludeTestServices: true })("dev endpoints and web pages", (it) => {
  it.effect("a page of another origin can neither read the outbox nor reset the platform", () =>
    Effect.gen(function*() {
      const member = yield* registerMember()
      const foreign = { origin: "http://evil.example", "sec-fetch-site": "cross-site" }
      const read = yield* raw(`/_sitefx/outbox?to=${encodeURIComponent(member.email)}`, { headers: foreign })
      assert.strictEqual(read.status, 403)
      assert.strictEqual(read.body.details.applicationError.code, "DEV_ACCESS_DENIED")
      assert.include(read.body.message, "--dev-origin http://evil.example")
      assert.isString(read.headers["x-wix-request-id"])
      // a simple POST needs no preflight: the guard, not CORS, is what stops it
      const reset = yield* raw("/_sitefx/reset", { method: "POST", headers: { ...foreign, "content-type": "text/plain" }, body: "{}" })
      assert.strictEqual(reset.status, 403)
      assert.isTrue(yield* stillThere(member))
    }))

  it.effect("an image or script of another site (no Origin, Sec-Fetch-Site: cross-site) is refused", () =>
    Effect.gen(function*() {
      const member = yield* registerMember()
      for (const site of ["cross-site", "same-site"]) {
        const res = yield* raw("/_sitefx/reset", { method: "POST", headers: { "sec-fetch-site": site } })
        assert.strictEqual(res.status, 403, site)
      }
      assert.isTrue(yield* stillThere(member))
    }))

  it.effect("scripts find the site's connection at /_sitefx/site; pages of other origins cannot read it", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const script = yield* raw("/_sitefx/site")
      assert.strictEqual(script.status, 200)
      assert.deepStrictEqual(script.body, { clientId: platform.clientId, siteId: platform.siteId, apiKey: Redacted.value(platform.apiKey) })
      const page = yield* raw("/_sitefx/site", { headers: { origin: "http://evil.example", "sec-fetch-site": "cross-site" } })
      assert.strictEqual(page.status, 403)
      assert.notInclude(JSON.stringify(page.body), Redacted.value(platform.apiKey))
    }))

  it.effect("every spelling the router reads as a dev path is guarded: escapes, case, repeated slashes", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const member = yield* registerMember()
      const foreign = { origin: "http://evil.example", "sec-fetch-site": "cross-site" }
      for (const path of ["/%5Fsitefx/site", "/%5fsitefx/site", "/_SITEFX/site", "//_sitefx/site", "/_sitefx//site", "/%5F%53itefx/site/"]) {
        // a script reaches the dev endpoint this way, so the spelling is one the router accepts
        const script = yield* raw(path)
        assert.strictEqual(script.status, 200, path)
        const page = yield* raw(path, { headers: foreign })
        assert.strictEqual(page.status, 403, path)
        assert.strictEqual(page.body.details.applicationError.code, "DEV_ACCESS_DENIED", path)
        assert.notInclude(JSON.stringify(page.body), Redacted.value(platform.apiKey))
      }
      const reset = yield* raw("/%5Fsitefx/reset", { method: "POST", headers: { ...foreign, "content-type": "text/plain" }, body: "{}" })
      assert.strictEqual(reset.status, 403)
      assert.isTrue(yield* stillThere(member))
    }))

  it.effect("a rebound host name is refused even without browser headers", () =>
    Effect.gen(function*() {
      const port = (yield* hostOf).split(":")[1]
      const res = yield* raw("/_sitefx/outbox", { headers: { host: `evil.example:${port}` } })
      assert.strictEqual(res.status, 403)
      assert.include(res.body.message, "loopback")
    }))

  it.effect("the platform's own pages and an allowed dev origin get their origin reflected; scripts need nothing", () =>
    Effect.gen(function*() {
      const host = yield* hostOf
      const port = host.split(":")[1]
      for (const origin of [`http://${host}`, `http://localhost:${port}`, "http://localhost:5173"]) {
        const res = yield* raw("/_sitefx/health", { headers: { origin, "sec-fetch-site": "cross-site" } })
        assert.strictEqual(res.status, 200, origin)
        assert.strictEqual(res.headers["access-control-allow-origin"], origin)
        assert.include(String(res.headers["vary"]), "Origin")
      }
      const other = yield* raw("/_sitefx/health", { headers: { origin: "http://localhost:3000" } })
      assert.strictEqual(other.status, 403, "another local port is another origin")
      const elsewhere = yield* raw("/_sitefx/health", { headers: { origin: `http://127.0.0.2:${port}` } })
      assert.strictEqual(elsewhere.status, 403, "another loopback address is another server")
      const script = yield* raw("/_sitefx/health", { headers: { "sec-fetch-site": "same-origin" } })
      assert.strictEqual(script.status, 200)
      const plain = yield* raw("/_sitefx/health")
      assert.strictEqual(plain.status, 200)
      assert.isUndefined(plain.headers["access-control-allow-origin"])
    }))

  it.effect("preflights: an allowed origin is granted, the API stays open to all", () =>
    Effect.gen(function*() {
      const ask = (path: string, origin: string) =>
        raw(path, {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type,authorization" }
        })
      const allowed = yield* ask("/_sitefx/reset", "http://localhost:5173")
      assert.strictEqual(allowed.headers["access-control-allow-origin"], "http://localhost:5173")
      assert.include(String(allowed.headers["access-control-allow-headers"]), "authorization")
      const api = yield* ask("/oauth2/token", "http://evil.example")
      assert.strictEqual(api.headers["access-control-allow-origin"], "*")
      const answer = yield* raw("/no/such/route", { headers: { origin: "http://evil.example" } })
      assert.strictEqual(answer.headers["access-control-allow-origin"], "*")
    }))

  describe("a refused page reads its refusal, and nothing else", () => {
    const foreign = { origin: "http://localhost:3000", "sec-fetch-site": "same-site" }

    it.effect("the refusal is granted to the page's origin, with no credentials and no other header of an answer", () =>
      Effect.gen(function*() {
        const res = yield* raw("/_sitefx/outbox", { headers: foreign })
        assert.strictEqual(res.status, 403)
        assert.strictEqual(res.headers["access-control-allow-origin"], "http://localhost:3000")
        assert.include(String(res.headers["vary"]), "Origin")
        assert.isUndefined(res.headers["access-control-allow-credentials"])
        assert.isUndefined(res.headers["set-cookie"])
        assert.strictEqual(res.body.details.applicationError.code, "DEV_ACCESS_DENIED")
        assert.strictEqual(res.body.message, "Dev endpoints do not answer pages from http://localhost:3000; allow it with `sitefx serve --dev-origin http://localhost:3000`")
      }))

    it.effect("the refusal says the same whatever the endpoint, the method and what the endpoint holds", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        const answers = [
          yield* raw("/_sitefx/site", { headers: foreign }),
          yield* raw(`/_sitefx/outbox?to=${encodeURIComponent(member.email)}`, { headers: foreign }),
          yield* raw("/_sitefx/members", { headers: foreign }),
          yield* raw("/_sitefx/no-such-endpoint", { headers: foreign }),
          yield* raw("/_sitefx/reset", { method: "POST", headers: { ...foreign, "content-type": "application/json" }, body: "{}" })
        ]
        const bodies = answers.map((res) => JSON.stringify(res.body))
        assert.deepStrictEqual(answers.map((res) => res.status), [403, 403, 403, 403, 403])
        assert.deepStrictEqual(new Set(bodies).size, 1, bodies.join("\n"))
        assert.notInclude(bodies[0]!, member.email)
        assert.isTrue(yield* stillThere(member), "the guard refused the reset before it ran")
      }))

    it.effect("its preflight is granted, so the browser sends the request and the guard refuses it readably", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        const preflight = yield* raw("/_sitefx/reset", {
          method: "OPTIONS",
          headers: { ...foreign, "access-control-request-method": "POST", "access-control-request-headers": "content-type" }
        })
        assert.strictEqual(preflight.status, 204)
        assert.strictEqual(preflight.headers["access-control-allow-origin"], "http://localhost:3000")
        assert.isUndefined(preflight.headers["access-control-allow-credentials"])
        const reset = yield* raw("/_sitefx/reset", { method: "POST", headers: { ...foreign, "content-type": "application/json" }, body: "{}" })
        assert.strictEqual(reset.status, 403)
        assert.strictEqual(reset.headers["access-control-allow-origin"], "http://localhost:3000")
        assert.isTrue(yield* stillThere(member))
      }))

    it.effect("an Origin that is not one a browser sends is never reflected, and is refused all the same", () =>
      Effect.gen(function*() {
        for (const origin of ["http://evil.example/path", "null", "evil.example", "http://evil.example, http://localhost:5173", "javascript:alert(1)"]) {
          const res = yield* raw("/_sitefx/site", { headers: { origin } })
          assert.strictEqual(res.status, 403, origin)
          assert.isUndefined(res.headers["access-control-allow-origin"], origin)
        }
      }))

    it.effect("sitefx/dev in the refused page fails with the typed refusal and its message", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        // what a browser adds to a page's fetch: its Origin
        const pageFetch: typeof fetch = (input, init) =>
          fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), origin: "http://localhost:3000" } })
        const error = yield* Dev.Settings.get.pipe(
          Effect.provide(Dev.layer({ baseUrl: platform.url, retry: { times: 0 } })),
          Effect.provideService(PlatformFetch, pageFetch),
          Effect.flip
        )
        assert.strictEqual(error._tag, "PlatformError")
        assert.strictEqual(error.reason._tag, "ApplicationError")
        assert.strictEqual(error.code, "DEV_ACCESS_DENIED")
        assert.deepStrictEqual(error.reason._tag === "ApplicationError" ? [error.reason.status, error.reason.rule?.id] : [], [403, "dev.access.origin"])
        assert.include(error.message, "sitefx serve --dev-origin http://localhost:3000")
      }))
  })

  describe("paths the router cannot read", () => {
    it.effect("a malformed escape is a 404 in the platform's shape, with a request id", () =>
      Effect.gen(function*() {
        for (const path of ["/wix-data/v2/items/%E0%A4%A", "/%zz", "/_sitefx/%zz", "/wix-data/v2/items/%ff?dataCollectionId=x"]) {
          const res = yield* raw(path)
          assert.strictEqual(res.status, 404, path)
          assert.strictEqual(res.body.details.applicationError.code, "NOT_FOUND", path)
          assert.isString(res.body.message)
          assert.match(String(res.headers["x-wix-request-id"]), /^[0-9a-f-]{36}$/)
        }
      }))
  })
})

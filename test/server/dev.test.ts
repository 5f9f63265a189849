import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { LocalPlatform } from "../../src/server/index.ts"
import { apiKey, call, codeOf, dev, get, login, post, registerMember, uniqueEmail, visitor } from "./support.ts"

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("dev endpoints", (it) => {
  it.effect("health, and a request id and platform-shaped 404 for unknown routes", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* dev("GET", "/health"), { ok: true })
      const missing = yield* get("/no/such/route")
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(codeOf(missing), "NOT_FOUND")
      assert.match(missing.headers.get("x-wix-request-id") ?? "", /^[0-9a-f-]{36}$/)
      const ids = yield* Effect.all([get("/_sitefx/health"), get("/_sitefx/health")])
      assert.notStrictEqual(ids[0].headers.get("x-wix-request-id"), ids[1].headers.get("x-wix-request-id"))
    }))

  it.effect("CORS: browsers may call the platform from any origin and read the request id", () =>
    Effect.gen(function*() {
      const preflight = yield* call("OPTIONS", "/oauth2/token", {
        headers: { origin: "http://localhost:5173", "access-control-request-method": "POST", "access-control-request-headers": "content-type,authorization" }
      })
      assert.strictEqual(preflight.headers.get("access-control-allow-origin"), "*")
      assert.include(preflight.headers.get("access-control-allow-headers") ?? "", "authorization")
      const platform = yield* LocalPlatform
      const res = yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "anonymous" }, undefined, { origin: "http://localhost:5173" })
      assert.include(res.headers.get("access-control-expose-headers") ?? "", "x-wix-request-id")
    }))

  it.effect("stats count every token request by grant, concurrent ones included", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const guest = yield* visitor
      const before = (yield* dev("GET", "/stats")).tokenRequests
      yield* Effect.all(
        Array.from({ length: 20 }, () =>
          post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: guest.refresh_token })),
        { concurrency: "unbounded" }
      )
      yield* post("/oauth2/token", { clientId: "nobody", grantType: "anonymous" })
      const after = (yield* dev("GET", "/stats")).tokenRequests
      assert.deepStrictEqual(after, { ...before, refresh_token: before.refresh_token + 20, anonymous: before.anonymous + 1 })
    }))

  it.effect("clock: the skew is read and set; a bad body changes nothing", () =>
    Effect.gen(function*() {
      const start = yield* dev("GET", "/clock")
      assert.strictEqual(start.skewSeconds, 0)
      const moved = yield* dev("POST", "/clock", { skewSeconds: 3600 })
      assert.strictEqual(moved.skewSeconds, 3600)
      assert.approximately(Date.parse(moved.now) - Date.now(), 3_600_000, 5_000)
      const bad = yield* post("/_sitefx/clock", { skewSeconds: "soon" })
      assert.strictEqual(bad.status, 400)
      // past the years a date holds: refused, not a time nothing can print
      for (const skewSeconds of [1e13, -1e13, 1e300]) {
        const far = yield* post("/_sitefx/clock", { skewSeconds })
        assert.strictEqual(far.status, 400)
        assert.strictEqual(far.body.details.validationError.fieldViolations[0].field, "skewSeconds")
      }
      assert.strictEqual((yield* dev("GET", "/clock")).skewSeconds, 3600)
      yield* dev("POST", "/clock", { skewSeconds: 0 })
    }))

  it.effect("settings: defaults, partial updates, refusals", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* dev("GET", "/settings"), {
        captcha: false,
        emailVerification: false,
        ownerApproval: false,
        mfaRequired: false,
        accessTokenTtlSeconds: 14400,
        catalogVersion: "V1_CATALOG"
      })
      const patched = yield* dev("PATCH", "/settings", { captcha: true })
      assert.isTrue(patched.captcha)
      assert.isFalse(patched.ownerApproval)
      const bad = yield* call("PATCH", "/_sitefx/settings", { body: { captcha: false, accessTokenTtlSeconds: 0 } })
      assert.strictEqual(bad.status, 400)
      assert.strictEqual(bad.body.details.validationError.fieldViolations[0].field, "accessTokenTtlSeconds")
      assert.isTrue((yield* dev("GET", "/settings")).captcha)
      yield* dev("PATCH", "/settings", { captcha: false })
    }))

  it.effect("outbox: messages to one address (any case), newest last", () =>
    Effect.gen(function*() {
      const member = yield* registerMember()
      const guest = yield* visitor
      for (let i = 0; i < 2; i++) {
        yield* post("/_api/iam/verification/v1/start", { identityId: member.id, target: "EMAIL" }, guest.access_token)
      }
      const { messages } = yield* dev("GET", `/outbox?to=${encodeURIComponent(member.email.toUpperCase())}`)
      assert.strictEqual(messages.length, 2)
      assert.isTrue(Number(messages[0].id) < Number(messages[1].id))
      for (const m of messages) {
        assert.strictEqual(m.kind, "EMAIL_VERIFICATION")
        assert.strictEqual(m.to, member.email)
        assert.isString(m.subject)
        assert.isFalse(Number.isNaN(Date.parse(m.createdDate)))
      }
      const all = (yield* dev("GET", "/outbox")).messages
      assert.isAtLeast(all.length, 2)
    }))

  it.effect("whoami resolves visitors, members and API keys; 401 without a caller", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      assert.strictEqual((yield* get("/_sitefx/whoami")).status, 401)
      assert.strictEqual((yield* get("/_sitefx/whoami", "sfx_key_not-a-key")).status, 401)
      const key = yield* apiKey
      const admin = yield* get("/_sitefx/whoami", key, { "wix-site-id": platform.siteId })
      assert.deepStrictEqual(admin.body, { kind: "admin", id: "admin", role: "admin", clientId: null })
      assert.strictEqual((yield* get("/_sitefx/whoami", key, { "wix-site-id": "another-site" })).status, 403)
      const member = yield* registerMember()
      const tokens = yield* login(member.email, member.password)
      const me = yield* get("/_sitefx/whoami", `Bearer ${tokens.access_token}`)
      assert.deepStrictEqual(me.body, { kind: "member", id: member.id, role: "member", clientId: platform.clientId })
    }))

  it.effect("member administration: list by e-mail, 404 for unknown ids", () =>
    Effect.gen(function*() {
      const member = yield* registerMember()
      const found = yield* dev("GET", `/members?email=${encodeURIComponent(member.email)}`)
      assert.deepStrictEqual(found.identities.map((i: { id: string }) => i.id), [member.id])
      assert.deepStrictEqual((yield* dev("GET", `/members?email=${encodeURIComponent(uniqueEmail())}`)).identities, [])
      assert.strictEqual((yield* post("/_sitefx/members/nobody/approve", {})).status, 404)
      const badFactor = yield* post(`/_sitefx/members/${member.id}/factors`, { type: "SMS" })
      assert.strictEqual(badFactor.status, 400)
      assert.strictEqual((yield* call("DELETE", `/_sitefx/members/${member.id}/factors/nope`)).status, 404)
    }))
})

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("reset and seed", (it) => {
  it.effect("reset wipes everything (tokens too); seeding brings back the same client, key and demo member", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const member = yield* registerMember()
      const tokens = yield* login(member.email, member.password)
      yield* dev("PATCH", "/settings", { ownerApproval: true })
      yield* dev("POST", "/clock", { skewSeconds: 99 })

      assert.deepStrictEqual(yield* dev("POST", "/reset"), { ok: true })
      assert.strictEqual((yield* get("/members/v1/members/my", tokens.access_token)).status, 401)
      const noClient = yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "anonymous" })
      assert.strictEqual(codeOf(noClient), "invalid_client")
      assert.strictEqual((yield* dev("GET", "/clock")).skewSeconds, 0)
      assert.isFalse((yield* dev("GET", "/settings")).ownerApproval)
      assert.deepStrictEqual((yield* dev("GET", "/members")).identities, [])
      assert.deepStrictEqual((yield* dev("GET", "/outbox")).messages, [])

      assert.strictEqual((yield* post("/_sitefx/seed", { seed: "everything" })).status, 400)
      yield* dev("POST", "/seed", { seed: "demo" })
      yield* dev("POST", "/seed", { seed: "demo" })
      const demo = yield* login(platform.demoMember!.email, Redacted.value(platform.demoMember!.password))
      assert.strictEqual(demo.identity.email.address, "demo@sitefx.dev")
      assert.strictEqual((yield* dev("GET", "/members")).identities.length, 1)
      const admin = yield* get("/_sitefx/whoami", Redacted.value(platform.apiKey))
      assert.strictEqual(admin.body.kind, "admin")
    }))
})

it.layer(LocalPlatform.layer({ dev: false, seed: "none" }), { excludeTestServices: true })("dev mode off", (it) => {
  it.effect("every /_sitefx endpoint is a 404; the platform itself works, without a demo member", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      assert.isUndefined(platform.demoMember)
      for (const [method, path] of [["GET", "/health"], ["POST", "/reset"], ["GET", "/outbox"], ["POST", "/captcha"], ["GET", "/stats"]] as const) {
        const res = yield* call(method, `/_sitefx${path}`)
        assert.strictEqual(res.status, 404, path)
        assert.strictEqual(codeOf(res), "NOT_FOUND")
      }
      const guest = yield* visitor
      assert.strictEqual(guest.token_type, "Bearer")
      const res = yield* post("/_api/iam/authentication/v2/login", { loginId: { email: "demo@sitefx.dev" }, password: "sitefx-demo" }, guest.access_token)
      assert.strictEqual(codeOf(res), "-19999")
    }))
})

describe("options", () => {
  it.effect("accessTokenTtlSeconds sets the default lifetime", () =>
    Effect.gen(function*() {
      const guest = yield* visitor
      assert.strictEqual(guest.expires_in, 120)
    }).pipe(Effect.provide(LocalPlatform.layer({ accessTokenTtlSeconds: 120 }))), { timeout: 10_000 })
})

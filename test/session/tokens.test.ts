import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { decodeJson } from "../../src/http/decodeJson.ts"
import { PlatformClient } from "../../src/http/PlatformClient.ts"
import * as DevWire from "../../src/dev/wire/platform.ts"
import { Session } from "../../src/session/Session.ts"
import { dev, LocalPlatform, stats, withSite } from "../support/platform.ts"

const whoami = decodeJson({ method: "GET", path: "/_sitefx/whoami", host: "api" }, DevWire.WhoAmI)

const nowSeconds = () => Math.floor(Date.now() / 1000)

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("session tokens", (it) => {
  it.effect("a new session gets anonymous visitor tokens on its first call", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      assert.strictEqual((yield* session.tokens).accessToken.value, "")
      const me = yield* whoami
      assert.strictEqual(me.kind, "visitor")
      const tokens = yield* session.tokens
      assert.strictEqual(tokens.refreshToken.role, "visitor")
      assert.isFalse(yield* session.loggedIn)
      // expiresAt is epoch seconds: now + expires_in (4 h by default)
      assert.approximately(tokens.accessToken.expiresAt, nowSeconds() + 14_400, 5)
    })))

  it.effect("an expired access token is refreshed with the same refresh token", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      const first = yield* session.ensureTokens
      yield* session.setTokens({ ...first, accessToken: { ...first.accessToken, expiresAt: nowSeconds() - 10 } })
      const before = yield* stats
      const renewed = yield* session.ensureTokens
      const after = yield* stats
      assert.strictEqual(after.tokenRequests.refresh_token - before.tokenRequests.refresh_token, 1)
      assert.strictEqual(after.tokenRequests.anonymous, before.tokenRequests.anonymous)
      assert.notStrictEqual(renewed.accessToken.value, first.accessToken.value)
      assert.strictEqual(renewed.refreshToken.value, first.refreshToken.value)
      assert.strictEqual(renewed.refreshToken.role, "visitor")
    })))

  it.effect("1000 concurrent calls at expiry make exactly one token request", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      const first = yield* session.ensureTokens
      yield* session.setTokens({ ...first, accessToken: { ...first.accessToken, expiresAt: nowSeconds() - 1 } })
      const before = yield* stats
      const all = yield* Effect.all(Array.from({ length: 1000 }, () => session.ensureTokens), { concurrency: "unbounded" })
      const after = yield* stats
      const requests = (["anonymous", "refresh_token"] as const).reduce(
        (n, k) => n + after.tokenRequests[k] - before.tokenRequests[k],
        0
      )
      assert.strictEqual(requests, 1)
      assert.strictEqual(new Set(all.map((t) => t.accessToken.value)).size, 1)
    })))

  it.effect("a refused refresh falls back to fresh visitor tokens", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      yield* session.setTokens({
        accessToken: { value: "", expiresAt: 0 },
        refreshToken: { value: "not-a-refresh-token", role: "member" }
      })
      const before = yield* stats
      const tokens = yield* session.ensureTokens
      const after = yield* stats
      assert.strictEqual(after.tokenRequests.refresh_token - before.tokenRequests.refresh_token, 1)
      assert.strictEqual(after.tokenRequests.anonymous - before.tokenRequests.anonymous, 1)
      assert.strictEqual(tokens.refreshToken.role, "visitor")
      assert.notStrictEqual(tokens.refreshToken.value, "not-a-refresh-token")
      assert.isFalse(yield* session.loggedIn)
    })))

  it.effect("a 401 triggers one refresh and one retry, shared by concurrent callers", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      yield* whoami
      // the platform's clock jumps 5 hours: every token the client holds is now expired there
      yield* dev("/clock", { body: { skewSeconds: 5 * 3600 } })
      const before = yield* stats
      const results = yield* Effect.all(Array.from({ length: 50 }, () => whoami), { concurrency: "unbounded" }).pipe(
        Effect.ensuring(Effect.orDie(dev("/clock", { body: { skewSeconds: 0 } })))
      )
      const after = yield* stats
      assert.isTrue(results.every((r) => r.kind === "visitor"))
      assert.strictEqual(after.tokenRequests.refresh_token - before.tokenRequests.refresh_token, 1)
      assert.strictEqual((yield* session.tokens).refreshToken.role, "visitor")
    })))

  it.effect("a 401 that persists after the refresh is reported, not retried forever", () =>
    withSite(Effect.gen(function*() {
      const client = yield* PlatformClient
      const exit = yield* Effect.exit(client.request({
        method: "GET",
        path: "/members/v1/members/my",
        headers: { Authorization: "forged.token.value" }
      }))
      assert.isTrue(Exit.isFailure(exit))
      const error = Exit.findErrorOption(exit)
      assert.isTrue(error._tag === "Some" && error.value.status === 401)
    })))

  it.effect("changes emits the state, then each change", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      const fiber = yield* session.changes.pipe(Stream.take(2), Stream.runCollect, Effect.forkChild)
      yield* Effect.sleep("20 millis")
      yield* session.ensureTokens
      const seen = yield* Fiber.join(fiber)
      assert.deepStrictEqual(seen.map((s) => s.role), ["none", "visitor"])
    })))

  it.effect("the access token is Redacted", () =>
    withSite(Effect.gen(function*() {
      const session = yield* Session
      const token = yield* session.accessToken
      assert.notInclude(String(token), Redacted.value(token))
      assert.isTrue(Redacted.value(token).length > 20)
    })))
})

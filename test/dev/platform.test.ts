/**
 * sitefx/dev against a real platform: the platform itself (health, its site's connection, counters,
 * captcha, reset and seed), the settings, the clock, injected faults and the outbox.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { Clock, Faults, Members, Outbox, Platform, Settings } from "../../src/dev/index.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { get, post, registerMember, visitor } from "../server/support.ts"
import { onDev } from "./support.ts"

describe("sitefx/dev", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("health answers; the site's connection keeps its API key Redacted; the counters count", () =>
      onDev(Effect.gen(function*() {
        const platform = yield* LocalPlatform
        yield* Platform.health
        const site = yield* Platform.site
        assert.strictEqual(site.clientId, platform.clientId)
        assert.strictEqual(site.siteId, platform.siteId)
        assert.strictEqual(Redacted.value(site.apiKey), Redacted.value(platform.apiKey))
        assert.notInclude(JSON.stringify(site), Redacted.value(platform.apiKey))
        const before = yield* Platform.stats
        yield* visitor
        const after = yield* Platform.stats
        assert.strictEqual(after.tokenRequests.anonymous, before.tokenRequests.anonymous + 1)
        assert.isAbove(after.requests, before.requests)
        assert.isString(yield* Platform.captcha)
      })))

    it.effect("settings are read and changed; a bad value is a 400 and changes nothing", () =>
      onDev(Effect.gen(function*() {
        const start = yield* Settings.get
        assert.isFalse(start.ownerApproval)
        const changed = yield* Settings.update({ ownerApproval: true, accessTokenTtlSeconds: 600 })
        assert.isTrue(changed.ownerApproval)
        assert.strictEqual(changed.accessTokenTtlSeconds, 600)
        assert.strictEqual(changed.captcha, start.captcha)
        const refused = yield* Effect.flip(Settings.update({ captcha: true, accessTokenTtlSeconds: 0 }))
        assert.strictEqual(refused.status, 400)
        assert.strictEqual(refused.fieldViolations[0]?.field, "accessTokenTtlSeconds")
        assert.deepStrictEqual(yield* Settings.get, changed)
        assert.deepStrictEqual(yield* Settings.update({ ownerApproval: start.ownerApproval, accessTokenTtlSeconds: start.accessTokenTtlSeconds }), start)
      })))

    it.effect("the clock's skew is read and set", () =>
      onDev(Effect.gen(function*() {
        assert.strictEqual((yield* Clock.get).skewSeconds, 0)
        const ahead = yield* Clock.setSkew(7200)
        assert.strictEqual(ahead.skewSeconds, 7200)
        assert.approximately(Date.parse(ahead.now) - Date.now(), 7_200_000, 5_000)
        assert.strictEqual((yield* Clock.get).skewSeconds, 7200)
        assert.strictEqual((yield* Clock.setSkew(0)).skewSeconds, 0)
      })))

    it.effect("faults are added with ids, listed with the requests they have left and their hits, used up, removed, cleared; a bad one is refused", () =>
      onDev(Effect.gen(function*() {
        yield* Faults.clear
        const items = yield* Faults.add({ path: "/wix-data/v2/items", status: 503, count: 2 })
        const products = yield* Faults.add({ path: "/stores/v1/products", status: 429, count: 1, retryAfter: 3 })
        const slow = yield* Faults.add({ path: "/stores", method: "GET", kind: "slow", ms: 5, rate: 0.5, seed: 3 })
        assert.deepStrictEqual(yield* Faults.list, [
          { id: items.id, path: "/wix-data/v2/items", status: 503, count: 2, hits: 0 },
          { id: products.id, path: "/stores/v1/products", status: 429, count: 1, retryAfter: 3, hits: 0 },
          { id: slow.id, path: "/stores", method: "GET", kind: "slow", ms: 5, rate: 0.5, seed: 3, hits: 0 }
        ])
        const faulted = yield* get("/wix-data/v2/items/some-id")
        assert.strictEqual(faulted.status, 503)
        assert.deepStrictEqual((yield* Faults.list).map((f) => [f.count, f.hits]), [[1, 1], [1, 0], [undefined, 0]])
        const refused = yield* Effect.flip(Faults.add({ path: "/x", kind: "reset", status: 503, count: 1 }))
        assert.strictEqual(refused.status, 400)
        assert.include(refused.message, "status is for a status fault, not a reset fault")
        yield* Faults.remove(slow.id)
        assert.deepStrictEqual((yield* Faults.list).map((f) => f.id), [items.id, products.id])
        const unknown = yield* Effect.flip(Faults.remove(slow.id))
        assert.strictEqual(unknown.status, 404)
        yield* Faults.clear
        assert.deepStrictEqual(yield* Faults.list, [])
      })))

    it.effect("the outbox holds the messages sent, to every address or to one, with their links", () =>
      onDev(Effect.gen(function*() {
        const member = yield* registerMember()
        const guest = yield* visitor
        const sent = yield* post("/_api/iam/recovery/v1/send-email", { email: member.email, redirect: { url: "http://localhost:5173/reset" } }, guest.access_token)
        assert.strictEqual(sent.status, 200)
        const mine = yield* Outbox.list({ to: member.email.toUpperCase() })
        assert.strictEqual(mine.length, 1)
        assert.strictEqual(mine[0]!.kind, "RECOVERY")
        assert.isString(mine[0]!.token)
        assert.strictEqual(mine[0]!.link, `http://localhost:5173/reset?recoveryToken=${mine[0]!.token}`)
        assert.isTrue((yield* Outbox.list()).some((m) => m.id === mine[0]!.id))
        assert.deepStrictEqual(yield* Outbox.list({ to: "nobody@example.com" }), [])
      })))
  })

  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("reset empties the platform and a seed fills it again", () =>
      onDev(Effect.gen(function*() {
        const platform = yield* LocalPlatform
        yield* registerMember()
        assert.isAbove((yield* Members.list()).length, 1)
        yield* Platform.reset
        assert.deepStrictEqual(yield* Members.list(), [])
        yield* Platform.seed("demo")
        const members = yield* Members.list()
        assert.deepStrictEqual(members.map((m) => m.email?.address), [platform.demoMember!.email])
      })))
  })
})

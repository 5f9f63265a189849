/**
 * sitefx/dev's Profile against a real platform: the production profile read, switched on with a plan and
 * a limit that an API key's calls then meet, a bad value refused as a typed error that changes nothing,
 * and switched off.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Profile } from "../../src/dev/index.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { PLAN_TIMEOUT_SECONDS } from "../../src/server/platform/Profile.ts"
import { data } from "../server/data/support.ts"
import { onDev } from "./support.ts"

/** `n` cheap data queries with the site's API key, one after another; their statuses. */
const keyedQueries = (n: number) =>
  Effect.forEach(
    Array.from({ length: n }, (_, i) => i),
    () => Effect.map(data("POST", "/items/query", { dataCollectionId: "Posts", query: { paging: { limit: 1 } } }), (a) => a.status)
  )

describe("sitefx/dev Profile", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("is read, switched on with a plan and a limit an API key then meets, refuses a bad value with a typed error, and is switched off", () =>
      onDev(Effect.gen(function*() {
        const start = yield* Profile.get
        assert.deepStrictEqual(start, { profile: "none", plan: "free", rateLimit: 200, rateLimitWindowSeconds: 60, scanRowsPerSecond: 500_000 })

        const on = yield* Profile.set({ profile: "production", plan: "elite", rateLimit: 3, rateLimitWindowSeconds: 60 })
        assert.deepStrictEqual(on, { profile: "production", plan: "elite", rateLimit: 3, rateLimitWindowSeconds: 60, scanRowsPerSecond: 500_000 })
        assert.deepStrictEqual(yield* Profile.get, on)
        assert.deepStrictEqual(yield* keyedQueries(4), [200, 200, 200, 429])

        for (const [patch, field] of [[{ rateLimit: 0 }, "rateLimit"], [{ rateLimitWindowSeconds: 90_000 }, "rateLimitWindowSeconds"], [{ plan: "gold" }, "plan"]] as const) {
          const refused = yield* Effect.flip(Profile.set({ profile: "none", ...patch } as Profile.ProfilePatch))
          assert.strictEqual(refused._tag, "PlatformError")
          assert.strictEqual(refused.status, 400, JSON.stringify(patch))
          assert.strictEqual(refused.fieldViolations[0]?.field, field, JSON.stringify(patch))
        }
        // nothing changed: still on, and the key's window still used up
        assert.deepStrictEqual(yield* Profile.get, on)
        assert.deepStrictEqual(yield* keyedQueries(1), [429])

        const off = yield* Profile.set({ profile: "none", plan: "free", rateLimit: 200 })
        assert.deepStrictEqual(off, start)
        assert.deepStrictEqual(yield* keyedQueries(4), [200, 200, 200, 200])
      })))

    it.effect("gives the plan's scan threshold as the platform counts it", () =>
      Effect.sync(() => {
        for (const plan of ["free", "premium", "elite"] as const) {
          assert.strictEqual(Profile.PLAN_TIMEOUT_SECONDS[plan], PLAN_TIMEOUT_SECONDS[plan])
          assert.strictEqual(Profile.scanThreshold({ plan, scanRowsPerSecond: 20 }), PLAN_TIMEOUT_SECONDS[plan] * 20)
        }
      }))
  })
})

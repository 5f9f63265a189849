import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { DataPaths } from "../../src/data/protocol.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { type Answer, apiKey, dev, get, post, visitor } from "./support.ts"

// a cheap call every caller may make: the demo seed's Posts collection reads for anyone
const QUERY = { dataCollectionId: "Posts", query: { paging: { limit: 1 } } }

/** `n` data queries with these credentials, one after another; their answers in order. */
const queries = (n: number, auth: string) =>
  Effect.forEach(Array.from({ length: n }, (_, i) => i), () => post(DataPaths.query, QUERY, auth))

const statuses = (answers: ReadonlyArray<Answer>) => [...new Set(answers.map((a) => a.status))]

/** Switches the profile (which opens every window afresh) and moves the clock back to this machine's time. */
const fresh = (patch: Record<string, unknown>) =>
  Effect.andThen(dev("POST", "/clock", { skewSeconds: 0 }), dev("POST", "/profile", { profile: "none", ...patch }))

describe("the production profile", () => {
  it.layer(LocalPlatform.layer({ profile: "production" }), { excludeTestServices: true })("on from the start", (it) => {
    it.effect("refuses an API key's 201st call of a minute with 429, the rate-limit rule and Retry-After; the next window admits it", () =>
      Effect.gen(function*() {
        yield* fresh({ profile: "production" })
        const key = yield* apiKey
        const admitted = yield* queries(200, key)
        assert.deepStrictEqual(statuses(admitted), [200])
        assert.deepStrictEqual([...new Set(admitted.map((a) => a.headers.get("x-sitefx-rate-limit")))], ["200/60s"])

        const refused = yield* post(DataPaths.query, QUERY, key)
        assert.strictEqual(refused.status, 429)
        assert.strictEqual(refused.headers.get("x-sitefx-rate-limit"), "200/60s")
        const wait = Number(refused.headers.get("retry-after"))
        assert.isTrue(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After ${wait}`)
        assert.strictEqual(refused.body.details.applicationError.code, "TOO_MANY_REQUESTS")
        assert.deepInclude(refused.body.details.rule, { kind: "throttle", id: "rate-limit", retryAfterSeconds: wait })

        // the refused call is in the request log with its rule, under the key
        const log = yield* dev("GET", "/requests?status=429")
        const entry = log.requests[log.requests.length - 1]
        assert.strictEqual(entry.caller.kind, "admin")
        assert.strictEqual(entry.rule.id, "rate-limit")

        // dev endpoints are never limited, and the window ends when the clock passes it
        yield* dev("POST", "/clock", { skewSeconds: 61 })
        const next = yield* post(DataPaths.query, QUERY, key)
        assert.strictEqual(next.status, 200)
      }))

    it.effect("never limits visitors, nor tells them of the limit", () =>
      Effect.gen(function*() {
        yield* fresh({ profile: "production", rateLimit: 5 })
        const guest = yield* visitor
        const answers = yield* queries(12, guest.access_token)
        assert.deepStrictEqual(statuses(answers), [200])
        assert.isTrue(answers.every((a) => a.headers.get("x-sitefx-rate-limit") === null))
        // meanwhile the key's own window is used up after 5
        const keyed = yield* queries(6, yield* apiKey)
        assert.deepStrictEqual(keyed.map((a) => a.status), [200, 200, 200, 200, 200, 429])
        assert.strictEqual(keyed[5]!.headers.get("x-sitefx-rate-limit"), "5/60s")
      }))

    it.effect("scales the limit's time with a shorter window: its header, its Retry-After, and the next window's calls", () =>
      Effect.gen(function*() {
        yield* fresh({ profile: "production", rateLimit: 3, rateLimitWindowSeconds: 2 })
        const key = yield* apiKey
        const answers = yield* queries(4, key)
        assert.deepStrictEqual(answers.map((a) => a.status), [200, 200, 200, 429])
        assert.strictEqual(answers[0]!.headers.get("x-sitefx-rate-limit"), "3/2s")
        const wait = Number(answers[3]!.headers.get("retry-after"))
        assert.isTrue(wait >= 1 && wait <= 2, `Retry-After ${wait}`)
        yield* dev("POST", "/clock", { skewSeconds: 2 })
        assert.deepStrictEqual((yield* queries(4, key)).map((a) => a.status), [200, 200, 200, 429])
        for (const bad of [{ rateLimitWindowSeconds: 0 }, { rateLimitWindowSeconds: -1 }, { rateLimitWindowSeconds: 90_000 }, { rateLimitWindowSeconds: "60" }]) {
          assert.strictEqual((yield* post("/_sitefx/profile", bad)).status, 400, JSON.stringify(bad))
        }
        yield* dev("POST", "/profile", { rateLimitWindowSeconds: 60 })
      }))

    it.effect("switches at run time: GET and POST /_sitefx/profile, bad values refused with 400", () =>
      Effect.gen(function*() {
        yield* fresh({ profile: "production", rateLimit: 2, plan: "elite" })
        const state = yield* dev("GET", "/profile")
        assert.deepInclude(state, { profile: "production", plan: "elite", rateLimit: 2 })
        const key = yield* apiKey
        assert.deepStrictEqual((yield* queries(3, key)).map((a) => a.status), [200, 200, 429])

        const off = yield* dev("POST", "/profile", { profile: "none" })
        assert.strictEqual(off.profile, "none")
        const unlimited = yield* queries(5, key)
        assert.deepStrictEqual(statuses(unlimited), [200])
        assert.isTrue(unlimited.every((a) => a.headers.get("x-sitefx-rate-limit") === null))

        for (const bad of [{ plan: "gold" }, { rateLimit: 0 }, { rateLimit: 1.5 }, { profile: "staging" }]) {
          const answer = yield* post("/_sitefx/profile", bad)
          assert.strictEqual(answer.status, 400, JSON.stringify(bad))
        }
        assert.deepInclude(yield* dev("GET", "/profile"), { profile: "none", plan: "elite", rateLimit: 2 })
      }))
  })

  it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("off by default", (it) => {
    it.effect("admits an API key's 201st call of a minute, and no answer carries the limit", () =>
      Effect.gen(function*() {
        assert.deepInclude(yield* dev("GET", "/profile"), { profile: "none", plan: "free", rateLimit: 200 })
        const answers = yield* queries(201, yield* apiKey)
        assert.deepStrictEqual(statuses(answers), [200])
        assert.isTrue(answers.every((a) => a.headers.get("x-sitefx-rate-limit") === null))
        const health = yield* get("/_sitefx/health")
        assert.strictEqual(health.status, 200)
      }))
  })
})

/**
 * sitefx/dev's request log against a real platform: reads filtered by status, path, method and caller,
 * paged with `after` and `limit`, a read that waits for a request, and a tail that sees one arrive.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as DataItems from "../../src/data/DataItems.ts"
import { Requests } from "../../src/dev/index.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { asAdmin } from "../data/support.ts"
import { call, get } from "../server/support.ts"
import { onDev } from "./support.ts"

let counter = 0
/** A path no route has, unique to the call, so a test finds its own requests. */
const marker = () => `/no-such-route/${process.pid}-${counter++}`

describe("sitefx/dev Requests", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("reads are filtered by status, path, method and caller", () =>
      onDev(Effect.gen(function*() {
        const path = marker()
        yield* get(path)
        yield* call("DELETE", path)
        yield* asAdmin(DataItems.query("Posts").limit(1).find)

        const mine = yield* Requests.list({ path })
        assert.deepStrictEqual(mine.requests.map((r) => [r.method, r.path, r.status]).sort(), [["DELETE", path, 404], ["GET", path, 404]])
        for (const r of mine.requests) {
          assert.strictEqual(r.code, "NOT_FOUND")
          assert.strictEqual(r.caller.kind, "none")
          assert.isFalse(Number.isNaN(Date.parse(r.time)))
          assert.isAtLeast(r.durationMs, 0)
          assert.isAtMost(r.seq, mine.last)
        }
        assert.deepStrictEqual((yield* Requests.list({ path, method: "DELETE" })).requests.map((r) => r.method), ["DELETE"])
        assert.strictEqual((yield* Requests.list({ path, status: 404 })).requests.length, 2)
        assert.strictEqual((yield* Requests.list({ path, status: "2xx" })).requests.length, 0)
        const failed = yield* Requests.list({ status: "4xx" })
        assert.isTrue(failed.requests.length >= 2 && failed.requests.every((r) => r.status >= 400 && r.status < 500))
        const admin = yield* Requests.list({ caller: "admin", path: "/wix-data" })
        assert.isAbove(admin.requests.length, 0)
        assert.isTrue(admin.requests.every((r) => r.caller.kind === "admin" && r.path.startsWith("/wix-data")))
      })))

    it.effect("`after` and `limit` page the log; a read with `wait` gives what arrives in the meantime", () =>
      onDev(Effect.gen(function*() {
        const path = marker()
        const before = (yield* Requests.list({ limit: 1 })).last
        for (let i = 0; i < 3; i++) yield* get(path)
        const newer = yield* Requests.list({ path, after: before })
        assert.strictEqual(newer.requests.length, 3)
        assert.isTrue(newer.requests.every((r) => r.seq > before))
        assert.strictEqual((yield* Requests.list({ path, after: before, limit: 2 })).requests.length, 2)
        const seqs = newer.requests.map((r) => r.seq)
        assert.deepStrictEqual((yield* Requests.list({ path, after: Math.max(...seqs) })).requests, [])

        const waiting = yield* Effect.forkChild(Requests.list({ path, after: Math.max(...seqs), waitSeconds: 10 }))
        yield* Effect.sleep("200 millis")
        yield* call("PUT", path)
        const arrived = yield* Fiber.join(waiting)
        assert.deepStrictEqual(arrived.requests.map((r) => r.method), ["PUT"])
      })))

    it.effect("a tail sees requests from now on as they arrive", () =>
      onDev(Effect.gen(function*() {
        const path = marker()
        yield* get(path)
        const tail = yield* Effect.forkChild(Stream.runCollect(Requests.tail({ path }, { waitSeconds: 5 }).pipe(Stream.take(2))))
        yield* Effect.sleep("300 millis")
        yield* call("POST", path)
        yield* call("PATCH", path)
        const seen = yield* Fiber.join(tail)
        assert.deepStrictEqual(seen.map((r) => r.method), ["POST", "PATCH"])
      })), { timeout: 20_000 })
  })
})

/**
 * A long export whose session's access token expires halfway, while the token endpoint is failing: a
 * visitor streams 20 000 items from the local platform; after half of them the platform's clock jumps
 * five hours (every access token the visitor holds is now expired there) and its token endpoint answers
 * 503 twice. The export goes on: one 401, one refresh retried through both 503s, and every item once,
 * in order.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as DataItems from "../../src/data/DataItems.ts"
import { TOKEN_PATH } from "../../src/session/protocol.ts"
import { asAdmin, asVisitor, freshCollection } from "../data/support.ts"
import { dev, LocalPlatform, stats } from "../support/platform.ts"

const TOTAL = 20_000

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("an export across a token expiry", (it) => {
  it.effect("completes with no gap and one successful refresh, through two 503s of the token endpoint", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Expiring")
      const report = yield* asAdmin(DataItems.bulkInsert(c, Stream.fromIterable(Array.from({ length: TOTAL }, (_, i) => ({ _id: `i${String(i).padStart(6, "0")}`, n: i })))))
      assert.strictEqual(report.inserted, TOTAL)

      const result = yield* asVisitor(Effect.gen(function*() {
        const before = yield* stats
        let seen = 0
        const ns: Array<number> = []
        yield* DataItems.query(c).ascending("_id").stream.pipe(
          Stream.runForEach((item) =>
            Effect.gen(function*() {
              ns.push(item["n"] as number)
              seen++
              if (seen === TOTAL / 2) {
                yield* dev("/clock", { body: { skewSeconds: 5 * 3600 } })
                yield* dev("/faults", { body: { path: TOKEN_PATH, status: 503, count: 2 } })
              }
            })
          ),
          Effect.ensuring(Effect.orDie(dev("/clock", { body: { skewSeconds: 0 } })))
        )
        const after = yield* stats
        const faults = yield* dev<{ faults: ReadonlyArray<unknown> }>("/faults")
        return { ns, refreshes: after.tokenRequests.refresh_token - before.tokenRequests.refresh_token, faultsLeft: faults.faults.length }
      }))
      assert.strictEqual(result.ns.length, TOTAL)
      assert.isTrue(result.ns.every((n, i) => n === i), "every item once, in order")
      assert.strictEqual(result.faultsLeft, 0, "both 503s were met")
      assert.strictEqual(result.refreshes, 1, "one refresh reached the token endpoint's route")
    }), 120_000)
})

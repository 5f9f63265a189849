/**
 * sitefx/data/backups against the local platform: a backup waited for, watched as a Stream, restored
 * whole and in part and waited for; failures typed (an unknown backup, a restoration that fails, bad
 * arguments refused before sending, a visitor refused).
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Backups from "../../src/data/Backups.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { LocalPlatform } from "../support/platform.ts"
import { asAdmin, asVisitor, freshCollection } from "./support.ts"

const refusal = <A, E extends { readonly _tag: string; readonly code?: string; readonly status?: number | undefined }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flip(effect).pipe(Effect.map((e) => ({ tag: e._tag, code: e.code, status: e.status })))

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("sitefx/data/backups", (it) => {
  it.effect("create, watch until READY, change things, restore a collection, wait for it: the items are back", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Backed")
      yield* asAdmin(DataItems.bulkInsert(c, [{ _id: "a", n: 1 }, { _id: "b", n: 2 }]))
      const before = (yield* asAdmin(DataItems.query(c).find)).items
      const asked = yield* asAdmin(Backups.create)
      const states = yield* asAdmin(Backups.watch(asked.id, { interval: "5 millis" }).pipe(Stream.map((b) => b.status), Stream.runCollect))
      assert.strictEqual(states[states.length - 1], "READY")
      assert.isTrue(states.every((s, i) => i === states.length - 1 || s === "PENDING"))
      const backup = yield* asAdmin(Backups.awaitReady(asked.id, { interval: "5 millis" }))
      assert.isTrue(backup.collections?.some((x) => x.id === c))

      yield* asAdmin(DataItems.remove(c, "a"))
      yield* asAdmin(DataItems.update(c, { _id: "b", n: 20 }))
      const restoration = yield* asAdmin(Backups.restorePartial(backup.id, [{ dataCollectionId: c }]))
      assert.strictEqual(restoration.status, "PENDING")
      const done = yield* asAdmin(Backups.awaitRestored(restoration.id, { interval: "5 millis" }))
      assert.strictEqual(done.status, "COMPLETED")
      assert.deepStrictEqual((yield* asAdmin(DataItems.query(c).find)).items, before)

      const listed = yield* asAdmin(Backups.list({ status: ["READY"], limit: 100 }))
      assert.isTrue(listed.items.some((b) => b.id === backup.id))
      assert.isTrue(Option.isSome(yield* asAdmin(Backups.get(backup.id))))
      const all = yield* asAdmin(Backups.restorations({ status: ["COMPLETED"] }))
      assert.isTrue(all.items.some((r) => r.id === restoration.id))

      yield* asAdmin(Backups.remove(backup.id))
      const gone = yield* asAdmin(Backups.awaitReady(backup.id, { interval: "5 millis" }).pipe(Effect.flip))
      assert.deepInclude({ tag: gone._tag, code: (gone as any).code }, { tag: "DataError", code: "BACKUP_DELETED" })
    }))

  it.effect("failures are typed: unknown ids, a deleted backup, arguments checked before sending, a visitor", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* refusal(asAdmin(Backups.awaitReady("nope", { interval: "5 millis" }))), { tag: "DataError", code: "NOT_FOUND", status: undefined })
      assert.deepStrictEqual(yield* refusal(asAdmin(Backups.restore("nope"))), { tag: "DataError", code: "NOT_FOUND", status: 404 })
      assert.deepStrictEqual(yield* refusal(asAdmin(Backups.restorePartial("x", []))), { tag: "DataError", code: "WDE0043", status: undefined })
      assert.deepStrictEqual(yield* refusal(asAdmin(Backups.restore(""))), { tag: "DataError", code: "WDE0094", status: undefined })
      assert.deepStrictEqual(yield* refusal(asAdmin(Backups.list({ limit: 0 }))), { tag: "DataError", code: "WDE0033", status: undefined })
      const visitor = yield* refusal(asVisitor(Backups.create))
      assert.strictEqual(visitor.tag, "DataError")
      assert.include([401, 403], visitor.status)
    }))
})

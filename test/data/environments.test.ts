/**
 * Data environments from sitefx: the `environment` option of each kind of call, the DataEnvironment in
 * effect (a layer for a whole program, `provide` for a part), a per-call option winning over it, the
 * query builder's `.environment`, and sitefx/data/sandbox's administration, against the local platform.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as DataEnvironment from "../../src/data/DataEnvironment.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { Filter } from "../../src/data/Filter.ts"
import * as Sandbox from "../../src/data/Sandbox.ts"
import { LocalPlatform } from "../support/platform.ts"
import { asAdmin, freshCollection } from "./support.ts"

const titles = (items: ReadonlyArray<{ readonly [field: string]: unknown }>) => items.map((i) => String(i["title"]))

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("data environments", (it) => {
  it.effect("each kind of call works in the environment it names, and LIVE never sees the sandbox", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("Env")
      yield* asAdmin(DataItems.insert(c, { _id: "live", title: "Live" }))
      const enabled = yield* asAdmin(Sandbox.enable(c))
      assert.deepStrictEqual(enabled, { dataCollectionId: c, liveItems: 1, sandboxItems: 1 })

      const SANDBOX = { environment: "SANDBOX" } as const
      yield* asAdmin(DataItems.insert(c, { _id: "draft", title: "Draft" }, SANDBOX))
      yield* asAdmin(DataItems.update(c, { _id: "live", title: "Live (edited in sandbox)" }, SANDBOX))
      yield* asAdmin(DataItems.bulkInsert(c, [{ _id: "b1", title: "Bulk" }], SANDBOX))

      const live = yield* asAdmin(DataItems.query(c).ascending("_id").find)
      assert.deepStrictEqual(titles(live.items), ["Live"])
      const sandbox = yield* asAdmin(DataItems.query(c).environment("SANDBOX").ascending("_id").find)
      assert.deepStrictEqual(titles(sandbox.items), ["Bulk", "Draft", "Live (edited in sandbox)"])
      assert.strictEqual(yield* asAdmin(DataItems.query(c).environment("SANDBOX").count), 3)
      assert.strictEqual(yield* asAdmin(DataItems.count(c, Filter.eq("title", "Draft"), SANDBOX)), 1)
      assert.isTrue(Option.isNone(yield* asAdmin(DataItems.get(c, "draft"))))
      assert.isTrue(Option.isSome(yield* asAdmin(DataItems.get(c, "draft", SANDBOX))))

      // cursor pages carry the environment too: a stream of the sandbox reads only the sandbox
      const streamed = yield* asAdmin(DataItems.query(c).environment("SANDBOX").ascending("_id").limit(1).stream.pipe(Stream.runCollect))
      assert.deepStrictEqual(titles(streamed), ["Bulk", "Draft", "Live (edited in sandbox)"])

      yield* asAdmin(DataItems.remove(c, "live", SANDBOX))
      assert.deepStrictEqual(titles((yield* asAdmin(DataItems.query(c).find)).items), ["Live"])
    }))

  it.effect("the DataEnvironment in effect: a layer for a program, provide for a part, an option winning over both", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("EnvDefault")
      yield* asAdmin(Sandbox.enable(c, { empty: true }))
      const program = Effect.gen(function*() {
        yield* DataItems.insert(c, { title: "from the program" })
        yield* DataItems.insert(c, { title: "asked for live" }, { environment: "LIVE" })
        return (yield* DataItems.query(c).find).items
      })
      const inSandbox = yield* asAdmin(program.pipe(Effect.provide(DataEnvironment.layer("SANDBOX"))))
      assert.deepStrictEqual(titles(inSandbox), ["from the program"])
      yield* asAdmin(DataItems.insert(c, { title: "provided" }).pipe(DataEnvironment.provide("SANDBOX")))
      assert.deepStrictEqual(titles((yield* asAdmin(DataItems.query(c).environment("SANDBOX").find)).items), ["from the program", "provided"])
      assert.deepStrictEqual(titles((yield* asAdmin(DataItems.query(c).find)).items), ["asked for live"])
      // a query's own environment wins over the one in effect
      const live = yield* asAdmin(DataItems.query(c).environment("LIVE").find.pipe(DataEnvironment.provide("SANDBOX")))
      assert.deepStrictEqual(titles(live.items), ["asked for live"])
    }))

  it.effect("SANDBOX without a sandbox fails typed; SANDBOX_PREFERRED falls back to LIVE; a bad environment is refused before sending", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("EnvNone")
      yield* asAdmin(DataItems.insert(c, { title: "Live" }))
      const refused = yield* Effect.flip(asAdmin(DataItems.query(c).environment("SANDBOX").find))
      assert.deepInclude({ tag: refused._tag, code: (refused as any).code, status: (refused as any).status }, { tag: "DataError", code: "SANDBOX_NOT_ENABLED", status: 400 })
      const preferred = yield* asAdmin(DataItems.query(c).environment("SANDBOX_PREFERRED").find)
      assert.deepStrictEqual(titles(preferred.items), ["Live"])
      const bad = yield* Effect.flip(asAdmin(DataItems.insert(c, { title: "x" }, { environment: "STAGING" as never })))
      assert.strictEqual((bad as any).code, "WDE0018")
      const badQuery = yield* Effect.flip(asAdmin(DataItems.query(c).environment("STAGING" as never).find))
      assert.strictEqual(badQuery._tag, "DataError")
    }))

  it.effect("sandbox administration: list, sync both ways, disable; typed refusals", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection("EnvAdmin")
      yield* asAdmin(DataItems.bulkInsert(c, [{ _id: "a", title: "A" }, { _id: "b", title: "B" }]))
      yield* asAdmin(Sandbox.enable(c))
      assert.isTrue((yield* asAdmin(Sandbox.list)).some((s) => s.dataCollectionId === c))
      yield* asAdmin(DataItems.remove(c, "a", { environment: "SANDBOX" }))
      yield* asAdmin(DataItems.insert(c, { _id: "c", title: "C" }, { environment: "SANDBOX" }))
      const before = (yield* asAdmin(DataItems.query(c).environment("SANDBOX").ascending("_id").find)).items
      const synced = yield* asAdmin(Sandbox.syncToLive(c))
      assert.deepStrictEqual([synced.itemsCopied, synced.sandbox.liveItems], [2, 2])
      const after = (yield* asAdmin(DataItems.query(c).ascending("_id").find)).items
      assert.deepStrictEqual(after, before, "live now holds the sandbox's items, dates included")

      yield* asAdmin(DataItems.insert(c, { _id: "d", title: "D" }))
      const back = yield* asAdmin(Sandbox.syncFromLive(c))
      assert.strictEqual(back.sandbox.sandboxItems, 3)

      const twice = yield* Effect.flip(asAdmin(Sandbox.enable(c)))
      assert.deepInclude({ code: (twice as any).code, status: (twice as any).status }, { code: "ALREADY_EXISTS", status: 409 })
      yield* asAdmin(Sandbox.disable(c))
      const gone = yield* Effect.flip(asAdmin(Sandbox.disable(c)))
      assert.deepInclude({ tag: gone._tag, code: (gone as any).code, status: (gone as any).status }, { tag: "DataError", code: "SANDBOX_NOT_ENABLED", status: 404 })
      assert.isFalse((yield* asAdmin(Sandbox.list)).some((s) => s.dataCollectionId === c))
    }))
})

/**
 * The test kit (`sitefx/testing`) used as its users use it: one platform for the suite, reset before
 * each test; calls as a visitor, a member made on demand, and the admin; refusals asserted.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { join } from "node:path"
import { readFileSync } from "node:fs"
import { DataItems } from "../../src/index.ts"
import { asAdmin, asMember, asVisitor, expectRefused, LocalPlatform, TestPlatform } from "../../src/testing/index.ts"
import { tempDir } from "../support/platform.ts"

TestPlatform.describe("the test kit on the demo site", { seed: "demo" }, (it) => {
  it.effect("the admin writes where visitors may only read", () =>
    Effect.gen(function*() {
      yield* DataItems.insert("Posts", { _id: "kit-post", title: "Written by the admin" }).pipe(asAdmin)
      const read = yield* DataItems.get("Posts", "kit-post").pipe(asVisitor)
      assert.strictEqual(Option.getOrThrow(read)["title"], "Written by the admin")
      const refused = yield* expectRefused(DataItems.insert("Posts", { title: "Written by a visitor" }).pipe(asVisitor), { status: 403 })
      assert.strictEqual(refused._tag, "DataError")
    }))

  it.effect("every test starts from the site as the suite found it", () =>
    Effect.gen(function*() {
      // what the test before wrote is gone
      assert.isTrue(Option.isNone(yield* DataItems.get("Posts", "kit-post").pipe(asAdmin)))
      const { reset } = yield* TestPlatform
      yield* DataItems.insert("Posts", { _id: "kept-until-reset", title: "x" }).pipe(asAdmin)
      yield* reset
      assert.isTrue(Option.isNone(yield* DataItems.get("Posts", "kept-until-reset").pipe(asAdmin)))
    }))

  it.effect("a member is made on demand, and only its own notes are its to read", () =>
    Effect.gen(function*() {
      yield* DataItems.insert("Notes", { _id: "ada-note", title: "Ada's" }).pipe(asMember("ada@example.com"))
      const own = yield* DataItems.get("Notes", "ada-note").pipe(asMember("ada@example.com"))
      assert.strictEqual(Option.getOrThrow(own)["title"], "Ada's")
      // another member may not read it, nor may a visitor ask
      yield* expectRefused(DataItems.get("Notes", "ada-note").pipe(asMember("grace@example.com")), { status: 403, code: "WDE0027" })
      yield* expectRefused(DataItems.query("Notes").find.pipe(asVisitor), { status: 403 })
    }))

  it.effect("expectRefused fails when the call succeeds, or is refused otherwise", () =>
    Effect.gen(function*() {
      const succeeded = yield* Effect.flip(expectRefused(DataItems.query("Posts").count.pipe(asVisitor), { status: 403 }))
      assert.strictEqual(succeeded._tag, "UnexpectedOutcome")
      assert.include(succeeded.message, "succeeded")
      const otherwise = yield* Effect.flip(expectRefused(DataItems.insert("Posts", { title: "x" }).pipe(asVisitor), { status: 401 }))
      assert.include(otherwise.message, "status 403")
    }))
})

it.effect("the README's permissions test is test/testing/readme.test.ts, word for word", () =>
  Effect.sync(() => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8")
    const test = readFileSync(new URL("./readme.test.ts", import.meta.url), "utf8")
    assert.include(readme, "```ts\n" + test + "```")
  }))

describe("a test platform from a snapshot folder", () => {
  it.live("starts from the folder's state, and resets to it when asked", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-kit-")
      const saved = join(dir, "team-state")
      // a team's committed state: the demo site with one post more
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(LocalPlatform.layer({ exportOnExit: saved }))
        yield* DataItems.insert("Posts", { _id: "team-post", title: "Ours" }).pipe(asAdmin, Effect.provide(Layer.succeedContext(context)))
      }))
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(TestPlatform.layer({ snapshot: saved }))
        const run = <A, E>(effect: Effect.Effect<A, E, TestPlatform | LocalPlatform>) => Effect.provide(effect, Layer.succeedContext(context))
        yield* run(Effect.gen(function*() {
          assert.isTrue(Option.isSome(yield* DataItems.get("Posts", "team-post").pipe(asVisitor)))
          yield* DataItems.remove("Posts", "team-post").pipe(asAdmin)
          yield* (yield* TestPlatform).reset
          assert.isTrue(Option.isSome(yield* DataItems.get("Posts", "team-post").pipe(asVisitor)))
        }))
      }))
    }))
})

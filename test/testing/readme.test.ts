import { assert } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { DataItems } from "sitefx"
import { asAdmin, asMember, asVisitor, expectRefused, TestPlatform } from "sitefx/testing"

TestPlatform.describe("the demo site's permissions", { seed: "demo" }, (it) => {
  it.effect("anyone reads the posts; only the admin writes them", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* DataItems.query("Posts").count.pipe(asVisitor), 3)
      yield* expectRefused(DataItems.insert("Posts", { title: "Hi" }).pipe(asVisitor), { status: 403, rule: "data.permission" })
      yield* DataItems.insert("Posts", { title: "Hi" }).pipe(asAdmin)
    }))

  it.effect("a note is its author's alone, and the site is back as it was", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* DataItems.query("Posts").count.pipe(asVisitor), 3)
      yield* DataItems.insert("Notes", { _id: "mine", title: "Ada's" }).pipe(asMember("ada@example.com"))
      yield* expectRefused(DataItems.get("Notes", "mine").pipe(asMember("grace@example.com")), { status: 403, rule: "data.permission" })
    }))
})

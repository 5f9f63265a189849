/**
 * The reads readTypes.ts types, as the platform answers them: test/types/generated is what `sitefx data
 * types` writes for test/types/site.ts today, and on a local platform with that site, items read through
 * its handles have every field their types say they have, and lack only fields the types say they may
 * lack: a post without an author, included, has no author; a required reference, included, is the
 * referenced item; a multi-reference is absent unless included, then an array of items (empty when there
 * are none), and absent again when the caller may not read the referenced collection.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { readFileSync } from "node:fs"
import { DataItems } from "../../src/data/index.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { Site } from "../../src/Site.ts"
import { createCollection } from "../server/data/support.ts"
import { Collections } from "./generated/collections.ts"
import { FIXTURE, generated, SITE } from "./site.ts"

describe("the generated handles of test/types", () => {
  it("are what `sitefx data types` writes for test/types/site.ts today (`node test/types/site.ts` writes them again)", () => {
    assert.strictEqual(readFileSync(FIXTURE, "utf8"), generated())
  })
})

/** Runs `effect` as the site's admin (API key) or as a visitor of the platform. */
const as = (who: "admin" | "visitor") => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const p = yield* LocalPlatform
    const site = who === "admin" ? Site.apiKey({ baseUrl: p.url, apiKey: p.apiKey, siteId: p.siteId }) : Site.layer({ baseUrl: p.url, clientId: p.clientId })
    return yield* Effect.provide(effect, Layer.fresh(site))
  })

it.layer(LocalPlatform.layer({ seed: "none" }), { excludeTestServices: true, timeout: 30_000 })("the generated handles on the platform", (it) => {
  it.effect("an item read has every field its type says it has, and lacks only those its type says it may lack", () =>
    Effect.gen(function*() {
      // the site, its authors readable by members only, its posts by anyone
      for (const collection of SITE.filter((c) => c.id !== "every-type")) {
        yield* createCollection({ ...collection, permissions: { read: collection.id === "Authors" ? "SITE_MEMBER" : "ANYONE" } })
      }
      yield* as("admin")(Effect.gen(function*() {
        for (const author of [{ _id: "ada", name: "Ada" }, { _id: "grace", name: "Grace" }]) yield* DataItems.insert("Authors", author)
        yield* DataItems.insert("Posts", { _id: "full", title: "Everything", likes: 3, author: "ada", editor: "grace", previous: "bare" })
        yield* DataItems.insert("Posts", { _id: "bare", title: "Only what is required", editor: "ada" })
        yield* DataItems.insertReference("Posts", "reviewers", "full", ["ada", "grace"])
        yield* DataItems.insertReference("Posts", "related", "full", ["bare"])
      }))
      const posts = Collections.Posts.query.ascending("_id")

      const plain = (yield* as("admin")(posts.find)).items
      assert.deepStrictEqual(plain.map((p) => [p._id, p.title, p.editor, p.author, p.likes]), [["bare", "Only what is required", "ada", undefined, undefined], ["full", "Everything", "grace", "ada", 3]])
      assert.deepStrictEqual(plain.map((p) => ["author" in p, "reviewers" in p, "related" in p]), [[false, false, false], [true, false, false]], "a multi-reference is absent unless included")

      const [bare, full] = (yield* as("admin")(posts.include("author").find)).items
      assert.strictEqual(full!.author?.name, "Ada")
      assert.isFalse("author" in bare!, "a post without an author has none, included or not")
      assert.strictEqual(bare!.author?.name ?? "nobody", "nobody")

      const edited = (yield* as("admin")(posts.include("editor").find)).items
      assert.deepStrictEqual(edited.map((p) => p.editor.name), ["Ada", "Grace"], "a required reference, included, is the referenced item")

      const reviewed = (yield* as("admin")(posts.include("reviewers").find)).items
      assert.deepStrictEqual(reviewed.map((p) => p.reviewers?.map((a) => a.name)), [[], ["Ada", "Grace"]], "an included multi-reference is an array of items, empty when there are none")
      const related = (yield* as("admin")(posts.include("related").find)).items
      assert.deepStrictEqual(related.map((p) => p.related?.map((r) => r.title)), [[], ["Only what is required"]])

      const projected = (yield* as("admin")(posts.fields("author").include("author").find)).items
      assert.deepStrictEqual(projected.map((p) => Object.keys(p).sort()), [["_id"], ["_id", "author"]])
      assert.deepStrictEqual(projected.map((p) => p.author?.name), [undefined, "Ada"])

      // a visitor may not read the authors: an included multi-reference to them is absent
      const asVisitor = (yield* as("visitor")(posts.include("reviewers").find)).items
      assert.deepStrictEqual(asVisitor.map((p) => p.reviewers), [undefined, undefined])
    }))
})

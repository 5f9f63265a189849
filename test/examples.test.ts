/** The README's examples run for real against the local platform. */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { importMembers } from "../examples/import-members.ts"
import { latestPosts } from "../examples/latest-posts.ts"
import { postsReport } from "../examples/posts-report.ts"
import { storeReport } from "../examples/store-report.ts"
import { Site } from "../src/Site.ts"
import { signIn, SiteLive } from "../examples/member-session.ts"
import { LocalPlatform } from "./support/platform.ts"
import { cli } from "./cli/support.ts"
import { Collections } from "../examples/generated/collections.ts"
import { fileURLToPath } from "node:url"
import { bundleClient, renderPage } from "../examples/ssr/server.ts"

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("examples", (it) => {
  it.effect("member-session signs the demo member in and reads their record", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const ok = yield* signIn(demo.email, Redacted.value(demo.password)).pipe(Effect.provide(SiteLive(platform.url, platform.clientId)))
      assert.deepStrictEqual(ok, { signedIn: true, email: demo.email })
      const refused = yield* signIn(demo.email, "wrong").pipe(Effect.provide(SiteLive(platform.url, platform.clientId)))
      assert.isFalse(refused.signedIn)
    }))

  it.effect("import-members reports every email's fate", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const site = { baseUrl: platform.url, clientId: platform.clientId, apiKey: Redacted.value(platform.apiKey) }
      const emails = ["ada@example.com", "grace@example.com", "not an email", "alan@example.com"]
      const report = yield* importMembers(emails, site)
      assert.deepStrictEqual(report.map((r) => [r.email, r.ok]), emails.map((e) => [e, e !== "not an email"]))
      const refused = yield* importMembers(["linus@example.com"], { ...site, apiKey: "wrong key" })
      assert.isFalse(refused[0]!.ok)
    }))

  it.effect("the demo site's generated types (examples/generated) are what `sitefx data types` writes today, and read the demo posts typed", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const file = fileURLToPath(new URL("../examples/generated/collections.ts", import.meta.url))
      const check = yield* Effect.promise(() => cli(["data", "types", "--out", file, "--check", "--base-url", platform.url]))
      assert.deepStrictEqual([check.code, check.stdout.trim()], [0, `${file} matches the site's 3 collections`], check.stdout + check.stderr)
      const posts = yield* Collections.Posts.query.ascending("title").find.pipe(
        Effect.provide(Site.layer({ baseUrl: platform.url, clientId: platform.clientId }))
      )
      assert.deepStrictEqual(posts.items.map((p) => p.title), ["Filters in SQL", "Stable cursors", "Welcome to sitefx"])
      assert.isTrue(posts.items.every((p) => p.published instanceof Date && typeof p.likes === "number"))
      const withAuthors = yield* Collections.Posts.query.include("author").ascending("title").find.pipe(
        Effect.provide(Site.layer({ baseUrl: platform.url, clientId: platform.clientId }))
      )
      assert.deepStrictEqual(withAuthors.items.map((p) => p.author?.name), ["Ada Lovelace", "Grace Hopper", "Ada Lovelace"])
    }))

  it.effect("latest-posts reads the newest demo posts in a visitor session", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const titles = yield* latestPosts.pipe(Effect.provide(Site.layer({ baseUrl: platform.url, clientId: platform.clientId })))
      assert.sameMembers(titles, ["Filters in SQL", "Stable cursors", "Welcome to sitefx"])
    }))

  it.effect("posts-report reads the demo Posts through typed and untyped queries, an aggregate and a patch", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const report = yield* postsReport.pipe(Effect.provide(Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId })))
      assert.deepStrictEqual(report.popular, ["Stable cursors", "Welcome to sitefx"])
      assert.deepStrictEqual(report.titles, ["Filters in SQL", "Stable cursors", "Welcome to sitefx"])
      assert.deepStrictEqual(report.byAuthor.map((g) => [g["_id"], g["count"], g["likesSum"]]), [["ada", 2, 19], ["grace", 1, 30]])
      assert.strictEqual(report.likes, 8)
    }))

  it.effect("store-report streams the demo catalog, answers a product page with the storefront helpers and raises the sale prices", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const report = yield* storeReport.pipe(Effect.provide(Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId })))
      assert.isAbove(report.stockValue, 0)
      assert.strictEqual(report.variant, "Incomplete")
      assert.match(report.price!, /^\$\d+\.\d\d$/)
      assert.isAbove(report.colors.length, 1)
      assert.strictEqual(report.raised!.totalFailures, 0)
      assert.isAbove(report.raised!.totalSuccesses!, 10)
    }))

  it.effect("ssr renders the newest posts on the server with their query's result in the page, and its browser script bundles", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const html = yield* Effect.promise(() => renderPage({ baseUrl: platform.url, clientId: platform.clientId }))
      for (const title of ["Filters in SQL", "Stable cursors", "Welcome to sitefx"]) assert.include(html, `<li>${title}</li>`)
      const state = JSON.parse(/<script type="application\/json" id="sitefx-queries">(.*?)<\/script>/.exec(html)![1]!)
      const [result] = Object.values(state.queries) as Array<{ items: Array<{ title: string }> }>
      assert.sameMembers(result!.items.map((p) => p.title), ["Filters in SQL", "Stable cursors", "Welcome to sitefx"])
      const script = yield* Effect.promise(bundleClient)
      assert.include(script, "sitefx-queries")
    }), 60_000)
})

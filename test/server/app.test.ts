import { afterAll, assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { LocalPlatform } from "../../src/server/index.ts"
import { call, codeOf, get } from "./support.ts"

const appDir = mkdtempSync(join(tmpdir(), "sitefx-app-"))
writeFileSync(join(appDir, "index.html"), `<!doctype html><title>storefront</title>`)
writeFileSync(join(appDir, "app.js"), `console.log("storefront")`)
afterAll(() => rmSync(appDir, { recursive: true, force: true }))

it.layer(LocalPlatform.layer({ appDir }), { excludeTestServices: true })("a built app served at /", (it) => {
  it.effect("serves its files, falls back to index.html for app routes, and leaves the APIs alone", () =>
    Effect.gen(function*() {
      const index = yield* get("/")
      assert.strictEqual(index.status, 200)
      assert.include(index.text, "<title>storefront</title>")
      const script = yield* get("/app.js")
      assert.match(script.headers.get("content-type") ?? "", /javascript/)
      // browsers ask for HTML when they navigate to an app route
      const route = yield* get("/account/orders", undefined, { accept: "text/html" })
      assert.include(route.text, "<title>storefront</title>")
      assert.deepStrictEqual((yield* get("/_sitefx/health")).body, { ok: true })
      const post = yield* call("POST", "/nothing-here", { body: {} })
      assert.strictEqual(post.status, 404)
      assert.strictEqual(codeOf(post), "NOT_FOUND")
    }))
})

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("no app built", (it) => {
  it.effect("the platform's address shows a page that says what it is and links to the dev endpoints", () =>
    Effect.gen(function*() {
      const home = yield* get("/", undefined, { accept: "text/html" })
      assert.strictEqual(home.status, 200)
      assert.match(home.headers.get("content-type") ?? "", /text\/html/)
      assert.include(home.text, "sitefx local platform")
      assert.include(home.text, `href="/_sitefx/outbox"`)
      assert.strictEqual((yield* get("/elsewhere")).status, 404)
    }))
})

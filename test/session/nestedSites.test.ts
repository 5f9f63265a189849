/**
 * A site layer provided inside a program that already runs on another one is a site of its own: Effect
 * shares a layer value an enclosing `Effect.provide` has built, and sitefx's site layers are built from
 * shared values (the platform client, the fetch transport), so each takes them fresh.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as DataItems from "../../src/data/DataItems.ts"
import { Members } from "../../src/members/index.ts"
import { Site } from "../../src/Site.ts"
import { LocalPlatform } from "../support/platform.ts"

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("a site inside another site's program", (it) => {
  it.effect("an API key provided inside a session's program signs with the key, not the session's tokens", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const program = Effect.gen(function*() {
        assert.strictEqual(yield* DataItems.query("Posts").count, 3) // the session's client is built and used
        const found = yield* Members.query({ loginEmail: platform.demoMember!.email }).pipe(
          Effect.provide(Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId }))
        )
        // and the session's own calls stay a visitor's
        const refused = yield* DataItems.insert("Posts", { title: "as a visitor" }).pipe(Effect.flip)
        return { members: found.members.length, refused: refused._tag === "DataError" ? refused.code : refused._tag }
      })
      const result = yield* program.pipe(Effect.provide(Site.layer({ baseUrl: platform.url, clientId: platform.clientId })))
      assert.deepStrictEqual(result, { members: 1, refused: "WDE0027" })
    }))

  it.effect("a site of another base URL inside a program on one site talks to its own host", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const inner = DataItems.query("Posts").count.pipe(Effect.provide(Site.layer({ baseUrl: platform.url, clientId: platform.clientId })))
      // the outer site is nowhere (nothing listens on port 1); only the inner one is asked
      const count = yield* inner.pipe(Effect.provide(Site.layer({ baseUrl: "http://127.0.0.1:1", clientId: platform.clientId, retry: { times: 0 } })))
      assert.strictEqual(count, 3)
    }))
})

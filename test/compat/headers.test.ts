/**
 * The headers sitefx sets on a request are the ones the official client sets, for a visitor and for an
 * API key: nothing a browser's CORS preflight against the real hosts could refuse. Both clients run the
 * same calls through a fetch that records the header names each request was given (before the runtime
 * adds its own, like `user-agent`) and forwards it to the local platform.
 *
 * The one difference, on purpose: the official client adds `x-wix-bi-gateway`, which names the official
 * package and its version for the platform's usage statistics. sitefx is not that package and does not
 * claim to be.
 */
import { assert, describe, it } from "@effect/vitest"
import { items } from "@wix/data"
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { Site } from "../../src/Site.ts"
import { officialClientsOnLocalPlatform } from "../support/official.ts"

const onLocal = officialClientsOnLocalPlatform()

/**
 * The header names each request of `run` was given, by `METHOD /path`: the official client's through the
 * global fetch, sitefx's through the fetch `run` hands to `PlatformFetch` (Effect's way of
 * choosing the fetch a client uses).
 */
const headerNames = async (run: (fetch: typeof globalThis.fetch) => Promise<unknown>): Promise<Map<string, ReadonlyArray<string>>> => {
  const seen = new Map<string, ReadonlyArray<string>>()
  const forward = globalThis.fetch
  const recording: typeof globalThis.fetch = (input, init) => {
    const request = new Request(input, init)
    const names = [...request.headers.keys()].map((h) => h.toLowerCase()).sort()
    seen.set(`${request.method} ${new URL(request.url).pathname}`, names)
    return forward(request)
  }
  globalThis.fetch = recording
  try {
    await run(recording)
  } finally {
    globalThis.fetch = forward
  }
  return seen
}

const viaFetch = (fetch: typeof globalThis.fetch) => Effect.provideService(PlatformFetch, fetch)

const OFFICIAL_ONLY = "x-wix-bi-gateway"

const withoutOfficialOnly = (names: ReadonlyArray<string> | undefined) => (names ?? []).filter((n) => n !== OFFICIAL_ONLY)

describe("the headers of a request", () => {
  it("a visitor: the token request and a data query carry the official client's headers, and no trace headers", async () => {
    const { clientId, url } = onLocal.platform
    const official = await headerNames(async () => {
      const client = createClient({ modules: { items }, auth: OAuthStrategy({ clientId }) })
      await client.items.query("Posts").find()
    })
    const sitefx = await headerNames((fetch) =>
      Effect.runPromise(DataItems.query("Posts").find.pipe(Effect.provide(Site.layer({ baseUrl: url, clientId })), viaFetch(fetch)))
    )
    const token = "POST /oauth2/token"
    assert.deepStrictEqual(sitefx.get(token), withoutOfficialOnly(official.get(token)))
    // the official client reads with GET `.r` (through the CDN host) as sitefx does
    const queryOf = (seen: Map<string, ReadonlyArray<string>>) => [...seen].find(([k]) => k.includes("/items/query"))
    const officialQuery = queryOf(official)
    const sitefxQuery = queryOf(sitefx)
    assert.isDefined(officialQuery)
    assert.isDefined(sitefxQuery)
    assert.strictEqual(sitefxQuery![0], officialQuery![0])
    assert.deepStrictEqual(sitefxQuery![1], withoutOfficialOnly(officialQuery![1]))
    for (const names of sitefx.values()) {
      assert.notInclude(names, "traceparent")
      assert.notInclude(names, "b3")
    }
  })

  it("an API key: a data query carries the official client's headers", async () => {
    const { apiKey, siteId, url } = onLocal.platform
    const key = Redacted.value(apiKey)
    const official = await headerNames(async () => {
      const client = createClient({ modules: { items }, auth: ApiKeyStrategy({ apiKey: key, siteId }) })
      await client.items.query("Posts").find()
    })
    const sitefx = await headerNames((fetch) =>
      Effect.runPromise(DataItems.query("Posts").find.pipe(Effect.provide(Site.apiKey({ baseUrl: url, apiKey: key, siteId })), viaFetch(fetch)))
    )
    assert.strictEqual(official.size, 1)
    const [path, names] = [...official][0]!
    assert.deepStrictEqual(sitefx.get(path), withoutOfficialOnly(names), JSON.stringify([...sitefx]))
  })

  it("trace propagation is one option away, for those who trace to their own backend", async () => {
    const { clientId, url } = onLocal.platform
    const seen = await headerNames((fetch) =>
      Effect.runPromise(
        DataItems.query("Posts").find.pipe(
          Effect.withSpan("a traced job"),
          Effect.provide(Site.layer({ baseUrl: url, clientId, tracePropagation: true })),
          viaFetch(fetch)
        )
      )
    )
    const query = [...seen].find(([k]) => k.includes("/items/query"))
    assert.include(query![1], "traceparent", JSON.stringify([...seen]))
  })
})

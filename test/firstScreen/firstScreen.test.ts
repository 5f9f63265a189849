/**
 * A page's first script without Effect (`sitefx/first-screen`), against the local platform: its queries
 * carry the keys their query atoms have and go on the wire as the client sends them (a long one as a
 * POST); its token is the one the tabs share, else new tokens granted as the token service grants them
 * and saved where `tabTokenStore` reads them, under the same Web Lock; and the answers it hands over
 * serve the query atoms' first load, so neither the token nor the first page is asked for twice.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Atom, AtomRegistry } from "effect/reactivity"
import * as Collections from "../../src/catalog/Collections.ts"
import * as Products from "../../src/catalog/Products.ts"
import { collections, firstScreen, type FirstScreenOptions, products, sessionToken } from "../../src/firstScreen/index.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { hydrate, type QueryResult, queryAtoms } from "../../src/react/index.ts"
import { SessionTokens } from "../../src/session/SessionTokens.ts"
import { siteClient } from "../../src/session/SiteClient.ts"
import { tabTokenStore } from "../../src/session/tabs.ts"
import { MemoryStorage, recording, type Sent } from "../support/firstScreen.ts"
import { dev, LocalPlatform, stats } from "../support/platform.ts"

let keys = 0
/** A store of its own for each test: Node's Web Locks are one per process. */
const site = (platform: LocalPlatform["Service"], extra: Partial<FirstScreenOptions> = {}) => {
  const storage = new MemoryStorage()
  const key = `first-screen.test.${++keys}`
  return { storage, key, options: { clientId: platform.clientId, baseUrl: platform.url, key, storage, locks: navigator.locks, ...extra } satisfies FirstScreenOptions }
}

const tokenRequests = Effect.map(stats, (s) => s.tokenRequests)
const productQueries = Effect.map(
  dev<{ requests: ReadonlyArray<{ path: string }> }>("/requests?path=/stores-reader/v1/products/query-platformized&limit=1000"),
  (r) => r.requests.filter((q) => q.path === "/stores-reader/v1/products/query-platformized").length
)

const stored = (storage: MemoryStorage, key: string) => JSON.parse(storage.getItem(key)!) as { tokens: { accessToken: { value: string; expiresAt: number }; refreshToken: { value: string; role: string } } }

/** The client's atoms over the same store (`tabTokenStore`), as the app that loads after the first script builds them. */
const clientOf = (platform: LocalPlatform["Service"], s: ReturnType<typeof site>) =>
  queryAtoms(Atom.runtime(siteClient({ clientId: platform.clientId, baseUrl: platform.url, tokens: tabTokenStore({ storage: s.storage, key: s.key, locks: navigator.locks }) })))

describe("the first screen's queries, before the client", () => {
  const atoms = queryAtoms(Atom.runtime(siteClient({ clientId: "my-client-id", baseUrl: "http://127.0.0.1:1" })))

  it("carry the cache key their query atoms have, for the same filter, sort, page and options", () => {
    const pairs = [
      [products(), atoms.products(Products.query())],
      [products({ limit: 24, sort: [{ fieldName: "createdDate", order: "DESC" }] }), atoms.products(Products.query().limit(24).descending("createdDate"))],
      [
        products({ limit: 24, sort: [{ fieldName: "priceData.discountedPrice", order: "ASC" }, { fieldName: "name", order: "ASC" }] }),
        atoms.products(Products.query().limit(24).where(Products.searchFilter("")).ascending("priceData.discountedPrice", "name"))
      ],
      [products({ filter: { brand: "Acme" }, limit: 5, skip: 10 }), atoms.products(Products.query().eq("brand", "Acme").limit(5).skip(10))],
      [products({ filter: Products.query().where(Products.searchFilter("kids tee")).filter, limit: 3 }), atoms.products(Products.query().where(Products.searchFilter("kids tee")).limit(3))],
      [products({ limit: 10 }, { includeVariants: true, key: "variants" }), atoms.products(Products.query({ includeVariants: true }).limit(10), { key: "variants" })],
      [collections({ limit: 100, sort: [{ fieldName: "name", order: "ASC" }] }), atoms.collections(Collections.query().ascending("name").limit(100))]
    ] as const
    for (const [first, atom] of pairs) assert.strictEqual(first.key, atom.key)
    // and a different query, a different key
    assert.notStrictEqual(products({ limit: 24 }).key, atoms.products(Products.query().limit(25)).key)
  })

  it("leave out a query the query builder refuses before sending it", () => {
    for (const refused of [products({ limit: 0 }), products({ limit: 101 }), products({ limit: 2.5 }), products({ skip: -1 }), products({ sort: [{ fieldName: "", order: "ASC" }] }), products({ sort: [{ fieldName: "name", order: "UP" as "ASC" }] }), collections({ filter: [] as never })]) {
      assert.isUndefined(refused.request)
    }
    assert.isDefined(products({ limit: 100, skip: 0 }).request)
  })
})

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("sitefx/first-screen on the local platform", (it) => {
  it.effect("sends a query's first page as the client sends it, a long one as a POST", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const s = site(platform)
      const long = Array.from({ length: 150 }, (_, i) => `collection-${i}-${"x".repeat(20)}`)
      const cases = [
        { first: products({ limit: 24, sort: [{ fieldName: "createdDate", order: "DESC" }] }), client: Products.query().limit(24).descending("createdDate") },
        { first: products({ filter: { collectionIds: { $hasSome: long } }, limit: 5 }), client: Products.query().hasSome("collectionIds", long).limit(5) },
        { first: products({ limit: 2 }, { includeVariants: true }), client: Products.query({ includeVariants: true }).limit(2) }
      ]
      const early = recording()
      const first = firstScreen({ ...s.options, fetch: early.fetch })
      for (const c of cases) yield* Effect.promise(() => first.query(c.first))
      const full = recording()
      const layer = siteClient({ clientId: platform.clientId, baseUrl: platform.url, tokens: tabTokenStore({ storage: s.storage, key: s.key, locks: navigator.locks }) })
      for (const c of cases) yield* c.client.find.pipe(Effect.provide(layer), Effect.provideService(PlatformFetch, full.fetch))
      const queries = (sent: ReadonlyArray<Sent>) => sent.filter((r) => r.url.includes("/stores-reader/")).map(({ method, url, body }) => ({ method, url, body }))
      assert.deepStrictEqual(queries(early.sent), queries(full.sent))
      assert.deepStrictEqual(queries(early.sent).map((r) => r.method), ["GET", "POST", "GET"])
      // with the same token, which the client found in the store
      const token = stored(s.storage, s.key).tokens.accessToken.value
      assert.deepStrictEqual([...new Set([...early.sent, ...full.sent].filter((r) => r.url.includes("/stores-reader/")).map((r) => r.authorization))], [token])
    }))

  it.effect("gets a visitor's tokens once, saved where tabTokenStore's session reads them: the client asks for none", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const s = site(platform)
      const before = yield* tokenRequests
      const token = yield* Effect.promise(() => sessionToken(s.options))
      assert.isString(token)
      const doc = stored(s.storage, s.key)
      assert.strictEqual(doc.tokens.accessToken.value, token)
      assert.strictEqual(doc.tokens.refreshToken.role, "visitor")
      assert.isAbove(doc.tokens.accessToken.expiresAt, Math.floor(Date.now() / 1000))
      assert.strictEqual((yield* tokenRequests).anonymous, before.anonymous + 1)
      // the stored token is used as it is
      assert.strictEqual(yield* Effect.promise(() => sessionToken(s.options)), token)
      const full = recording()
      yield* Products.query().limit(1).find.pipe(
        Effect.provide(siteClient({ clientId: platform.clientId, baseUrl: platform.url, tokens: tabTokenStore({ storage: s.storage, key: s.key, locks: navigator.locks }) })),
        Effect.provideService(PlatformFetch, full.fetch)
      )
      assert.deepStrictEqual(yield* tokenRequests, { ...before, anonymous: before.anonymous + 1 })
      assert.isTrue(full.sent.every((r) => !r.url.endsWith("/oauth2/token")))
      assert.strictEqual(full.sent.find((r) => r.url.includes("/stores-reader/"))?.authorization, token)
    }))

  it.effect("asks the token endpoint with the token service's own requests, for a visitor's tokens and for a refresh", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const [early, full] = [recording(), recording()]
      const [a, b] = [site(platform, { fetch: early.fetch }), site(platform)]
      const service = siteClient({ clientId: platform.clientId, baseUrl: platform.url, tokens: tabTokenStore({ storage: b.storage, key: b.key, locks: navigator.locks }) })
      const ensure = SessionTokens.use((s) => s.ensureTokens).pipe(Effect.provide(service), Effect.provideService(PlatformFetch, full.fetch))
      const expire = (s: ReturnType<typeof site>) => {
        const doc = stored(s.storage, s.key)
        s.storage.setItem(s.key, JSON.stringify({ tokens: { ...doc.tokens, accessToken: { ...doc.tokens.accessToken, expiresAt: 0 } } }))
      }
      yield* Effect.promise(() => sessionToken(a.options))
      yield* ensure
      expire(a)
      expire(b)
      yield* Effect.promise(() => sessionToken(a.options))
      yield* ensure
      const grants = (sent: ReadonlyArray<Sent>, s: ReturnType<typeof site>) =>
        sent.map(({ method, url, body }) => ({ method, url, body: body?.replace(stored(s.storage, s.key).tokens.refreshToken.value, "<refresh token>") }))
      assert.lengthOf(early.sent, 2)
      assert.deepStrictEqual(grants(early.sent, a), grants(full.sent, b))
      assert.deepStrictEqual(grants(early.sent, a).map((g) => JSON.parse(g.body!).grantType), ["anonymous", "refresh_token"])
    }))

  it.effect("renews an expired token with the refresh token, keeping it and its role, and keeps the rest of the stored document", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const s = site(platform)
      const first = (yield* Effect.promise(() => sessionToken(s.options)))!
      const doc = stored(s.storage, s.key)
      const oauthData = { state: "s", codeVerifier: "v", codeChallenge: "c", redirectUri: "http://localhost/cb", originalUri: "http://localhost/" }
      s.storage.setItem(s.key, JSON.stringify({ tokens: { ...doc.tokens, accessToken: { ...doc.tokens.accessToken, expiresAt: 0 } }, oauthData }))
      const before = yield* tokenRequests
      const renewed = yield* Effect.promise(() => sessionToken(s.options))
      assert.isString(renewed)
      assert.notStrictEqual(renewed, first)
      const after = stored(s.storage, s.key) as ReturnType<typeof stored> & { oauthData: unknown }
      assert.deepStrictEqual(after.tokens.refreshToken, doc.tokens.refreshToken)
      assert.deepStrictEqual(after.oauthData, oauthData)
      assert.deepStrictEqual(yield* tokenRequests, { ...before, refresh_token: before.refresh_token + 1 })
    }))

  it.effect("falls back to a visitor's tokens when the refresh is refused", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const s = site(platform)
      s.storage.setItem(s.key, JSON.stringify({ tokens: { accessToken: { value: "old", expiresAt: 0 }, refreshToken: { value: "revoked", role: "member" } } }))
      const before = yield* tokenRequests
      const token = yield* Effect.promise(() => sessionToken(s.options))
      assert.isString(token)
      const doc = stored(s.storage, s.key)
      assert.strictEqual(doc.tokens.refreshToken.role, "visitor")
      assert.notStrictEqual(doc.tokens.refreshToken.value, "revoked")
      const after = yield* tokenRequests
      assert.strictEqual(after.refresh_token, before.refresh_token + 1)
      assert.strictEqual(after.anonymous, before.anonymous + 1)
    }))

  it.effect("waits for the tabs' lock, and takes the tokens its holder saved without asking for any", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const s = site(platform)
      // another tab's token service holds the lock while it renews
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      let granted = () => {}
      const holding = new Promise<void>((resolve) => (granted = resolve))
      void navigator.locks.request(`${s.key}.refresh`, () => (granted(), held))
      yield* Effect.promise(() => holding)
      const before = yield* tokenRequests
      let settled = false
      const waiting = sessionToken(s.options).then((t) => ((settled = true), t))
      yield* Effect.sleep("50 millis")
      assert.isFalse(settled)
      const saved = { accessToken: { value: "from-the-other-tab", expiresAt: Math.floor(Date.now() / 1000) + 3600 }, refreshToken: { value: "r", role: "visitor" } }
      s.storage.setItem(s.key, JSON.stringify({ tokens: saved }))
      release()
      assert.strictEqual(yield* Effect.promise(() => waiting), "from-the-other-tab")
      assert.deepStrictEqual(yield* tokenRequests, before)
    }))

  it.effect("leaves the tokens to the client without Web Locks, or when the token endpoint cannot be reached, and never rejects", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const before = yield* tokenRequests
      const noLocks = site(platform, { locks: null })
      assert.isUndefined(yield* Effect.promise(() => sessionToken(noLocks.options)))
      assert.isNull(noLocks.storage.getItem(noLocks.key))
      // a usable stored token needs no lock
      const usable = { accessToken: { value: "stored", expiresAt: Math.floor(Date.now() / 1000) + 60 }, refreshToken: { value: "r", role: "visitor" } }
      noLocks.storage.setItem(noLocks.key, JSON.stringify({ tokens: usable }))
      assert.strictEqual(yield* Effect.promise(() => sessionToken(noLocks.options)), "stored")
      assert.deepStrictEqual(yield* tokenRequests, before)
      const unreachable = site(platform, { baseUrl: "http://127.0.0.1:1" })
      assert.isUndefined(yield* Effect.promise(() => sessionToken(unreachable.options)))
      // nor is a query sent without a token
      const early = recording()
      const first = firstScreen({ ...unreachable.options, fetch: early.fetch })
      assert.isUndefined(yield* Effect.promise(() => first.query(products({ limit: 3 }))))
      assert.deepStrictEqual(early.sent.map((r) => new URL(r.url).pathname), ["/oauth2/token"])
      assert.deepStrictEqual(yield* Effect.promise(() => first.dehydrated()), { sitefxQueries: 1, queries: {} })
    }))

  it.effect("hands its answers to the query atoms: they show them and the platform sees no second token or query request", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const s = site(platform)
      const first = firstScreen(s.options)
      const grid = first.query(products({ limit: 24, sort: [{ fieldName: "createdDate", order: "DESC" }] }))
      const refused = first.query(products({ limit: 500 }))
      const nav = first.query(collections({ limit: 100, sort: [{ fieldName: "name", order: "ASC" }] }))
      const page = (yield* Effect.promise(() => grid))!
      assert.lengthOf(page.items, 24)
      assert.isTrue(page.hasMore)
      assert.isAbove(page.total!, 24)
      assert.isUndefined(yield* Effect.promise(() => refused))
      assert.isDefined(yield* Effect.promise(() => nav))
      const handed = yield* Effect.promise(() => first.dehydrated())
      assert.strictEqual(Object.keys(handed.queries).length, 2)

      const tokensBefore = yield* tokenRequests
      const queriesBefore = yield* productQueries
      const atoms = clientOf(platform, s)
      const registry = AtomRegistry.make()
      hydrate(registry, handed)
      const atom = atoms.products(Products.query().limit(24).descending("createdDate"))
      const unmount = registry.mount(atom)
      const result = registry.get(atom)
      assert.strictEqual(result._tag, "Success")
      const value = (result as { value: QueryResult<Products.Product> }).value
      assert.deepStrictEqual(value.items.map((p) => p.id), page.items.map((p) => p.id))
      assert.deepStrictEqual([value.total, value.hasMore, value.pages], [page.total, true, 1])
      const collectionsAtom = atoms.collections(Collections.query().ascending("name").limit(100))
      const unmountNav = registry.mount(collectionsAtom)
      assert.strictEqual(registry.get(collectionsAtom)._tag, "Success")
      yield* Effect.sleep("100 millis")
      assert.deepStrictEqual(yield* tokenRequests, tokensBefore)
      assert.strictEqual(yield* productQueries, queriesBefore)

      // and the atom goes on from the handed page: the next one alone
      registry.set(atom.loadMore, undefined)
      yield* Effect.promise(() => new Promise<void>((resolve) => {
        const stop = registry.subscribe(atom, (r) => {
          if (r._tag === "Success" && !r.waiting && r.value.pages === 2) {
            queueMicrotask(() => stop())
            resolve()
          }
        }, { immediate: true })
      }))
      assert.strictEqual(yield* productQueries, queriesBefore + 1)
      assert.deepStrictEqual(yield* tokenRequests, tokensBefore)
      unmount()
      unmountNav()
      registry.dispose()
    }))
})

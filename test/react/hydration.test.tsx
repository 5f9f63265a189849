// @vitest-environment jsdom
/**
 * Server rendering with the queries' results handed over, against the local platform: a page's query is
 * loaded and rendered to a string as a server would, its result written into the page as JSON; a fresh
 * client (its own runtime, query atoms and registry, as a browser has) seeded from that JSON hydrates the
 * page with no mismatch and without the platform seeing the query again (its request log counts them);
 * the query then reloads, pages and follows writes as usual.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"
import { act } from "react"
import { hydrateRoot } from "react-dom/client"
import { renderToString } from "react-dom/server"
import * as Products from "../../src/catalog/Products.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import {
  dehydrate,
  hydrate,
  prefetch,
  queriesScript,
  type QueryAtom,
  queryAtoms,
  readQueriesScript,
  RegistryProvider,
  useAtomSet,
  useAtomValue
} from "../../src/react/index.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { Site } from "../../src/Site.ts"
import { asAdmin, freshCollection } from "../data/support.ts"
import { dev, LocalPlatform } from "../support/platform.ts"

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

type Row = { readonly [k: string]: unknown }

/** What a browser or a server builds for itself: a runtime and its query atoms. */
const appOf = (platform: { readonly url: string; readonly clientId: string }) => {
  const runtime = Atom.runtime(Site.layer({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http() }))
  return queryAtoms(runtime)
}

function Page(props: { readonly query: QueryAtom<Row, unknown> }) {
  const result = useAtomValue(props.query)
  const reload = useAtomSet(props.query.reload)
  return (
    <main>
      <ul id="items">
        {result._tag === "Success"
          ? result.value.items.map((item) => <li key={String(item["_id"])}>{`${String(item["title"])} (${item["_createdDate"] instanceof Date ? "dated" : "undated"})`}</li>)
          : <li>{result._tag}</li>}
      </ul>
      <button id="reload" onClick={() => reload()}>Reload</button>
    </main>
  )
}

const queryRequests = Effect.map(
  dev<{ requests: ReadonlyArray<{ path: string }> }>("/requests?path=/wix-data/v2/items/query&limit=1000"),
  (r) => r.requests.filter((q) => q.path === "/wix-data/v2/items/query").length
)

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("sitefx/react hydration", (it) => {
  it.effect("a page rendered on a server with its query's result hydrates on the client without asking the platform again", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const collection = yield* freshCollection("ssr")
      yield* asAdmin(DataItems.bulkInsert(collection, [{ _id: "a", title: "One <b>bold</b> </script>", n: 1 }, { _id: "b", title: "Two", n: 2 }])).pipe(Effect.orDie)
      const build = (queries: ReturnType<typeof appOf>) => queries.items(DataItems.query(collection).ascending("n").limit(1).withTotalCount()) as QueryAtom<Row, unknown>

      // the server: load, render, hand over
      const server = appOf(platform)
      const serverRegistry = AtomRegistry.make()
      yield* Effect.promise(() => prefetch(serverRegistry, [build(server)]))
      const html = renderToString(<RegistryProvider registry={serverRegistry}><Page query={build(server)} /></RegistryProvider>)
      const state = dehydrate(serverRegistry, [build(server)])
      serverRegistry.dispose()
      assert.include(html, "(dated)")
      assert.strictEqual(Object.keys(state.queries).length, 1)
      const served = yield* queryRequests
      assert.isAtLeast(served, 1)

      // the page as the browser gets it; the item's text cannot close the script
      const script = queriesScript(state)
      assert.notInclude(script.slice(0, -"</script>".length), "</script>")
      document.body.innerHTML = `<div id="root">${html}</div>${script}`
      const root = document.getElementById("root")!
      const before = root.innerHTML

      // the client: its own runtime, atoms and registry, seeded from the page
      const client = appOf(platform)
      const registry = AtomRegistry.make()
      hydrate(registry, readQueriesScript())
      const mismatches: Array<unknown> = []
      const reactRoot = yield* Effect.promise(() =>
        act(async () =>
          hydrateRoot(root, <RegistryProvider registry={registry}><Page query={build(client)} /></RegistryProvider>, {
            onRecoverableError: (error) => mismatches.push(error)
          })
        )
      )
      yield* Effect.promise(() => act(() => new Promise((r) => setTimeout(r, 300))))
      assert.deepStrictEqual(mismatches, [])
      assert.strictEqual(root.innerHTML, before)
      assert.strictEqual(root.querySelector("#items")?.textContent, "One <b>bold</b> </script> (dated)")
      const shown = registry.get(build(client))
      assert.isTrue(AsyncResult.isSuccess(shown) && !shown.waiting)
      assert.strictEqual(AsyncResult.getOrThrow(shown).total, 2)
      // the platform saw no query from the client
      assert.strictEqual(yield* queryRequests, served)

      // a reload asks the platform again, as usual
      yield* Effect.promise(() => act(async () => (root.querySelector("#reload") as HTMLButtonElement).click()))
      for (let i = 0; i < 200 && (yield* queryRequests) === served; i++) yield* Effect.promise(() => act(() => new Promise((r) => setTimeout(r, 10))))
      assert.strictEqual(yield* queryRequests, served + 1)
      yield* Effect.promise(() => act(async () => reactRoot.unmount()))
      registry.dispose()
    }))

  it.effect("only dehydrate's output seeds a registry, and a seed serves one first load", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const collection = yield* freshCollection("seedonce")
      yield* asAdmin(DataItems.insert(collection, { _id: "x", title: "from the platform" })).pipe(Effect.orDie)
      const queries = appOf(platform)
      const query = queries.items(DataItems.query(collection)) as QueryAtom<Row, unknown>
      const registry = AtomRegistry.make()
      hydrate(registry, { queries: { [query.key]: { items: [], hasMore: false, pages: 1 } } })
      hydrate(registry, "not a state")
      hydrate(registry, { sitefxQueries: 1, queries: { [query.key]: { items: [{ _id: "x", title: "from the server", at: { $date: "2026-01-02T03:04:05.000Z" } }], hasMore: false, pages: 1 } } })
      const seen = AsyncResult.getOrThrow(registry.get(query))
      assert.strictEqual(seen.items[0]!["title"], "from the server")
      assert.instanceOf(seen.items[0]!["at"], Date)
      registry.mount(query)
      registry.set(query.reload, undefined)
      for (let i = 0; i < 200; i++) {
        const r = registry.get(query)
        if (r._tag === "Success" && !r.waiting && r.value.items[0]?.["title"] === "from the platform") break
        yield* Effect.sleep("10 millis")
      }
      assert.strictEqual(AsyncResult.getOrThrow(registry.get(query)).items[0]!["title"], "from the platform")
      registry.dispose()
    }))

  it.effect("RegistryProvider's dehydrated seeds the registry it makes: the first render shows the server's result", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const collection = yield* freshCollection("provider")
      const query = (queries: ReturnType<typeof appOf>) => queries.items(DataItems.query(collection)) as QueryAtom<Row, unknown>
      const queries = appOf(platform)
      const state = { sitefxQueries: 1 as const, queries: { [query(queries).key]: { items: [{ _id: "s", title: "seeded", _createdDate: { $date: "2026-01-02T03:04:05.000Z" } }], hasMore: false, pages: 1 } } }
      const before = yield* queryRequests
      const html = renderToString(<RegistryProvider dehydrated={state}><Page query={query(queries)} /></RegistryProvider>)
      assert.include(html, "seeded (dated)")
      yield* Effect.sleep("100 millis")
      assert.strictEqual(yield* queryRequests, before)
      // and without it, the same render has nothing to show yet
      const without = renderToString(<RegistryProvider><Page query={query(appOf(platform))} /></RegistryProvider>)
      assert.include(without, "Initial")

      // a query that does not answer in time is left out, and the browser will ask for it
      const registry = AtomRegistry.make()
      const stuck = queries.of({ key: "never answers", keys: [], first: Effect.never })
      const started = Date.now()
      yield* Effect.promise(() => prefetch(registry, [query(queries), stuck], { timeout: 1500 }))
      assert.isBelow(Date.now() - started, 5000)
      assert.deepStrictEqual(Object.keys(dehydrate(registry, [query(queries), stuck]).queries), [query(queries).key])
      registry.dispose()
    }))

  it.effect("a products query's result survives the trip through the page as the client would have loaded it", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const products = (queries: ReturnType<typeof appOf>) => queries.products(Products.query().ascending("name").limit(6))
      const server = AtomRegistry.make()
      const serverQuery = products(appOf(platform))
      yield* Effect.promise(() => prefetch(server, [serverQuery]))
      const sent = AsyncResult.getOrThrow(server.get(serverQuery))
      const page = JSON.parse(JSON.stringify(dehydrate(server, [serverQuery])))
      server.dispose()
      const client = AtomRegistry.make()
      hydrate(client, page)
      const clientQuery = products(appOf(platform))
      const received = AsyncResult.getOrThrow(client.get(clientQuery))
      assert.strictEqual(received.items.length, 6)
      assert.deepStrictEqual(received.items, sent.items)
      assert.deepStrictEqual([received.hasMore, received.total, received.pages], [sent.hasMore, sent.total, sent.pages])
      client.dispose()
    }))

  it.effect("a seeded products query loads its next page alone, after the seed's items, not its pages again", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const products = (queries: ReturnType<typeof appOf>) => queries.products(Products.query().ascending("name").limit(6))
      const server = AtomRegistry.make()
      const serverQuery = products(appOf(platform))
      yield* Effect.promise(() => prefetch(server, [serverQuery]))
      const page = JSON.parse(JSON.stringify(dehydrate(server, [serverQuery])))
      server.dispose()
      const productQueries = Effect.map(
        dev<{ requests: ReadonlyArray<{ path: string }> }>("/requests?path=/stores-reader/v1/products/query-platformized&limit=1000"),
        (r) => r.requests.length
      )
      const before = yield* productQueries
      const client = AtomRegistry.make()
      hydrate(client, page)
      const clientQuery = products(appOf(platform))
      const stop = client.mount(clientQuery)
      client.set(clientQuery.loadMore, undefined)
      const loaded = yield* Effect.promise(() =>
        new Promise<ReadonlyArray<{ readonly name?: string | null | undefined }>>((resolve) => {
          const done = client.subscribe(clientQuery, (r) => {
            if (r._tag === "Success" && !r.waiting && r.value.pages === 2) {
              queueMicrotask(() => done())
              resolve(r.value.items)
            }
          }, { immediate: true })
        })
      )
      assert.strictEqual(loaded.length, 12)
      // one request: the second page, from the sixth item on
      assert.strictEqual((yield* productQueries) - before, 1)
      const all = yield* asAdmin(Products.query().ascending("name").limit(12).find).pipe(Effect.orDie)
      assert.deepStrictEqual(loaded.map((p) => p.name), all.items.map((p) => p.name))
      stop()
      client.dispose()
    }))
})

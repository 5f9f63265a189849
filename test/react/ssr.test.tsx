/**
 * The binding on a server (no DOM, no `window`): sitefx/react, its session atoms and a page reading them
 * import and render to a string. A RegistryProvider's own registry runs nothing there (no request, no
 * timer, no clock read): atoms on a runtime render as loading, queries as the seeds the page was given.
 */
import { afterEach, assert, it, vi } from "@effect/vitest"
import { AsyncResult, Atom } from "effect/reactivity"
import { renderToString } from "react-dom/server"
import * as DataItems from "../../src/data/DataItems.ts"
import { queryAtoms, RegistryProvider, sessionAtoms, useAtomValue } from "../../src/react/index.ts"
import { siteSession } from "../../src/session/SiteSession.ts"

afterEach(() => {
  vi.restoreAllMocks()
})

it("renders on a server without touching window, running nothing", () => {
  const fetched = vi.spyOn(globalThis, "fetch")
  const now = vi.spyOn(Date, "now")
  assert.strictEqual(typeof (globalThis as { window?: unknown }).window, "undefined")
  const runtime = Atom.runtime(siteSession({ clientId: "c", baseUrl: "http://127.0.0.1:1", tokens: "localStorage" }))
  const session = sessionAtoms(runtime)
  const greeting = Atom.make("hello")
  function Page() {
    const state = useAtomValue(session.state)
    return (
      <main>
        <p>{useAtomValue(greeting)}</p>
        <p>{AsyncResult.isSuccess(state) ? (state.value.loggedIn ? "member" : "a visitor") : AsyncResult.isInitial(state) ? "loading" : "failed"}</p>
      </main>
    )
  }
  const html = renderToString(<RegistryProvider><Page /></RegistryProvider>)
  assert.include(html, "hello")
  // the session is the browser's to read: on the server it is loading, and nothing was asked or timed
  assert.include(html, "loading")
  assert.strictEqual(fetched.mock.calls.length, 0)
  assert.strictEqual(now.mock.calls.length, 0)
})

it("a query renders on a server as the seed the page was given, without asking the platform", () => {
  const fetched = vi.spyOn(globalThis, "fetch")
  const now = vi.spyOn(Date, "now")
  const runtime = Atom.runtime(siteSession({ clientId: "c", baseUrl: "http://127.0.0.1:1" }))
  const posts = queryAtoms(runtime).items(DataItems.query("Posts").limit(2))
  const other = queryAtoms(runtime).items(DataItems.query("Other").limit(2))
  const dehydrated = { sitefxQueries: 1 as const, queries: { [posts.key]: { items: [{ _id: "a", title: "First post" }], hasMore: false, pages: 1, at: 1_700_000_000_000 } } }
  function Page() {
    const seeded = useAtomValue(posts)
    const unseeded = useAtomValue(other)
    return (
      <main>
        <ul>{AsyncResult.isSuccess(seeded) && seeded.value.items.map((p) => <li key={p._id}>{String(p["title"])}</li>)}</ul>
        <p>{AsyncResult.isInitial(unseeded) ? "other loading" : "other shown"}</p>
      </main>
    )
  }
  const html = renderToString(<RegistryProvider dehydrated={dehydrated}><Page /></RegistryProvider>)
  assert.include(html, "First post")
  assert.include(html, "other loading")
  assert.strictEqual(fetched.mock.calls.length, 0)
  assert.strictEqual(now.mock.calls.length, 0)
})

/**
 * The binding on a server (no DOM, no `window`): sitefx/react, its session atoms and a page reading them
 * import and render to a string; with no storage to read a session from, the page renders as a visitor's.
 */
import { assert, it } from "@effect/vitest"
import { AsyncResult, Atom } from "effect/reactivity"
import { renderToString } from "react-dom/server"
import { RegistryProvider, sessionAtoms, useAtomValue } from "../../src/react/index.ts"
import { siteSession } from "../../src/session/SiteSession.ts"

it("renders on a server without touching window", () => {
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
  // no storage on a server: the page renders for a visitor, and nothing fails
  assert.include(html, "a visitor")
})

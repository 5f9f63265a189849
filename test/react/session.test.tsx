// @vitest-environment jsdom
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"
import { act } from "react"
import { createRoot } from "react-dom/client"
import { RegistryProvider, sessionAtoms, useAtomSet, useAtomValue } from "../../src/react/index.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { Site } from "../../src/Site.ts"
import { LocalPlatform } from "../support/platform.ts"

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const waitFor = (check: () => boolean, what: string) =>
  Effect.promise(async () => {
    for (let i = 0; i < 200; i++) {
      if (check()) return
      await act(() => new Promise((r) => setTimeout(r, 10)))
    }
    throw new Error(`timed out waiting for ${what}`)
  })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("sitefx/react", (it) => {
  it.effect("session atoms: a component shows the session and signs a member in", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const runtime = Atom.runtime(Site.layer({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http() }))
      const session = sessionAtoms(runtime)

      function Account() {
        const state = useAtomValue(session.state)
        const signIn = useAtomSet(session.signIn)
        const result = useAtomValue(session.signIn)
        const label = AsyncResult.match(state, {
          onInitial: () => "loading",
          onFailure: () => "error",
          onSuccess: (s) => (s.value.loggedIn ? "member" : s.value.role)
        })
        const outcome = AsyncResult.isSuccess(result) ? result.value.loginState : "-"
        return (
          <div>
            <p id="state">{label}</p>
            <p id="outcome">{outcome}</p>
            <button id="wrong" onClick={() => signIn({ email: demo.email, password: "wrong password" })}>wrong</button>
            <button id="right" onClick={() => signIn({ email: demo.email, password: demo.password })}>sign in</button>
          </div>
        )
      }

      const registry = AtomRegistry.make()
      const el = document.createElement("div")
      const root = createRoot(el)
      const text = (id: string) => el.querySelector(`#${id}`)!.textContent
      yield* Effect.promise(() => act(async () => root.render(<RegistryProvider registry={registry}><Account /></RegistryProvider>)))
      yield* waitFor(() => text("state") === "none", "the initial state")

      yield* Effect.promise(() => act(async () => (el.querySelector("#wrong") as HTMLButtonElement).click()))
      yield* waitFor(() => text("outcome") === "FAILURE", "a refused login")
      assert.strictEqual(text("state"), "visitor")

      yield* Effect.promise(() => act(async () => (el.querySelector("#right") as HTMLButtonElement).click()))
      yield* waitFor(() => text("state") === "member", "the member state")
      assert.strictEqual(text("outcome"), "SUCCESS")
      yield* Effect.promise(() => act(async () => root.unmount()))
      registry.dispose()
    }))
})

// @vitest-environment jsdom
/**
 * The binding's hooks in React (jsdom): a value that updates, Suspense while a result is loading, an
 * error boundary for a failure, refresh, and a provider that survives StrictMode's unmount and remount.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import { act, Component, type ReactNode, StrictMode, Suspense } from "react"
import { createRoot, type RootOptions } from "react-dom/client"
import { RegistryProvider, useAtom, useAtomRefresh, useAtomSuspense, useAtomValue } from "../../src/react/index.ts"

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const mount = async (node: ReactNode, options?: RootOptions) => {
  const container = document.createElement("div")
  const root = createRoot(container, options)
  await act(async () => root.render(node))
  return { container, unmount: () => act(async () => root.unmount()) }
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await act(() => new Promise((r) => setTimeout(r, 5)))
  }
  throw new Error(`timed out waiting for ${what}`)
}

class Boundary extends Component<{ readonly children: ReactNode }, { readonly error: string | undefined }> {
  override state = { error: undefined as string | undefined }
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
  override render() {
    return this.state.error === undefined ? this.props.children : <p id="error">{this.state.error}</p>
  }
}

it("a writable atom renders and updates", async () => {
  const count = Atom.make(0)
  function Counter() {
    const [n, set] = useAtom(count)
    return <button id="b" onClick={() => set(n + 1)}>{n}</button>
  }
  const { container, unmount } = await mount(<RegistryProvider><Counter /></RegistryProvider>)
  const button = container.querySelector("#b") as HTMLButtonElement
  assert.strictEqual(button.textContent, "0")
  await act(async () => button.click())
  await act(async () => button.click())
  assert.strictEqual(button.textContent, "2")
  await unmount()
})

it("Suspense while a result loads, then the value; refresh computes it again", async () => {
  let runs = 0
  let release: () => void = () => undefined
  const value = Atom.make(Effect.promise(() =>
    new Promise<number>((resolve) => {
      runs++
      const n = runs
      release = () => resolve(n * 10)
    })
  ))
  function Shown() {
    const v = useAtomSuspense(value)
    const refresh = useAtomRefresh(value)
    return <button id="v" onClick={refresh}>{v}</button>
  }
  const { container, unmount } = await mount(
    <RegistryProvider>
      <Suspense fallback={<p id="loading">loading</p>}>
        <Shown />
      </Suspense>
    </RegistryProvider>
  )
  assert.isNotNull(container.querySelector("#loading"))
  await act(async () => release())
  await until(() => container.querySelector("#v") !== null, "the value")
  assert.strictEqual(container.querySelector("#v")!.textContent, "10")
  await act(async () => (container.querySelector("#v") as HTMLButtonElement).click())
  await act(async () => release())
  await until(() => container.querySelector("#v")?.textContent === "20", "the refreshed value")
  assert.strictEqual(runs, 2)
  await unmount()
})

it("a failure reaches the error boundary", async () => {
  const failing = Atom.make(Effect.fail(new Error("the platform said no")))
  function Shown() {
    return <p>{String(useAtomSuspense(failing))}</p>
  }
  // what React hands the root for an error a boundary caught (by default it logs it to the console)
  const caught: Array<unknown> = []
  const { container, unmount } = await mount(
    <RegistryProvider>
      <Boundary>
        <Suspense fallback={<p>loading</p>}>
          <Shown />
        </Suspense>
      </Boundary>
    </RegistryProvider>,
    { onCaughtError: (error) => caught.push(error) }
  )
  await until(() => container.querySelector("#error") !== null, "the error")
  assert.strictEqual(container.querySelector("#error")!.textContent, "the platform said no")
  assert.deepStrictEqual(caught.map((error) => error instanceof Error ? error.message : String(error)), ["the platform said no"])
  await unmount()
})

it("the provider keeps its registry through StrictMode's unmount and remount", async () => {
  const n = Atom.make(1)
  function Reader() {
    return <p id="n">{useAtomValue(n)}</p>
  }
  const { container, unmount } = await mount(<StrictMode><RegistryProvider><Reader /></RegistryProvider></StrictMode>)
  assert.strictEqual(container.querySelector("#n")!.textContent, "1")
  await act(() => new Promise((r) => setTimeout(r, 20)))
  assert.strictEqual(container.querySelector("#n")!.textContent, "1", "still readable after StrictMode's remount")
  await unmount()
})

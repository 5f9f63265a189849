// React with Effect's atoms and nothing of sitefx: a runtime of a layer, an atom of an Effect, of a Stream, a function atom
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"
import { useCallback, useSyncExternalStore } from "react"
import { createRoot } from "react-dom/client"

class Greeter extends Context.Service<Greeter, { readonly greet: (name: string) => Effect.Effect<string> }>()("Greeter") {}
const runtime = Atom.runtime(Layer.succeed(Greeter, Greeter.of({ greet: (name) => Effect.succeed(`hello ${name}`) })))
const greeting = runtime.atom(Greeter.use((g) => g.greet("you")))
const ticks = runtime.atom(Stream.fromIterable([1, 2, 3]))
const send = Atom.keepAlive(runtime.fn((name: string) => Greeter.use((g) => g.greet(name))))
const registry = AtomRegistry.make()
function useValue<A>(atom: Atom.Atom<A>): A {
  const subscribe = useCallback((f: () => void) => registry.subscribe(atom, f), [atom])
  return useSyncExternalStore(subscribe, () => registry.get(atom))
}
function App() {
  const g = useValue(greeting)
  const t = useValue(ticks)
  const s = useValue(send)
  return <div onClick={() => registry.set(send, "me")}>{AsyncResult.match(g, { onInitial: () => "…", onFailure: () => "!", onSuccess: ({ value }) => value })} {String(AsyncResult.isSuccess(t) && t.value)} {s.waiting ? "" : "ok"}</div>
}
createRoot(document.getElementById("root")!).render(<App />)

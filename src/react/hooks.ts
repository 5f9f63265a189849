"use client"
/**
 * The React binding of atoms: a registry per provider and hooks over useSyncExternalStore.
 * Components read atoms; they never call the client directly.
 */
import * as Cause from "effect/Cause"
import { AsyncResult, type Atom, AtomRegistry } from "effect/reactivity"
import { createContext, createElement, type ReactNode, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore } from "react"
import { type DehydratedQueries, hydrate, isRenderOnly, isRenderOnlyResult, RENDER_ONLY, renderOnlyRegistry } from "./hydration.ts"

/** A server render's runtimes: held unbuilt (see renderOnlyRegistry). */
const NOT_HERE = AsyncResult.failure<never, typeof RENDER_ONLY>(Cause.fail(RENDER_ONLY))
/** What an atom that needs a runtime shows in a server render: loading. */
const LOADING = AsyncResult.initial()

/** The server render's view of a browser registry that hydrates a page: a registry like the server's own, made when first asked. */
const serverViews = new WeakMap<AtomRegistry.AtomRegistry, () => AtomRegistry.AtomRegistry>()

/** An atom's value in a registry; in a server render's own registry, what would need a runtime is loading. */
const renderedIn = <A>(registry: AtomRegistry.AtomRegistry, atom: Atom.Atom<A>): A => {
  const value = registry.get(atom)
  return isRenderOnly(registry) && isRenderOnlyResult(value) ? LOADING as A : value
}

const RegistryContext = createContext<AtomRegistry.AtomRegistry | undefined>(undefined)

/**
 * Holds one AtomRegistry for the tree below (pass `registry` to share one, e.g. in tests). `dehydrated`
 * seeds the registry it makes with the query results a server rendered the page with (`dehydrate`).
 *
 * @example
 * declare const App: () => null
 * const page = <RegistryProvider dehydrated={readQueriesScript()}><App /></RegistryProvider>
 */
export function RegistryProvider(props: {
  readonly children?: ReactNode
  readonly registry?: AtomRegistry.AtomRegistry
  readonly dehydrated?: DehydratedQueries | undefined
}) {
  const [registry] = useState(() => {
    if (props.registry !== undefined) {
      if (props.dehydrated !== undefined) hydrate(props.registry, props.dehydrated)
      return props.registry
    }
    // a server render's own registry shows what it was given and runs nothing (see renderOnlyRegistry)
    const onServer = typeof window === "undefined"
    const made = onServer ? renderOnlyRegistry(NOT_HERE, AtomRegistry.make) : AtomRegistry.make()
    if (props.dehydrated !== undefined) hydrate(made, props.dehydrated)
    if (!onServer) {
      // hydrating, the page's first render shows what the server's own registry showed, from the same seeds
      const dehydrated = props.dehydrated
      let shadow: AtomRegistry.AtomRegistry | undefined
      serverViews.set(made, () => {
        if (shadow === undefined) {
          shadow = renderOnlyRegistry(NOT_HERE, AtomRegistry.make)
          if (dehydrated !== undefined) hydrate(shadow, dehydrated)
        }
        return shadow
      })
    }
    return made
  })
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => {
    if (props.registry !== undefined) return
    // React may unmount and mount again at once (StrictMode, a suspended tree): the registry is
    // disposed a moment after an unmount that is not followed by a mount
    clearTimeout(pending.current)
    return () => {
      pending.current = setTimeout(() => registry.dispose(), 0)
    }
  }, [registry, props.registry])
  return createElement(RegistryContext.Provider, { value: registry }, props.children)
}

/** The AtomRegistry of the nearest RegistryProvider; throws outside one. */
export function useRegistry(): AtomRegistry.AtomRegistry {
  const registry = useContext(RegistryContext)
  if (registry === undefined) throw new Error("sitefx/react: wrap the tree in <RegistryProvider>")
  return registry
}

/**
 * The atom's value; re-renders when it changes. The atom stays mounted while a component reads it.
 *
 * @example
 * const clicks = Atom.make(0)
 * function Clicks() {
 *   return <p>{useAtomValue(clicks)} clicks</p>
 * }
 */
export function useAtomValue<A>(atom: Atom.Atom<A>): A {
  const registry = useRegistry()
  const subscribe = useCallback((onChange: () => void) => registry.subscribe(atom, onChange), [registry, atom])
  const snapshot = useCallback(() => renderedIn(registry, atom), [registry, atom])
  // what the server rendered: its own registry's view (while hydrating, the same view from the same seeds)
  const serverSnapshot = useCallback(() => renderedIn(serverViews.get(registry)?.() ?? registry, atom), [registry, atom])
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot)
}

/** A setter for a writable atom (an action atom runs its effect when set). */
export function useAtomSet<R, W>(atom: Atom.Writable<R, W>): (value: W) => void {
  const registry = useRegistry()
  useEffect(() => registry.mount(atom), [registry, atom])
  return useCallback((value: W) => registry.set(atom, value), [registry, atom])
}

/**
 * The atom's value and its setter, as React's useState gives them.
 *
 * @example
 * const clicks = Atom.make(0)
 * function Counter() {
 *   const [count, setCount] = useAtom(clicks)
 *   return <button onClick={() => setCount(count + 1)}>{count}</button>
 * }
 */
export function useAtom<R, W>(atom: Atom.Writable<R, W>): readonly [R, (value: W) => void] {
  return [useAtomValue(atom), useAtomSet(atom)] as const
}

/** A function that computes the atom again (a query asks the platform again). */
export function useAtomRefresh<A>(atom: Atom.Atom<A>): () => void {
  const registry = useRegistry()
  useEffect(() => registry.mount(atom), [registry, atom])
  return useCallback(() => registry.refresh(atom), [registry, atom])
}

const pendingResults = new WeakMap<AtomRegistry.AtomRegistry, WeakMap<Atom.Atom<unknown>, Promise<void>>>()

/** A promise that settles when the atom's result is no longer Initial, shared by every component that waits for it. */
const settled = (registry: AtomRegistry.AtomRegistry, atom: Atom.Atom<AsyncResult.AsyncResult<unknown, unknown>>): Promise<void> => {
  let byAtom = pendingResults.get(registry)
  if (byAtom === undefined) pendingResults.set(registry, byAtom = new WeakMap())
  const known = byAtom.get(atom)
  if (known !== undefined) return known
  const promise = new Promise<void>((resolve) => {
    // the subscription keeps the atom computing while the component is suspended
    const unsubscribe = registry.subscribe(atom, (value) => {
      if (value._tag !== "Initial") {
        byAtom.delete(atom)
        queueMicrotask(() => unsubscribe())
        resolve()
      }
    }, { immediate: true })
  })
  byAtom.set(atom, promise)
  return promise
}

/**
 * The value of an atom holding an AsyncResult, for components under `<Suspense>`: suspends while it is
 * Initial, throws its failure's error to the nearest error boundary, and otherwise gives the value
 * (the previous one while a refresh is under way).
 *
 * @example
 * import { Suspense } from "react"
 * const greeting = Atom.make(Effect.succeed("hello"))
 * function Greeting() {
 *   return <p>{useAtomSuspense(greeting)}</p>
 * }
 * const page = <Suspense fallback="…"><Greeting /></Suspense>
 */
export function useAtomSuspense<A, E>(atom: Atom.Atom<AsyncResult.AsyncResult<A, E>>): A {
  const registry = useRegistry()
  const result = useAtomValue(atom)
  if (result._tag === "Initial") throw settled(registry, atom as Atom.Atom<AsyncResult.AsyncResult<unknown, unknown>>)
  if (result._tag === "Failure") throw Cause.squash(result.cause)
  return result.value
}

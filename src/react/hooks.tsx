/**
 * The React binding of atoms: a registry per provider and hooks over useSyncExternalStore.
 * Components read atoms; they never call the client directly.
 */
import { type Atom, AtomRegistry } from "effect/reactivity"
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore } from "react"

const RegistryContext = createContext<AtomRegistry.AtomRegistry | undefined>(undefined)

/** Holds one AtomRegistry for the tree below (pass `registry` to share one, e.g. in tests). */
export function RegistryProvider(props: { readonly children?: ReactNode; readonly registry?: AtomRegistry.AtomRegistry }) {
  const [registry] = useState(() => props.registry ?? AtomRegistry.make())
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
  return <RegistryContext.Provider value={registry}>{props.children}</RegistryContext.Provider>
}

export function useRegistry(): AtomRegistry.AtomRegistry {
  const registry = useContext(RegistryContext)
  if (registry === undefined) throw new Error("sitefx/react: wrap the tree in <RegistryProvider>")
  return registry
}

/** The atom's value; re-renders when it changes. The atom stays mounted while a component reads it. */
export function useAtomValue<A>(atom: Atom.Atom<A>): A {
  const registry = useRegistry()
  const subscribe = useCallback((onChange: () => void) => registry.subscribe(atom, onChange), [registry, atom])
  const snapshot = useCallback(() => registry.get(atom), [registry, atom])
  return useSyncExternalStore(subscribe, snapshot, snapshot)
}

/** A setter for a writable atom (an action atom runs its effect when set). */
export function useAtomSet<R, W>(atom: Atom.Writable<R, W>): (value: W) => void {
  const registry = useRegistry()
  useEffect(() => registry.mount(atom), [registry, atom])
  return useCallback((value: W) => registry.set(atom, value), [registry, atom])
}

export function useAtom<R, W>(atom: Atom.Writable<R, W>): readonly [R, (value: W) => void] {
  return [useAtomValue(atom), useAtomSet(atom)] as const
}

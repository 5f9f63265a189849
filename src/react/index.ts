export { RegistryProvider, useAtom, useAtomRefresh, useAtomSet, useAtomSuspense, useAtomValue, useRegistry } from "./hooks.tsx"
export { sessionAtoms, type SignInInput } from "./session.ts"
export { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"

/**
 * The query and write atoms' families: one atom per key, made once, whether the platform has WeakRef and
 * FinalizationRegistry (an atom no one holds may be let go) or not (each kept for good).
 */
import { assert, describe, it } from "@effect/vitest"
import { Atom } from "effect/reactivity"
import { keyedFamily, stringFamily } from "../../src/react/family.ts"

const families = () => {
  let made = 0
  const byName = keyedFamily((query: { readonly key: string; readonly limit: number }) => query.key, (query) => {
    made++
    return Atom.make(query.limit)
  })
  const byKey = stringFamily((key) => {
    made++
    return Atom.make(key)
  })
  return { byName, byKey, made: () => made }
}

const checks = () => {
  const { byName, byKey, made } = families()
  const first = byName({ key: "posts", limit: 10 })
  // the same key is the same atom, made from the first input that had it
  assert.strictEqual(byName({ key: "posts", limit: 20 }), first)
  assert.notStrictEqual(byName({ key: "notes", limit: 10 }), first)
  assert.strictEqual(byKey("sitefx/data/Posts"), byKey("sitefx/data/Posts"))
  assert.notStrictEqual(byKey("sitefx/data/Posts"), byKey("sitefx/data/Notes"))
  assert.strictEqual(made(), 4)
}

describe("keyedFamily", () => {
  it("gives one atom per key, made once", checks)

  it("does so where there is no WeakRef or FinalizationRegistry, keeping each atom", () => {
    const scope = globalThis as { WeakRef?: unknown; FinalizationRegistry?: unknown }
    const { WeakRef, FinalizationRegistry } = scope
    scope.WeakRef = undefined
    scope.FinalizationRegistry = undefined
    try {
      checks()
    } finally {
      scope.WeakRef = WeakRef
      scope.FinalizationRegistry = FinalizationRegistry
    }
  })
})

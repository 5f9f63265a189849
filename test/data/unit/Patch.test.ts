/**
 * Patch: the fieldModifications wire shape of every action, argument errors (kept first, raised by `run`
 * without calling the runner), and immutability.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { DataError } from "../../../src/data/DataError.ts"
import { Patch } from "../../../src/data/Patch.ts"
import type { FieldModification } from "../../../src/data/wire/index.ts"

const recording = () => {
  const calls: Array<ReadonlyArray<FieldModification>> = []
  const patch = new Patch((modifications) => Effect.sync(() => (calls.push(modifications), "done" as const)))
  return { calls, patch }
}

const errorOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined => Option.getOrUndefined(Exit.findErrorOption(exit))

describe("Patch: modifications", () => {
  it("every action in its wire shape, in call order", () => {
    const { patch } = recording()
    const p = patch
      .setField("title", "New")
      .removeField("draft")
      .incrementField("likes", 2)
      .appendToArray("tags", "hot")
      .removeFromArray("tags", "cold")
      .setField("meta.author", { name: "ann" })
      .incrementField("score", -0.5)
    expect(p.modifications).toStrictEqual([
      { fieldPath: "title", action: "SET_FIELD", setFieldOptions: { value: "New" } },
      { fieldPath: "draft", action: "REMOVE_FIELD" },
      { fieldPath: "likes", action: "INCREMENT_FIELD", incrementFieldOptions: { value: 2 } },
      { fieldPath: "tags", action: "APPEND_TO_ARRAY", appendToArrayOptions: { value: "hot" } },
      { fieldPath: "tags", action: "REMOVE_FROM_ARRAY", removeFromArrayOptions: { value: "cold" } },
      { fieldPath: "meta.author", action: "SET_FIELD", setFieldOptions: { value: { name: "ann" } } },
      { fieldPath: "score", action: "INCREMENT_FIELD", incrementFieldOptions: { value: -0.5 } }
    ])
    assert.isUndefined(p.error)
  })

  it("REMOVE_FIELD has no options object at all", () => {
    const [m] = recording().patch.removeField("x").modifications
    expect(Object.keys(m!).sort()).toStrictEqual(["action", "fieldPath"])
  })

  it("values are kept as given: null, arrays, Dates", () => {
    const date = new Date(0)
    const mods = recording().patch.setField("a", null).appendToArray("b", [1, 2]).setField("c", date).modifications
    expect(mods.map((m) => m.setFieldOptions?.value ?? m.appendToArrayOptions?.value)).toStrictEqual([undefined, [1, 2], date])
    assert.isNull(mods[0]!.setFieldOptions!.value)
    assert.strictEqual(mods[2]!.setFieldOptions!.value, date)
  })

  it("is immutable", () => {
    const base = recording().patch.setField("a", 1)
    base.removeField("b")
    base.incrementField("c", "x" as never)
    expect(base.modifications).toStrictEqual([{ fieldPath: "a", action: "SET_FIELD", setFieldOptions: { value: 1 } }])
    assert.isUndefined(base.error)
  })
})

describe("Patch: validation", () => {
  it("incrementField with a non-number: WDE0032", () => {
    const { patch } = recording()
    for (const by of ["1", null, undefined, {}, Number.NaN, Number.POSITIVE_INFINITY, true]) {
      const p = patch.incrementField("likes", by as never)
      expect(p.error?.code, String(by)).toBe("WDE0032")
      expect(p.modifications).toStrictEqual([])
    }
    assert.match(patch.incrementField("likes", "1" as never).error!.message, /^WDE0032: Invalid \.incrementField parameter \[string\]\. \.incrementField parameter must be a number\.$/)
  })

  it("an empty or non-string field path: WDE0094", () => {
    const { patch } = recording()
    expect(patch.setField("", 1).error?.code).toBe("WDE0094")
    expect(patch.removeField(3 as never).error?.code).toBe("WDE0094")
    expect(patch.appendToArray(null as never, 1).error?.code).toBe("WDE0094")
    expect(patch.removeFromArray("", 1).error?.code).toBe("WDE0094")
    expect(patch.incrementField("", 1).error?.code).toBe("WDE0094")
  })

  it("the first error is kept, later good modifications still recorded", () => {
    const p = recording().patch.incrementField("a", "x" as never).setField("", 1).setField("b", 2)
    expect(p.error?.code).toBe("WDE0032")
    expect(p.modifications).toStrictEqual([{ fieldPath: "b", action: "SET_FIELD", setFieldOptions: { value: 2 } }])
  })
})

describe("Patch.run", () => {
  it.effect("runs the modifications", () =>
    Effect.gen(function*() {
      const { patch, calls } = recording()
      const p = patch.setField("a", 1).incrementField("n", 3)
      assert.strictEqual(yield* p.run, "done")
      expect(calls).toStrictEqual([p.modifications])
    }))

  it.effect("with an error: fails with it and the runner is not called", () =>
    Effect.gen(function*() {
      const { patch, calls } = recording()
      const error = errorOf(yield* Effect.exit(patch.setField("a", 1).incrementField("n", "3" as never).run))
      assert.instanceOf(error, DataError)
      assert.strictEqual((error as DataError).code, "WDE0032")
      assert.strictEqual(calls.length, 0)
    }))

  it.effect("run is lazy: building it does not call the runner", () =>
    Effect.gen(function*() {
      const { patch, calls } = recording()
      const run = patch.setField("a", 1).run
      assert.strictEqual(calls.length, 0)
      yield* run
      yield* run
      assert.strictEqual(calls.length, 2)
    }))
})

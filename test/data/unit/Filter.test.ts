/**
 * Filter: the wire tree of many builder chains, written out by hand from the platform's own builder rules
 * (conditions collected under `$and`; a single condition stands alone; plain conditions on distinct fields
 * merge into one object before nested `$and`s are flattened; nested `$or`s flatten; `and` = `$and` of both
 * sides, `or` = `{$or: [mine, other]}`, `not` = `{$not: [other]}`; between = ge + lt; isEmpty = eq null;
 * isNotEmpty = ne null), immutability, argument validation with WDE codes, and properties over random chains.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { DataError } from "../../../src/data/DataError.ts"
import { Filter } from "../../../src/data/Filter.ts"
import { isObject } from "../../../src/data/calls.ts"

describe("Filter.tree: single conditions", () => {
  it("the empty filter is {}", () => {
    expect(Filter.empty.tree).toStrictEqual({})
  })

  it("eq stands alone as {field: value}", () => {
    expect(Filter.eq("a", 1).tree).toStrictEqual({ a: 1 })
    expect(Filter.eq("title", "x").tree).toStrictEqual({ title: "x" })
  })

  it("eq with undefined compares with null", () => {
    expect(Filter.eq("a", undefined).tree).toStrictEqual({ a: null })
  })

  it("comparison operators use their wire names", () => {
    expect(Filter.ne("a", 1).tree).toStrictEqual({ a: { $ne: 1 } })
    expect(Filter.gt("a", 1).tree).toStrictEqual({ a: { $gt: 1 } })
    expect(Filter.ge("a", 1).tree).toStrictEqual({ a: { $gte: 1 } })
    expect(Filter.lt("a", "m").tree).toStrictEqual({ a: { $lt: "m" } })
    expect(Filter.le("a", true).tree).toStrictEqual({ a: { $lte: true } })
  })

  it("string operators", () => {
    expect(Filter.startsWith("t", "Ab").tree).toStrictEqual({ t: { $startsWith: "Ab" } })
    expect(Filter.endsWith("t", "yz").tree).toStrictEqual({ t: { $endsWith: "yz" } })
    expect(Filter.contains("t", "mid").tree).toStrictEqual({ t: { $contains: "mid" } })
  })

  it("set operators take arrays", () => {
    expect(Filter.hasSome("tags", ["news", "sport"]).tree).toStrictEqual({ tags: { $hasSome: ["news", "sport"] } })
    expect(Filter.hasAll("nums", [1, 2, 3]).tree).toStrictEqual({ nums: { $hasAll: [1, 2, 3] } })
    expect(Filter.in("_id", ["a", "b"]).tree).toStrictEqual({ _id: { $in: ["a", "b"] } })
    expect(Filter.in("_id", []).tree).toStrictEqual({ _id: { $in: [] } })
  })

  it("set operators copy their array: changing it afterwards does not change the filter", () => {
    const values = ["a", "b"]
    const f = Filter.in("x", values)
    values.push("c")
    expect(f.tree).toStrictEqual({ x: { $in: ["a", "b"] } })
  })

  it("exists defaults to true", () => {
    expect(Filter.exists("a").tree).toStrictEqual({ a: { $exists: true } })
    expect(Filter.exists("a", false).tree).toStrictEqual({ a: { $exists: false } })
  })

  it("isEmpty is eq null, isNotEmpty is ne null", () => {
    expect(Filter.isEmpty("a").tree).toStrictEqual({ a: null })
    expect(Filter.isNotEmpty("a").tree).toStrictEqual({ a: { $ne: null } })
  })

  it("between is ge + lt on the same field: both kept under $and", () => {
    expect(Filter.between("n", 1, 10).tree).toStrictEqual({ $and: [{ n: { $gte: 1 } }, { n: { $lt: 10 } }] })
    expect(Filter.between("s", "a", "m").tree).toStrictEqual({ $and: [{ s: { $gte: "a" } }, { s: { $lt: "m" } }] })
  })
})

describe("Filter.tree: chains", () => {
  it("conditions on distinct fields merge into one object, in call order", () => {
    const tree = Filter.eq("a", 1).gt("b", 2).hasSome("c", ["x"]).isNotEmpty("d").tree
    expect(tree).toStrictEqual({ a: 1, b: { $gt: 2 }, c: { $hasSome: ["x"] }, d: { $ne: null } })
    expect(Object.keys(tree)).toStrictEqual(["a", "b", "c", "d"])
  })

  it("string, set, exists and empty operators all merge when the fields differ", () => {
    expect(
      Filter.startsWith("t", "A").endsWith("u", "z").contains("v", "m").hasAll("w", [1]).in("x", ["k"]).exists("y").isEmpty("z").tree
    ).toStrictEqual({
      t: { $startsWith: "A" },
      u: { $endsWith: "z" },
      v: { $contains: "m" },
      w: { $hasAll: [1] },
      x: { $in: ["k"] },
      y: { $exists: true },
      z: null
    })
  })

  it("two conditions on the same field keep the $and, and so do the others beside them", () => {
    expect(Filter.eq("a", 1).eq("a", 2).tree).toStrictEqual({ $and: [{ a: 1 }, { a: 2 }] })
    expect(Filter.eq("a", 1).between("b", 0, 5).eq("c", 3).tree).toStrictEqual({
      $and: [{ a: 1 }, { b: { $gte: 0 } }, { b: { $lt: 5 } }, { c: 3 }]
    })
  })

  it("and of two single conditions on distinct fields merges", () => {
    expect(Filter.eq("a", 1).and(Filter.eq("b", 2)).tree).toStrictEqual({ a: 1, b: 2 })
  })

  it("and onto an empty filter is the other filter", () => {
    expect(Filter.empty.and(Filter.eq("a", 1).gt("b", 2)).tree).toStrictEqual({ a: 1, b: { $gt: 2 } })
  })

  it("and with an empty filter changes nothing", () => {
    expect(Filter.eq("a", 1).eq("a", 2).and(Filter.empty).tree).toStrictEqual({ $and: [{ a: 1 }, { a: 2 }] })
    expect(Filter.eq("a", 1).and(Filter.empty).tree).toStrictEqual({ a: 1 })
  })

  it("and: each side is simplified first, then the sides merge and flatten", () => {
    // mine {a, c} merges; the other side is a between on b: its $and is flattened after the merge
    expect(Filter.eq("a", 1).eq("c", 1).and(Filter.between("b", 1, 5)).tree).toStrictEqual({
      $and: [{ a: 1, c: 1 }, { b: { $gte: 1 } }, { b: { $lt: 5 } }]
    })
    // mine {a, c} merges; the other side's a overlaps, so the two stay apart
    expect(Filter.eq("a", 1).eq("c", 1).and(Filter.eq("a", 2)).tree).toStrictEqual({ $and: [{ a: 1, c: 1 }, { a: 2 }] })
  })

  it("and: conditions added after an and join the outer $and", () => {
    // [{$and: [a1, a2]}, b1, c3]: b and c merge first, then the inner $and is flattened after them
    expect(Filter.eq("a", 1).eq("a", 2).and(Filter.eq("b", 1)).eq("c", 3).tree).toStrictEqual({
      $and: [{ b: 1, c: 3 }, { a: 1 }, { a: 2 }]
    })
    expect(Filter.eq("a", 1).and(Filter.eq("b", 1)).eq("c", 3).tree).toStrictEqual({ a: 1, b: 1, c: 3 })
  })

  it("nested ands flatten", () => {
    expect(Filter.eq("a", 1).and(Filter.eq("b", 2).and(Filter.eq("c", 3))).tree).toStrictEqual({ a: 1, b: 2, c: 3 })
    expect(Filter.eq("a", 1).and(Filter.eq("a", 2).and(Filter.eq("a", 3))).tree).toStrictEqual({
      $and: [{ a: 1 }, { a: 2 }, { a: 3 }]
    })
  })

  it("or is {$or: [mine, other]}", () => {
    expect(Filter.eq("a", 1).or(Filter.eq("b", 2)).tree).toStrictEqual({ $or: [{ a: 1 }, { b: 2 }] })
    expect(Filter.eq("a", 1).eq("b", 2).or(Filter.eq("c", 3)).tree).toStrictEqual({ $or: [{ a: 1, b: 2 }, { c: 3 }] })
    expect(Filter.between("n", 1, 2).or(Filter.eq("c", 3).gt("d", 0)).tree).toStrictEqual({
      $or: [{ $and: [{ n: { $gte: 1 } }, { n: { $lt: 2 } }] }, { c: 3, d: { $gt: 0 } }]
    })
  })

  it("or onto an empty filter keeps a one-element $or", () => {
    expect(Filter.empty.or(Filter.eq("a", 1)).tree).toStrictEqual({ $or: [{ a: 1 }] })
  })

  it("chained ors flatten into one $or", () => {
    expect(Filter.eq("a", 1).or(Filter.eq("b", 2)).or(Filter.eq("c", 3)).tree).toStrictEqual({
      $or: [{ a: 1 }, { b: 2 }, { c: 3 }]
    })
  })

  it("an or nested inside the other side flattens too", () => {
    expect(Filter.eq("a", 1).or(Filter.eq("b", 2).or(Filter.eq("c", 3))).tree).toStrictEqual({
      $or: [{ a: 1 }, { b: 2 }, { c: 3 }]
    })
  })

  it("conditions after an or are ANDed with the whole or", () => {
    expect(Filter.eq("a", 1).or(Filter.eq("b", 2)).eq("c", 3).tree).toStrictEqual({
      $and: [{ $or: [{ a: 1 }, { b: 2 }] }, { c: 3 }]
    })
    expect(Filter.eq("a", 1).or(Filter.eq("b", 2)).eq("c", 3).gt("d", 4).tree).toStrictEqual({
      $and: [{ c: 3, d: { $gt: 4 } }, { $or: [{ a: 1 }, { b: 2 }] }]
    })
  })

  it("and of two ors keeps both", () => {
    expect(Filter.eq("a", 1).or(Filter.eq("b", 2)).and(Filter.eq("c", 3).or(Filter.eq("d", 4))).tree).toStrictEqual({
      $and: [{ $or: [{ a: 1 }, { b: 2 }] }, { $or: [{ c: 3 }, { d: 4 }] }]
    })
  })

  it("not is {$not: [other]} ANDed with mine", () => {
    expect(Filter.eq("a", 1).not(Filter.eq("b", 2)).tree).toStrictEqual({ $and: [{ a: 1 }, { $not: [{ b: 2 }] }] })
    expect(Filter.eq("a", 1).not(Filter.eq("b", 2).eq("c", 3)).tree).toStrictEqual({
      $and: [{ a: 1 }, { $not: [{ b: 2, c: 3 }] }]
    })
    expect(Filter.empty.not(Filter.eq("a", 1)).tree).toStrictEqual({ $not: [{ a: 1 }] })
  })

  it("not of an or, and an or of nots", () => {
    expect(Filter.empty.not(Filter.eq("a", 1).or(Filter.eq("b", 2))).tree).toStrictEqual({ $not: [{ $or: [{ a: 1 }, { b: 2 }] }] })
    expect(Filter.empty.not(Filter.eq("a", 1)).or(Filter.empty.not(Filter.eq("b", 2))).tree).toStrictEqual({
      $or: [{ $not: [{ a: 1 }] }, { $not: [{ b: 2 }] }]
    })
  })

  it("plain conditions after a not merge and go first", () => {
    expect(Filter.eq("a", 1).not(Filter.eq("b", 2)).eq("c", 3).tree).toStrictEqual({
      $and: [{ a: 1, c: 3 }, { $not: [{ b: 2 }] }]
    })
  })

  it("deep mix", () => {
    const tree = Filter.gt("likes", 10)
      .hasSome("tags", ["news", "sport"])
      .or(Filter.eq("pinned", true))
      .not(Filter.startsWith("title", "Draft"))
      .between("year", 2000, 2010)
      .tree
    expect(tree).toStrictEqual({
      $and: [
        { $or: [{ likes: { $gt: 10 }, tags: { $hasSome: ["news", "sport"] } }, { pinned: true }] },
        { $not: [{ title: { $startsWith: "Draft" } }] },
        { year: { $gte: 2000 } },
        { year: { $lt: 2010 } }
      ]
    })
  })
})

describe("Filter.tree: dates", () => {
  const d1 = new Date("2024-01-02T03:04:05.000Z")
  const d2 = new Date("2024-06-01T00:00:00.000Z")

  it("Dates stay Date objects (the transport encodes them)", () => {
    const tree = Filter.gt("at", d1).tree as { at: { $gt: unknown } }
    assert.instanceOf(tree.at.$gt, Date)
    assert.strictEqual((tree.at.$gt as Date).getTime(), d1.getTime())
  })

  it("a Date compared with eq, merged beside other fields, is still the same Date", () => {
    const tree = Filter.eq("at", d1).eq("n", 1).tree as Record<string, unknown>
    expect(tree).toStrictEqual({ at: d1, n: 1 })
    assert.instanceOf(tree["at"], Date)
  })

  it("between Dates and set operators with Dates keep Dates", () => {
    const between = Filter.between("at", d1, d2).tree as { $and: Array<{ at: Record<string, unknown> }> }
    expect(between).toStrictEqual({ $and: [{ at: { $gte: d1 } }, { at: { $lt: d2 } }] })
    assert.instanceOf(between.$and[0]!.at["$gte"], Date)
    assert.instanceOf(between.$and[1]!.at["$lt"], Date)
    const inTree = Filter.in("at", [d1, d2]).tree as { at: { $in: Array<unknown> } }
    assert.instanceOf(inTree.at.$in[0], Date)
    assert.instanceOf(inTree.at.$in[1], Date)
  })

  it("Dates survive or/not nesting", () => {
    const tree = Filter.lt("at", d1).or(Filter.gt("at", d2)).tree as { $or: Array<{ at: Record<string, unknown> }> }
    expect(tree).toStrictEqual({ $or: [{ at: { $lt: d1 } }, { at: { $gt: d2 } }] })
    assert.instanceOf(tree.$or[0]!.at["$lt"], Date)
  })

  it("encoded as JSON a Date is its ISO string (what the transport wraps in {$date})", () => {
    expect(JSON.parse(JSON.stringify(Filter.ge("at", d1).tree))).toStrictEqual({ at: { $gte: "2024-01-02T03:04:05.000Z" } })
  })
})

describe("Filter: immutability", () => {
  it("a builder reused in two branches is unaffected", () => {
    const base = Filter.eq("a", 1)
    const left = base.gt("b", 2)
    const right = base.lt("b", 0).eq("c", 3)
    expect(base.tree).toStrictEqual({ a: 1 })
    expect(left.tree).toStrictEqual({ a: 1, b: { $gt: 2 } })
    expect(right.tree).toStrictEqual({ a: 1, b: { $lt: 0 }, c: 3 })
    expect(base.conditions).toHaveLength(1)
  })

  it("and/or/not leave both operands as they were", () => {
    const a = Filter.eq("a", 1).eq("a", 2)
    const b = Filter.eq("b", 1)
    a.and(b)
    a.or(b)
    a.not(b)
    b.and(a)
    expect(a.tree).toStrictEqual({ $and: [{ a: 1 }, { a: 2 }] })
    expect(b.tree).toStrictEqual({ b: 1 })
  })

  it("a filter combined with itself", () => {
    const a = Filter.eq("a", 1)
    expect(a.or(a).tree).toStrictEqual({ $or: [{ a: 1 }, { a: 1 }] })
    expect(a.and(a).tree).toStrictEqual({ $and: [{ a: 1 }, { a: 1 }] })
  })

  it("an error on a derived filter does not reach its base", () => {
    const base = Filter.eq("a", 1)
    const bad = base.gt("b", null as never)
    assert.isUndefined(base.error)
    assert.instanceOf(bad.error, DataError)
  })

  it("reading the tree twice gives equal, independent values", () => {
    const f = Filter.eq("a", 1).or(Filter.eq("b", 2))
    const t1 = f.tree as { $or: Array<Record<string, unknown>> }
    t1.$or.push({ c: 3 })
    expect(f.tree).toStrictEqual({ $or: [{ a: 1 }, { b: 2 }] })
  })
})

describe("Filter: validation records a DataError and never throws", () => {
  const codeOf = (f: Filter) => f.error?.code

  it("a field that is not a string: WDE0048", () => {
    for (const field of [1, null, undefined, {}, ["a"], true]) {
      expect(codeOf(Filter.eq(field as never, 1))).toBe("WDE0048")
      expect(codeOf(Filter.ne(field as never, 1))).toBe("WDE0048")
      expect(codeOf(Filter.gt(field as never, 1))).toBe("WDE0048")
      expect(codeOf(Filter.startsWith(field as never, "x"))).toBe("WDE0048")
      expect(codeOf(Filter.hasSome(field as never, ["x"]))).toBe("WDE0048")
      expect(codeOf(Filter.exists(field as never))).toBe("WDE0048")
      expect(codeOf(Filter.isEmpty(field as never))).toBe("WDE0048")
      expect(codeOf(Filter.isNotEmpty(field as never))).toBe("WDE0048")
    }
    const e = Filter.eq(7 as never, 1).error!
    assert.instanceOf(e, DataError)
    assert.strictEqual(e._tag, "DataError")
    assert.match(e.message, /^WDE0048: Invalid \.eq field value \[number\]\. \.eq field must be a String\.$/)
    assert.strictEqual(e.field, ".eq")
  })

  it("the bad condition is not added to the tree", () => {
    expect(Filter.eq("a", 1).gt("b", {} as never).tree).toStrictEqual({ a: 1 })
    expect(Filter.eq(3 as never, 1).tree).toStrictEqual({})
  })

  it("gt/ge/lt/le with an object, an array, null or NaN: WDE0045", () => {
    for (const value of [{}, { a: 1 }, [], [1], null, undefined, Number.NaN]) {
      for (const op of ["gt", "ge", "lt", "le"] as const) {
        const f = Filter.empty[op]("a", value as never)
        expect(codeOf(f), `${op}(${String(value)})`).toBe("WDE0045")
        assert.strictEqual(f.error!.field, `.${op}`)
      }
    }
    assert.match(Filter.gt("a", {} as never).error!.message, /^WDE0045: .*Valid \.gt parameter types are String, Number, Boolean or Date\.$/)
  })

  it("gt/ge/lt/le accept strings, numbers, booleans and Dates", () => {
    for (const value of ["s", 0, -1.5, true, false, new Date(0)]) {
      assert.isUndefined(Filter.gt("a", value).ge("a", value).lt("a", value).le("a", value).error)
    }
  })

  it("string operators with a non-string: WDE0044", () => {
    for (const value of [1, null, {}, ["x"], true, new Date(0)]) {
      expect(codeOf(Filter.startsWith("a", value as never))).toBe("WDE0044")
      expect(codeOf(Filter.endsWith("a", value as never))).toBe("WDE0044")
      expect(codeOf(Filter.contains("a", value as never))).toBe("WDE0044")
    }
    assert.match(Filter.contains("a", 5 as never).error!.message, /^WDE0044: .*\.contains parameter must be a String\.$/)
  })

  it("set operators with a non-array or an array holding objects: WDE0060", () => {
    for (const values of ["x", 5, null, undefined, {}, [{}], [{ a: 1 }], ["ok", { a: 1 }], [[1]], [null], [Number.NaN]]) {
      expect(codeOf(Filter.hasSome("a", values as never)), JSON.stringify(values)).toBe("WDE0060")
      expect(codeOf(Filter.hasAll("a", values as never))).toBe("WDE0060")
      expect(codeOf(Filter.in("a", values as never))).toBe("WDE0060")
    }
    assert.isUndefined(Filter.in("a", ["x", 1, new Date(0)]).error)
  })

  it("between with different types: WDE0046", () => {
    expect(codeOf(Filter.between("a", 1, "z"))).toBe("WDE0046")
    expect(codeOf(Filter.between("a", "a", 9))).toBe("WDE0046")
    expect(codeOf(Filter.between("a", new Date(0), 5))).toBe("WDE0046")
    expect(codeOf(Filter.between("a", "2020", new Date(0)))).toBe("WDE0046")
    assert.match(Filter.between("a", 1, "z").error!.message, /^WDE0046: .*Both parameters must be of the same type\.$/)
    expect(Filter.between("a", 1, "z").tree).toStrictEqual({})
  })

  it("between with a value that is not a string, number or Date: WDE0045", () => {
    expect(codeOf(Filter.between("a", true as never, false as never))).toBe("WDE0045")
    expect(codeOf(Filter.between("a", {} as never, {} as never))).toBe("WDE0045")
  })

  it("and/or/not with something that is not a Filter: WDE0011", () => {
    for (const other of [{}, null, undefined, "x", { conditions: [], error: undefined }]) {
      expect(codeOf(Filter.eq("a", 1).and(other as never))).toBe("WDE0011")
      expect(codeOf(Filter.eq("a", 1).or(other as never))).toBe("WDE0011")
      expect(codeOf(Filter.eq("a", 1).not(other as never))).toBe("WDE0011")
      expect(Filter.eq("a", 1).or(other as never).tree).toStrictEqual({ a: 1 })
    }
  })

  it("exists with a non-boolean: WDE0045", () => {
    expect(codeOf(Filter.exists("a", "yes" as never))).toBe("WDE0045")
  })

  it("the FIRST error is kept when several happen", () => {
    expect(codeOf(Filter.eq(1 as never, 1).gt("a", null as never).startsWith("b", 2 as never))).toBe("WDE0048")
    expect(codeOf(Filter.gt("a", null as never).eq(1 as never, 1))).toBe("WDE0045")
    expect(codeOf(Filter.startsWith("b", 2 as never).in("c", "x" as never).between("d", 1, "z"))).toBe("WDE0044")
    expect(codeOf(Filter.in("c", "x" as never).and({} as never))).toBe("WDE0060")
  })

  it("an error inside the other filter of and/or/not carries over; mine wins when both have one", () => {
    const badOther = Filter.gt("b", null as never)
    expect(codeOf(Filter.eq("a", 1).and(badOther))).toBe("WDE0045")
    expect(codeOf(Filter.eq("a", 1).or(badOther))).toBe("WDE0045")
    expect(codeOf(Filter.eq("a", 1).not(badOther))).toBe("WDE0045")
    const badMine = Filter.startsWith("a", 1 as never)
    expect(codeOf(badMine.and(badOther))).toBe("WDE0044")
    expect(codeOf(badMine.or(badOther))).toBe("WDE0044")
    expect(codeOf(badMine.not(badOther))).toBe("WDE0044")
  })

  it("good conditions after an error still build, and the error stays", () => {
    const f = Filter.gt("a", {} as never).eq("b", 1).eq("c", 2)
    expect(f.tree).toStrictEqual({ b: 1, c: 2 })
    expect(codeOf(f)).toBe("WDE0045")
  })
})

// ---------------------------------------------------------------------------------------------------
// Random chains

type Leaf =
  | { readonly op: "eq" | "ne" | "gt" | "ge" | "lt" | "le"; readonly field: string; readonly value: number }
  | { readonly op: "between"; readonly field: string; readonly value: number }
  | { readonly op: "in" | "hasSome"; readonly field: string; readonly values: ReadonlyArray<number> }
  | { readonly op: "isEmpty" | "isNotEmpty" | "exists"; readonly field: string }
type Step = Leaf | { readonly op: "and" | "or" | "not"; readonly chain: ReadonlyArray<Step> }

const fieldArb = fc.constantFrom("a", "b", "c")
const valueArb = fc.integer({ min: 0, max: 3 })
const leafArb: fc.Arbitrary<Leaf> = fc.oneof(
  fc.record({ op: fc.constantFrom("eq" as const, "ne" as const, "gt" as const, "ge" as const, "lt" as const, "le" as const), field: fieldArb, value: valueArb }),
  fc.record({ op: fc.constant("between" as const), field: fieldArb, value: valueArb }),
  fc.record({ op: fc.constantFrom("in" as const, "hasSome" as const), field: fieldArb, values: fc.array(valueArb, { maxLength: 3 }) }),
  fc.record({ op: fc.constantFrom("isEmpty" as const, "isNotEmpty" as const, "exists" as const), field: fieldArb })
)
const { chain: chainArb } = fc.letrec<{ chain: ReadonlyArray<Step>; step: Step }>((tie) => ({
  chain: fc.array(tie("step"), { maxLength: 5 }),
  step: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafArb,
    fc.record({ op: fc.constantFrom("and" as const, "or" as const, "not" as const), chain: tie("chain") })
  )
}))

const build = (chain: ReadonlyArray<Step>): Filter =>
  chain.reduce((f: Filter, s: Step): Filter => {
    switch (s.op) {
      case "and":
      case "or":
      case "not":
        return f[s.op](build(s.chain))
      case "between":
        return f.between(s.field, s.value, s.value + 2)
      case "in":
      case "hasSome":
        return f[s.op](s.field, s.values)
      case "isEmpty":
      case "isNotEmpty":
      case "exists":
        return f[s.op](s.field)
      default:
        return f[s.op](s.field, s.value)
    }
  }, Filter.empty)

type Doc = Readonly<Record<string, number | undefined>>
const docArb: fc.Arbitrary<Doc> = fc.record({ a: fc.option(valueArb, { nil: undefined }), b: fc.option(valueArb, { nil: undefined }), c: fc.option(valueArb, { nil: undefined }) })

/** One operator on one stored value (shared by both evaluators, so only the tree's structure is under test). */
const apply = (op: string, v: number | undefined, operand: unknown): boolean => {
  switch (op) {
    case "$eq":
      return operand === null ? v === undefined : v === operand
    case "$ne":
      return operand === null ? v !== undefined : v !== operand
    case "$gt":
      return v !== undefined && v > (operand as number)
    case "$gte":
      return v !== undefined && v >= (operand as number)
    case "$lt":
      return v !== undefined && v < (operand as number)
    case "$lte":
      return v !== undefined && v <= (operand as number)
    case "$in":
    case "$hasSome":
      return v !== undefined && (operand as ReadonlyArray<number>).includes(v)
    case "$exists":
      return (v !== undefined) === operand
    default:
      throw new Error(`unexpected operator ${op}`)
  }
}

/** What a chain means, straight from the builder's definition. */
/** Whether a chain leaves any condition: an `and` of a chain that leaves none adds nothing (`and(and())` included). */
const hasConditions = (chain: ReadonlyArray<Step>): boolean => chain.some((s) => s.op !== "and" || hasConditions(s.chain))

const meaning = (chain: ReadonlyArray<Step>, doc: Doc): boolean => {
  let any = false
  let value = true
  for (const s of chain) {
    switch (s.op) {
      case "and":
        value = meaning(s.chain, doc) && value
        any = any || hasConditions(s.chain)
        break
      case "or":
        value = (any ? value : false) || meaning(s.chain, doc)
        any = true
        break
      case "not":
        value = value && !meaning(s.chain, doc)
        any = true
        break
      case "between":
        value = value && apply("$gte", doc[s.field], s.value) && apply("$lt", doc[s.field], s.value + 2)
        any = true
        break
      case "in":
      case "hasSome":
        value = value && apply(`$${s.op}`, doc[s.field], s.values)
        any = true
        break
      case "isEmpty":
        value = value && apply("$eq", doc[s.field], null)
        any = true
        break
      case "isNotEmpty":
        value = value && apply("$ne", doc[s.field], null)
        any = true
        break
      case "exists":
        value = value && apply("$exists", doc[s.field], true)
        any = true
        break
      default: {
        const wire = { eq: "$eq", ne: "$ne", gt: "$gt", ge: "$gte", lt: "$lt", le: "$lte" }[s.op]
        value = value && apply(wire, doc[s.field], s.value)
        any = true
      }
    }
  }
  return value
}

/** What a wire tree means. */
const evaluate = (node: unknown, doc: Doc): boolean => {
  if (!isObject(node)) throw new Error(`not a filter node: ${JSON.stringify(node)}`)
  return Object.entries(node).every(([key, operand]) => {
    if (key === "$and") return (operand as Array<unknown>).every((n) => evaluate(n, doc))
    if (key === "$or") return (operand as Array<unknown>).some((n) => evaluate(n, doc))
    if (key === "$not") {
      const args = operand as Array<unknown>
      if (args.length !== 1) throw new Error("$not takes one filter")
      return !evaluate(args[0], doc)
    }
    if (key.startsWith("$")) throw new Error(`unexpected operator ${key} in field position`)
    if (isObject(operand) && Object.keys(operand).length > 0 && Object.keys(operand).every((k) => k.startsWith("$"))) {
      return Object.entries(operand).every(([op, arg]) => apply(op, doc[key], arg))
    }
    return apply("$eq", doc[key], operand)
  })
}

/** Every problem of shape in a simplified tree. */
const shapeProblems = (node: unknown, path = "tree"): Array<string> => {
  if (Array.isArray(node)) return node.flatMap((n, i) => shapeProblems(n, `${path}[${i}]`))
  if (!isObject(node)) return []
  const problems: Array<string> = []
  for (const [key, value] of Object.entries(node)) {
    if (key === "$and") {
      const args = value as Array<unknown>
      if (args.length < 2) problems.push(`${path}.$and has ${args.length} element(s)`)
      args.forEach((n, i) => {
        if (isObject(n) && "$and" in n) problems.push(`${path}.$and[${i}] is an $and`)
      })
      const plain = args.filter((n) => isObject(n) && !Object.keys(n).some((k) => k.startsWith("$"))) as Array<Record<string, unknown>>
      const keys = plain.flatMap((n) => Object.keys(n))
      if (plain.length > 1 && new Set(keys).size === keys.length) problems.push(`${path}.$and holds unmerged plain conditions`)
    }
    if (key === "$or") {
      ;(value as Array<unknown>).forEach((n, i) => {
        if (isObject(n) && "$or" in n) problems.push(`${path}.$or[${i}] is an $or`)
      })
    }
    problems.push(...shapeProblems(value, `${path}.${key}`))
  }
  return problems
}

describe("Filter: properties over random chains", () => {
  it("the tree never holds an $and with 0 or 1 elements, an $and directly in an $and, an $or directly in an $or, or unmerged distinct plain conditions", () => {
    fc.assert(
      fc.property(chainArb, (chain) => {
        expect(shapeProblems(build(chain).tree)).toStrictEqual([])
      }),
      { numRuns: 500 }
    )
  })

  it("simplification keeps the meaning: the tree matches exactly the documents the chain describes", () => {
    fc.assert(
      fc.property(chainArb, fc.array(docArb, { minLength: 1, maxLength: 8 }), (chain, docs) => {
        const tree = build(chain).tree
        for (const doc of docs) assert.strictEqual(evaluate(tree, doc), meaning(chain, doc), `${JSON.stringify(tree)} on ${JSON.stringify(doc)}`)
      }),
      { numRuns: 500 }
    )
  })

  it("valid chains never record an error, and building never throws", () => {
    fc.assert(
      fc.property(chainArb, (chain) => {
        assert.isUndefined(build(chain).error)
      }),
      { numRuns: 200 }
    )
  })
})

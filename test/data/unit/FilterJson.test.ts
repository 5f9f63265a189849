import { assert, describe, it } from "@effect/vitest"
import { Filter } from "../../../src/data/Filter.ts"

const codeOf = (json: unknown) => Filter.fromJson(json).error?.code

describe("Filter.fromJson", () => {
  it("keeps a valid tree as it is, combinable with builder calls", () => {
    const f = Filter.fromJson({ likes: { $gt: 10 }, tags: { $hasSome: ["a"] } })
    assert.isUndefined(f.error)
    assert.deepStrictEqual(f.tree, { likes: { $gt: 10 }, tags: { $hasSome: ["a"] } })
    // plain conditions on distinct fields merge, as the platform's builder does
    assert.deepStrictEqual(f.eq("title", "x").tree, { likes: { $gt: 10 }, tags: { $hasSome: ["a"] }, title: "x" })
    assert.deepStrictEqual(f.gt("likes", 20).tree, { $and: [{ likes: { $gt: 10 }, tags: { $hasSome: ["a"] } }, { likes: { $gt: 20 } }] })
    assert.deepStrictEqual(Filter.fromJson({}).tree, {})
  })

  it("accepts Dates and {$date} values as comparables", () => {
    assert.isUndefined(Filter.fromJson({ at: { $gte: new Date(0) } }).error)
    assert.isUndefined(Filter.fromJson({ at: { $lt: { $date: "2026-01-01T00:00:00.000Z" } } }).error)
  })

  it("refuses what the platform refuses, with its WDE codes", () => {
    assert.strictEqual(codeOf({ title: { $regex: "^a" } }), "WDE0070")
    assert.strictEqual(codeOf("not an object"), "WDE0056")
    assert.strictEqual(codeOf({ a: { $gt: { nested: true } } }), "WDE0058")
    assert.strictEqual(codeOf({ a: { $startsWith: 5 } }), "WDE0059")
    assert.strictEqual(codeOf({ a: { $in: "x" } }), "WDE0057")
    assert.strictEqual(codeOf({ a: { $hasSome: [{ x: 1 }] } }), "WDE0060")
    assert.strictEqual(codeOf({ $not: [{ a: 1 }, { b: 2 }] }), "WDE0057")
    assert.strictEqual(codeOf({ a: { $matches: { ignoreCase: false, spec: [] } } }), "WDE0063")
    assert.strictEqual(codeOf({ a: { $matches: { ignoreCase: true, spec: [{ type: "regex", value: ".*" }] } } }), "WDE0064")
    assert.strictEqual(codeOf({ a: { $exists: "yes" } }), "WDE0056")
  })
})

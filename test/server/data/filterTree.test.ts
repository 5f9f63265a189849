import { assert, describe, it } from "@effect/vitest"
import * as Result from "effect/Result"
import { filterToJson, matchAll, parseFilter } from "../../../src/data/FilterTree.ts"

const problem = (json: unknown) => {
  const parsed = parseFilter(json)
  if (Result.isSuccess(parsed)) return assert.fail(`accepted ${JSON.stringify(json)}`)
  return { code: parsed.failure.code, field: parsed.failure.field }
}

const node = (json: unknown) => {
  const parsed = parseFilter(json)
  if (Result.isFailure(parsed)) return assert.fail(parsed.failure.message)
  return parsed.success
}

describe("parseFilter", () => {
  it("reads bare values as $eq, several conditions as $and, operators per field", () => {
    assert.deepStrictEqual(node({}), matchAll)
    assert.deepStrictEqual(node({ title: "Hi" }), { _tag: "Compare", field: "title", op: "$eq", value: "Hi" })
    assert.deepStrictEqual(node({ published: { $date: "2026-01-01T00:00:00.000Z" } }), {
      _tag: "Compare",
      field: "published",
      op: "$eq",
      value: { $date: "2026-01-01T00:00:00.000Z" }
    })
    assert.deepStrictEqual(node({ "address.city": { $gt: "A", $lte: "M" }, tags: { $hasSome: ["x"] } }), {
      _tag: "And",
      nodes: [
        { _tag: "Compare", field: "address.city", op: "$gt", value: "A" },
        { _tag: "Compare", field: "address.city", op: "$lte", value: "M" },
        { _tag: "Set", field: "tags", op: "$hasSome", values: ["x"] }
      ]
    })
    // an object without operators is a plain value
    assert.deepStrictEqual(node({ point: { x: 1 } }), { _tag: "Compare", field: "point", op: "$eq", value: { x: 1 } })
  })

  it("reads $and, $or, $not (alone or as a one-element array, also per field), $exists and $matches", () => {
    const parsed = node({
      $or: [{ a: { $exists: false } }, { $not: [{ b: { $startsWith: "x" } }] }, { c: { $not: { $in: [1, 2] } } }],
      d: { $matches: { ignoreCase: true, spec: [{ type: "literal", value: "hello" }, { type: "anyOf", value: " \t\n-" }] } }
    })
    assert.deepStrictEqual(parsed, {
      _tag: "And",
      nodes: [
        {
          _tag: "Or",
          nodes: [
            { _tag: "Exists", field: "a", exists: false },
            { _tag: "Not", node: { _tag: "Text", field: "b", op: "$startsWith", value: "x" } },
            { _tag: "Not", node: { _tag: "Set", field: "c", op: "$in", values: [1, 2] } }
          ]
        },
        { _tag: "Matches", field: "d", spec: [{ type: "literal", value: "hello" }, { type: "anyOf", value: " \t\n-" }] }
      ]
    })
  })

  it("round-trips through filterToJson", () => {
    const json = { $and: [{ a: { $gt: 1 } }, { $or: [{ b: { $in: ["x"] } }, { $not: [{ c: { $exists: true } }] }] }] }
    assert.deepStrictEqual(node(filterToJson(node(json))), node(json))
  })

  it("refuses with the platform's codes and the path of the first problem", () => {
    assert.deepStrictEqual(problem("x"), { code: "WDE0056", field: "" })
    assert.deepStrictEqual(problem(null), { code: "WDE0056", field: "" })
    assert.deepStrictEqual(problem({ $and: {} }), { code: "WDE0057", field: "$and" })
    assert.deepStrictEqual(problem({ $or: [{ a: 1 }, 5] }), { code: "WDE0056", field: "$or.1" })
    assert.deepStrictEqual(problem({ $not: [] }), { code: "WDE0057", field: "$not" })
    assert.deepStrictEqual(problem({ $not: [{ a: 1 }, { b: 2 }] }), { code: "WDE0057", field: "$not" })
    assert.deepStrictEqual(problem({ a: { $gt: [1] } }), { code: "WDE0058", field: "a.$gt" })
    assert.deepStrictEqual(problem({ a: { $lte: null } }), { code: "WDE0058", field: "a.$lte" })
    assert.deepStrictEqual(problem({ a: { $contains: 3 } }), { code: "WDE0059", field: "a.$contains" })
    assert.deepStrictEqual(problem({ a: { $in: "x" } }), { code: "WDE0057", field: "a.$in" })
    assert.deepStrictEqual(problem({ a: { $hasAll: [{ x: 1 }] } }), { code: "WDE0060", field: "a.$hasAll" })
    assert.deepStrictEqual(problem({ a: { $hasSome: [null] } }), { code: "WDE0060", field: "a.$hasSome" })
    assert.deepStrictEqual(problem({ a: { $exists: "yes" } }), { code: "WDE0056", field: "a.$exists" })
    assert.deepStrictEqual(problem({ a: { $matches: { spec: [] } } }), { code: "WDE0062", field: "a.$matches" })
    assert.deepStrictEqual(problem({ a: { $matches: { ignoreCase: false, spec: [] } } }), { code: "WDE0063", field: "a.$matches" })
    assert.deepStrictEqual(problem({ a: { $matches: { ignoreCase: true, spec: [{ type: "anyOf", value: "x" }] } } }), { code: "WDE0064", field: "a.$matches.spec" })
    assert.deepStrictEqual(problem({ a: { $regex: "^x" } }), { code: "WDE0070", field: "a.$regex" })
    assert.deepStrictEqual(problem({ $regex: "^x" }), { code: "WDE0070", field: "$regex" })
    assert.deepStrictEqual(problem({ a: { $near: 1 } }), { code: "WDE0056", field: "a.$near" })
    assert.deepStrictEqual(problem({ $nor: [] }), { code: "WDE0056", field: "$nor" })
    // dates count as comparable only in their wire form
    assert.deepStrictEqual(problem({ a: { $gt: { $date: 1 } } }), { code: "WDE0058", field: "a.$gt" })
    assert.isTrue(Result.isSuccess(parseFilter({ a: { $gt: { $date: "2026-01-01T00:00:00Z" } } })))
  })
})

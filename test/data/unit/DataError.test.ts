/**
 * DataError: what the data API reads differently from the other modules (413 as WDE0109, hook errors,
 * the collection), `fromPlatformError` for every platform failure, and `invalid` for client-side checks.
 * The readings every module shares are in test/http/Refusal.test.ts.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { DataError, fromPlatformError as mapped, invalid, WDE } from "../../../src/data/DataError.ts"
import { PlatformError } from "../../../src/http/PlatformError.ts"
import { ApplicationError, SystemError, TransportError, ValidationError } from "../../../src/http/reasons.ts"

const failed = (reason: PlatformError["reason"]) => new PlatformError({ method: "POST", path: "/wix-data/v2/items", reason })

/** A refused call's DataError (the test fails when the failure stayed a PlatformError). */
const fromPlatformError = (error: PlatformError, collection?: string): DataError => {
  const e = mapped(error, collection)
  assert.instanceOf(e, DataError)
  return e as DataError
}

describe("fromPlatformError", () => {
  it("413 is WDE0109 whatever the body", () => {
    for (const reason of [
      new SystemError({ status: 413, message: "Payload Too Large", description: "Payload Too Large", requestId: "r1" }),
      new ApplicationError({ status: 413, message: "m", code: "SOMETHING", description: "too big", requestId: "r1" })
    ]) {
      const e = fromPlatformError(failed(reason), "Posts")
      assert.instanceOf(e, DataError)
      expect({ code: e.code, message: e.message, status: e.status, requestId: e.requestId, collection: e.collection }).toStrictEqual({
        code: "WDE0109",
        message: "WDE0109: Payload is too large.",
        status: 413,
        requestId: "r1",
        collection: "Posts"
      })
    }
  })

  it("an application error keeps its code, description and data", () => {
    const e = fromPlatformError(
      failed(new ApplicationError({ status: 404, message: "not found", code: "WDE0073", description: "Item [x] does not exist in collection [Posts].", data: { itemId: "x" }, requestId: "abc" })),
      "Posts"
    )
    assert.strictEqual(e.code, "WDE0073")
    assert.strictEqual(e.message, "Item [x] does not exist in collection [Posts].")
    expect(e.data).toStrictEqual({ itemId: "x" })
    assert.strictEqual(e.status, 404)
    assert.strictEqual(e.requestId, "abc")
    assert.strictEqual(e.collection, "Posts")
    assert.isUndefined(e.hook)
  })

  it("an application error without data has no data, and no collection unless given", () => {
    const e = fromPlatformError(failed(new ApplicationError({ status: 409, message: "m", code: "WDE0074", description: "exists" })))
    assert.isUndefined(e.data)
    assert.notProperty(e, "collection")
    assert.isUndefined(e.requestId)
    assert.strictEqual(e.code, "WDE0074")
  })

  it("WDE0078: the hook's name, message and code; the message is the hook's", () => {
    const data = { jsErrorValue: { name: "ValidationFailed", message: "title is required", code: "E_TITLE" } }
    const e = fromPlatformError(failed(new ApplicationError({ status: 400, message: "m", code: "WDE0078", description: "Hook error", data })))
    assert.strictEqual(e.code, "WDE0078")
    expect(e.hook).toStrictEqual({ name: "ValidationFailed", message: "title is required", code: "E_TITLE" })
    assert.strictEqual(e.message, "title is required")
    expect(e.data).toStrictEqual(data)
  })

  it("WDE0078: a numeric hook code is kept; missing parts fall back to Error and the description", () => {
    const numeric = fromPlatformError(failed(new ApplicationError({ status: 400, message: "m", code: "WDE0078", description: "d", data: { jsErrorValue: { name: "E", message: "x", code: 42 } } })))
    expect(numeric.hook).toStrictEqual({ name: "E", message: "x", code: 42 })
    const bare = fromPlatformError(failed(new ApplicationError({ status: 400, message: "m", code: "WDE0078", description: "Hook threw" })))
    expect(bare.hook).toStrictEqual({ name: "Error", message: "Hook threw" })
    assert.strictEqual(bare.message, "Hook threw")
    const odd = fromPlatformError(failed(new ApplicationError({ status: 400, message: "m", code: "WDE0078", description: "D", data: { jsErrorValue: { name: 1, message: null, code: {} } } })))
    expect(odd.hook).toStrictEqual({ name: "Error", message: "D" })
  })

  it("a validation error keeps every field violation", () => {
    const fieldViolations = [
      { field: "title", description: "must not be empty", violatedRule: "REQUIRED_FIELD", ruleName: "r1", data: { a: 1 } },
      { field: "likes", description: "must be a number", violatedRule: "INVALID" },
      { description: "no field" },
      {}
    ]
    const e = fromPlatformError(failed(new ValidationError({ status: 400, message: "invalid item", fieldViolations, requestId: "q" })), "Posts")
    assert.strictEqual(e.code, "VALIDATION_ERROR")
    expect(e.fieldViolations).toStrictEqual([
      { field: "title", description: "must not be empty", violatedRule: "REQUIRED_FIELD", ruleName: "r1", data: { a: 1 } },
      { field: "likes", description: "must be a number", violatedRule: "INVALID" },
      { description: "no field" },
      {}
    ])
    assert.strictEqual(e.message, "invalid item\ntitle: must not be empty\nlikes: must be a number\n: no field\n: ")
    assert.strictEqual(e.status, 400)
    assert.strictEqual(e.requestId, "q")
  })

  it("a system error is UNKNOWN_ERROR with the platform's description, its status and its reason as it came", () => {
    const reason = new SystemError({ status: 500, message: "Internal", description: "Internal Server Error", requestId: "z" })
    const e = fromPlatformError(failed(reason), "Posts")
    assert.strictEqual(e.code, "UNKNOWN_ERROR")
    assert.strictEqual(e.message, "Internal Server Error")
    assert.strictEqual(e.reason, reason)
    assert.strictEqual(e.status, 500)
    assert.strictEqual(e.requestId, "z")
    assert.strictEqual(e._tag, "DataError")
  })

  it("unavailability (no answer, 429, 502–504) stays the PlatformError", () => {
    for (const reason of [new TransportError({ message: "connect ECONNREFUSED" }), new SystemError({ status: 502, message: "m", description: "d" })]) {
      const error = failed(reason)
      assert.strictEqual(mapped(error), error)
    }
  })
})

describe("invalid", () => {
  it("prefixes the message with the code and keeps the field", () => {
    const e = invalid(WDE.notANumber, "Bad limit.", ".limit")
    expect({ code: e.code, message: e.message, field: e.field }).toStrictEqual({ code: "WDE0032", message: "WDE0032: Bad limit.", field: ".limit" })
    assert.isUndefined(invalid(WDE.noNextPage, "x").field)
    assert.strictEqual(e.reason._tag, "ArgumentError")
    assert.isUndefined(e.status)
  })

  it("the WDE codes are the platform's", () => {
    expect([WDE.fieldNotString, WDE.notComparable, WDE.notString, WDE.notSameType, WDE.setOperand, WDE.filterNotBuilder]).toStrictEqual([
      "WDE0048",
      "WDE0045",
      "WDE0044",
      "WDE0046",
      "WDE0060",
      "WDE0011"
    ])
    expect([WDE.itemNotFound, WDE.itemAlreadyExists, WDE.hookError, WDE.payloadTooLarge, WDE.noPreviousPage, WDE.noNextPage, WDE.skipWithCursor]).toStrictEqual([
      "WDE0073",
      "WDE0074",
      "WDE0078",
      "WDE0109",
      "WDE0159",
      "WDE0165",
      "WDE0080"
    ])
  })
})

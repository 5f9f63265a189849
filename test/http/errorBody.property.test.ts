/**
 * The client reads error bodies without Schema (readErrorBody), leniently: a malformed body still gives
 * what could be read. It is held to the ErrorBody Schema the local platform writes with: whatever the
 * JSON, what it reads is a valid ErrorBody, and a body the Schema accepts reads exactly as the Schema
 * decodes it.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import { readErrorBody } from "../../src/http/PlatformHttp.ts"
import { ErrorBody } from "../../src/http/wire.ts"

const text = fc.string({ maxLength: 8 })
const optionalKeys = <T extends Record<string, fc.Arbitrary<unknown>>>(record: T) => fc.record(record, { requiredKeys: [] })

/** Bodies of the Schema's shape, with stray keys beside the known ones. */
const wellFormed = optionalKeys({
  message: text,
  details: optionalKeys({
    applicationError: fc.record({ code: fc.oneof(text, fc.integer()), description: text, data: fc.jsonValue() }, { requiredKeys: ["code"] }),
    validationError: fc.record({
      fieldViolations: fc.array(optionalKeys({ field: text, description: text, violatedRule: text, ruleName: text, data: fc.dictionary(text, fc.jsonValue()) }))
    }),
    stray: fc.jsonValue()
  }),
  stray: fc.jsonValue()
})

/** Anything JSON, and well-formed bodies with one part of the wrong type. */
const anyJson = fc.oneof(fc.jsonValue(), wellFormed.chain((body) => fc.jsonValue().map((junk) => ({ ...body, details: { ...(body.details ?? {}), applicationError: junk } }))))

const decode = Schema.decodeUnknownSync(ErrorBody)
const isErrorBody = Schema.is(ErrorBody)

describe("readErrorBody against the ErrorBody Schema", () => {
  it("a body the Schema accepts reads as the Schema decodes it", () => {
    fc.assert(fc.property(wellFormed, (body) => {
      const json = JSON.parse(JSON.stringify(body))
      assert.deepStrictEqual(readErrorBody(json), decode(json))
    }), { numRuns: 300 })
  })

  it("whatever the JSON, what it reads (if anything) is a valid ErrorBody", () => {
    fc.assert(fc.property(anyJson, (json) => {
      const read = readErrorBody(JSON.parse(JSON.stringify(json ?? null)))
      assert.isTrue(read === undefined || isErrorBody(read))
    }), { numRuns: 300 })
  })
})

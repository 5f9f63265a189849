/**
 * The client reads error bodies without Schema (readErrorBody), leniently: a malformed body still gives
 * what could be read. It is held to the ErrorBody Schema the local platform writes with: whatever the
 * JSON, what it reads is a valid ErrorBody, and a body the Schema accepts reads exactly as the Schema
 * decodes it. The same holds for the rule a refusal names (`details.rule`), checked by a table of plain
 * tests on the client (src/http/rule.ts) and by the `Rule` Schema on the platform.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import { readErrorBody } from "../../src/http/PlatformHttp.ts"
import { ErrorBody, Rule } from "../../src/http/wire.ts"

const text = fc.string({ maxLength: 8 })
const optionalKeys = <T extends Record<string, fc.Arbitrary<unknown>>>(record: T) => fc.record(record, { requiredKeys: [] })

const callerRole = fc.constantFrom("none", "visitor", "member", "admin")
const required = { requiredKeys: ["kind", "id", "message"] as Array<never> }

/** Rules of every kind, their optional specifics there or not. */
const rule = fc.oneof(
  fc.record({ kind: fc.constant("permission"), id: text, message: text, collection: text, operation: text, required: text, caller: callerRole }, required),
  fc.record({ kind: fc.constant("authentication"), id: text, message: text, required: text, caller: callerRole }, required),
  fc.record({ kind: fc.constant("validation"), id: text, message: text, fields: fc.array(text) }),
  fc.record({ kind: fc.constant("bound"), id: text, message: text, fields: fc.array(text), limit: fc.integer() }, { requiredKeys: ["kind", "id", "message", "fields"] }),
  fc.record({ kind: fc.constant("throttle"), id: text, message: text, retryAfterSeconds: fc.integer() }),
  fc.record({ kind: fc.constant("fault"), id: text, message: text, path: text, status: fc.integer() }),
  fc.record({ kind: fc.constantFrom("dev-access", "not-found", "conflict", "precondition"), id: text, message: text })
)

/** A rule with one of its keys (or a specific another kind has) holding anything at all. */
const damagedRule = fc.tuple(rule, fc.constantFrom("kind", "id", "message", "fields", "caller", "limit", "status", "path", "retryAfterSeconds", "collection"), fc.jsonValue())
  .map(([r, key, junk]) => ({ ...r, [key]: junk }))

/** Bodies of the Schema's shape, with stray keys beside the known ones. */
const wellFormed = optionalKeys({
  message: text,
  details: optionalKeys({
    applicationError: fc.record({ code: fc.oneof(text, fc.integer()), description: text, data: fc.jsonValue() }, { requiredKeys: ["code"] }),
    validationError: fc.record({
      fieldViolations: fc.array(optionalKeys({ field: text, description: text, violatedRule: text, ruleName: text, data: fc.dictionary(text, fc.jsonValue()) }))
    }),
    rule,
    stray: fc.jsonValue()
  }),
  stray: fc.jsonValue()
})

/** Anything JSON, and well-formed bodies with one part of the wrong type. */
const anyJson = fc.oneof(
  fc.jsonValue(),
  wellFormed.chain((body) => fc.jsonValue().map((junk) => ({ ...body, details: { ...(body.details ?? {}), applicationError: junk } }))),
  wellFormed.chain((body) => fc.oneof(fc.jsonValue(), damagedRule).map((junk) => ({ ...body, details: { ...(body.details ?? {}), rule: junk } })))
)

const decode = Schema.decodeUnknownSync(ErrorBody)
const isErrorBody = Schema.is(ErrorBody)

describe("readErrorBody against the ErrorBody Schema", () => {
  it("a body the Schema accepts reads as the Schema decodes it", () => {
    fc.assert(fc.property(wellFormed, (body) => {
      const json = JSON.parse(JSON.stringify(body))
      assert.deepStrictEqual(readErrorBody(json), decode(json))
    }), { numRuns: 300 })
  })

  it("a rule the Schema accepts is read as it came (keys of other kinds kept, as guards keep them), one it refuses is left out", () => {
    fc.assert(fc.property(fc.oneof(rule, damagedRule), (r) => {
      const json = JSON.parse(JSON.stringify({ details: { rule: r } }))
      const read = readErrorBody(json)?.details?.rule
      assert.deepStrictEqual(read, Schema.is(Rule)(json.details.rule) ? json.details.rule : undefined)
    }), { numRuns: 500 })
  })

  it("whatever the JSON, what it reads (if anything) is a valid ErrorBody", () => {
    fc.assert(fc.property(anyJson, (json) => {
      const read = readErrorBody(JSON.parse(JSON.stringify(json ?? null)))
      assert.isTrue(read === undefined || isErrorBody(read))
    }), { numRuns: 300 })
  })
})

/**
 * The plain guards that check big answers (a page of items, a bulk write's results) without a schema
 * run per element must accept exactly what the wire schemas accept: random answers, well formed and
 * broken in one field, get the same verdict from both.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import * as Guards from "../../../src/data/guards/index.ts"
import { BulkItemsRequest, BulkResponse, isBulkItemsRequest, QueryDataItemsResponse } from "../../../src/data/wire/index.ts"

const passes = (guard: (u: unknown) => string | undefined) => (u: unknown) => guard(u) === undefined

/** Any JSON value, shallow: what a broken field may hold instead. */
const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 6 }),
  fc.constantFrom("INSERT", "UPDATE", "DELETE", "PATCH", "UNKNOWN_ACTION_TYPE", "REMOVE"),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 })
)

/** A record whose keys are mostly well formed; sometimes one key holds anything or goes missing. */
const shaped = (fields: Record<string, fc.Arbitrary<unknown>>, optional: ReadonlyArray<string>) =>
  fc.tuple(
    fc.record(fields, { requiredKeys: Object.keys(fields).filter((k) => !optional.includes(k)) }),
    // one record in six is broken
    fc.oneof({ arbitrary: fc.constant(null), weight: 5 }, { arbitrary: fc.tuple(fc.constantFrom(...Object.keys(fields)), anything), weight: 1 })
  ).map(([value, broken]) => {
    if (broken === null) return value
    const copy: Record<string, unknown> = { ...value }
    if (broken[1] === undefined) delete copy[broken[0]]
    else copy[broken[0]] = broken[1]
    return copy
  })

const itemData = fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), fc.constant(null))
const dataItem = shaped({ id: fc.string({ maxLength: 8 }), dataCollectionId: fc.string({ maxLength: 8 }), data: itemData }, ["id", "dataCollectionId", "data"])
const itemError = shaped({ code: fc.string({ maxLength: 8 }), description: fc.string({ maxLength: 8 }), data: fc.jsonValue({ maxDepth: 1 }) }, ["description", "data"])
const itemMetadata = shaped({
  id: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null)),
  originalIndex: fc.nat(2000),
  success: fc.boolean(),
  error: itemError
}, ["id", "error"])
const bulkResult = shaped({
  action: fc.constantFrom("INSERT", "UPDATE", "DELETE", "PATCH", "UNKNOWN_ACTION_TYPE"),
  itemMetadata,
  dataItem
}, ["action", "dataItem"])
const bulkResponse = shaped({
  results: fc.array(bulkResult, { maxLength: 4 }),
  bulkActionMetadata: shaped({ totalSuccesses: fc.nat(), totalFailures: fc.nat() }, [])
}, [])

const paging = shaped({
  count: fc.oneof(fc.nat(), fc.constant(null)),
  total: fc.oneof(fc.nat(), fc.constant(null)),
  cursors: shaped({ next: fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)), prev: fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)) }, ["next", "prev"]),
  hasNext: fc.oneof(fc.boolean(), fc.constant(null))
}, ["count", "total", "cursors", "hasNext"])
const page = shaped({ dataItems: fc.array(dataItem, { maxLength: 4 }), pagingMetadata: paging }, ["pagingMetadata"])

const bulkItemsRequest = shaped({
  dataCollectionId: fc.string({ maxLength: 6 }),
  dataItems: fc.array(dataItem, { maxLength: 4 }),
  returnEntity: fc.boolean(),
  suppressHooks: fc.boolean()
}, ["returnEntity", "suppressHooks"])

/** The guard and `Schema.is` give every random value the same verdict, and both verdicts occur often. */
const agreesWithSchema = (arbitrary: fc.Arbitrary<unknown>, guard: (u: unknown) => boolean, schema: Schema.Top) => {
  const schemaSays = Schema.is(schema)
  let accepted = 0
  fc.assert(
    fc.property(fc.oneof(arbitrary, anything), (value) => {
      expect(guard(value)).toBe(schemaSays(value))
      if (schemaSays(value)) accepted++
    }),
    { numRuns: 3000 }
  )
  expect(accepted).toBeGreaterThan(100)
  expect(accepted).toBeLessThan(2900)
}

describe("wire guards", () => {
  it("isBulkItemsRequest accepts exactly what the BulkItemsRequest schema accepts", () => {
    agreesWithSchema(bulkItemsRequest, isBulkItemsRequest, BulkItemsRequest)
  })

  it("the client's BulkResponse guard accepts exactly what the BulkResponse schema accepts", () => {
    agreesWithSchema(bulkResponse, passes(Guards.BulkResponse), BulkResponse)
  })

  it("the client's page guard accepts exactly what the QueryDataItemsResponse schema accepts", () => {
    agreesWithSchema(page, passes(Guards.QueryDataItemsResponse), QueryDataItemsResponse)
  })
})

/**
 * The guards that check the platform's answers on the client: what they refuse is said with its place,
 * and a passing check hands the value on as it is. Each module's test/<module>/guards.test.ts holds its
 * guards' types equal to their Schemas'.
 */
import { assert, describe, it } from "@effect/vitest"
import * as DP from "../../src/data/guards/queries.ts"
import * as G from "../../src/http/guard.ts"

describe("a guard", () => {
  it("says where an answer is wrong and what was expected", () => {
    assert.strictEqual(
      G.describe(DP.QueryDataItemsResponse({ dataItems: [{ id: "a", data: {} }, { id: 7 }] })!),
      ".dataItems[1].id: expected a string"
    )
    assert.strictEqual(G.describe(DP.QueryDistinctValuesResponse({ distinctValues: [], pagingMetadata: { cursors: { next: 1 } } })!), ".pagingMetadata.cursors.next: expected a string")
  })

  it("accepts what the platform may leave out or send as null, and keeps keys it does not know", () => {
    const answer = { dataItems: [{ data: null }, { id: "x", extra: true }], pagingMetadata: { total: null, cursors: { next: null } }, more: 1 }
    assert.isUndefined(DP.QueryDataItemsResponse(answer))
  })
})

/**
 * The guards that check the platform's answers on the client: their types are the wire Schemas' types
 * (checked by the compiler, so a guard and its Schema cannot drift apart), what they refuse is said
 * with its place, and a passing check hands the value on as it is.
 */
import { assert, describe, it } from "@effect/vitest"
import * as DA from "../../src/data/answers.ts"
import * as DP from "../../src/data/protocol.ts"
import type * as DW from "../../src/data/wire.ts"
import * as G from "../../src/http/guard.ts"
import { sameType } from "../support/types.ts"


describe("answer guards have their Schemas' types", () => {
  it("data answers", () => {
    sameType<G.TypeOf<typeof DP.DataItem>, DW.DataItem>(true)
    sameType<G.TypeOf<typeof DP.PagingMetadata>, DW.PagingMetadata>(true)
    sameType<G.TypeOf<typeof DP.QueryDataItemsResponse>, DW.QueryDataItemsResponse>(true)
    sameType<G.TypeOf<typeof DP.QueryDistinctValuesResponse>, DW.QueryDistinctValuesResponse>(true)
    sameType<G.TypeOf<typeof DP.CountDataItemsResponse>, typeof DW.CountDataItemsResponse.Type>(true)
    sameType<G.TypeOf<typeof DP.DataItemResponse>, typeof DW.DataItemResponse.Type>(true)
    sameType<G.TypeOf<typeof DP.SaveDataItemResponse>, typeof DW.SaveDataItemResponse.Type>(true)
    sameType<G.TypeOf<typeof DA.AggregateDataItemsResponse>, DW.AggregateDataItemsResponse>(true)
    sameType<G.TypeOf<typeof DA.BulkResponse>, DW.BulkResponse>(true)
    sameType<G.TypeOf<typeof DA.BulkReferencesResponse>, typeof DW.BulkReferencesResponse.Type>(true)
    sameType<G.TypeOf<typeof DA.QueryReferencedResponse>, typeof DW.QueryReferencedResponse.Type>(true)
    sameType<G.TypeOf<typeof DA.IsReferencedResponse>, typeof DW.IsReferencedResponse.Type>(true)
    sameType<G.TypeOf<typeof DA.ReplaceReferencesResponse>, typeof DW.ReplaceReferencesResponse.Type>(true)
    sameType<G.TypeOf<typeof DA.AsyncJobResponse>, typeof DW.AsyncJobResponse.Type>(true)
    sameType<G.TypeOf<typeof DA.AsyncJobStatusResponse>, typeof DW.AsyncJobStatusResponse.Type>(true)
    sameType<G.TypeOf<typeof DA.DataCollection>, DW.DataCollection>(true)
    sameType<G.TypeOf<typeof DA.CollectionsListResponse>, typeof DW.CollectionsListResponse.Type>(true)
  })
})

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

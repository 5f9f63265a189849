/**
 * The guards that check the platform's answers on the client: their types are the wire Schemas' types
 * (checked by the compiler, so a guard and its Schema cannot drift apart), what they refuse is said
 * with its place, and a passing check hands the value on as it is.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as DA from "../../src/data/answers.ts"
import * as DP from "../../src/data/protocol.ts"
import type * as DW from "../../src/data/wire.ts"
import * as G from "../../src/http/guard.ts"
import * as SP from "../../src/session/protocol.ts"
import * as SW from "../../src/session/wire.ts"
import { sameType } from "../support/types.ts"


describe("answer guards have their Schemas' types", () => {
  it("session answers", () => {
    sameType<G.TypeOf<typeof SP.TokenResponse>, SW.TokenResponse>(true)
    sameType<G.TypeOf<typeof SP.RedirectSessionResponse>, typeof SW.RedirectSessionResponse.Type>(true)
    sameType<G.TypeOf<typeof SP.AuthorizeMessage>, SW.AuthorizeMessage>(true)
    sameType<G.TypeOf<typeof SP.Identity>, SW.Identity>(true)
    sameType<G.TypeOf<typeof SP.IdentityProfile>, SW.IdentityProfile>(true)
    sameType<G.TypeOf<typeof SP.StateMachineResponse>, SW.StateMachineResponse>(true)
    sameType<G.TypeOf<typeof SP.SignOnResponse>, typeof SW.SignOnResponse.Type>(true)
    sameType<G.TypeOf<typeof SP.StartVerificationResponse>, typeof SW.StartVerificationResponse.Type>(true)
    sameType<G.TypeOf<typeof SP.MyMemberResponse>, SW.MyMemberResponse>(true)
    sameType<G.TypeOf<typeof SP.Tokens>, SW.Tokens>(true)
  })

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
    assert.strictEqual(G.describe(SP.TokenResponse({ access_token: "a", expires_in: "14400", refresh_token: "r", token_type: "Bearer" })!), ".expires_in: expected a number")
    assert.strictEqual(G.describe(SP.TokenResponse("nope")!), ".: expected an object")
    assert.strictEqual(
      G.describe(DP.QueryDataItemsResponse({ dataItems: [{ id: "a", data: {} }, { id: 7 }] })!),
      ".dataItems[1].id: expected a string"
    )
    assert.strictEqual(
      G.describe(SP.StateMachineResponse({ state: "SUCCESS", identity: { id: "i", factors: [{ factorId: "f", type: "SMS", status: "SLEEPING" }] } })!),
      ".identity.factors[0].status: expected one of INACTIVE, ACTIVE, REQUIRE_REENROLL"
    )
    assert.strictEqual(G.describe(DP.QueryDistinctValuesResponse({ distinctValues: [], pagingMetadata: { cursors: { next: 1 } } })!), ".pagingMetadata.cursors.next: expected a string")
  })

  it("accepts what the platform may leave out or send as null, and keeps keys it does not know", () => {
    const answer = { dataItems: [{ data: null }, { id: "x", extra: true }], pagingMetadata: { total: null, cursors: { next: null } }, more: 1 }
    assert.isUndefined(DP.QueryDataItemsResponse(answer))
    // an optional key present as undefined (never on the wire) is taken as absent, as Schema.optionalKey would refuse
    assert.isUndefined(SP.TokenResponse({ access_token: "a", expires_in: 1, refresh_token: "r", token_type: "Bearer" }))
  })

  it("agrees with its Schema on the platform's answers and on broken ones", () => {
    const cases: ReadonlyArray<unknown> = [
      { state: "SUCCESS", sessionToken: "s", identity: { id: "i", identityProfile: { firstName: null, customFields: [{ name: "n", value: { listValue: { value: [{ strValue: "a" }, { mapValue: { value: { k: { numValue: 1 } } } }] } } }] } } },
      { state: "SUCCESS", identity: { id: "i", identityProfile: { customFields: [{ name: "n", value: { listValue: { value: [{ numValue: "1" }] } } }] } } },
      { state: "REQUIRE_MFA", stateToken: "t", requireMfaData: { availableFactors: [{ factorType: "TOTP" }] } },
      { state: "REQUIRE_MFA", requireMfaData: { availableFactors: [{ factorType: "FAX" }] } },
      { state: "LATER" },
      { state: "SUCCESS", additionalData: { a: { dateValue: "2026-01-01" } } },
      { state: "SUCCESS", additionalData: [] }
    ]
    const schemaSays = Schema.is(SW.StateMachineResponse)
    for (const value of cases) assert.strictEqual(SP.StateMachineResponse(value) === undefined, schemaSays(value), JSON.stringify(value))
  })
})

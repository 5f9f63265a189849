/**
 * The guards that check the platform's answers on the client: their types are the wire Schemas' types
 * (checked by the compiler, so a guard and its Schema cannot drift apart), what they refuse is said
 * with its place, and a passing check hands the value on as it is.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as Subscriptions from "../../src/events/Subscriptions.ts"
import * as G from "../../src/http/guard.ts"
import type * as WebhooksWire from "../../src/server/events/webhooks/wire.ts"
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
})

describe("event answer guards have their Schemas' types", () => {
  it("webhook subscriptions", () => {
    sameType<G.TypeOf<typeof Subscriptions.Subscription>, typeof WebhooksWire.Webhook.Type>(true)
  })
})

describe("a guard", () => {
  it("says where an answer is wrong and what was expected", () => {
    assert.strictEqual(G.describe(SP.TokenResponse({ access_token: "a", expires_in: "14400", refresh_token: "r", token_type: "Bearer" })!), ".expires_in: expected a number")
    assert.strictEqual(G.describe(SP.TokenResponse("nope")!), ".: expected an object")
    assert.strictEqual(
      G.describe(SP.StateMachineResponse({ state: "SUCCESS", identity: { id: "i", factors: [{ factorId: "f", type: "SMS", status: "SLEEPING" }] } })!),
      ".identity.factors[0].status: expected one of INACTIVE, ACTIVE, REQUIRE_REENROLL"
    )
  })

  it("accepts what the platform may leave out or send as null, and keeps keys it does not know", () => {
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

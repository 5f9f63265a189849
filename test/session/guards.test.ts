/**
 * The session client's guards (src/session/guards/) have their Schemas' types (src/session/wire/),
 * checked by the compiler so a guard and its Schema cannot drift apart; what they refuse is said with
 * its place, and they agree with their Schemas on real and broken answers.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as G from "../../src/http/guard.ts"
import * as SG from "../../src/session/guards/index.ts"
import * as SW from "../../src/session/wire/index.ts"
import { sameType } from "../support/types.ts"

describe("session guards have their Schemas' types", () => {
  it("tokens and the stored session", () => {
    sameType<G.TypeOf<typeof SG.Tokens>, SW.Tokens>(true)
    sameType<G.TypeOf<typeof SG.TokenResponse>, SW.TokenResponse>(true)
    sameType<G.TypeOf<typeof SG.OAuthData>, typeof SW.OAuthData.Type>(true)
    sameType<G.TypeOf<typeof SG.StoredSession>, typeof SW.StoredSession.Type>(true)
  })

  it("redirect sessions and the authorize page's message", () => {
    sameType<G.TypeOf<typeof SG.RedirectSessionResponse>, typeof SW.RedirectSessionResponse.Type>(true)
    sameType<G.TypeOf<typeof SG.AuthorizeMessage>, SW.AuthorizeMessage>(true)
  })

  it("identity", () => {
    sameType<G.TypeOf<typeof SG.AddressWrapper>, typeof SW.AddressWrapper.Type>(true)
    sameType<G.TypeOf<typeof SG.IdentityProfile>, SW.IdentityProfile>(true)
    sameType<G.TypeOf<typeof SG.Identity>, SW.Identity>(true)
    sameType<G.TypeOf<typeof SG.StateMachineResponse>, SW.StateMachineResponse>(true)
    sameType<G.TypeOf<typeof SG.SignOnResponse>, typeof SW.SignOnResponse.Type>(true)
    sameType<G.TypeOf<typeof SG.StartVerificationResponse>, typeof SW.StartVerificationResponse.Type>(true)
  })

  it("members", () => {
    sameType<G.TypeOf<typeof SG.Member>, SW.Member>(true)
    sameType<G.TypeOf<typeof SG.MyMemberResponse>, SW.MyMemberResponse>(true)
  })
})

describe("a session guard", () => {
  it("says where an answer is wrong and what was expected", () => {
    assert.strictEqual(G.describe(SG.TokenResponse({ access_token: "a", expires_in: "14400", refresh_token: "r", token_type: "Bearer" })!), ".expires_in: expected a number")
    assert.strictEqual(G.describe(SG.TokenResponse("nope")!), ".: expected an object")
    assert.strictEqual(
      G.describe(SG.StateMachineResponse({ state: "SUCCESS", identity: { id: "i", factors: [{ factorId: "f", type: "SMS", status: "SLEEPING" }] } })!),
      ".identity.factors[0].status: expected one of INACTIVE, ACTIVE, REQUIRE_REENROLL"
    )
  })

  it("takes an optional key present as undefined (never on the wire) as absent", () => {
    assert.isUndefined(SG.TokenResponse({ access_token: "a", expires_in: 1, refresh_token: "r", token_type: "Bearer" }))
  })

  it("agrees with its Schema on the platform's answers and on broken ones", () => {
    const states: ReadonlyArray<unknown> = [
      { state: "SUCCESS", sessionToken: "s", identity: { id: "i", identityProfile: { firstName: null, customFields: [{ name: "n", value: { listValue: { value: [{ strValue: "a" }, { mapValue: { value: { k: { numValue: 1 } } } }] } } }] } } },
      { state: "SUCCESS", identity: { id: "i", identityProfile: { customFields: [{ name: "n", value: { listValue: { value: [{ numValue: "1" }] } } }] } } },
      { state: "REQUIRE_MFA", stateToken: "t", requireMfaData: { availableFactors: [{ factorType: "TOTP" }] } },
      { state: "REQUIRE_MFA", requireMfaData: { availableFactors: [{ factorType: "FAX" }] } },
      { state: "LATER" },
      { state: "SUCCESS", additionalData: { a: { dateValue: "2026-01-01" } } },
      { state: "SUCCESS", additionalData: [] }
    ]
    const stateSays = Schema.is(SW.StateMachineResponse)
    for (const value of states) assert.strictEqual(SG.StateMachineResponse(value) === undefined, stateSays(value), JSON.stringify(value))

    const stored: ReadonlyArray<unknown> = [
      { tokens: { accessToken: { value: "a", expiresAt: 1 }, refreshToken: { value: "r", role: "member" } } },
      { tokens: { accessToken: { value: "a", expiresAt: 1 }, refreshToken: { value: "r", role: "admin" } } },
      { tokens: { accessToken: { value: "a", expiresAt: 1 }, refreshToken: { value: "r", role: "none" } }, oauthData: { state: "s", codeVerifier: "v", codeChallenge: "c", redirectUri: "u", originalUri: "" } },
      { tokens: { accessToken: { value: "a", expiresAt: "1" }, refreshToken: { value: "r", role: "visitor" } } },
      { tokens: { accessToken: { value: "a", expiresAt: 1 }, refreshToken: { value: "r", role: "visitor" } }, oauthData: { state: "s" } }
    ]
    const storedSays = Schema.is(SW.StoredSession)
    for (const value of stored) assert.strictEqual(SG.StoredSession(value) === undefined, storedSays(value), JSON.stringify(value))
  })
})

/**
 * How identity-service answers and refusals become LoginResult values.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { PlatformError } from "../../../src/http/PlatformError.ts"
import { ApplicationError, SystemError, TransportError, ValidationError } from "../../../src/http/reasons.ts"
import type { FieldViolation } from "../../../src/http/wire.ts"
import { fromState, type LoginResult, loginFailure, pendingOf, registerFailure, verifyFailure } from "../../../src/session/LoginResult.ts"
import type { Identity, StateMachineResponse } from "../../../src/session/wire/index.ts"

const identity: Identity = { id: "id-1", email: { address: "a@b.c", isVerified: false } }

const appError = (code: string, message = `refused ${code}`, status = 400) =>
  new PlatformError({
    method: "POST",
    path: "/_api/iam/authentication/v2/login",
    reason: new ApplicationError({ status, message, code, description: `description of ${code}` })
  })

const validation = (fieldViolations: ReadonlyArray<FieldViolation>, message = "invalid request") =>
  new PlatformError({ method: "POST", path: "/_api/iam/authentication/v2/register", reason: new ValidationError({ status: 400, message, fieldViolations }) })

const system = (status: number, message = "boom") =>
  new PlatformError({ method: "POST", path: "/p", reason: new SystemError({ status, message, description: message }) })

const transport = new PlatformError({ method: "POST", path: "/p", reason: new TransportError({ message: "socket hang up" }) })

const value = (effect: Effect.Effect<LoginResult, PlatformError>): LoginResult => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isFailure(exit)) throw new Error(`expected a value, got ${String(exit)}`)
  return exit.value
}

const stillError = (effect: Effect.Effect<LoginResult, PlatformError>, expected: PlatformError) => {
  const error = Exit.findErrorOption(Effect.runSyncExit(effect))
  assert.isTrue(Option.isSome(error))
  assert.strictEqual(Option.getOrThrow(error), expected)
}

describe("fromState", () => {
  it("SUCCESS → SUCCESS with the session token and identity", () => {
    assert.deepStrictEqual(fromState({ state: "SUCCESS", sessionToken: "st", identity }), {
      loginState: "SUCCESS",
      data: { sessionToken: "st" },
      identity
    })
    assert.deepStrictEqual(fromState({ state: "SUCCESS", sessionToken: "st" }), { loginState: "SUCCESS", data: { sessionToken: "st" } })
  })

  it("REQUIRE_OWNER_APPROVAL → OWNER_APPROVAL_REQUIRED", () => {
    assert.deepStrictEqual(fromState({ state: "REQUIRE_OWNER_APPROVAL", identity }), { loginState: "OWNER_APPROVAL_REQUIRED", identity })
    assert.isUndefined(pendingOf(fromState({ state: "REQUIRE_OWNER_APPROVAL" })))
  })

  it("REQUIRE_EMAIL_VERIFICATION → EMAIL_VERIFICATION_REQUIRED keeping the state token", () => {
    const result = fromState({ state: "REQUIRE_EMAIL_VERIFICATION", stateToken: "state-token-1", identity })
    assert.deepStrictEqual(result, { loginState: "EMAIL_VERIFICATION_REQUIRED", data: { stateToken: "state-token-1" }, identity })
    assert.deepStrictEqual(pendingOf(result), { kind: "EMAIL_VERIFICATION", stateToken: "state-token-1" })
  })

  it("REQUIRE_MFA → MFA_REQUIRED with the available factors and the state token", () => {
    const response: StateMachineResponse = {
      state: "REQUIRE_MFA",
      stateToken: "mfa-token",
      requireMfaData: { availableFactors: [{ factorType: "TOTP" }, { factorType: "SMS", factorStatus: "ACTIVE" }] }
    }
    const result = fromState(response)
    assert.deepStrictEqual(result, { loginState: "MFA_REQUIRED", data: { stateToken: "mfa-token", factors: ["TOTP", "SMS"] } })
    assert.deepStrictEqual(pendingOf(result), { kind: "MFA", stateToken: "mfa-token", factors: ["TOTP", "SMS"] })
  })

  it("MFA_CHALLENGE takes its factors from the challenge data", () => {
    assert.deepStrictEqual(fromState({ state: "MFA_CHALLENGE", stateToken: "t", mfaChallengeData: { factorType: "EMAIL" } }), {
      loginState: "MFA_REQUIRED",
      data: { stateToken: "t", factors: ["EMAIL"] }
    })
    assert.deepStrictEqual(
      fromState({ state: "MFA_CHALLENGE", stateToken: "t", mfaChallengeData: { factorType: "EMAIL", availableFactors: [{ factorType: "SMS" }] } }),
      { loginState: "MFA_REQUIRED", data: { stateToken: "t", factors: ["SMS"] } }
    )
  })

  it("STATUS_CHECK and every other state → FAILURE 'Unknown _state'", () => {
    for (const state of ["STATUS_CHECK", "UNKNOWN_STATE", "REQUIRE_MISSING_FIELDS"] as const) {
      const result = fromState({ state, sessionToken: "st", identity })
      assert.deepStrictEqual(result, { loginState: "FAILURE", error: "Unknown _state" }, state)
      assert.isUndefined(pendingOf(result))
    }
  })
})

describe("loginFailure", () => {
  it("maps the captcha and password codes, keeping the platform's message", () => {
    assert.deepStrictEqual(value(loginFailure(appError("-19971", "captcha missing"))), {
      loginState: "FAILURE",
      error: "captcha missing",
      errorCode: "missingCaptchaToken"
    })
    assert.deepStrictEqual(value(loginFailure(appError("-19970"))), { loginState: "FAILURE", error: "refused -19970", errorCode: "invalidCaptchaToken" })
    assert.deepStrictEqual(value(loginFailure(appError("-19976", "wrong password", 401))), {
      loginState: "FAILURE",
      error: "wrong password",
      errorCode: "invalidPassword"
    })
    assert.deepStrictEqual(value(loginFailure(appError("-19973", "reset it", 403))), { loginState: "FAILURE", error: "reset it", errorCode: "resetPassword" })
  })

  it("any other refusal reads as invalidEmail", () => {
    for (const error of [appError("-19999"), appError("-19995"), appError("WHATEVER", "nope", 404), validation([]), system(400), system(409)]) {
      const result = value(loginFailure(error))
      assert.strictEqual(result.loginState, "FAILURE")
      assert.strictEqual(result.loginState === "FAILURE" ? result.errorCode : undefined, "invalidEmail", error.message)
    }
  })

  it("5xx and transport errors stay in the error channel", () => {
    for (const error of [system(500), system(503), appError("-19976", "x", 502), transport]) {
      stillError(loginFailure(error), error)
    }
  })
})

describe("registerFailure", () => {
  it("an EMAIL field violation → invalidEmail with the violation's description", () => {
    const error = validation([
      { field: "password", description: "too short", data: { type: "PASSWORD" } },
      { field: "loginId.email", description: "Email is not valid", data: { type: "EMAIL" } }
    ])
    assert.deepStrictEqual(value(registerFailure(error)), { loginState: "FAILURE", error: "Email is not valid", errorCode: "invalidEmail" })
  })

  it("an EMAIL violation without a description falls back to the error's message", () => {
    assert.deepStrictEqual(value(registerFailure(validation([{ data: { type: "EMAIL" } }], "bad email"))), {
      loginState: "FAILURE",
      error: "bad email",
      errorCode: "invalidEmail"
    })
  })

  it("maps -19971, -19995 and -19970", () => {
    assert.deepStrictEqual(value(registerFailure(appError("-19971", "m1"))), { loginState: "FAILURE", error: "m1", errorCode: "missingCaptchaToken" })
    assert.deepStrictEqual(value(registerFailure(appError("-19995", "exists", 409))), {
      loginState: "FAILURE",
      error: "exists",
      errorCode: "emailAlreadyExists"
    })
    assert.deepStrictEqual(value(registerFailure(appError("-19970", "m3"))), { loginState: "FAILURE", error: "m3", errorCode: "invalidCaptchaToken" })
  })

  it("anything else is a FAILURE with the message only", () => {
    for (const error of [appError("-19976", "pw"), validation([{ field: "password", description: "short", data: { type: "PASSWORD" } }], "v"), system(403, "forbidden")]) {
      const result = value(registerFailure(error))
      assert.deepStrictEqual(result, { loginState: "FAILURE", error: error.reason.message })
      assert.isFalse("errorCode" in result)
    }
  })

  it("5xx and transport errors stay in the error channel", () => {
    for (const error of [system(500), system(504), transport]) {
      stillError(registerFailure(error), error)
    }
  })
})

describe("verifyFailure", () => {
  it("a refusal is a FAILURE with the message; 5xx and transport stay errors", () => {
    assert.deepStrictEqual(value(verifyFailure(appError("-19988", "wrong code"))), { loginState: "FAILURE", error: "wrong code" })
    const down = system(500)
    stillError(verifyFailure(down), down)
    stillError(verifyFailure(transport), transport)
  })
})

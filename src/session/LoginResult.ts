/**
 * What a member flow step (register, login, verify) comes to, as a value: the session reports a
 * refused password or a missing captcha as a FAILURE the UI can show, and keeps the error channel
 * for calls that could not be made at all.
 */
import * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import { IdentityCodes } from "./protocol.ts"
import type { FactorType, Identity, StateMachineResponse } from "./wire/index.ts"

/** Why a login or register came to FAILURE, for the UI to word: a wrong password, a captcha to show, a taken email... */
export type LoginErrorCode =
  | "invalidEmail"
  | "invalidPassword"
  | "resetPassword"
  | "missingCaptchaToken"
  | "invalidCaptchaToken"
  | "emailAlreadyExists"

/**
 * Where a member flow step (register, login, verification, recovery) stands: SUCCESS with a session
 * token, a step still to take (owner approval, an email code, MFA), or a FAILURE to show.
 */
export type LoginResult =
  | { readonly loginState: "SUCCESS"; readonly data: { readonly sessionToken: string }; readonly identity?: Identity }
  | { readonly loginState: "OWNER_APPROVAL_REQUIRED"; readonly identity?: Identity }
  | { readonly loginState: "EMAIL_VERIFICATION_REQUIRED"; readonly data: { readonly stateToken: string }; readonly identity?: Identity }
  /** Multi-factor authentication is on for this member: verify one of `factors` with `verifyFactor`. */
  | {
    readonly loginState: "MFA_REQUIRED"
    readonly data: { readonly stateToken: string; readonly factors: ReadonlyArray<FactorType> }
    readonly identity?: Identity
  }
  | { readonly loginState: "FAILURE"; readonly error: string; readonly errorCode?: LoginErrorCode }

/** A flow waiting for its next step: the state token the next call must present. */
export type PendingStep =
  | { readonly kind: "EMAIL_VERIFICATION"; readonly stateToken: string }
  | { readonly kind: "MFA"; readonly stateToken: string; readonly factors: ReadonlyArray<FactorType> }

export const unknownState: LoginResult = { loginState: "FAILURE", error: "Unknown _state" }

const withIdentity = (identity: Identity | undefined) => (identity === undefined ? {} : { identity })

/** Maps the identity service's state to a login result. */
export const fromState = (response: StateMachineResponse): LoginResult => {
  const identity = withIdentity(response.identity)
  switch (response.state) {
    case "SUCCESS":
      return { loginState: "SUCCESS", data: { sessionToken: response.sessionToken ?? "" }, ...identity }
    case "REQUIRE_OWNER_APPROVAL":
      return { loginState: "OWNER_APPROVAL_REQUIRED", ...identity }
    case "REQUIRE_EMAIL_VERIFICATION":
      return { loginState: "EMAIL_VERIFICATION_REQUIRED", data: { stateToken: response.stateToken ?? "" }, ...identity }
    case "REQUIRE_MFA":
    case "MFA_CHALLENGE": {
      const factors = response.requireMfaData?.availableFactors.map((f) => f.factorType) ??
        response.mfaChallengeData?.availableFactors?.map((f) => f.factorType) ??
        (response.mfaChallengeData === undefined ? [] : [response.mfaChallengeData.factorType])
      return { loginState: "MFA_REQUIRED", data: { stateToken: response.stateToken ?? "", factors }, ...identity }
    }
    default:
      return unknownState
  }
}

/** The step a result leaves pending, if any. */
export const pendingOf = (result: LoginResult): PendingStep | undefined => {
  switch (result.loginState) {
    case "EMAIL_VERIFICATION_REQUIRED":
      return { kind: "EMAIL_VERIFICATION", stateToken: result.data.stateToken }
    case "MFA_REQUIRED":
      return { kind: "MFA", stateToken: result.data.stateToken, factors: result.data.factors }
    default:
      return undefined
  }
}

// Refusals (4xx) become FAILURE values; a call that never got a verdict (5xx, network, 429 rate
// limiting: try again later) stays an error.
const isRefusal = (error: PlatformError): boolean =>
  error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429

/** A member flow step that came to FAILURE. */
export type LoginFailure = Extract<LoginResult, { readonly loginState: "FAILURE" }>

const failure = (error: string, errorCode?: LoginErrorCode): LoginFailure =>
  errorCode === undefined ? { loginState: "FAILURE", error } : { loginState: "FAILURE", error, errorCode }

const messageOf = (error: PlatformError): string =>
  error.reason._tag === "TransportError" ? error.reason.message : error.reason.message

/**
 * The FAILURE of a refused login (captcha codes, invalidPassword, resetPassword; any other code reads as
 * invalidEmail), from the platform's message and code: plain, so a page's first script shares it.
 */
export const loginRefusal = (message: string, code: string | undefined): LoginFailure => {
  switch (code) {
    case IdentityCodes.missingCaptchaToken:
      return failure(message, "missingCaptchaToken")
    case IdentityCodes.invalidCaptchaToken:
      return failure(message, "invalidCaptchaToken")
    case IdentityCodes.invalidPassword:
      return failure(message, "invalidPassword")
    case IdentityCodes.resetPassword:
      return failure(message, "resetPassword")
    default:
      return failure(message, "invalidEmail")
  }
}

/** Login refusals as FAILURE values (see `loginRefusal`); a call that got no verdict stays an error. */
export const loginFailure = (error: PlatformError): Effect.Effect<LoginResult, PlatformError> =>
  isRefusal(error) ? Effect.succeed(loginRefusal(messageOf(error), error.code)) : Effect.fail(error)

/** Register refusals: an EMAIL field violation, captcha codes, emailAlreadyExists; else the message alone. */
export const registerFailure = (error: PlatformError): Effect.Effect<LoginResult, PlatformError> => {
  if (!isRefusal(error)) return Effect.fail(error)
  const emailViolation = error.fieldViolations.find((v) => v.data?.["type"] === "EMAIL")
  if (emailViolation !== undefined) {
    return Effect.succeed(failure(emailViolation.description ?? messageOf(error), "invalidEmail"))
  }
  const message = messageOf(error)
  switch (error.code) {
    case IdentityCodes.missingCaptchaToken:
      return Effect.succeed(failure(message, "missingCaptchaToken"))
    case IdentityCodes.emailAlreadyExists:
      return Effect.succeed(failure(message, "emailAlreadyExists"))
    case IdentityCodes.invalidCaptchaToken:
      return Effect.succeed(failure(message, "invalidCaptchaToken"))
    default:
      return Effect.succeed(failure(message))
  }
}

/** Verification refusals (wrong or expired code): a FAILURE carrying the platform's message. */
export const verifyFailure = (error: PlatformError): Effect.Effect<LoginResult, PlatformError> =>
  isRefusal(error) ? Effect.succeed(failure(messageOf(error))) : Effect.fail(error)

/**
 * The member flows of a session: register, login, the email verification code, MFA factors, password
 * change and recovery, and the sign-on that turns a SUCCESS into member tokens (`completeDirectLogin`,
 * on the authorize page through the AuthorizeAgent, or `externalLogin*` with an API key on a server).
 * A step waiting for a code (email verification, MFA) is kept as `pending`. Built on the token service.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as G from "../http/guard.ts"
import { checkBody } from "../http/answer.ts"
import { PlatformAuth } from "../http/PlatformAuth.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { PlatformHttpKey } from "../http/PlatformHttpKey.ts"
import { AuthorizeAgent } from "./AuthorizeAgent.ts"
import { apiCall, authRequest, createRedirectSession, exchangeCode, toOAuthError } from "./codeGrant.ts"
import { SignOnResponse, StartVerificationResponse, StateMachineResponse } from "./guards/identity.ts"
import {
  fromState,
  type LoginResult,
  loginFailure,
  pendingOf,
  type PendingStep,
  registerFailure,
  unknownState,
  verifyFailure
} from "./LoginResult.ts"
import { captchaPayload, type CaptchaTokens } from "./loginPayload.ts"
import { invalidState, type OAuthError } from "./OAuthError.ts"
import { makePkce } from "./Pkce.ts"
import { Paths } from "./protocol.ts"
import { SessionTokens } from "./SessionTokens.ts"
import { nowSeconds, tokenCall, tokensFrom } from "./tokenEndpoint.ts"
import type { FactorType, IdentityProfile } from "./wire/identity.ts"
import type { Tokens } from "./wire/tokens.ts"

export type { CaptchaTokens }

/** A password or API key, plain or Redacted. */
export type Secret = string | Redacted.Redacted<string>
const reveal = (secret: Secret): string => (Redacted.isRedacted(secret) ? Redacted.value(secret) : secret)

/** The member flows: register, login, the codes of email verification and MFA, passwords, and the logins that give member tokens. */
export interface MemberFlowsShape {
  /**
   * Creates a member account; the result says whether the member is signed in or has a step left
   * (owner approval, an email code). A refused email or password is a FAILURE, not an error.
   *
   * @example
   * declare const password: string // what the member typed
   * const members = yield* MemberFlows
   * const result = yield* members.register({ email: "ada@example.com", password, profile: { firstName: "Ada" } })
   * if (result.loginState === "EMAIL_VERIFICATION_REQUIRED") {
   *   // later, with the code the platform mailed
   *   const verified = yield* members.verify({ code: "123456" })
   * }
   */
  readonly register: (input: {
    readonly email: string
    readonly password: Secret
    readonly profile?: IdentityProfile | undefined
    readonly captchaTokens?: CaptchaTokens | undefined
  }) => Effect.Effect<LoginResult, PlatformError>
  /**
   * Checks a member's email and password; a SUCCESS carries the session token `completeDirectLogin`
   * turns into member tokens. A refused password is a FAILURE, not an error.
   *
   * @example
   * declare const password: string // what the member typed
   * const members = yield* MemberFlows
   * const result = yield* members.login({ email: "ada@example.com", password: Redacted.make(password) })
   * if (result.loginState === "SUCCESS") yield* members.completeDirectLogin(result.data.sessionToken)
   * else if (result.loginState === "MFA_REQUIRED") console.log("ask for a code of", result.data.factors)
   * else if (result.loginState === "FAILURE") console.log(result.errorCode ?? result.error)
   */
  readonly login: (input: {
    readonly email: string
    readonly password: Secret
    readonly captchaTokens?: CaptchaTokens | undefined
  }) => Effect.Effect<LoginResult, PlatformError>
  /** The email code of an EMAIL_VERIFICATION_REQUIRED step (the pending one unless a state token is given). */
  readonly verify: (input: { readonly code: string; readonly stateToken?: string }) => Effect.Effect<LoginResult, PlatformError>
  /** Verifies one MFA factor of an MFA_REQUIRED step. */
  readonly verifyFactor: (input: {
    readonly factorType: FactorType
    readonly code: string
    readonly stateToken?: string
    readonly rememberThisDevice?: boolean
  }) => Effect.Effect<LoginResult, PlatformError>
  /** Sends a new verification code to the identity's email. */
  readonly startVerification: (identityId: string) => Effect.Effect<{ readonly verificationId: string }, PlatformError>
  /** Sets a new password for the signed-in member. */
  readonly changePassword: (newPassword: Secret) => Effect.Effect<void, PlatformError>
  /** Mails a password recovery link that leads to `redirectUri` with a `recoveryToken`. */
  readonly sendPasswordResetEmail: (
    email: string,
    redirectUri: string,
    options?: { readonly language?: string }
  ) => Effect.Effect<void, PlatformError>
  /** Mails an identity the link that activates its account. */
  readonly sendActivationEmail: (
    identityId: string,
    options?: { readonly redirectUri?: string; readonly language?: string }
  ) => Effect.Effect<void, PlatformError>
  /** Sets a new password with the token of a recovery email; a SUCCESS carries a session token. */
  readonly recover: (recoveryToken: string, password: Secret) => Effect.Effect<LoginResult, PlatformError>
  /** Turns the session token of a SUCCESS login into member tokens, on the authorize page, without UI. */
  readonly completeDirectLogin: (sessionToken: string) => Effect.Effect<Tokens, OAuthError | PlatformError>
  /** Member tokens for a member id, vouched for by an API key (server-side login). */
  readonly externalLogin: (memberId: string, apiKey: Secret) => Effect.Effect<Tokens, OAuthError | PlatformError>
  /** Signs a member on by email with an API key (creating them if needed), then logs them in. */
  readonly externalLoginWithSession: (
    email: string,
    apiKey: Secret,
    options?: { readonly profile?: IdentityProfile; readonly verifyEmail?: boolean; readonly mergeExistingContact?: boolean }
  ) => Effect.Effect<Tokens, OAuthError | PlatformError>
  /** The step the last member call left pending (email verification or MFA), if any. */
  readonly pending: Effect.Effect<Option.Option<PendingStep>>
  /** Forgets the pending step (the member signed out). */
  readonly clearPending: Effect.Effect<void>
}

const EmptyAnswer = G.object

const factorData: Record<FactorType, string> = {
  PASSWORD: "passwordData",
  SMS: "smsData",
  CALL: "callData",
  EMAIL: "emailData",
  TOTP: "totpData",
  PUSH: "pushData",
  WEBAUTHN: "webauthnData",
  RECOVERY_CODE: "recoveryCodeData"
}

const factorPayload = (factorType: FactorType, code: string): Record<string, unknown> => {
  switch (factorType) {
    case "PASSWORD":
      return { passwordData: { password: code } }
    case "PUSH":
      return { pushData: { transactionId: code } }
    case "WEBAUTHN":
      return { webauthnData: { credential: code } }
    default:
      return { [factorData[factorType]]: { code } }
  }
}

/** The member flows as a service: sign members up and in with the site's own forms. */
export class MemberFlows extends Context.Service<MemberFlows, MemberFlowsShape>()("sitefx/MemberFlows") {
  /** The member flows over a session's token service; the AuthorizeAgent completes a direct login. */
  static readonly layer: Layer.Layer<MemberFlows, never, SessionTokens | PlatformAuth | PlatformHttp | AuthorizeAgent> = Layer.effect(
    MemberFlows,
    Effect.gen(function*() {
      const tokens = yield* SessionTokens
      // by its key alone: the flows send through the wire they are given and build none
      const http = yield* PlatformHttpKey
      const agent = yield* AuthorizeAgent
      const call = apiCall(http, yield* PlatformAuth)
      const clientId = tokens.clientId
      let pendingStep: PendingStep | undefined

      // A new flow (login, register, recover) replaces the pending step; a refused code keeps it, so
      // the member can try again.
      const settle = (result: LoginResult): LoginResult => {
        pendingStep = pendingOf(result)
        return result
      }
      const settleStep = (result: LoginResult): LoginResult => (result.loginState === "FAILURE" ? result : settle(result))
      const stateCall = (path: string, payload: Record<string, unknown>) => call(path, payload, StateMachineResponse)

      const register: MemberFlowsShape["register"] = (input) =>
        stateCall(Paths.register, {
          loginId: { email: input.email },
          password: reveal(input.password),
          ...(input.profile === undefined ? {} : { profile: input.profile }),
          ...captchaPayload(input.captchaTokens)
        }).pipe(Effect.map(fromState), Effect.catch(registerFailure), Effect.map(settle))

      const login: MemberFlowsShape["login"] = (input) =>
        stateCall(Paths.login, {
          loginId: { email: input.email },
          password: reveal(input.password),
          ...captchaPayload(input.captchaTokens)
        }).pipe(Effect.map(fromState), Effect.catch(loginFailure), Effect.map(settle))

      const verify: MemberFlowsShape["verify"] = (input) => {
        const stateToken = input.stateToken ?? (pendingStep?.kind === "EMAIL_VERIFICATION" ? pendingStep.stateToken : undefined)
        // verification only makes sense in EMAIL_VERIFICATION_REQUIRED: no request otherwise
        if (stateToken === undefined) return Effect.succeed(unknownState)
        return stateCall(Paths.verifyDuringAuth, { code: input.code, stateToken }).pipe(
          Effect.map(fromState),
          Effect.catch(verifyFailure),
          Effect.map(settleStep)
        )
      }

      const verifyFactor: MemberFlowsShape["verifyFactor"] = (input) => {
        const stateToken = input.stateToken ?? (pendingStep?.kind === "MFA" ? pendingStep.stateToken : undefined)
        if (stateToken === undefined) return Effect.succeed(unknownState)
        return stateCall(Paths.verifyFactor(input.factorType), {
          stateToken,
          ...(input.rememberThisDevice === undefined ? {} : { rememberThisDevice: input.rememberThisDevice }),
          ...factorPayload(input.factorType, input.code)
        }).pipe(Effect.map(fromState), Effect.catch(verifyFailure), Effect.map(settleStep))
      }

      const startVerification = (identityId: string) =>
        call(Paths.startVerification, { identityId, target: "EMAIL" }, StartVerificationResponse)

      const changePassword = (newPassword: Secret) =>
        Effect.asVoid(call(Paths.changePassword, { newPassword: reveal(newPassword) }, EmptyAnswer))

      const sendPasswordResetEmail: MemberFlowsShape["sendPasswordResetEmail"] = (email, redirectUri, opts = {}) =>
        Effect.asVoid(call(Paths.sendRecoveryEmail, {
          email,
          ...(opts.language === undefined ? {} : { language: opts.language }),
          redirect: { url: redirectUri, clientId }
        }, EmptyAnswer))

      const sendActivationEmail: MemberFlowsShape["sendActivationEmail"] = (identityId, opts = {}) =>
        Effect.asVoid(call(Paths.activationEmail, {
          identityId,
          ...(opts.redirectUri === undefined && opts.language === undefined ? {} : {
            emailOptions: {
              ...(opts.language === undefined ? {} : { language: opts.language }),
              ...(opts.redirectUri === undefined ? {} : { redirect: { url: opts.redirectUri, clientId } })
            }
          })
        }, EmptyAnswer))

      const recover = (recoveryToken: string, password: Secret) =>
        stateCall(Paths.recover, { recoveryToken, password: reveal(password) }).pipe(
          Effect.map(fromState),
          Effect.catch(verifyFailure),
          Effect.map(settle)
        )

      const completeDirectLogin = (sessionToken: string) =>
        Effect.gen(function*() {
          const pkce = yield* makePkce()
          const session = yield* createRedirectSession(call, authRequest(clientId, pkce, {
            redirectUri: agent.redirectUri,
            responseMode: agent.responseMode,
            prompt: "none",
            sessionToken
          }))
          const answer = yield* agent.authorize(session.fullUrl, pkce.state)
          if (answer.state !== pkce.state) return yield* invalidState()
          pendingStep = undefined
          return yield* exchangeCode(http, tokens, answer.code, { codeVerifier: pkce.codeVerifier, redirectUri: agent.redirectUri })
        })

      const externalGrant = (payload: Record<string, unknown>, apiKey: Secret) =>
        Effect.gen(function*() {
          const visitor = yield* tokens.ensureTokens
          const response = yield* tokenCall(http, payload, {
            idempotent: false,
            headers: { Authorization: `${visitor.accessToken.value},${reveal(apiKey)}` }
          }).pipe(Effect.mapError(toOAuthError))
          const member = tokensFrom(response, "member", yield* nowSeconds)
          yield* tokens.setTokens(member)
          return member
        })

      const externalLogin = (memberId: string, apiKey: Secret) =>
        externalGrant({ grant_type: "authorized_client", scope: "offline_access", member_id: memberId }, apiKey)

      const externalLoginWithSession: MemberFlowsShape["externalLoginWithSession"] = (email, apiKey, opts = {}) =>
        Effect.gen(function*() {
          const visitor = yield* tokens.ensureTokens
          const req = { method: "POST" as const, path: Paths.signOn, payload: { loginId: { email }, ...opts } }
          const signOn = yield* http.send({
            ...req,
            host: "api",
            headers: { Authorization: `${visitor.accessToken.value},${reveal(apiKey)}` }
          }).pipe(Effect.flatMap((res) => checkBody(req, res, SignOnResponse)))
          return yield* externalGrant(
            { grant_type: "authorized_client", member_id: signOn.identity.id, session_token: signOn.sessionToken },
            apiKey
          )
        })

      return MemberFlows.of({
        register,
        login,
        verify,
        verifyFactor,
        startVerification,
        changePassword,
        sendPasswordResetEmail,
        sendActivationEmail,
        recover,
        completeDirectLogin,
        externalLogin,
        externalLoginWithSession,
        pending: Effect.sync(() => Option.fromUndefinedOr(pendingStep)),
        clearPending: Effect.sync(() => {
          pendingStep = undefined
        })
      })
    })
  )
}

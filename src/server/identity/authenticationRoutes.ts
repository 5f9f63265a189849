/**
 * The authentication service: register, login, sign-on (for apps holding an API key), change password
 * and second-factor verification.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import {
  ChangePasswordRequest,
  FactorType,
  LoginRequest,
  Paths,
  RegisterRequest,
  SignOnRequest,
  SignOnResponse,
  StateMachineResponse,
  VerifyFactorRequest
} from "../../session/wire/index.ts"
import { Callers } from "../accounts/Callers.ts"
import { OneTimeTokens } from "../platform/OneTimeTokens.ts"
import { hashPassword, passwordProblem, verifyPassword } from "../accounts/passwords.ts"
import { RefreshTokens } from "../accounts/RefreshTokens.ts"
import {
  application,
  badRequest,
  conflict,
  forbidden,
  invalidField,
  notFound,
  reply,
  replyEmpty,
  unauthorized
} from "../platform/responses.ts"
import { body, clientAddress, decode, pathParam, route } from "../platform/routing.ts"
import { ServerClock } from "../platform/ServerClock.ts"
import { Settings } from "../platform/Settings.ts"
import { base32Decode, verifyTotp } from "./totp.ts"
import { Codes } from "./codes.ts"
import { Flows, MAX_CODE_ATTEMPTS, type StateStep } from "./Flows.ts"
import { LoginThrottle } from "../accounts/LoginThrottle.ts"
import { isEmail, type MemberRecord, MemberStore, type StatusReason } from "../accounts/MemberStore.ts"

export const authenticationRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const members = yield* MemberStore
  const flows = yield* Flows
  const settings = yield* Settings
  const tokens = yield* OneTimeTokens
  const refreshTokens = yield* RefreshTokens
  const clock = yield* ServerClock
  const throttle = yield* LoginThrottle

  const register = Effect.gen(function*() {
    yield* callers.session
    const request = yield* body(RegisterRequest)
    const email = request.loginId.email.trim()
    if (!isEmail(email)) return yield* invalidEmail("loginId.email")
    const password = request.password ?? ""
    const problem = passwordProblem(password)
    if (problem !== undefined) return yield* weakPassword("password", problem)
    yield* flows.checkCaptcha(request.captchaTokens)
    if (members.byEmail(email) !== undefined) return yield* conflict("A member with this email already exists", Codes.emailAlreadyExists).because({ kind: "conflict", id: "identity.email.exists" })
    const passwordHash = yield* hashPassword(password)
    const site = settings.get()
    const reasons: Array<StatusReason> = []
    if (site.ownerApproval) reasons.push("PENDING_ADMIN_APPROVAL_REQUIRED")
    if (site.emailVerification) reasons.push("PENDING_EMAIL_VERIFICATION_REQUIRED")
    // checked again after hashing: another registration may have taken the e-mail meanwhile
    if (members.byEmail(email) !== undefined) return yield* conflict("A member with this email already exists", Codes.emailAlreadyExists).because({ kind: "conflict", id: "identity.email.exists" })
    const member = members.create({
      email,
      passwordHash,
      status: reasons.length === 0 ? "ACTIVE" : "PENDING",
      reasons,
      emailVerified: false,
      profile: request.profile ?? {}
    })
    return reply(StateMachineResponse, yield* flows.next(member))
  })

  const login = Effect.gen(function*() {
    yield* callers.session
    const request = yield* body(LoginRequest)
    const address = yield* clientAddress
    const guard = yield* throttle.check(request.loginId.email, address)
    yield* flows.checkCaptcha(request.captchaTokens, guard.captchaRequired)
    const member = members.byEmail(request.loginId.email)
    if (member === undefined) return yield* application(404, Codes.emailNotFound, "No member has this email").because({ kind: "not-found", id: "identity.email.unknown" })
    if (member.passwordHash === undefined) {
      return yield* badRequest(Codes.resetPassword, "This member has no password yet; reset it to log in")
        .because({ kind: "precondition", id: "identity.password.reset-required" })
    }
    const ok = yield* verifyPassword(request.password ?? "", member.passwordHash)
    if (!ok) {
      throttle.failed(request.loginId.email, address)
      return yield* unauthorized("Wrong email or password", Codes.invalidPassword).because({ kind: "authentication", id: "identity.login.password" })
    }
    throttle.succeeded(request.loginId.email, address)
    if (member.mustReset) return yield* badRequest(Codes.resetPassword, "The password must be reset before logging in")
        .because({ kind: "precondition", id: "identity.password.reset-required" })
    return reply(StateMachineResponse, yield* flows.next(member))
  })

  const signOn = Effect.gen(function*() {
    yield* callers.admin
    const request = yield* body(SignOnRequest)
    const email = request.loginId.email.trim()
    if (!isEmail(email)) return yield* invalidEmail("loginId.email")
    let member: MemberRecord | undefined = members.byEmail(email)
    if (member === undefined) {
      member = members.create({
        email,
        passwordHash: undefined,
        status: "ACTIVE",
        reasons: [],
        emailVerified: request.verifyEmail === true,
        profile: request.profile ?? {}
      })
    } else {
      if (member.status === "BLOCKED") return yield* forbidden("This member is blocked", Codes.memberBlocked).because({ kind: "permission", id: "identity.member.blocked" })
      member = members.update(member.id, {
        ...(request.verifyEmail === true ? { emailVerified: true } : {}),
        ...(request.mergeExistingContact === true && request.profile !== undefined
          ? { profile: { ...member.profile, ...request.profile } }
          : {})
      })
    }
    const { sessionToken, identity } = flows.success(member)
    return reply(SignOnResponse, { sessionToken: sessionToken ?? "", identity: identity ?? flows.identity(member) })
  })

  const changePassword = Effect.gen(function*() {
    const caller = yield* callers.member
    const request = yield* body(ChangePasswordRequest)
    const problem = passwordProblem(request.newPassword)
    if (problem !== undefined) return yield* weakPassword("newPassword", problem)
    const passwordHash = yield* hashPassword(request.newPassword)
    if (members.byId(caller.id) === undefined) return yield* notFound("The member no longer exists", Codes.memberNotFound)
    members.update(caller.id, { passwordHash, mustReset: false })
    // every device signs in again with the new password
    refreshTokens.revoke("member", caller.id)
    return replyEmpty()
  })

  const verifyFactor = Effect.gen(function*() {
    yield* callers.session
    const raw = (yield* pathParam("factorType")).toUpperCase()
    const factorType = yield* decode(FactorType, raw).pipe(
      Effect.mapError(() => invalidField("factorType", `Unknown factor type ${raw}`))
    )
    const request = yield* body(VerifyFactorRequest)
    const code = (() => {
      switch (factorType) {
        case "TOTP":
          return request.totpData?.code
        case "EMAIL":
          return request.emailData?.code
        case "SMS":
          return request.smsData?.code
        case "CALL":
          return request.callData?.code
        case "RECOVERY_CODE":
          return request.recoveryCodeData?.code
        default:
          return undefined
      }
    })()
    if (code === undefined || code.trim() === "") {
      const field = factorType === "RECOVERY_CODE" ? "recoveryCodeData" : `${factorType.toLowerCase()}Data`
      return yield* invalidField(`${field}.code`, "A verification code is required", "REQUIRED_FIELD")
    }
    const pending = tokens.peek<StateStep>("state", request.stateToken)
    if (pending === undefined || pending.data.step !== "mfa") {
      return yield* badRequest(Codes.invalidStateToken, "The state token is unknown, used or expired")
    }
    const step = pending.data
    const member = members.byId(pending.subject)
    if (member === undefined) return yield* badRequest(Codes.invalidStateToken, "The state token is unknown, used or expired")
    if (!step.factors.some((f) => f === factorType)) {
      return yield* badRequest(Codes.factorNotAvailable, `${factorType} is not one of this member's factors`)
    }
    let ok: boolean
    if (factorType === "TOTP") {
      ok = members.factors(member.id).some((f) => {
        const secret = f.type === "TOTP" && f.secret !== undefined ? base32Decode(f.secret) : undefined
        return secret !== undefined && verifyTotp(secret, code.trim(), clock.seconds())
      })
      if (!ok) tokens.failAttempt("state", request.stateToken, MAX_CODE_ATTEMPTS)
    } else {
      ok = flows.checkCode(request.stateToken, step, step.codes[factorType as "EMAIL" | "SMS"], code)
    }
    if (!ok) return yield* badRequest(Codes.invalidCode, "The verification code is not valid")
    if (tokens.consume("state", request.stateToken) === undefined) {
      return yield* badRequest(Codes.invalidStateToken, "The state token is unknown, used or expired")
    }
    return reply(StateMachineResponse, flows.success(member))
  })

  return [
    route("POST", Paths.register, register),
    route("POST", Paths.login, login),
    route("POST", Paths.signOn, signOn),
    route("POST", Paths.changePassword, changePassword),
    route("POST", "/_api/iam/authentication/v2/:factorType/verify", verifyFactor)
  ]
}))

const invalidEmail = (field: string) =>
  invalidField(field, "Email address is not valid", "FORMAT", { type: "EMAIL" })

const weakPassword = (field: string, problem: string) => invalidField(field, problem, "MIN_LENGTH", { minLength: 6 })

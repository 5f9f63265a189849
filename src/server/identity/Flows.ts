/**
 * The steps a login passes through after its first factor (a password, a recovery, a sign-on): owner
 * approval, e-mail verification, MFA, then success with a one-time session token. Register, login,
 * verification and factor verification all continue through {@link FlowsShape.next}, so the rules
 * live in one place.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomBytes } from "node:crypto"
import type { CaptchaToken, Identity, StateMachineResponse } from "../../session/wire/index.ts"
import { OneTimeTokens } from "../platform/OneTimeTokens.ts"
import { Outbox } from "../platform/Outbox.ts"
import { badRequest, forbidden, type Reject } from "../platform/responses.ts"
import { digest, numericCode } from "../platform/secrets.ts"
import { ServerClock } from "../platform/ServerClock.ts"
import { Settings } from "../platform/Settings.ts"
import { Codes } from "./codes.ts"
import { type EnrolledFactorType, type MemberRecord, MemberStore } from "../accounts/MemberStore.ts"
import { identityOf } from "./views.ts"

/** Session tokens prove a fresh login for this long. */
export const SESSION_TOKEN_SECONDS = 10 * 60
export const STATE_TOKEN_SECONDS = 10 * 60
/** Wrong codes allowed before a state token dies. */
export const MAX_CODE_ATTEMPTS = 5

export type StateStep =
  | { readonly step: "email"; readonly salt: string; readonly code: string }
  | {
    readonly step: "mfa"
    readonly salt: string
    readonly factors: ReadonlyArray<EnrolledFactorType>
    readonly codes: Partial<Record<EnrolledFactorType, string>>
  }

export interface FlowsShape {
  readonly identity: (member: MemberRecord) => Identity
  /** The next state of a member who just proved their first factor. */
  readonly next: (member: MemberRecord) => Effect.Effect<StateMachineResponse, Reject>
  /** Completes a login: a one-time session token and the identity. */
  readonly success: (member: MemberRecord) => StateMachineResponse
  /** Sends a verification code by e-mail and returns the state token that goes with it. */
  readonly startEmailVerification: (member: MemberRecord) => Effect.Effect<string>
  /** Checks a code against a state token's step; wrong codes count towards the attempt limit. */
  readonly checkCode: (stateToken: string, step: StateStep, codeDigest: string | undefined, code: string) => boolean
  readonly codeDigest: (salt: string, code: string) => string
  /** Enforces the captcha setting; a valid token is used up. */
  /** Refuses a missing or unknown captcha token when the site asks for captchas, or when `required`. */
  readonly checkCaptcha: (tokens: ReadonlyArray<CaptchaToken> | undefined, required?: boolean) => Effect.Effect<void, Reject>
}

export class Flows extends Context.Service<Flows, FlowsShape>()("sitefx/server/identity/Flows") {
  static readonly layer: Layer.Layer<Flows, never, MemberStore | OneTimeTokens | Outbox | Settings | ServerClock> = Layer
    .effect(
      Flows,
      Effect.gen(function*() {
        const members = yield* MemberStore
        const tokens = yield* OneTimeTokens
        const outbox = yield* Outbox
        const settings = yield* Settings
        const clock = yield* ServerClock

        const identity = (member: MemberRecord) => identityOf(member, members.factors(member.id))
        const codeDigest = (salt: string, code: string) => digest(`${salt}:${code.trim()}`)

        const success = (member: MemberRecord): StateMachineResponse => {
          const updated = members.update(member.id, { lastLoginAt: clock.millis() })
          const sessionToken = tokens.issue("session", member.id, SESSION_TOKEN_SECONDS, {})
          return { state: "SUCCESS", sessionToken, identity: identity(updated) }
        }

        const startEmailVerification = (member: MemberRecord) =>
          Effect.gen(function*() {
            const salt = randomBytes(16).toString("base64url")
            const code = numericCode()
            const step: StateStep = { step: "email", salt, code: codeDigest(salt, code) }
            const stateToken = tokens.issue("state", member.id, STATE_TOKEN_SECONDS, step)
            yield* outbox.send({
              to: member.email,
              kind: "EMAIL_VERIFICATION",
              subject: "Verify your e-mail address",
              body: `Your verification code is ${code}. It expires in ${STATE_TOKEN_SECONDS / 60} minutes.`,
              code
            })
            return stateToken
          })

        const startMfa = (member: MemberRecord) =>
          Effect.gen(function*() {
            const enrolled = members.factors(member.id)
            // a site that requires MFA falls back to e-mail codes for members without a factor
            const byRule = enrolled.length === 0
            const types = byRule ? (["EMAIL"] as const) : [...new Set(enrolled.map((f) => f.type))]
            const salt = randomBytes(16).toString("base64url")
            const codes: Partial<Record<EnrolledFactorType, string>> = {}
            for (const type of types) {
              if (type === "TOTP") continue
              const code = numericCode()
              codes[type] = codeDigest(salt, code)
              const to = type === "SMS" ? enrolled.find((f) => f.type === "SMS")?.phone ?? member.email : member.email
              yield* outbox.send({
                to,
                kind: "MFA_CODE",
                subject: type === "SMS" ? "Your sign-in code (SMS)" : "Your sign-in code",
                body: `Your sign-in code is ${code}. It expires in ${STATE_TOKEN_SECONDS / 60} minutes.`,
                code
              })
            }
            const step: StateStep = { step: "mfa", salt, factors: types, codes }
            const stateToken = tokens.issue("state", member.id, STATE_TOKEN_SECONDS, step)
            const response: StateMachineResponse = {
              state: "REQUIRE_MFA",
              stateToken,
              requireMfaData: {
                availableFactors: types.map((factorType) => ({
                  factorType,
                  factorStatus: byRule ? "ENABLED_BY_RULE" : "ENABLED"
                })),
                reason: "USER_SETTINGS"
              }
            }
            return response
          })

        const next = (member: MemberRecord): Effect.Effect<StateMachineResponse, Reject> =>
          Effect.gen(function*() {
            if (member.status === "BLOCKED") return yield* forbidden("This member is blocked", Codes.memberBlocked).because({ kind: "permission", id: "identity.member.blocked" })
            if (member.reasons.includes("PENDING_ADMIN_APPROVAL_REQUIRED")) {
              return { state: "REQUIRE_OWNER_APPROVAL", identity: identity(member) } as const
            }
            const site = settings.get()
            if (
              !member.emailVerified &&
              (site.emailVerification || member.reasons.includes("PENDING_EMAIL_VERIFICATION_REQUIRED"))
            ) {
              const stateToken = yield* startEmailVerification(member)
              return { state: "REQUIRE_EMAIL_VERIFICATION", stateToken, identity: identity(member) } as const
            }
            if (site.mfaRequired || members.factors(member.id).length > 0) return yield* startMfa(member)
            return success(member)
          })

        const checkCode = (stateToken: string, step: StateStep, expected: string | undefined, code: string) => {
          if (expected !== undefined && codeDigest(step.salt, code) === expected) return true
          tokens.failAttempt("state", stateToken, MAX_CODE_ATTEMPTS)
          return false
        }

        const checkCaptcha = (captchaTokens: ReadonlyArray<CaptchaToken> | undefined, required = false) =>
          Effect.gen(function*() {
            if (!required && !settings.get().captcha) return
            const values = (captchaTokens ?? [])
              .flatMap((t) => [t.Recaptcha, t.InvisibleRecaptcha, t.NoCaptcha])
              .filter((v): v is string => typeof v === "string" && v !== "")
            if (values.length === 0) return yield* badRequest(Codes.missingCaptchaToken, "A captcha token is required")
              .because({ kind: "validation", id: "identity.captcha.missing", fields: ["captchaTokens"] })
            const used = values.some((value) => tokens.consume("captcha", value) !== undefined)
            if (!used) return yield* badRequest(Codes.invalidCaptchaToken, "The captcha token is not valid")
              .because({ kind: "validation", id: "identity.captcha.invalid", fields: ["captchaTokens"] })
          })

        return Flows.of({ identity, next, success, startEmailVerification, checkCode, codeDigest, checkCaptcha })
      })
    )
}

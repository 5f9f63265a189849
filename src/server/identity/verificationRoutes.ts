/**
 * The verification service: e-mail codes during a login or registration (`auth/verify`), and starting
 * a new verification for a member (a resend).
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import {
  Paths,
  StartVerificationRequest,
  StartVerificationResponse,
  StateMachineResponse,
  VerifyDuringAuthRequest
} from "../../session/wire/index.ts"
import { Callers } from "../accounts/Callers.ts"
import { OneTimeTokens } from "../platform/OneTimeTokens.ts"
import { badRequest, invalidField, notFound, reply } from "../platform/responses.ts"
import { body, route } from "../platform/routing.ts"
import { Codes } from "./codes.ts"
import { Flows, type StateStep } from "./Flows.ts"
import { MemberStore } from "../accounts/MemberStore.ts"

export const verificationRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const members = yield* MemberStore
  const flows = yield* Flows
  const tokens = yield* OneTimeTokens

  const verifyDuringAuth = Effect.gen(function*() {
    yield* callers.session
    const request = yield* body(VerifyDuringAuthRequest)
    const pending = tokens.peek<StateStep>("state", request.stateToken)
    const member = pending === undefined ? undefined : members.byId(pending.subject)
    if (pending === undefined || pending.data.step !== "email" || member === undefined) {
      return yield* badRequest(Codes.invalidStateToken, "The state token is unknown, used or expired")
    }
    if (!flows.checkCode(request.stateToken, pending.data, pending.data.code, request.code)) {
      return yield* badRequest(Codes.invalidCode, "The verification code is not valid")
    }
    if (tokens.consume("state", request.stateToken) === undefined) {
      return yield* badRequest(Codes.invalidStateToken, "The state token is unknown, used or expired")
    }
    const reasons = member.reasons.filter((r) => r !== "PENDING_EMAIL_VERIFICATION_REQUIRED")
    const verified = members.update(member.id, {
      emailVerified: true,
      reasons,
      ...(member.status === "PENDING" && reasons.length === 0 ? { status: "ACTIVE" as const } : {})
    })
    return reply(StateMachineResponse, yield* flows.next(verified))
  })

  const start = Effect.gen(function*() {
    yield* callers.session
    const request = yield* body(StartVerificationRequest)
    if (request.identityId === undefined) return yield* invalidField("identityId", "identityId is required", "REQUIRED_FIELD")
    if (request.target !== undefined && request.target !== "EMAIL") {
      return yield* invalidField("target", "Only EMAIL verification is available")
    }
    const member = members.byId(request.identityId)
    if (member === undefined) return yield* notFound("No member has this id", Codes.memberNotFound)
    // the id of the verification is its state token: `auth/verify` completes it with the e-mailed code
    const verificationId = yield* flows.startEmailVerification(member)
    return reply(StartVerificationResponse, { verificationId })
  })

  return [
    route("POST", Paths.verifyDuringAuth, verifyDuringAuth),
    route("POST", Paths.startVerification, start)
  ]
}))

/**
 * The members admin API's typed error: the platform's application code (`MEMBER_NOT_FOUND`,
 * `OWNER_MEMBER_BLOCK_FORBIDDEN`, ...) and message, raised by the client's own argument checks before
 * any request and decoded from the platform's refusals. Unavailability (no answer, 429, 502–504) stays
 * a PlatformError, as in the data and catalog clients.
 */
import type { PlatformError } from "../http/PlatformError.ts"
import { answerError, argumentError, FailureCodes, Refusal, refusedOr } from "../http/Refusal.ts"

/** Codes sitefx raises itself or that callers commonly match on. */
export const MembersCodes = {
  /** The local platform's code for an unknown member id (the platform answers 404). */
  memberNotFound: "MEMBER_NOT_FOUND",
  /** A 404 without an application code. */
  notFound: FailureCodes.notFound,
  /** An argument the client refused before sending anything. */
  invalidArgument: FailureCodes.invalidArgument,
  /** The platform refused the request's fields (see `fieldViolations`). */
  validation: FailureCodes.validation,
  /** The caller may not administer members (a visitor or member session rather than an API key). */
  permissionDenied: FailureCodes.permissionDenied,
  unauthenticated: FailureCodes.unauthenticated
} as const

/** A refused members call: sitefx's own check, the platform's refusal, or an answer sitefx could not use. */
export class MembersError extends Refusal("MembersError") {}

/** A members call's failure: refused, or the platform unavailable. */
export type MembersFailure = MembersError | PlatformError

/** A client-side refusal, before any request. */
export const invalidArgument = (message: string, field: string): MembersError =>
  new MembersError({ reason: argumentError(MembersCodes.invalidArgument, message, field) })

/** A refusal sitefx reads from a 200 answer (no member has that email, ...). */
export const badAnswer = (code: string, message: string): MembersError => new MembersError({ reason: answerError(code, message) })

/** A failed platform call: unavailability stays a PlatformError, anything else becomes a MembersError. */
export const fromPlatformError: (error: PlatformError) => MembersFailure = refusedOr((reason) => new MembersError({ reason }))

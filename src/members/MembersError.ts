/**
 * The members admin API's typed error: the platform's application code (`MEMBER_NOT_FOUND`,
 * `OWNER_MEMBER_BLOCK_FORBIDDEN`, ...) and message, raised by the client's own argument checks before
 * any request and decoded from the platform's refusals. Unavailability (no answer, 429, 502–504) stays
 * a PlatformError, as in the data and catalog clients.
 */
import * as Data from "effect/Data"
import type { PlatformError } from "../http/PlatformError.ts"
import { isTransient } from "../http/PlatformHttp.ts"
import { refusal } from "../http/refusal.ts"
import type { FieldViolation } from "../http/wire.ts"

/** Codes sitefx raises itself or that callers commonly match on. */
export const MembersCodes = {
  /** The local platform's code for an unknown member id (the platform answers 404). */
  memberNotFound: "MEMBER_NOT_FOUND",
  /** A 404 without an application code. */
  notFound: "NOT_FOUND",
  /** An argument the client refused before sending anything. */
  invalidArgument: "INVALID_ARGUMENT",
  /** The platform refused the request's fields (see `fieldViolations`). */
  validation: "VALIDATION_ERROR",
  /** The caller may not administer members (a visitor or member session rather than an API key). */
  permissionDenied: "PERMISSION_DENIED",
  unauthenticated: "UNAUTHENTICATED"
} as const

export class MembersError extends Data.TaggedError("MembersError")<{
  readonly code: string
  readonly message: string
  /** The argument or field the error is about, when there is one. */
  readonly field?: string
  readonly fieldViolations?: ReadonlyArray<FieldViolation>
  readonly data?: unknown
  readonly status?: number
  readonly requestId?: string
}> {}

export type MembersFailure = MembersError | PlatformError

/** A client-side refusal, before any request. */
export const invalidArgument = (message: string, field: string): MembersError =>
  new MembersError({ code: MembersCodes.invalidArgument, message, field })

/** A failed platform call: unavailability stays a PlatformError, anything else becomes a MembersError. */
export const fromPlatformError = (error: PlatformError): MembersFailure =>
  isTransient(error) || error.reason._tag === "TransportError" ? error : new MembersError(refusal(error))

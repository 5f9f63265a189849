/**
 * The reasons every sitefx call can fail for, decided here once for every module. A failure is an error
 * class per concern (`PlatformError` for the wire, `DataError`, `CatalogError`, `MembersError` for the
 * modules, see Refusal.ts) whose `reason` is one of these tagged classes:
 *
 * - `ArgumentError`: sitefx refused an argument before sending anything;
 * - `ValidationError`: the platform refused the request's fields (400 with field violations);
 * - `ApplicationError`: the platform refused the call with an application code;
 * - `SystemError`: the platform answered another non-200 status, or a body of an unexpected shape;
 * - `AnswerError`: the platform answered, and the answer does not give what was asked (a missing entity,
 *   an item that does not match the caller's schema);
 * - `TransportError`: the request got no answer.
 *
 * `codeOf` gives every reason its one code (see `FailureCodes`), so a 403 means `PERMISSION_DENIED` in every module.
 */
import * as Data from "effect/Data"
import type { Rule } from "./rule.ts"
import type { FieldViolation } from "./wire.ts"

export type { Rule }

interface Common {
  readonly status: number
  readonly message: string
  readonly requestId?: string
  /** The rule that refused the call, when the platform names it (the local platform always does). */
  readonly rule?: Rule
}

/** 400 with field violations. */
export class ValidationError extends Data.TaggedClass("ValidationError")<Common & {
  readonly fieldViolations: ReadonlyArray<FieldViolation>
}> {}

/** A refusal with an application code (`"-19976"`, `"WDE0074"`, ...). */
export class ApplicationError extends Data.TaggedClass("ApplicationError")<Common & {
  readonly code: string
  readonly description: string
  readonly data?: unknown
}> {}

/** Any other non-200 answer: the code is the HTTP status, the description the message or status text. */
export class SystemError extends Data.TaggedClass("SystemError")<Common & {
  readonly description: string
}> {}

/**
 * How a request got no answer:
 * - `unreachable`: no connection was made (DNS, refused), so the request never left;
 * - `reset`: the connection broke after the request went out, before the whole answer came back;
 * - `timeout`: no whole answer within the call's timeout (the request was then aborted);
 * - `unknown`: the runtime does not say (a browser's `fetch` never does).
 */
export type TransportKind = "unreachable" | "reset" | "timeout" | "unknown"

/** The request got no answer: DNS, refused or reset connection, timeout. */
export class TransportError extends Data.TaggedClass("TransportError")<{
  readonly message: string
  readonly cause?: unknown
  /** How it got no answer; `unknown` when absent. */
  readonly kind?: TransportKind
}> {}

/** An argument sitefx refused before sending anything (`WDE0001`, `INVALID_ARGUMENT`, ...). */
export class ArgumentError extends Data.TaggedClass("ArgumentError")<{
  readonly code: string
  readonly message: string
  /** The argument or field the refusal is about. */
  readonly field?: string
}> {}

/** A 200 answer that does not give what was asked: the entity is missing, or an item does not fit its schema. */
export class AnswerError extends Data.TaggedClass("AnswerError")<{
  readonly code: string
  readonly message: string
  /** What the answer said instead, when it helps (the catalog version a site runs, ...). */
  readonly data?: unknown
}> {}

/**
 * Whether a failed call may have been carried out all the same: the request went out and no answer said
 * otherwise (a reset, a timeout, a runtime that cannot tell), or the platform answered a server error
 * other than 503 (a 500, or a gateway's 502 or 504, which may come after the work was done). False when
 * sitefx refused before sending, the connection was never made, or the platform refused the call
 * (4xx, 429, 503). A write that failed with this true is worth reading back before it is sent again.
 */
export const mayHaveApplied = (reason: FailureReason): boolean => {
  switch (reason._tag) {
    case "TransportError":
      return reason.kind !== "unreachable"
    case "SystemError":
      return reason.status >= 500 && reason.status !== 503
    default:
      return false
  }
}

/** Why a platform call failed, as the wire tells it: refused fields, an application code, another status, or no answer. */
export type PlatformErrorReason = ValidationError | ApplicationError | SystemError | TransportError

/** Why a module refused or the platform refused a call (a module error's `reason`). */
export type RefusalReason = ArgumentError | AnswerError | ValidationError | ApplicationError | SystemError

/** Every reason a sitefx call can fail for. */
export type FailureReason = RefusalReason | TransportError

// A status without an application code reads as the platform's gRPC-style name for it (FailureCodes in Refusal.ts names them).
const STATUS_CODES: Readonly<Record<number, string>> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ALREADY_EXISTS",
  429: "RESOURCE_EXHAUSTED",
  502: "UNAVAILABLE",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED"
}

/** The one code of a reason: its application or argument code, else one of `FailureCodes` by kind and status. */
export const codeOf = (reason: FailureReason): string => {
  switch (reason._tag) {
    case "ArgumentError":
    case "AnswerError":
    case "ApplicationError":
      return reason.code
    case "ValidationError":
      return "VALIDATION_ERROR"
    case "TransportError":
      return "TRANSPORT_ERROR"
    case "SystemError":
      return STATUS_CODES[reason.status] ?? "UNKNOWN_ERROR"
  }
}

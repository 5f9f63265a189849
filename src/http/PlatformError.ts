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
import type { AnswerError, ArgumentError } from "./reasons.ts"
import type { Rule } from "./rule.ts"
import type { ErrorBody, FieldViolation } from "./wire.ts"

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

/**
 * A failed platform call. Plain tagged classes (effect/Data), not Schema classes: errors are made and
 * matched on, never decoded, and a browser bundle should not carry Schema for them.
 *
 * @example
 * declare const load: Effect.Effect<string, PlatformError>
 * const shown = load.pipe(
 *   Effect.catchReason("PlatformError", "TransportError", () => Effect.succeed("offline: showing what was kept")),
 *   Effect.catchTag("PlatformError", (e) => Effect.succeed(e.code === "RESOURCE_EXHAUSTED" ? "busy, try again" : e.message))
 * )
 */
export class PlatformError extends Data.TaggedError("PlatformError")<{
  readonly method: string
  readonly path: string
  readonly reason: PlatformErrorReason
  /**
   * An earlier attempt of this call, which was retried, may have been carried out (a reset or a timeout
   * before this last failure): the call may have happened although this failure says it did not.
   */
  readonly earlierAttemptMayHaveApplied?: boolean
}> {
  override get message(): string {
    const r = this.reason
    const where = `${this.method} ${this.path}`
    const id = "requestId" in r && r.requestId !== undefined ? ` (request id ${r.requestId})` : ""
    switch (r._tag) {
      case "ValidationError":
        return `${where}: ${r.message}${id}`
      case "ApplicationError":
        return `${where}: ${r.code} ${r.description}${id}`
      case "SystemError":
        return `${where}: ${r.status} ${r.description}${id}`
      case "TransportError":
        return `${where}: ${r.message}`
    }
  }

  /** The HTTP status, or undefined for a transport failure. */
  get status(): number | undefined {
    return this.reason._tag === "TransportError" ? undefined : this.reason.status
  }

  /** The application code when there is one, else the code of the failure's kind (`codeOf`). */
  get code(): string {
    return codeOf(this.reason)
  }

  get requestId(): string | undefined {
    return this.reason._tag === "TransportError" ? undefined : this.reason.requestId
  }

  /**
   * A 401 that rejects the credentials themselves (missing, expired or revoked token), as opposed to a
   * 401 verdict of the call (a wrong password answers 401 with its own application code). Only these
   * are worth a token refresh and a retry.
   */
  get isTokenRejection(): boolean {
    const r = this.reason
    if (r._tag === "TransportError" || r.status !== 401) return false
    return r._tag !== "ApplicationError" || GENERIC_AUTH_CODES.has(r.code.toUpperCase())
  }

  /** The field violations of a validation error, else an empty list. */
  get fieldViolations(): ReadonlyArray<FieldViolation> {
    return this.reason._tag === "ValidationError" ? this.reason.fieldViolations : []
  }

  /** Whether the call may have been carried out although it failed, by this attempt or an earlier one (see {@link mayHaveApplied}). */
  get mayHaveApplied(): boolean {
    return this.earlierAttemptMayHaveApplied === true || mayHaveApplied(this.reason)
  }

  /** The rule that refused the call (kind, id, message and its kind's specifics), when the platform names one. */
  get rule(): Rule | undefined {
    return this.reason._tag === "TransportError" ? undefined : this.reason.rule
  }
}

const GENERIC_AUTH_CODES = new Set(["401", "UNAUTHENTICATED", "UNAUTHORIZED", "INVALID_TOKEN", "EXPIRED_TOKEN", "TOKEN_EXPIRED"])

/** Builds the error reason from a non-200 answer, following the platform's error body rules. */
export const reasonFromResponse = (options: {
  readonly status: number
  readonly statusText: string
  readonly body: ErrorBody | undefined
  readonly requestId: string | undefined
}): PlatformErrorReason => {
  const { status, body, statusText } = options
  const details = body?.details
  // what every reason keeps besides its own fields: the request id and the rule
  const kept = {
    ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
    ...(details?.rule === undefined ? {} : { rule: details.rule })
  }
  const message = body?.message ?? statusText
  if (details?.validationError !== undefined) {
    return new ValidationError({ status, message, fieldViolations: details.validationError.fieldViolations, ...kept })
  }
  if (details?.applicationError !== undefined) {
    const app = details.applicationError
    return new ApplicationError({
      status,
      message,
      code: String(app.code),
      description: app.description ?? message,
      ...(app.data === undefined ? {} : { data: app.data }),
      ...kept
    })
  }
  return new SystemError({ status, message, description: message === "" ? `HTTP ${status}` : message, ...kept })
}

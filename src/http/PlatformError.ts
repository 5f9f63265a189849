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
 * `codeOf` gives every reason its one code, so a 403 means `PERMISSION_DENIED` in every module.
 */
import * as Data from "effect/Data"
import type { ErrorBody, FieldViolation } from "./wire.ts"

interface Common {
  readonly status: number
  readonly message: string
  readonly requestId?: string
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

/** The request got no answer: DNS, refused or reset connection, timeout. */
export class TransportError extends Data.TaggedClass("TransportError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

export type PlatformErrorReason = ValidationError | ApplicationError | SystemError | TransportError

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

/** Why a module refused or the platform refused a call (a module error's `reason`). */
export type RefusalReason = ArgumentError | AnswerError | ValidationError | ApplicationError | SystemError

/** Every reason a sitefx call can fail for. */
export type FailureReason = RefusalReason | TransportError

/**
 * The codes of failures without an application code of their own, the same in every module. A status
 * without a code reads as the platform's gRPC-style name for it.
 */
export const FailureCodes = {
  /** An argument sitefx refused before sending (modules with codes of their own, like data's WDE codes, use those), or a bare 400. */
  invalidArgument: "INVALID_ARGUMENT",
  /** The platform refused the request's fields (see `fieldViolations`). */
  validation: "VALIDATION_ERROR",
  /** 401 without an application code. */
  unauthenticated: "UNAUTHENTICATED",
  /** 403 without an application code. */
  permissionDenied: "PERMISSION_DENIED",
  /** 404 without an application code. */
  notFound: "NOT_FOUND",
  /** 409 without an application code. */
  alreadyExists: "ALREADY_EXISTS",
  /** 429: too many requests for now. */
  rateLimited: "RESOURCE_EXHAUSTED",
  /** 502 or 503: the platform is unavailable for now. */
  unavailable: "UNAVAILABLE",
  /** 504: the platform's gateway gave up waiting. */
  timedOut: "DEADLINE_EXCEEDED",
  /** Any other status without an application code, or an answer of an unexpected shape. */
  unknown: "UNKNOWN_ERROR",
  /** No answer at all. */
  transport: "TRANSPORT_ERROR"
} as const

const STATUS_CODES: Readonly<Record<number, string>> = {
  400: FailureCodes.invalidArgument,
  401: FailureCodes.unauthenticated,
  403: FailureCodes.permissionDenied,
  404: FailureCodes.notFound,
  409: FailureCodes.alreadyExists,
  429: FailureCodes.rateLimited,
  502: FailureCodes.unavailable,
  503: FailureCodes.unavailable,
  504: FailureCodes.timedOut
}

/** The one code of a reason: its application or argument code, else one of `FailureCodes` by kind and status. */
export const codeOf = (reason: FailureReason): string => {
  switch (reason._tag) {
    case "ArgumentError":
    case "AnswerError":
    case "ApplicationError":
      return reason.code
    case "ValidationError":
      return FailureCodes.validation
    case "TransportError":
      return FailureCodes.transport
    case "SystemError":
      return STATUS_CODES[reason.status] ?? FailureCodes.unknown
  }
}

/** What a reason says, for people: a validation error lists its violated fields. */
export const messageOf = (reason: FailureReason): string => {
  switch (reason._tag) {
    case "ApplicationError":
    case "SystemError":
      return reason.description
    case "ValidationError":
      return [reason.message, ...reason.fieldViolations.map((v) => `${v.field ?? ""}: ${v.description ?? ""}`)].join("\n")
    default:
      return reason.message
  }
}

/**
 * A failed platform call. Plain tagged classes (effect/Data), not Schema classes: errors are made and
 * matched on, never decoded, and a browser bundle should not carry Schema for them.
 */
export class PlatformError extends Data.TaggedError("PlatformError")<{
  readonly method: string
  readonly path: string
  readonly reason: PlatformErrorReason
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
  const requestId = options.requestId === undefined ? {} : { requestId: options.requestId }
  const message = body?.message ?? statusText
  const details = body?.details
  if (details?.validationError !== undefined) {
    return new ValidationError({ status, message, fieldViolations: details.validationError.fieldViolations, ...requestId })
  }
  if (details?.applicationError !== undefined) {
    const app = details.applicationError
    return new ApplicationError({
      status,
      message,
      code: String(app.code),
      description: app.description ?? message,
      ...(app.data === undefined ? {} : { data: app.data }),
      ...requestId
    })
  }
  return new SystemError({ status, message, description: message === "" ? `HTTP ${status}` : message, ...requestId })
}

/**
 * Typed errors of a platform call. One error class, `PlatformError`, whose `reason` says what went wrong:
 * the server rejected the input (validation), refused it for an application reason (application), failed
 * or answered something unexpected (system), or the request never got an answer (transport).
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

  /** The application code when there is one, else the HTTP status as a string. */
  get code(): string | undefined {
    const r = this.reason
    switch (r._tag) {
      case "ApplicationError":
        return r.code
      case "TransportError":
        return undefined
      default:
        return String(r.status)
    }
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

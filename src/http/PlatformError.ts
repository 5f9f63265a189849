/**
 * Typed errors of a platform call. One error class, `PlatformError`, whose `reason` says what went wrong:
 * the server rejected the input (validation), refused it for an application reason (application), failed
 * or answered something unexpected (system), or the request never got an answer (transport).
 */
import * as Schema from "effect/Schema"
import { type ErrorBody, FieldViolation } from "./wire.ts"

const common = {
  status: Schema.Number,
  message: Schema.String,
  requestId: Schema.optionalKey(Schema.String)
}

/** 400 with field violations. */
export class ValidationError extends Schema.TaggedClass<ValidationError>()("ValidationError", {
  ...common,
  fieldViolations: Schema.Array(FieldViolation)
}) {}

/** A refusal with an application code (`"-19976"`, `"WDE0074"`, ...). */
export class ApplicationError extends Schema.TaggedClass<ApplicationError>()("ApplicationError", {
  ...common,
  code: Schema.String,
  description: Schema.String,
  data: Schema.optionalKey(Schema.Unknown)
}) {}

/** Any other non-200 answer: the code is the HTTP status, the description the message or status text. */
export class SystemError extends Schema.TaggedClass<SystemError>()("SystemError", {
  ...common,
  description: Schema.String
}) {}

/** The request got no answer: DNS, refused or reset connection, timeout. */
export class TransportError extends Schema.TaggedClass<TransportError>()("TransportError", {
  message: Schema.String,
  cause: Schema.optionalKey(Schema.Defect())
}) {}

export const PlatformErrorReason = Schema.Union([ValidationError, ApplicationError, SystemError, TransportError])
export type PlatformErrorReason = typeof PlatformErrorReason.Type

export class PlatformError extends Schema.TaggedError<PlatformError>()("PlatformError", {
  method: Schema.String,
  path: Schema.String,
  reason: PlatformErrorReason
}) {
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

/**
 * A failed platform call, `PlatformError`, whose `reason` is one of the platform's reasons of reasons.ts
 * (refused fields, an application code, another status, no answer), which of them are transient, and how
 * a non-200 answer becomes one.
 */
import * as Data from "effect/Data"
import { ApplicationError, codeOf, mayHaveApplied, type PlatformErrorReason, SystemError, ValidationError } from "./reasons.ts"
import type { Rule } from "./rule.ts"
import type { ErrorBody, FieldViolation } from "./wire.ts"

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

/**
 * The data API's "Operation time limit exceeded": a call that ran past its plan's time, answered 429. It
 * is no throttle: the same call would run as long again, so it is neither waited out nor retried; an index
 * or a smaller call lets it answer.
 */
export const OPERATION_TIME_LIMIT = "WDE0028"

/** A transient failure: no answer at all, or 429/502/503/504 (but a call past its time limit). */
export const isTransient = (error: PlatformError): boolean => {
  const status = error.status
  return status === undefined || (status === 429 ? error.code !== OPERATION_TIME_LIMIT : status > 501 && status < 505)
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

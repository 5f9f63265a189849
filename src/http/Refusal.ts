/**
 * The one shape of a module's typed error (`DataError`, `CatalogError`, `MembersError`): a tagged error
 * whose `reason` is one of the shared reason classes of reasons.ts, with the same readings
 * (`code`, `message`, `status`, `field`, `fieldViolations`, `data`, `requestId`, `rule`) in every module. How a
 * failed platform call becomes a module error is decided once, in `refusedOr`: unavailability (no
 * answer, 429, 502–504) stays a `PlatformError`, since it is about the platform and worth a retry, and
 * everything else becomes the module's error with the platform's reason as it came.
 */
import type * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import { isTransient, type PlatformError } from "./PlatformError.ts"
import { AnswerError, ArgumentError, codeOf, type FailureReason, mayHaveApplied, type RefusalReason } from "./reasons.ts"
import type { Rule } from "./rule.ts"
import type { FieldViolation } from "./wire.ts"

export { AnswerError, ArgumentError }

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

/** What every module error reads from its reason, the same in every module. */
export interface RefusalReadings {
  /** The reason's one code (`codeOf`): an application or argument code, or the kind's, such as `PERMISSION_DENIED`. */
  readonly code: string
  /** The HTTP status of the platform's answer, or undefined when sitefx refused before sending or read a 200. */
  readonly status: number | undefined
  /** The argument a local check refused. */
  readonly field: string | undefined
  /** The violated fields of a validation refusal, else an empty list. */
  readonly fieldViolations: ReadonlyArray<FieldViolation>
  /** What an application refusal or an unusable answer carries besides its code. */
  readonly data: unknown
  /** The platform's request id of the answer, for its support. */
  readonly requestId: string | undefined
  /** The rule the platform refused the call by (kind, id, message and its kind's specifics), when it names one. */
  readonly rule: Rule | undefined
  /** Whether the call may have been carried out although it failed: a 500 (see `mayHaveApplied`). */
  readonly mayHaveApplied: boolean
}

/** The class `Refusal(tag)` makes: a yieldable tagged error with a `reason` and the shared readings. */
export interface RefusalClass<Tag extends string> {
  new(args: { readonly reason: RefusalReason }): Cause.YieldableError & RefusalReadings & {
    readonly _tag: Tag
    readonly reason: RefusalReason
  }
}

/**
 * The base class of a module's error, tagged `tag`. A module that keeps more (data keeps the collection)
 * declares the field and takes it in its constructor; one that words a reason its own way passes `message`.
 *
 * @example
 * class ShopError extends Refusal("ShopError") {}
 * const e = new ShopError({ reason: new ArgumentError({ code: "INVALID_ARGUMENT", message: "no shop" }) })
 * e.code // "INVALID_ARGUMENT"
 */
export const Refusal = <const Tag extends string>(
  tag: Tag,
  options: { readonly message?: (reason: RefusalReason) => string | undefined } = {}
): RefusalClass<Tag> =>
  class extends Data.TaggedError(tag)<{ readonly reason: RefusalReason }> {
    get code(): string {
      return codeOf(this.reason)
    }
    override get message(): string {
      return options.message?.(this.reason) ?? messageOf(this.reason)
    }
    get status(): number | undefined {
      return "status" in this.reason ? this.reason.status : undefined
    }
    get field(): string | undefined {
      return this.reason._tag === "ArgumentError" ? this.reason.field : undefined
    }
    get fieldViolations(): ReadonlyArray<FieldViolation> {
      return this.reason._tag === "ValidationError" ? this.reason.fieldViolations : []
    }
    get data(): unknown {
      return this.reason._tag === "ApplicationError" || this.reason._tag === "AnswerError" ? this.reason.data : undefined
    }
    get requestId(): string | undefined {
      return "requestId" in this.reason ? this.reason.requestId : undefined
    }
    get rule(): Rule | undefined {
      return "rule" in this.reason ? this.reason.rule : undefined
    }
    get mayHaveApplied(): boolean {
      return mayHaveApplied(this.reason)
    }
  }

/** A local refusal of an argument, before any request. */
export const argumentError = (code: string, message: string, field?: string): ArgumentError =>
  new ArgumentError({ code, message, ...(field === undefined ? {} : { field }) })

/** A 200 answer that does not give what was asked. */
export const answerError = (code: string, message: string, data?: unknown): AnswerError =>
  new AnswerError({ code, message, ...(data === undefined ? {} : { data }) })

/**
 * How every module maps a failed platform call: unavailability stays the `PlatformError` (retry it
 * later), any other failure becomes the module's error made by `make` from the platform's reason.
 */
export const refusedOr = <E>(make: (reason: RefusalReason) => E) => (error: PlatformError): E | PlatformError =>
  isTransient(error) || error.reason._tag === "TransportError" ? error : make(error.reason)

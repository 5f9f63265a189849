/**
 * The two reasons only module errors have: sitefx refused an argument before sending, or could not use a
 * 200 answer. (The platform's own reasons are in PlatformError.ts; module errors are built in Refusal.ts.)
 */
import * as Data from "effect/Data"

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

/**
 * Wire shapes shared by the client and the local platform: the error body and its parts, as Schemas
 * (the local platform decodes and writes them; the client reads error bodies without Schema, see
 * PlatformHttp). How values travel (`$date`, `.r`) is in codec.ts; its date encoders are re-exported here.
 */
import * as Schema from "effect/Schema"

/** One violated rule inside a validation error. */
export const FieldViolation = Schema.Struct({
  field: Schema.optionalKey(Schema.String),
  description: Schema.optionalKey(Schema.String),
  violatedRule: Schema.optionalKey(Schema.String),
  ruleName: Schema.optionalKey(Schema.String),
  data: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
export type FieldViolation = typeof FieldViolation.Type

/** The `applicationError` of an error body: the platform's code (`"-19976"`, `"WDE0074"`), its description and data. */
export const ApplicationErrorDetails = Schema.Struct({
  // codes are strings on the wire ("-19976", "WDE0074"); the official client also sees numbers for system errors
  code: Schema.Union([Schema.String, Schema.Number]),
  description: Schema.optionalKey(Schema.String),
  data: Schema.optionalKey(Schema.Unknown)
})
/** The `applicationError` of an error body: the platform's code (`"-19976"`, `"WDE0074"`), its description and data. */
export type ApplicationErrorDetails = typeof ApplicationErrorDetails.Type

/** The `validationError` of an error body: the fields the request got wrong. */
export const ValidationErrorDetails = Schema.Struct({
  fieldViolations: Schema.Array(FieldViolation)
})

/** The platform's error body. A body without `details` is a system error. */
export const ErrorBody = Schema.Struct({
  message: Schema.optionalKey(Schema.String),
  details: Schema.optionalKey(Schema.Struct({
    applicationError: Schema.optionalKey(ApplicationErrorDetails),
    validationError: Schema.optionalKey(ValidationErrorDetails)
  }))
})
export type ErrorBody = typeof ErrorBody.Type

/** A sort direction of a query: ascending or descending. */
export const SortOrder = Schema.Literals(["ASC", "DESC"])
export type SortOrder = typeof SortOrder.Type

/** One sort key of a query: a field and its direction (data, store and members queries alike). */
export const Sorting = Schema.Struct({ fieldName: Schema.String, order: Schema.optionalKey(SortOrder) })
export type Sorting = typeof Sorting.Type

/** Offset paging of a request: the page size and how many items to skip. */
export const Paging = Schema.Struct({
  limit: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  offset: Schema.optionalKey(Schema.NullOr(Schema.Number))
})
export type Paging = typeof Paging.Type

/** Cursor paging of a request: the page size and the cursor of the page to read (from an answer's `pagingMetadata.cursors`). */
export const CursorPaging = Schema.Struct({
  limit: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  cursor: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type CursorPaging = typeof CursorPaging.Type

/** An answer the caller reads nothing from (`{}`). */
export const EmptyAnswer = Schema.Struct({})


/** The headers the platform reads and answers with: the request id, and the consistent-read flag. */
export { CONSISTENT_HEADER, REQUEST_ID_HEADER } from "./headers.ts"
/** How dates travel in data calls: `{"$date": "…"}` on the wire, `Date` in sitefx. */
export { encodeDates, reviveDates } from "./codec.ts"

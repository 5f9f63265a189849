/**
 * Wire shapes shared by the client and the local platform: the error body and its parts, as Schemas
 * (the local platform decodes and writes them; the client reads error bodies without Schema, see
 * PlatformHttp). How values travel (`$date`, `.r`) is in codec.ts, re-exported here.
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

/** An answer the caller reads nothing from (`{}`). */
export const EmptyAnswer = Schema.Struct({})


export * from "./codec.ts"

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

/** Whose call a rule judged: nobody (no credentials), a visitor, a member, or an admin (an API key). */
export const CallerRole = Schema.Literals(["none", "visitor", "member", "admin"])
export type CallerRole = typeof CallerRole.Type

// every rule says which it is (a stable id such as `data.permission`) and what it holds, in words
const ruleOf = <const K extends string, F extends Schema.Struct.Fields>(kind: K, fields: F) =>
  Schema.Struct({ kind: Schema.Literal(kind), id: Schema.String, message: Schema.String, ...fields })

/**
 * A refusal for want of a permission: data collections name the collection, the operation (read,
 * insert, update, remove) and the role it requires as the data engine names roles (ANYONE,
 * SITE_MEMBER, SITE_MEMBER_AUTHOR, ADMIN, ...); other calls name the role alone (ADMIN for an API key).
 */
export const PermissionRule = ruleOf("permission", {
  collection: Schema.optionalKey(Schema.String),
  operation: Schema.optionalKey(Schema.String),
  required: Schema.optionalKey(Schema.String),
  caller: Schema.optionalKey(CallerRole)
})
/** A refusal of the credentials: none where some are needed, an expired or unknown token, a wrong password. */
export const AuthenticationRule = ruleOf("authentication", {
  required: Schema.optionalKey(Schema.String),
  caller: Schema.optionalKey(CallerRole)
})
/** A refusal of what the request says: the fields it got wrong (none when the request as a whole is wrong). */
export const ValidationRule = ruleOf("validation", { fields: Schema.Array(Schema.String) })
/** A request past one of the platform's bounds (a body's bytes, a list's length, a nesting depth): the fields and the bound. */
export const BoundRule = ruleOf("bound", { fields: Schema.Array(Schema.String), limit: Schema.optionalKey(Schema.Number) })
/** Too many requests of a kind for now (failed logins): when to try again. */
export const ThrottleRule = ruleOf("throttle", { retryAfterSeconds: Schema.Number })
/**
 * A fault injected with `POST /_sitefx/faults`: the path prefix it was set for, the status the client
 * got (0 when its connection was reset), what kind of fault (`status`, `latency`, `reset`, `truncate`,
 * `slow`) and the fault's id.
 */
export const FaultRule = ruleOf("fault", {
  path: Schema.String,
  status: Schema.Number,
  fault: Schema.optionalKey(Schema.String),
  faultId: Schema.optionalKey(Schema.String)
})
/** A refusal with nothing to add to its id and message: the dev endpoints' guard, a missing entity, a conflict, a precondition. */
export const PlainRule = Schema.Struct({
  kind: Schema.Literals(["dev-access", "not-found", "conflict", "precondition"]),
  id: Schema.String,
  message: Schema.String
})

/**
 * The rule a refusal of the local platform names, in its error body's `details.rule` (beside the
 * `applicationError` or `validationError` the official clients read, which it leaves as they are):
 * what kind of rule, a stable id, what it says, and the specifics of its kind.
 */
export const Rule = Schema.Union([PermissionRule, AuthenticationRule, ValidationRule, BoundRule, ThrottleRule, FaultRule, PlainRule])
export type Rule = typeof Rule.Type
/** The kinds of rule a refusal can name. */
export type RuleKind = Rule["kind"]

/**
 * The platform's error body. A body with neither an `applicationError` nor a `validationError` is a
 * system error (the local platform's injected 5xx faults carry their `rule` alone).
 */
export const ErrorBody = Schema.Struct({
  message: Schema.optionalKey(Schema.String),
  details: Schema.optionalKey(Schema.Struct({
    applicationError: Schema.optionalKey(ApplicationErrorDetails),
    validationError: Schema.optionalKey(ValidationErrorDetails),
    rule: Schema.optionalKey(Rule)
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

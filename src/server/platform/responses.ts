/**
 * How the local platform answers: success is HTTP 200 with JSON encoded by the shared wire schema;
 * every refusal is a {@link Reject} carrying the platform's error body (the shared `ErrorBody`).
 */
import * as Data from "effect/Data"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { ErrorBody, FieldViolation } from "../../http/wire.ts"

/** A refusal: the HTTP status, the platform error body and any extra headers. */
export class Reject extends Data.TaggedError("Reject")<{
  readonly status: number
  readonly body: ErrorBody
  readonly headers?: Readonly<Record<string, string>>
}> {
  /** The application code, when the body carries one. */
  get code(): string | undefined {
    const code = this.body.details?.applicationError?.code
    return code === undefined ? undefined : String(code)
  }
}

const NO_STORE = { "cache-control": "no-store" }

/** 200 with `value` encoded by `schema`: the response shape is the wire schema, not a hand-built object. */
export const reply = <A, I>(schema: Schema.Codec<A, I>, value: A): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(Schema.encodeSync(schema)(value), { status: 200, headers: NO_STORE })

/**
 * 200 with `value` as it is, for schemas whose wire form is the value itself (no transformation,
 * checked by the type: encoded and decoded types are one): big answers, like a thousand bulk results,
 * skip an encode pass that would only copy them.
 */
export const replyAsIs = <A>(_schema: Schema.Codec<A, A>, value: A): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(value, { status: 200, headers: NO_STORE })

/**
 * 200 with JSON text already written in the wire shape (answers assembled from stored JSON). Encoded
 * once here: a text body would be encoded for its length and then again when written.
 */
export const replyJson = (json: string): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.uint8Array(encoder.encode(json), { status: 200, contentType: "application/json", headers: NO_STORE })

const encoder = new TextEncoder()

/** 200 with `{}` (calls whose answer is empty). */
export const replyEmpty = (): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe({}, { status: 200, headers: NO_STORE })

export const toResponse = (reject: Reject): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(reject.body, {
    status: reject.status,
    // own headers only: a refusal without any must never pick some up from a prototype
    headers: Object.hasOwn(reject, "headers") && reject.headers !== undefined ? { ...NO_STORE, ...reject.headers } : NO_STORE
  })

/** A refusal with an application code (always a string on the wire). */
export const application = (status: number, code: string, description: string, data?: unknown): Reject =>
  new Reject({
    status,
    body: {
      message: description,
      details: { applicationError: { code, description, ...(data === undefined ? {} : { data }) } }
    }
  })

/** 400 with field violations. Every violation carries a `data` object, as clients read `data.type`. */
export const validation = (message: string, violations: ReadonlyArray<FieldViolation>): Reject =>
  new Reject({
    status: 400,
    body: {
      message,
      details: { validationError: { fieldViolations: violations.map((v) => ({ ...v, data: v.data ?? {} })) } }
    }
  })

/** One violation for one field. */
export const invalidField = (field: string, description: string, violatedRule = "OTHER", data: Record<string, unknown> = {}): Reject =>
  validation(description, [{ field, description, violatedRule, data }])

export const badRequest = (code: string, description: string, data?: unknown): Reject => application(400, code, description, data)
export const unauthorized = (description = "Authentication required", code = "UNAUTHENTICATED"): Reject =>
  application(401, code, description)
export const forbidden = (description = "Permission denied", code = "PERMISSION_DENIED"): Reject =>
  application(403, code, description)
export const notFound = (description = "Not found", code = "NOT_FOUND"): Reject => application(404, code, description)
export const conflict = (description: string, code = "ALREADY_EXISTS"): Reject => application(409, code, description)
export const preconditionFailed = (description: string, code = "FAILED_PRECONDITION"): Reject =>
  application(428, code, description)
export const tooManyRequests = (description: string, retryAfterSeconds: number): Reject =>
  new Reject({
    status: 429,
    body: { message: description, details: { applicationError: { code: "TOO_MANY_REQUESTS", description } } },
    headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) }
  })
/** 413 for a body over the limit of its route. */
export const payloadTooLarge = (maxBytes: number): Reject =>
  application(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes`, { maxBytes })

/** A system error: no details, as the platform sends for unexpected failures. */
export const internalError = (): Reject => new Reject({ status: 500, body: { message: "Internal error" } })

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

/** Turns a schema failure on a request body into the platform's validation error. */
export const fromSchemaError = (error: Schema.SchemaError, prefix = ""): Reject => {
  const { issues } = formatIssue(error.issue)
  const violations = issues.map((issue): FieldViolation => {
    const path = (issue.path ?? []).map((p) => String(typeof p === "object" && p !== null ? p.key : p))
    const field = [prefix, ...path].filter((s) => s !== "").join(".")
    const missing = issue.message === "Missing key"
    return {
      ...(field === "" ? {} : { field }),
      description: missing ? `${field} is required` : issue.message,
      violatedRule: missing ? "REQUIRED_FIELD" : "OTHER",
      data: {}
    }
  })
  const first = violations[0]?.description ?? "Invalid request"
  return validation(violations.length === 1 ? first : `Invalid request: ${first}`, violations)
}

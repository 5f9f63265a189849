/**
 * How the local platform answers: success is HTTP 200 with JSON encoded by the shared wire schema;
 * every refusal is a {@link Reject} carrying the platform's error body (the shared `ErrorBody`), whose
 * `details.rule` names the rule that refused: by default one read from the status, code and field
 * violations, and a precise one where the refusing code knows more (`reject.because(rule)`).
 */
import * as Data from "effect/Data"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { ErrorBody, FieldViolation, Rule } from "../../http/wire.ts"

/** A rule as refusing code names it: its message, when left out, is the refusal's own. */
export type RuleInput = Rule extends infer R ? R extends Rule ? Omit<R, "message"> & { readonly message?: string } : never : never

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

  /** The rule the refusal names. */
  get rule(): Rule | undefined {
    return this.body.details?.rule
  }

  /** The same refusal, naming `rule` as the one that refused (in place of the rule read from its code). */
  because(rule: RuleInput): Reject {
    const named = { message: this.body.message ?? "", ...rule } as Rule
    return new Reject({
      status: this.status,
      body: { ...this.body, details: { ...this.body.details, rule: named } },
      ...(Object.hasOwn(this, "headers") && this.headers !== undefined ? { headers: this.headers } : {})
    })
  }
}

// the kind of rule a refusal with an application code names when nothing more precise is known
const KIND_OF_STATUS: Readonly<Record<number, "validation" | "authentication" | "permission" | "not-found" | "conflict" | "bound">> = {
  400: "validation",
  401: "authentication",
  403: "permission",
  404: "not-found",
  409: "conflict",
  413: "bound"
}

// codes that only repeat what their status says: the rule is the kind itself
const GENERIC_CODES = new Set(["INVALID_ARGUMENT", "UNAUTHENTICATED", "PERMISSION_DENIED", "NOT_FOUND", "ALREADY_EXISTS", "FAILED_PRECONDITION"])

const slug = (code: string) => code.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")

/**
 * The rule a refusal names when its code is all that is known: the kind its status stands for and an id
 * made of the kind and the code (`not-found.wde0073`, `authentication.expired-token`). System errors
 * (5xx) name none: they are failures of the platform, not rules it applied.
 */
export const ruleOfCode = (status: number, code: string, message: string): Rule | undefined => {
  if (status >= 500) return undefined
  const kind = KIND_OF_STATUS[status] ?? "precondition"
  const id = GENERIC_CODES.has(code) || slug(code) === "" ? kind : `${kind}.${slug(code)}`
  return kind === "validation" || kind === "bound" ? { kind, id, message, fields: [] } : { kind, id, message }
}

// what a bound's violation names its bound by, in the order looked for
const BOUND_KEYS = ["max", "maxLength", "maxDepth", "maxBytes", "maxStages"]

/**
 * The rule of a validation refusal: the fields it names (each once), and a bound when a violation passed one
 * (`MAX`, `MAX_SIZE`, `MAX_LENGTH`, `MAX_DEPTH`), with its value when the violation's data says it.
 */
export const ruleOfViolations = (message: string, violations: ReadonlyArray<FieldViolation>): Rule => {
  const fields = [...new Set(violations.flatMap((v) => (v.field === undefined || v.field === "" ? [] : [v.field])))]
  const bound = violations.find((v) => v.violatedRule?.startsWith("MAX") === true)
  if (bound !== undefined) {
    const limit = BOUND_KEYS.map((k) => bound.data?.[k]).find((v) => typeof v === "number")
    return { kind: "bound", id: `bound.${slug(bound.violatedRule!)}`, message, fields, ...(typeof limit === "number" ? { limit } : {}) }
  }
  const rules = new Set(violations.map((v) => v.violatedRule ?? "OTHER"))
  const only = rules.size === 1 ? [...rules][0]! : "OTHER"
  return { kind: "validation", id: only === "OTHER" ? "validation" : `validation.${slug(only)}`, message, fields }
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

/** A refusal with an application code (always a string on the wire), naming the rule its code stands for. */
export const application = (status: number, code: string, description: string, data?: unknown): Reject => {
  const rule = ruleOfCode(status, code, description)
  return new Reject({
    status,
    body: {
      message: description,
      details: {
        applicationError: { code, description, ...(data === undefined ? {} : { data }) },
        ...(rule === undefined ? {} : { rule })
      }
    }
  })
}

/** 400 with field violations. Every violation carries a `data` object, as clients read `data.type`. */
export const validation = (message: string, violations: ReadonlyArray<FieldViolation>): Reject =>
  new Reject({
    status: 400,
    body: {
      message,
      details: {
        validationError: { fieldViolations: violations.map((v) => ({ ...v, data: v.data ?? {} })) },
        rule: ruleOfViolations(message, violations)
      }
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
/** 429 with `Retry-After`, naming the throttle `id` that refused. */
export const tooManyRequests = (description: string, retryAfterSeconds: number, id = "throttle"): Reject => {
  const wait = Math.max(1, Math.ceil(retryAfterSeconds))
  return new Reject({
    status: 429,
    body: {
      message: description,
      details: {
        applicationError: { code: "TOO_MANY_REQUESTS", description },
        rule: { kind: "throttle", id, message: description, retryAfterSeconds: wait }
      }
    },
    headers: { "retry-after": String(wait) }
  })
}
/** 413 for a body over the limit of its route. */
export const payloadTooLarge = (maxBytes: number): Reject =>
  application(413, "PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes`, { maxBytes })
    .because({ kind: "bound", id: "request.max-bytes", fields: [], limit: maxBytes })

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

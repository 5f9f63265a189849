/**
 * Reading the platform's answer: the JSON of a 200, or the typed `PlatformError` a non-200 answer's error
 * body (or its status) stands for, with its `Retry-After` kept for the retry loop, and a 200 body checked
 * with a guard.
 */
import * as Effect from "effect/Effect"
import { describe, type Guard } from "./guard.ts"
import { REQUEST_ID_HEADER } from "./headers.ts"
import { isRecord } from "./isRecord.ts"
import { PlatformError, reasonFromResponse } from "./PlatformError.ts"
import type { PlatformRequest } from "./PlatformRequest.ts"
import { type PlatformErrorReason, SystemError } from "./reasons.ts"
import { Rule } from "./rule.ts"
import type { TransportResponse } from "./transport.ts"
import type { ErrorBody } from "./wire.ts"

/** A successful (HTTP 200) answer. */
export interface PlatformResponse {
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
  readonly requestId: string | undefined
}

// Reason phrases for the statuses the platform uses (fetch's statusText is empty over HTTP/2 and in some runtimes).
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
  413: "Payload Too Large", 428: "Precondition Required", 429: "Too Many Requests", 500: "Internal Server Error",
  502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"
}

/**
 * The platform's error body, as far as it has that shape: a field of the wrong type is left out, so a
 * malformed body still gives an error with what could be read (a missing message falls back to the
 * status text), and a rule that does not have its kind's shape is left out whole.
 */
export const readErrorBody = (json: unknown): ErrorBody | undefined => {
  if (!isRecord(json)) return undefined
  const message = typeof json["message"] === "string" ? { message: json["message"] } : {}
  const details = json["details"]
  if (!isRecord(details)) return message
  const app = details["applicationError"]
  const validation = details["validationError"]
  const application = isRecord(app) ? app : {}
  const code = application["code"]
  const violations = isRecord(validation) ? validation["fieldViolations"] : undefined
  return {
    ...message,
    details: {
      ...(typeof code === "string" || typeof code === "number"
        ? {
          applicationError: {
            code,
            ...(typeof application["description"] === "string" ? { description: application["description"] } : {}),
            ...(application["data"] === undefined ? {} : { data: application["data"] })
          }
        }
        : {}),
      ...(Array.isArray(violations) && violations.every(isRecord)
        ? {
          validationError: {
            fieldViolations: violations.map((v) => {
              const out: Record<string, unknown> = {}
              for (const k of ["field", "description", "violatedRule", "ruleName"] as const) if (typeof v[k] === "string") out[k] = v[k]
              if (isRecord(v["data"])) out["data"] = v["data"]
              return out
            })
          }
        }
        : {}),
      ...(Rule(details["rule"]) === undefined ? { rule: details["rule"] as Rule } : {})
    }
  }
}

/** A 200 whose body is not JSON. */
export const notJson = (text: string, requestId: string | undefined) =>
  new SystemError({
    status: 200,
    message: "The platform answered 200 without a JSON body",
    description: text === "" ? "empty body" : "body is not JSON",
    ...(requestId === undefined ? {} : { requestId })
  })

/**
 * The JSON of a 200 answer; any other status as the PlatformError its error body (or status) stands
 * for, with its `Retry-After` kept for the retry loop; a 200 that is not JSON as a SystemError.
 */
export const readAnswer = (
  response: TransportResponse,
  fail: (reason: PlatformErrorReason) => PlatformError
): Effect.Effect<unknown, PlatformError> => {
  const requestId = response.headers[REQUEST_ID_HEADER]
  const text = response.text
  let json: unknown = undefined
  let parsed = false
  if (text !== "") {
    try {
      json = JSON.parse(text)
      parsed = true
    } catch {
      parsed = false
    }
  }
  if (response.status !== 200) {
    const body = parsed ? readErrorBody(json) : undefined
    const statusText = STATUS_TEXT[response.status] ?? ""
    return Effect.fail(
      withRetryAfter(fail(reasonFromResponse({ status: response.status, statusText, body, requestId })), response.headers["retry-after"])
    )
  }
  return parsed ? Effect.succeed(json) : Effect.fail(fail(notJson(text, requestId)))
}

/** The Retry-After header of a 429/503, in milliseconds, kept beside the error for the retry loop. */
export const retryAfterMs = new WeakMap<PlatformError, number>()

const withRetryAfter = (error: PlatformError, header: string | undefined): PlatformError => {
  if (header !== undefined) {
    const seconds = Number(header)
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now()
    if (Number.isFinite(ms) && ms >= 0) retryAfterMs.set(error, ms)
  }
  return error
}

/** Checks a 200 body with a guard; a mismatch is reported as a SystemError naming the call and the place. */
export const checkBody = <A>(req: PlatformRequest, res: PlatformResponse, guard: Guard<A>): Effect.Effect<A, PlatformError> => {
  const wrong = guard(res.body)
  return wrong === undefined ? Effect.succeed(res.body as A) : Effect.fail(
    new PlatformError({
      method: req.method,
      path: req.path,
      reason: new SystemError({
        status: 200,
        message: `Unexpected response body: ${describe(wrong)}`,
        description: "unexpected response body",
        ...(res.requestId === undefined ? {} : { requestId: res.requestId })
      })
    })
  )
}

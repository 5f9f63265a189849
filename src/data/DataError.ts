/**
 * The data API's typed error: a WDE code, a message, and where it applies. Raised by the client's own
 * validation before any request, and decoded from the platform's answers (application codes, 413,
 * validation errors, hook errors). The local platform answers with the same codes.
 */
import * as Data from "effect/Data"
import type { PlatformError } from "../http/PlatformError.ts"
import type { FieldViolation } from "../http/wire.ts"

/** The codes sitefx raises or honours (the platform's full list runs WDE0001–WDE0165). */
export const WDE = {
  collectionNameNotString: "WDE0001",
  itemIdNotString: "WDE0002",
  itemNotObject: "WDE0004",
  bulkItemsNotObjects: "WDE0005",
  tooManyBulkItems: "WDE0006",
  updateWithoutId: "WDE0007",
  filterNotBuilder: "WDE0011",
  filterAlreadySet: "WDE0012",
  groupAlreadySet: "WDE0013",
  optionsNotBooleans: "WDE0018",
  collectionNotFound: "WDE0025",
  permissionDenied: "WDE0027",
  notANumber: "WDE0032",
  notPositive: "WDE0033",
  negative: "WDE0034",
  notInteger: "WDE0035",
  tooLarge: "WDE0036",
  arityZero: "WDE0038",
  arityOne: "WDE0039",
  arityTwo: "WDE0040",
  arityAtLeastOne: "WDE0043",
  notString: "WDE0044",
  notComparable: "WDE0045",
  notSameType: "WDE0046",
  fieldNotString: "WDE0048",
  badSort: "WDE0051",
  serverInvalidResponse: "WDE0055",
  filterNotObject: "WDE0056",
  filterNotArray: "WDE0057",
  comparisonOperand: "WDE0058",
  stringOperand: "WDE0059",
  setOperand: "WDE0060",
  matchesProperty: "WDE0062",
  matchesIgnoreCase: "WDE0063",
  matchesSpec: "WDE0064",
  idsNotStrings: "WDE0068",
  tooManyIdsToRemove: "WDE0069",
  regexNotAllowed: "WDE0070",
  itemNotFound: "WDE0073",
  itemAlreadyExists: "WDE0074",
  hookError: "WDE0078",
  skipWithCursor: "WDE0080",
  emptyString: "WDE0094",
  payloadTooLarge: "WDE0109",
  noPreviousPage: "WDE0159",
  noNextPage: "WDE0165"
} as const
export type WdeCode = typeof WDE[keyof typeof WDE]

/** The error a user hook threw (WDE0078): its name, message and code. */
export interface HookError {
  readonly name: string
  readonly message: string
  readonly code?: string | number
}

export class DataError extends Data.TaggedError("DataError")<{
  /** `WDE0073`, ... (or the platform's code for errors outside the WDE range). */
  readonly code: string
  readonly message: string
  /** The argument or field the error is about, when there is one. */
  readonly field?: string
  readonly collection?: string
  /** Every field violation of a server-side validation error. */
  readonly fieldViolations?: ReadonlyArray<FieldViolation>
  readonly hook?: HookError
  readonly data?: unknown
  readonly status?: number
  readonly requestId?: string
}> {}

/** A client-side validation failure, raised before any request. */
export const invalid = (code: WdeCode, message: string, field?: string): DataError =>
  new DataError({ code, message: `${code}: ${message}`, ...(field === undefined ? {} : { field }) })

/** Maps a failed platform call to a DataError following the data API's rules. */
export const fromPlatformError = (error: PlatformError, collection?: string): DataError => {
  const r = error.reason
  const base = {
    ...(collection === undefined ? {} : { collection }),
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId })
  }
  if (error.status === 413) {
    return new DataError({ code: WDE.payloadTooLarge, message: "WDE0109: Payload is too large.", ...base })
  }
  switch (r._tag) {
    case "ApplicationError": {
      if (r.code === WDE.hookError) {
        const hook = hookOf(r.data, r.description)
        return new DataError({ code: r.code, message: hook.message, hook, ...base, ...(r.data === undefined ? {} : { data: r.data }) })
      }
      return new DataError({ code: r.code, message: r.description, ...base, ...(r.data === undefined ? {} : { data: r.data }) })
    }
    case "ValidationError":
      return new DataError({
        code: "VALIDATION_ERROR",
        message: [r.message, ...r.fieldViolations.map((v) => `${v.field ?? ""}: ${v.description ?? ""}`)].join("\n"),
        fieldViolations: r.fieldViolations,
        ...base
      })
    case "SystemError":
      return new DataError({ code: "UNKNOWN_ERROR", message: "Unknown error", data: { status: r.status, description: r.description }, ...base })
    case "TransportError":
      return new DataError({ code: "TRANSPORT_ERROR", message: r.message, ...base })
  }
}

const hookOf = (data: unknown, description: string): HookError => {
  const d = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>
  const js = (typeof d["jsErrorValue"] === "object" && d["jsErrorValue"] !== null ? d["jsErrorValue"] : {}) as Record<string, unknown>
  const str = (v: unknown) => (typeof v === "string" ? v : undefined)
  const code = js["code"]
  return {
    name: str(js["name"]) ?? "Error",
    message: str(js["message"]) ?? description,
    ...(typeof code === "string" || typeof code === "number" ? { code } : {})
  }
}

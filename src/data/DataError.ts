/**
 * The data API's typed error: one Refusal (src/http/Refusal.ts) whose code is a WDE code where the
 * data API has one. Raised by the client's own validation before any request, and made from the
 * platform's answers (application codes, 413, validation errors, hook errors). The local platform
 * answers with the same codes.
 */
import { type PlatformError } from "../http/PlatformError.ts"
import { ApplicationError, type RefusalReason } from "../http/reasons.ts"
import { answerError, argumentError, Refusal, refusedOr } from "../http/Refusal.ts"

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
  /** A data call that ran past its plan's time: answered 429, yet no throttle (the same call takes as long again). */
  operationTimeLimit: "WDE0028",
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
/** A code sitefx raises or honours (a value of {@link WDE}), to compare a DataError's `code` with. */
export type WdeCode = typeof WDE[keyof typeof WDE]

/** The error a user hook threw (WDE0078): its name, message and code. */
export interface HookError {
  readonly name: string
  readonly message: string
  readonly code?: string | number
}

/**
 * A refused data call: sitefx's own check before any request (`ArgumentError` with a WDE code), or the
 * platform's refusal (`ApplicationError` with its WDE code, `ValidationError`, `SystemError`), or an
 * answer sitefx could not use (`AnswerError`). Unavailability stays a PlatformError.
 */
export class DataError extends Refusal("DataError", { message: (reason) => hookOfReason(reason)?.message }) {
  /** The collection the call was about. */
  declare readonly collection?: string

  constructor(args: { readonly reason: RefusalReason; readonly collection?: string }) {
    super(args)
  }

  /** The error a user hook threw, for `WDE0078`. */
  get hook(): HookError | undefined {
    return hookOfReason(this.reason)
  }
}

const hookOfReason = (r: RefusalReason): HookError | undefined =>
  r._tag === "ApplicationError" && r.code === WDE.hookError ? hookOf(r.data, r.description) : undefined

/** A client-side validation failure, raised before any request. */
export const invalid = (code: WdeCode, message: string, field?: string): DataError =>
  new DataError({ reason: argumentError(code, `${code}: ${message}`, field) })

/** An answer of `collection` that sitefx could not use. */
export const badAnswer = (code: string, message: string, collection?: string): DataError =>
  new DataError({ reason: answerError(code, message), ...(collection === undefined ? {} : { collection }) })

/**
 * A refused platform call as a DataError. The data API reads a 413 as its own `WDE0109` (the payload
 * is too large), whatever the body says.
 */
export const fromReason = (reason: RefusalReason, collection?: string): DataError =>
  new DataError({
    reason: reason._tag !== "ArgumentError" && reason._tag !== "AnswerError" && reason.status === 413
      ? new ApplicationError({
        status: 413,
        message: reason.message,
        code: WDE.payloadTooLarge,
        description: "WDE0109: Payload is too large.",
        ...(reason.requestId === undefined ? {} : { requestId: reason.requestId }),
        ...(reason.rule === undefined ? {} : { rule: reason.rule })
      })
      : reason,
    ...(collection === undefined ? {} : { collection })
  })

/** Maps a failed platform call to a DataError or, when the platform is unavailable, leaves it a PlatformError. */
export const fromPlatformError = (error: PlatformError, collection?: string): DataError | PlatformError =>
  refusedOr((reason) => fromReason(reason, collection))(error)

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

/**
 * The engine's refusals, shared by data, catalog and identity. Storage code runs synchronously on
 * node:sqlite (often inside a transaction it must roll back), so it throws an {@link EngineFailure};
 * {@link attempt} turns that into the platform's error answer at the route, and bulk calls turn it into
 * one item's error instead. The data API's own refusals are in data/dataFailures.ts.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type { ItemError } from "../../data/wire/index.ts"
import type { FieldViolation } from "../../http/wire.ts"
import { application, invalidField, type Reject, type RuleInput, validation } from "../platform/responses.ts"

export class EngineFailure extends Data.TaggedError("EngineFailure")<{
  readonly status: number
  readonly code: string
  readonly description: string
  readonly data?: unknown
  /** When set, the answer is a validation error naming these fields (a bound the request passed). */
  readonly violations?: ReadonlyArray<FieldViolation>
  /** The rule that refused, when the code alone does not say it well (the answer names it in `details.rule`). */
  readonly rule?: RuleInput
}> {}

/** 400 with a WDE (or other) code; its rule names `fields` when the refusal is about some. */
export const badRequest = (code: string, description: string, fields: ReadonlyArray<string> = []) =>
  new EngineFailure({ status: 400, code, description, rule: { kind: "validation", id: `data.${code.toLowerCase()}`, fields } })

/** 400 with a WDE code for a value past one of the data API's bounds (a page's limit, a skip): its rule is that bound. */
export const pastBound = (code: string, description: string, id: string, field: string, limit: number) =>
  new EngineFailure({ status: 400, code, description, rule: { kind: "bound", id, fields: [field], limit } })

/** The code a bulk item's error carries for a validation failure (what clients make of a validation answer). */
const VALIDATION_CODE = "VALIDATION_ERROR"

/**
 * A value past one of the platform's bounds (limits.ts): a 400 with a field violation, whose rule
 * (`MAX_DEPTH`, `MAX_SIZE`, `MAX`) and `data` say which bound, so that a client can tell what to change.
 */
export const outOfBounds = (field: string, description: string, violatedRule: string, data: Record<string, unknown>) =>
  new EngineFailure({ status: 400, code: VALIDATION_CODE, description, violations: [{ field, description, violatedRule, data }] })

/** Refuses a list of `count` things where a bound allows `max`. */
export const atMost = (count: number, max: number, field: string, what: string): void => {
  if (count > max) throw outOfBounds(field, `${what} at most ${max}`, "MAX_SIZE", { max })
}

export const toReject = (failure: EngineFailure): Reject => {
  const reject = failure.violations === undefined
    ? application(failure.status, failure.code, failure.description, failure.data)
    : validation(failure.description, failure.violations)
  return failure.rule === undefined ? reject : reject.because(failure.rule)
}

/**
 * The failure as a validation error naming `field`, for APIs whose refusals are field violations (the
 * store's v1 calls, the members admin query) rather than the data API's WDE answers; the WDE code stays
 * in the violation's data.
 */
export const toViolation = (failure: EngineFailure, field: string): Reject =>
  failure.violations !== undefined
    ? validation(failure.description, failure.violations)
    : invalidField(field, failure.description, "OTHER", { code: failure.code })
      .because({ kind: "validation", id: failure.rule?.id ?? `validation.${failure.code.toLowerCase()}`, fields: [field] })

export const toItemError = (failure: EngineFailure): ItemError => ({
  code: failure.code,
  description: failure.description,
  ...(failure.data === undefined ? {} : { data: failure.data }),
  ...(failure.violations === undefined ? {} : { data: { fieldViolations: failure.violations } })
})

/** Runs synchronous storage code; a thrown EngineFailure becomes the platform's error answer. */
export const attempt = <A>(f: () => A): Effect.Effect<A, Reject> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(f())
    } catch (e) {
      if (e instanceof EngineFailure) return Effect.fail(toReject(e))
      throw e
    }
  })

/** One item's fate in a bulk call. */
export type Outcome<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly failure: EngineFailure }

/** Runs `f` for one item of a bulk call: its EngineFailure becomes that item's error. */
export const catchFailure = <A>(f: () => A): Outcome<A> => {
  try {
    return { ok: true, value: f() }
  } catch (e) {
    if (e instanceof EngineFailure) return { ok: false, failure: e }
    throw e
  }
}

/**
 * Reading the v1 query parts the carts and subscription routes share: offset paging within bounds, a
 * sort list given as JSON text or JSON (`[{"fieldName": "total", "order": "DESC"}]` or the short
 * `[{"total": "desc"}]`), and a filter in the data filter language given the same two ways. Every
 * refusal is a 400 naming the field it is about.
 */
import type { FilterNode } from "../../../data/FilterTree.ts"
import type { Sorting } from "../../../data/wire/index.ts"
import { EngineFailure, toViolation } from "../../store/engineFailures.ts"
import { checkFilter } from "../../store/filters.ts"
import { offsetPaging, type OffsetPaging } from "../../store/paging.ts"
import { segments } from "../../store/values.ts"
import { parseJson } from "../../platform/json.ts"
import { MAX_INTEGER, MAX_SORT_FIELDS } from "../../platform/limits.ts"
import { invalidField, type Reject } from "../../platform/responses.ts"

export type Checked<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly reject: Reject }

const ok = <A>(value: A): Checked<A> => ({ ok: true, value })
const no = (reject: Reject): Checked<never> => ({ ok: false, reject })

/** Runs a data-engine check that throws EngineFailure. */
const guarded = <A>(field: string, f: () => A): Checked<A> => {
  try {
    return ok(f())
  } catch (e) {
    if (e instanceof EngineFailure) return no(toViolation(e, field))
    throw e
  }
}

export type Page = OffsetPaging

/** Offset paging: `limit` 1..max (`fallback` when absent or null), `offset` a whole number from 0. */
export const readPaging = (
  paging: { readonly limit?: number | null | undefined; readonly offset?: number | null | undefined } | undefined,
  field: string,
  max: number,
  fallback: number
): Checked<Page> => {
  const limit = paging?.limit ?? fallback
  const offset = paging?.offset ?? 0
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    return no(invalidField(`${field}.limit`, `${field}.limit must be a whole number from 1 to ${max}`, "MAX", { max }))
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_INTEGER) {
    return no(invalidField(`${field}.offset`, `${field}.offset must be a whole number from 0 to ${MAX_INTEGER}`, "MIN", { min: 0 }))
  }
  return ok(offsetPaging(limit, offset))
}

/** The JSON a text field holds (a filter or sort sent as text), or the value itself when it is not text. */
const jsonOf = (value: unknown, field: string, what: string): Checked<unknown> => {
  if (typeof value !== "string") return ok(value)
  if (value.trim() === "") return ok(undefined)
  const parsed = parseJson(value, field, what)
  return parsed.ok ? ok(parsed.value) : no(parsed.reject)
}

/** The filter's tree: absent, null or empty text match everything. */
export const readFilter = (value: unknown, field: string): Checked<FilterNode | undefined> => {
  const json = jsonOf(value, field, "The filter")
  if (!json.ok) return json
  if (json.value === undefined || json.value === null) return ok(undefined)
  if (typeof json.value !== "object" || Array.isArray(json.value)) {
    return no(invalidField(field, "The filter must be a JSON object", "FORMAT"))
  }
  return guarded(field, () => checkFilter(json.value, field))
}

const ORDERS: Record<string, "ASC" | "DESC"> = { asc: "ASC", desc: "DESC" }

/** The sort list; each field name is checked as a path. */
export const readSort = (value: unknown, field: string): Checked<ReadonlyArray<Sorting>> => {
  const json = jsonOf(value, field, "The sort")
  if (!json.ok) return json
  if (json.value === undefined || json.value === null) return ok([])
  const list = Array.isArray(json.value) ? json.value : [json.value]
  if (list.length > MAX_SORT_FIELDS) {
    return no(invalidField(field, `At most ${MAX_SORT_FIELDS} sort fields`, "MAX_SIZE", { max: MAX_SORT_FIELDS }))
  }
  const out: Array<Sorting> = []
  for (const [i, spec] of list.entries()) {
    const at = `${field}[${i}]`
    const bad = no(invalidField(at, `A sort field is {"fieldName": "...", "order": "ASC"|"DESC"} or {"<field>": "asc"|"desc"}`, "FORMAT"))
    if (typeof spec !== "object" || spec === null || Array.isArray(spec)) return bad
    const entries = Object.entries(spec as Record<string, unknown>)
    let sorting: Sorting
    if ("fieldName" in spec) {
      const { fieldName, order } = spec as { fieldName?: unknown; order?: unknown }
      if (typeof fieldName !== "string" || (order !== undefined && (typeof order !== "string" || ORDERS[order.toLowerCase()] === undefined))) return bad
      sorting = typeof order === "string" ? { fieldName, order: ORDERS[order.toLowerCase()]! } : { fieldName }
    } else {
      const [only] = entries
      if (entries.length !== 1 || only === undefined || typeof only[1] !== "string" || ORDERS[only[1].toLowerCase()] === undefined) return bad
      sorting = { fieldName: only[0], order: ORDERS[only[1].toLowerCase()]! }
    }
    const name = guarded(at, () => segments(sorting.fieldName))
    if (!name.ok) return name
    out.push(sorting)
  }
  return ok(out)
}

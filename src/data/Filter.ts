/**
 * Filters: the builders of filterBuilder.ts, and a filter written as the platform's JSON
 * (`Filter.fromJson`), checked with the platform's rules (FilterTree.ts). The JSON entry lives here so
 * that code building its filters with the builders alone (the catalog's queries, a product search)
 * carries none of those checks; every public route to `Filter` goes through this module.
 *
 * @example
 * const popular = Filter.gt("likes", 10).hasSome("tags", ["news", "sport"])
 * const same = Filter.fromJson({ likes: { $gt: 10 }, tags: { $hasSome: ["news", "sport"] } })
 */
import * as Result from "effect/Result"
import { encodeDates } from "../http/codec.ts"
import { Filter } from "./filterBuilder.ts"
import { parseFilter } from "./FilterTree.ts"

export {
  type AnyFields,
  type Comparable,
  type ComparableOf,
  type DeclaredFields,
  type ElementOf,
  type FieldName,
  type FieldsOf,
  type FieldValue,
  Filter,
  FilterMethods,
  type ReferenceFieldsOf,
  simplify
} from "./filterBuilder.ts"

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date)

Filter.fromJson = (json: unknown): Filter => {
  const parsed = parseFilter(encodeDates(json))
  return Result.isFailure(parsed)
    ? new Filter([], parsed.failure)
    : new Filter(isPlainObject(json) && Object.keys(json).length > 0 ? [json] : [], undefined)
}

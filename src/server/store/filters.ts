/**
 * Filters from clients, checked in one place: every call that takes a filter (query, search, count,
 * distinct, aggregate, pipeline filter stages, the async jobs, filters held in cursors) reads it with
 * {@link checkFilter}, so they all refuse the same things the same way, and refuse them when the
 * request arrives, never later while a job runs. A filter is checked against the platform's rules (the
 * shared parser's WDE codes), against the field-name rule of the SQL translator, and against the bounds
 * that keep its SQL compilable (limits.ts).
 */
import * as Result from "effect/Result"
import { type FilterNode, matchAll, parseFilter } from "../../data/FilterTree.ts"
import type { DatabaseShape } from "../platform/Database.ts"
import { depthOf } from "../platform/json.ts"
import { MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH, MAX_FILTER_VALUES } from "../platform/limits.ts"
import { badRequest, outOfBounds } from "./engineFailures.ts"
import { type Fragment, registerFunctions, type Source, where } from "./sql.ts"
import { segments } from "./values.ts"

/** What the filters of one request may still hold; a request with several filters shares one. */
export interface FilterBudget {
  conditions: number
  values: number
}

export const filterBudget = (): FilterBudget => ({ conditions: MAX_FILTER_CONDITIONS, values: MAX_FILTER_VALUES })

/**
 * The filter's tree (absent or null: everything). Throws an EngineFailure: the WDE code of a filter the
 * platform's rules refuse, or a 400 naming `field` and the bound for one that is too deep or too big.
 */
export const checkFilter = (json: unknown, field: string, budget: FilterBudget = filterBudget()): FilterNode => {
  if (json === undefined || json === null) return matchAll
  if (depthOf(json, MAX_FILTER_DEPTH) > MAX_FILTER_DEPTH) {
    throw outOfBounds(field, `The filter nests deeper than ${MAX_FILTER_DEPTH} levels`, "MAX_DEPTH", { maxDepth: MAX_FILTER_DEPTH })
  }
  const parsed = parseFilter(json)
  if (Result.isFailure(parsed)) throw badRequest(parsed.failure.code, parsed.failure.message)
  spend(parsed.success, field, budget)
  return parsed.success
}

/** The filter as a SQL condition on the rows of `source`, checked by {@link checkFilter}. */
export const compileFilter = (json: unknown, source: Source, field: string, budget?: FilterBudget): Fragment =>
  where(checkFilter(json, field, budget), source)

/**
 * Filtering for services that keep no table of wire documents (the members admin query builds its
 * members' wire form in memory): the same SQL {@link compileFilter} gives, run over the documents
 * passed as JSON texts and read as one array (`json_each`), so the filter has the data engine's meaning
 * and no second interpreter. The answer is the positions of the matching documents, in order.
 */
export const makeDocumentFilter = (db: DatabaseShape) => {
  registerFunctions(db)
  return (docs: ReadonlyArray<string>, node: FilterNode): ReadonlyArray<number> => {
    const condition = where(node, DOCUMENTS)
    return db.all(`SELECT d.key AS i FROM json_each(?) AS d WHERE ${condition.sql} ORDER BY d.key`, `[${docs.join(",")}]`, ...condition.params)
      .map((row) => Number(row.i))
  }
}
const DOCUMENTS: Source = { column: "d.value" }

const spend = (node: FilterNode, field: string, budget: FilterBudget): void => {
  switch (node._tag) {
    case "And":
    case "Or":
      for (const n of node.nodes) spend(n, field, budget)
      return
    case "Not":
      return spend(node.node, field, budget)
    default: {
      segments(node.field)
      budget.conditions--
      if (node._tag === "Set") budget.values -= node.values.length
      const values: ReadonlyArray<unknown> = node._tag === "Set" ? node.values : node._tag === "Compare" ? [node.value] : []
      if (values.some((v) => typeof v === "number" && !Number.isFinite(v))) {
        throw badRequest("WDE0058", `A value compared with [${node.field}] is not a finite number.`, [node.field])
      }
      if (budget.conditions < 0) {
        throw outOfBounds(field, `The filters of this request hold more than ${MAX_FILTER_CONDITIONS} conditions`, "MAX_SIZE", {
          maxConditions: MAX_FILTER_CONDITIONS
        })
      }
      if (budget.values < 0) {
        throw outOfBounds(field, `The filters of this request list more than ${MAX_FILTER_VALUES} values`, "MAX_SIZE", {
          maxValues: MAX_FILTER_VALUES
        })
      }
    }
  }
}

/**
 * Immutable aggregations: an optional filter, grouping fields, operations (count, sum, avg, min, max),
 * a `having` filter on the results, sort and paging; the number of result rows only when asked for
 * (`withTotalCount`), as the official client does. Each of filter, having and group may be set once.
 *
 * @example
 * const byAuthor = yield* DataItems.aggregate("Posts").group("author").count().sum("likes").descending("likesSum").run
 */
import * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import { type DataError, invalid, WDE } from "./DataError.ts"
import { Filter } from "./filterBuilder.ts"
import type { AggregateDataItemsRequest, AggregateOperation, ItemData, PagingMetadata, Sorting } from "./wire/index.ts"

/** What an aggregation gives: one row per group, and whether more rows follow. */
export interface AggregateResult {
  readonly items: ReadonlyArray<ItemData>
  readonly totalCount: number | undefined
  readonly hasNext: boolean
}

export type AggregateRunner<R> = (
  request: AggregateDataItemsRequest
) => Effect.Effect<{ readonly results: ReadonlyArray<ItemData>; readonly pagingMetadata?: PagingMetadata }, DataError | PlatformError, R>

interface State {
  readonly filter: Filter | undefined
  readonly having: Filter | undefined
  readonly group: ReadonlyArray<string> | undefined
  readonly operations: ReadonlyArray<AggregateOperation>
  readonly sort: ReadonlyArray<Sorting>
  readonly limit: number | undefined
  readonly skip: number | undefined
  readonly consistentRead: boolean | undefined
  readonly returnTotalCount: boolean | undefined
  readonly error: DataError | undefined
}

/** The platform's checks of an aggregation's limit (positive) or skip (non-negative): WDE0032, WDE0033/WDE0034, WDE0035. */
const checkCount = (op: string, n: unknown, positive: boolean): DataError | undefined => {
  const kind = positive ? "positive" : "non-negative"
  if (typeof n !== "number" || Number.isNaN(n)) return invalid(WDE.notANumber, `Invalid ${op} parameter [${typeof n}]. ${op} parameter must be a ${kind} number.`, op)
  if (positive ? n <= 0 : n < 0) return invalid(positive ? WDE.notPositive : WDE.negative, `Invalid ${op} parameter [${n}]. ${op} parameter must be a ${kind} number.`, op)
  if (!Number.isSafeInteger(n)) return invalid(WDE.notInteger, `Invalid ${op} parameter [${n}]. ${op} parameter must be an integer.`, op)
  return undefined
}

type Op = "sum" | "avg" | "min" | "max"
const wireOp: Record<Op, "sum" | "average" | "min" | "max"> = { sum: "sum", avg: "average", min: "min", max: "max" }

/** An immutable aggregation over a collection (`DataItems.aggregate`); `run` sends it. */
export class Aggregate<R = never> {
  readonly collection: string
  readonly runner: AggregateRunner<R>
  readonly state: State

  constructor(collection: string, runner: AggregateRunner<R>, state?: State) {
    this.collection = collection
    this.runner = runner
    this.state = state ?? {
      filter: undefined,
      having: undefined,
      group: undefined,
      operations: [],
      sort: [],
      limit: undefined,
      skip: undefined,
      consistentRead: undefined,
      returnTotalCount: undefined,
      error: undefined
    }
  }

  private with(patch: Partial<State>, error?: DataError): Aggregate<R> {
    return new Aggregate(this.collection, this.runner, { ...this.state, ...patch, error: this.state.error ?? error })
  }

  /** Items to aggregate (before grouping). Once per aggregation. */
  filter(filter: Filter): Aggregate<R> {
    if (this.state.filter !== undefined) return this.with({}, invalid(WDE.filterAlreadySet, "Invalid .filter usage. Filter is already set.", ".filter"))
    if (!(filter instanceof Filter)) return this.with({}, invalid(WDE.filterNotBuilder, "Invalid .filter usage. .filter requires a Filter.", ".filter"))
    return this.with({ filter }, filter.error)
  }
  /** Filter on the aggregated results. Once per aggregation. */
  having(filter: Filter): Aggregate<R> {
    if (this.state.having !== undefined) return this.with({}, invalid(WDE.filterAlreadySet, "Invalid .having usage. Filter is already set.", ".having"))
    if (!(filter instanceof Filter)) return this.with({}, invalid(WDE.filterNotBuilder, "Invalid .having usage. .having requires a Filter.", ".having"))
    return this.with({ having: filter }, filter.error)
  }
  /** Groups by these fields. Once per aggregation. */
  group(...fields: ReadonlyArray<string>): Aggregate<R> {
    if (this.state.group !== undefined) return this.with({}, invalid(WDE.groupAlreadySet, "Invalid .group usage. Group is already set.", ".group"))
    if (fields.length === 0) return this.with({}, invalid(WDE.arityAtLeastOne, "Invalid .group usage. .group requires at least one parameter.", ".group"))
    if (!fields.every((f) => typeof f === "string")) return this.with({}, invalid(WDE.notString, "Invalid .group parameter. .group fields must be Strings.", ".group"))
    return this.with({ group: fields })
  }
  /** Counts items per group, as `count` (or `as`). */
  count(as = "count", ...extra: ReadonlyArray<never>): Aggregate<R> {
    if (extra.length > 0) return this.with({}, invalid(WDE.arityZero, "Invalid count usage. count does not take parameters.", "count"))
    if (typeof as !== "string") return this.with({}, invalid(WDE.notString, "Invalid count parameter. count name must be a String.", "count"))
    return this.with({ operations: [...this.state.operations, { resultFieldName: as, itemCount: {} }] })
  }
  private op(kind: Op, field: string, as?: string): Aggregate<R> {
    if (typeof field !== "string" || (as !== undefined && typeof as !== "string")) {
      return this.with({}, invalid(WDE.notString, `Invalid ${kind} parameter value. ${kind} parameter must be a String.`, kind))
    }
    const name = as ?? `${field}${kind[0]!.toUpperCase()}${kind.slice(1)}`
    return this.with({ operations: [...this.state.operations, { resultFieldName: name, [wireOp[kind]]: { itemFieldName: field } }] })
  }
  /** Sum of a field, as `<field>Sum` (or `as`). */
  sum(field: string, as?: string): Aggregate<R> {
    return this.op("sum", field, as)
  }
  avg(field: string, as?: string): Aggregate<R> {
    return this.op("avg", field, as)
  }
  min(field: string, as?: string): Aggregate<R> {
    return this.op("min", field, as)
  }
  max(field: string, as?: string): Aggregate<R> {
    return this.op("max", field, as)
  }
  ascending(...fields: ReadonlyArray<string>): Aggregate<R> {
    return this.with({ sort: [...this.state.sort, ...fields.map((fieldName) => ({ fieldName, order: "ASC" as const }))] })
  }
  descending(...fields: ReadonlyArray<string>): Aggregate<R> {
    return this.with({ sort: [...this.state.sort, ...fields.map((fieldName) => ({ fieldName, order: "DESC" as const }))] })
  }
  limit(n: number): Aggregate<R> {
    const bad = checkCount(".limit", n, true)
    return bad === undefined ? this.with({ limit: n }) : this.with({}, bad)
  }
  skip(n: number): Aggregate<R> {
    const bad = checkCount(".skip", n, false)
    return bad === undefined ? this.with({ skip: n }) : this.with({}, bad)
  }
  consistentRead(value = true): Aggregate<R> {
    return this.with({ consistentRead: value })
  }
  /** Ask for `totalCount`, the number of result rows (costs the platform a count). */
  withTotalCount(value = true): Aggregate<R> {
    return this.with({ returnTotalCount: value })
  }

  get request(): AggregateDataItemsRequest {
    const s = this.state
    return {
      dataCollectionId: this.collection,
      ...(s.limit !== undefined || (s.skip ?? 0) > 0 ? { paging: { ...(s.limit === undefined ? {} : { limit: s.limit }), offset: s.skip ?? 0 } } : {}),
      ...(s.consistentRead === undefined ? {} : { consistentRead: s.consistentRead }),
      initialFilter: (s.filter ?? Filter.empty).tree,
      aggregation: { groupingFields: [...(s.group ?? [])], operations: [...s.operations] },
      ...(s.having === undefined ? {} : { finalFilter: s.having.tree }),
      sort: [...s.sort],
      ...(s.returnTotalCount === undefined ? {} : { returnTotalCount: s.returnTotalCount })
    }
  }

  /** Runs the aggregation. With one grouping field, `_id` holds that field's value. */
  get run(): Effect.Effect<AggregateResult, DataError | PlatformError, R> {
    return Effect.suspend(() => {
      if (this.state.error !== undefined) return Effect.fail(this.state.error)
      return this.runner(this.request).pipe(Effect.map((r) => ({
        items: r.results.map(unwrapGroupId),
        totalCount: r.pagingMetadata?.total ?? undefined,
        hasNext: r.pagingMetadata?.hasNext === true
      })))
    })
  }
}

/** The platform groups under `_id: {field: value}`; a single grouping field reads better as its value. */
const unwrapGroupId = (item: ItemData): ItemData => {
  const id = item["_id"]
  if (typeof id === "object" && id !== null && !Array.isArray(id) && !(id instanceof Date)) {
    const keys = Object.keys(id)
    if (keys.length === 1) return { ...item, _id: (id as Record<string, unknown>)[keys[0]!] }
  }
  return item
}

/**
 * Immutable queries over the catalog v1 readers that page by offset (products, collections, store
 * variants, inventory). The filter methods are the data client's (`eq`, `gt`, `startsWith`, `hasSome`,
 * `in`, `and`, ...); `ascending`/`descending` sort, `limit` (at most 100) and `skip` page, `find` gives
 * one page with `next`/`prev` and the total, and `pages`/`stream` walk every page as Streams, asking
 * for the next page while the current one is consumed.
 *
 * What goes on the wire is what the platform's own builder sends: `{query: {filter, paging: {offset,
 * limit}, sort}}`, the conditions under one `$and` in the order given, 50 a page unless set.
 *
 * @example
 * declare const tees: string // a collection's id
 * const page = yield* Products.query().hasSome("collectionIds", [tees]).descending("priceData.price").limit(20).find
 * const all = yield* Products.query().stream.pipe(Stream.runCollect)
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { DataError } from "../data/DataError.ts"
import { type AnyFields, type FieldName, FilterMethods } from "../data/filterBuilder.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { type CatalogError, invalidArgument } from "./CatalogError.ts"
import type { CatalogFailure } from "./calls.ts"
import { hasNextPage, offsetBody } from "./offsetPage.ts"
import { DEFAULT_PRODUCT_PAGE, MAX_PRODUCT_PAGE } from "./protocol.ts"
import { filterOf } from "./queryFilter.ts"
import { readAhead } from "./readAhead.ts"

type Tree = Record<string, unknown>

/** Sort fields a query takes at most. */
const MAX_SORT = 50

export interface Sort {
  readonly fieldName: string
  readonly order: "ASC" | "DESC"
}

/** The query of one request: `{filter, paging, sort}`. */
export interface OffsetQueryBody {
  readonly filter: Tree
  readonly paging: { readonly offset: number; readonly limit: number }
  readonly sort?: ReadonlyArray<Sort>
}

/** What a v1 reader answers about a page. */
export interface OffsetPaging {
  readonly total?: number | undefined
  readonly offset?: number | undefined
  readonly count?: number | undefined
  readonly items?: number | undefined
}

/** How a query reaches its reader: one page per call, its items and its paging. */
export interface OffsetRunner<A, R = PlatformClient> {
  /** Names the query in errors (`Products.query`). */
  readonly what: string
  readonly fetch: (query: OffsetQueryBody) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly paging: OffsetPaging }, CatalogFailure, R>
}

/** One page of a query, with the way to its neighbours. */
export interface OffsetPage<A, R = PlatformClient> {
  readonly items: ReadonlyArray<A>
  /** The number of all matching items, when the platform counted them. */
  readonly totalCount: number | undefined
  readonly offset: number
  readonly pageSize: number
  /** Zero-based. */
  readonly currentPage: number
  readonly totalPages: number | undefined
  readonly hasNext: boolean
  readonly hasPrev: boolean
  /** The next page; a CatalogError (INVALID_ARGUMENT) when there is none. */
  readonly next: Effect.Effect<OffsetPage<A, R>, CatalogFailure, R>
  readonly prev: Effect.Effect<OffsetPage<A, R>, CatalogFailure, R>
}

interface State {
  readonly sort: ReadonlyArray<Sort>
  readonly limit: number | undefined
  readonly skip: number
  readonly refusal: CatalogError | undefined
}

const initial: State = { sort: [], limit: undefined, skip: 0, refusal: undefined }

const refuse = (what: string, message: string, field: string) => invalidArgument(`${what}: ${message}`, field)

/** A catalog v1 query: filter and sort methods, then `find` (a page), `pages` or `stream`. */
export class OffsetQuery<A, R = PlatformClient, F = AnyFields> extends FilterMethods<OffsetQuery<A, R, F>, F> {
  readonly runner: OffsetRunner<A, R>
  readonly state: State

  constructor(runner: OffsetRunner<A, R>, state: State = initial, conditions: ReadonlyArray<Tree> = [], error?: DataError) {
    super(conditions, error)
    this.runner = runner
    this.state = state
  }

  protected withConditions(conditions: ReadonlyArray<Tree>, error: DataError | undefined): OffsetQuery<A, R, F> {
    return new OffsetQuery<A, R, F>(this.runner, this.state, conditions, error)
  }

  private with(patch: Partial<State>): OffsetQuery<A, R, F> {
    return new OffsetQuery<A, R, F>(this.runner, { ...this.state, ...patch, refusal: this.state.refusal ?? patch.refusal }, this.conditions, this.error)
  }

  private sortBy(op: string, order: "ASC" | "DESC", fields: ReadonlyArray<string>): OffsetQuery<A, R, F> {
    if (fields.length === 0 || !fields.every((f) => typeof f === "string" && f !== "")) {
      return this.with({ refusal: refuse(this.runner.what, `${op} takes one or more field names`, op) })
    }
    const sort = [...this.state.sort, ...fields.map((fieldName) => ({ fieldName, order }))]
    if (sort.length > MAX_SORT) return this.with({ refusal: refuse(this.runner.what, `a query sorts by at most ${MAX_SORT} fields`, op) })
    return this.with({ sort })
  }
  ascending(...fields: ReadonlyArray<FieldName<F>>): OffsetQuery<A, R, F> {
    return this.sortBy(".ascending", "ASC", fields)
  }
  descending(...fields: ReadonlyArray<FieldName<F>>): OffsetQuery<A, R, F> {
    return this.sortBy(".descending", "DESC", fields)
  }
  /** Page size, 1 to 100 (50 unless set). */
  limit(n: number): OffsetQuery<A, R, F> {
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_PRODUCT_PAGE) {
      return this.with({ refusal: refuse(this.runner.what, `.limit takes an integer from 1 to ${MAX_PRODUCT_PAGE}, not ${String(n)}`, ".limit") })
    }
    return this.with({ limit: n })
  }
  /** Items to pass over before the first page. */
  skip(n: number): OffsetQuery<A, R, F> {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
      return this.with({ refusal: refuse(this.runner.what, `.skip takes a whole number of at least 0, not ${String(n)}`, ".skip") })
    }
    return this.with({ skip: n })
  }
  /** Adds a whole filter (ANDed with the conditions so far). */
  where(filter: Parameters<FilterMethods<OffsetQuery<A, R, F>>["and"]>[0]): OffsetQuery<A, R, F> {
    return this.and(filter)
  }

  /** The filter as sent: the conditions under one `$and`, in order; `{}` for none. */
  get filter(): Tree {
    return filterOf(this.conditions)
  }

  private get pageSize(): number {
    return this.state.limit ?? DEFAULT_PRODUCT_PAGE
  }

  /** The query of the page at `offset`. */
  at(offset: number): OffsetQueryBody {
    return offsetBody(this.filter, offset, this.pageSize, this.state.sort)
  }

  /** The query of the first page (what `find` sends). */
  get request(): OffsetQueryBody {
    return this.at(this.state.skip)
  }

  private get refusal(): CatalogError | undefined {
    const e = this.error
    return this.state.refusal ?? (e === undefined ? undefined : refuse(this.runner.what, e.message, e.field ?? "filter"))
  }

  /** Runs the query: the first page. */
  get find(): Effect.Effect<OffsetPage<A, R>, CatalogFailure, R> {
    return Effect.suspend(() => {
      const refusal = this.refusal
      return refusal === undefined ? this.fetchPage(this.state.skip) : Effect.fail(refusal)
    })
  }

  /** Every page, one after another; each next page is asked for while the current one is consumed. */
  get pages(): Stream.Stream<OffsetPage<A, R>, CatalogFailure, R> {
    return this.walk((page) => [page])
  }

  /** Every matching item, in order. Unless the query set a page size, pages are of 100. */
  get stream(): Stream.Stream<A, CatalogFailure, R> {
    return this.walk((page) => page.items)
  }

  private walk<X>(emit: (page: OffsetPage<A, R>) => ReadonlyArray<X>): Stream.Stream<X, CatalogFailure, R> {
    const sized = this.state.limit === undefined ? this.limit(MAX_PRODUCT_PAGE) : this
    return readAhead(sized.find, emit)
  }

  private fetchPage(offset: number): Effect.Effect<OffsetPage<A, R>, CatalogFailure, R> {
    return Effect.map(this.runner.fetch(this.at(offset)), ({ items, paging }) => this.makePage(items, paging, offset))
  }

  private makePage(items: ReadonlyArray<A>, paging: OffsetPaging, offset: number): OffsetPage<A, R> {
    const limit = this.pageSize
    const total = paging.total
    const hasNext = hasNextPage(items.length, total, offset, limit)
    const hasPrev = offset > 0
    const what = this.runner.what
    return {
      items,
      totalCount: total,
      offset,
      pageSize: limit,
      currentPage: Math.floor(offset / limit),
      totalPages: total === undefined ? undefined : Math.ceil(total / limit),
      hasNext,
      hasPrev,
      next: hasNext ? Effect.suspend(() => this.fetchPage(offset + limit)) : Effect.fail(refuse(what, "there is no next page", "next")),
      prev: hasPrev ? Effect.suspend(() => this.fetchPage(Math.max(0, offset - limit))) : Effect.fail(refuse(what, "there is no previous page", "prev"))
    }
  }
}

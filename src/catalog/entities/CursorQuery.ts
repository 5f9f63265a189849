/**
 * Immutable queries over a catalog v3 entity service (brands, ribbons, info sections, customizations,
 * inventory items). The filter methods are the data client's (`eq`, `gt`, `startsWith`, `in`, `and`,
 * ...); `ascending`/`descending` sort, `limit` sets the page size, `find` gives the first page with
 * `next`/`prev`, and `pages`/`stream` walk every page as Streams, asking for the next page while the
 * current one is consumed.
 *
 * What goes on the wire is what the platform's own query builder sends: the conditions joined under
 * `$and` in the order given, dates as ISO text, `cursorPaging{limit}` on the first page, and only
 * `cursorPaging{cursor, limit}` on the pages after it.
 *
 * @example
 * const page = yield* Brands.query().startsWith("name", "K").ascending("name").limit(20).find
 * const names = yield* Brands.query().stream.pipe(Stream.map((b) => b.name), Stream.runCollect)
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { PlatformClient } from "../../http/PlatformClient.ts"
import type { DataError } from "../../data/DataError.ts"
import { FilterMethods } from "../../data/Filter.ts"
import { type CatalogError, invalidArgument } from "../CatalogError.ts"
import type { CatalogFailure } from "../calls.ts"
import { join, tidy } from "../queryFilter.ts"
import { readAhead } from "../readAhead.ts"
import type { CursorPagingMetadata } from "./guards/index.ts"
import { DEFAULT_ENTITY_PAGE, MAX_ENTITY_SORT } from "./protocol.ts"

type Tree = Record<string, unknown>

/** The body of one query request: `{query: {filter, sort, cursorPaging}, fields}`. */
export interface QueryBody {
  readonly query: {
    readonly filter?: Tree
    readonly sort?: ReadonlyArray<{ readonly fieldName: string; readonly order: "ASC" | "DESC" }>
    readonly cursorPaging: { readonly limit: number; readonly cursor?: string }
  }
  readonly fields?: ReadonlyArray<string>
}

/** How a query reaches its service: one page per call, its entities and its paging. */
export interface CursorRunner<A> {
  /** Names the query in errors (`Brands.query`). */
  readonly what: string
  /** The largest page the service hands out. */
  readonly maxLimit: number
  readonly fields?: ReadonlyArray<string> | undefined
  readonly fetch: (
    body: QueryBody
  ) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly paging: CursorPagingMetadata }, CatalogFailure, PlatformClient>
}

/** One page of a query, with the way to its neighbours. */
export interface EntityPage<A> {
  readonly items: ReadonlyArray<A>
  readonly pageSize: number
  readonly hasNext: boolean
  readonly hasPrev: boolean
  readonly cursors: { readonly next: string | undefined; readonly prev: string | undefined }
  /** The next page; a CatalogError (INVALID_ARGUMENT) when there is none. */
  readonly next: Effect.Effect<EntityPage<A>, CatalogFailure, PlatformClient>
  /** The previous page; a CatalogError (INVALID_ARGUMENT) when there is none. */
  readonly prev: Effect.Effect<EntityPage<A>, CatalogFailure, PlatformClient>
}

interface State {
  readonly sort: ReadonlyArray<{ readonly fieldName: string; readonly order: "ASC" | "DESC" }>
  readonly limit: number | undefined
  readonly cursor: string | undefined
  /** A refusal of a builder call that is not a filter (limit, sort, cursor). */
  readonly refusal: CatalogError | undefined
}

const initial: State = { sort: [], limit: undefined, cursor: undefined, refusal: undefined }

const isTree = (v: unknown): v is Tree => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date)

const SYSTEM_FIELDS: Record<string, string> = { _id: "id", _createdDate: "createdDate", _updatedDate: "updatedDate" }

/** A field name on the wire: the SDK spellings `_id`, `_createdDate`, `_updatedDate` are `id`, `createdDate`, `updatedDate`. */
export const wireField = (field: string): string => field.split(".").map((part) => SYSTEM_FIELDS[part] ?? part).join(".")

/**
 * A filter as it travels: dates as ISO text (JSON's own writing of a Date) and field names in their
 * wire spelling, as the platform's builder sends them.
 */
export const wireFilter = (value: unknown): unknown => {
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map(wireFilter)
  if (isTree(value)) {
    const out: Tree = {}
    for (const [k, v] of Object.entries(value)) out[k.startsWith("$") ? k : wireField(k)] = wireFilter(v)
    return out
  }
  return value
}

/** Conditions (of a query or a Filter) as the platform's builder sends them: one flat `$and`, wire field names, ISO dates. */
export const filterOf = (conditions: ReadonlyArray<Tree>): Tree => tidy(wireFilter(conditions.reduce<Tree>((acc, c) => join(acc, c), {}))) as Tree

const refuse = (what: string, message: string, field: string) => invalidArgument(`${what}: ${message}`, field)

const fromDataError = (what: string, error: DataError): CatalogError =>
  refuse(what, error.message, error.field ?? "filter")

/** A catalog v3 query: filter and sort methods, then `find` (a page), `pages` or `stream`. */
export class CursorQuery<A> extends FilterMethods<CursorQuery<A>> {
  readonly runner: CursorRunner<A>
  readonly state: State

  constructor(runner: CursorRunner<A>, state: State = initial, conditions: ReadonlyArray<Tree> = [], error?: DataError) {
    super(conditions, error)
    this.runner = runner
    this.state = state
  }

  protected withConditions(conditions: ReadonlyArray<Tree>, error: DataError | undefined): CursorQuery<A> {
    return new CursorQuery(this.runner, this.state, conditions, error)
  }

  private with(patch: Partial<State>): CursorQuery<A> {
    const next = { ...this.state, ...patch, refusal: this.state.refusal ?? patch.refusal }
    return new CursorQuery(this.runner, next, this.conditions, this.error)
  }

  private sortBy(op: string, order: "ASC" | "DESC", fields: ReadonlyArray<string>): CursorQuery<A> {
    if (fields.length === 0 || !fields.every((f) => typeof f === "string" && f !== "")) {
      return this.with({ refusal: refuse(this.runner.what, `${op} takes one or more field names`, op) })
    }
    const sort = [...this.state.sort, ...fields.map((fieldName) => ({ fieldName: wireField(fieldName), order }))]
    if (sort.length > MAX_ENTITY_SORT) {
      return this.with({ refusal: refuse(this.runner.what, `a query sorts by at most ${MAX_ENTITY_SORT} fields`, op) })
    }
    return this.with({ sort })
  }
  ascending(...fields: ReadonlyArray<string>): CursorQuery<A> {
    return this.sortBy(".ascending", "ASC", fields)
  }
  descending(...fields: ReadonlyArray<string>): CursorQuery<A> {
    return this.sortBy(".descending", "DESC", fields)
  }
  /** Page size, 1 to the service's largest page (50 unless set). */
  limit(n: number): CursorQuery<A> {
    const max = this.runner.maxLimit
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > max) {
      return this.with({ refusal: refuse(this.runner.what, `.limit takes an integer from 1 to ${max}, not ${String(n)}`, ".limit") })
    }
    return this.with({ limit: n })
  }
  /** Continues from a cursor a page handed out (the query's filter and sort travel inside it). */
  skipTo(cursor: string): CursorQuery<A> {
    if (typeof cursor !== "string" || cursor === "") {
      return this.with({ refusal: refuse(this.runner.what, ".skipTo takes a cursor a page handed out", ".skipTo") })
    }
    return this.with({ cursor })
  }
  /** Adds a whole filter (ANDed with the conditions so far). */
  where(filter: Parameters<FilterMethods<CursorQuery<A>>["and"]>[0]): CursorQuery<A> {
    return this.and(filter)
  }

  /** The filter as sent: the conditions under one `$and`, in order; `{}` for none. */
  get filter(): Tree {
    return filterOf(this.conditions)
  }

  private get pageSize(): number {
    return this.state.limit ?? DEFAULT_ENTITY_PAGE
  }

  private withFields<B extends object>(body: B): B & { readonly fields?: ReadonlyArray<string> } {
    const fields = this.runner.fields
    return fields === undefined ? body : { ...body, fields }
  }

  /** The request of the first page (what `find` sends). */
  get request(): QueryBody {
    const limit = this.pageSize
    if (this.state.cursor !== undefined) return this.withFields({ query: { cursorPaging: { cursor: this.state.cursor, limit } } })
    const sort = this.state.sort
    return this.withFields({ query: { filter: this.filter, ...(sort.length === 0 ? {} : { sort }), cursorPaging: { limit } } })
  }

  private get refusal(): CatalogError | undefined {
    return this.state.refusal ?? (this.error === undefined ? undefined : fromDataError(this.runner.what, this.error))
  }

  /** Runs the query: the first page. */
  get find(): Effect.Effect<EntityPage<A>, CatalogFailure, PlatformClient> {
    return Effect.suspend(() => {
      const refusal = this.refusal
      return refusal === undefined ? this.fetchPage(this.request) : Effect.fail(refusal)
    })
  }

  /** Every page, one after another; each next page is asked for while the current one is consumed. */
  get pages(): Stream.Stream<EntityPage<A>, CatalogFailure, PlatformClient> {
    return this.walk((page) => [page])
  }

  /** Every matching entity, in order. Unless the query set a page size, pages are the largest the service gives. */
  get stream(): Stream.Stream<A, CatalogFailure, PlatformClient> {
    return this.walk((page) => page.items)
  }

  private walk<X>(emit: (page: EntityPage<A>) => ReadonlyArray<X>): Stream.Stream<X, CatalogFailure, PlatformClient> {
    const sized = this.state.limit === undefined ? this.limit(this.runner.maxLimit) : this
    return readAhead(sized.find, emit)
  }

  private fetchPage(body: QueryBody): Effect.Effect<EntityPage<A>, CatalogFailure, PlatformClient> {
    return Effect.map(this.runner.fetch(body), ({ items, paging }) => this.makePage(items, paging))
  }

  private makePage(items: ReadonlyArray<A>, paging: CursorPagingMetadata): EntityPage<A> {
    const limit = this.pageSize
    const nextCursor = paging.cursors?.next ?? undefined
    const prevCursor = paging.cursors?.prev ?? undefined
    const hasNext = nextCursor !== undefined && nextCursor !== "" && paging.hasNext !== false
    const hasPrev = prevCursor !== undefined && prevCursor !== ""
    const what = this.runner.what
    const step = (cursor: string) => Effect.suspend(() => this.fetchPage(this.withFields({ query: { cursorPaging: { cursor, limit } } })))
    return {
      items,
      pageSize: limit,
      hasNext,
      hasPrev,
      cursors: { next: nextCursor, prev: prevCursor },
      next: hasNext ? step(nextCursor) : Effect.fail(refuse(what, "there is no next page", "next")),
      prev: hasPrev ? step(prevCursor) : Effect.fail(refuse(what, "there is no previous page", "prev"))
    }
  }
}

/**
 * Immutable queries over a collection. A query is a value: `find` runs it and gives a Page, `pages`
 * and `stream` walk every page (by cursors from the first page on; by offsets when the query skips or
 * the platform hands out no cursors), asking for the next page before the current one is decoded.
 *
 * @example
 * const page = yield* DataItems.query("Posts").gt("likes", 10).ascending("title").limit(20).find
 * const titles = yield* DataItems.query("Posts").stream.pipe(Stream.map((p) => p.title), Stream.runCollect)
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { PlatformError } from "../http/PlatformError.ts"
import { type DataError, invalid, WDE } from "./DataError.ts"
import { type AnyFields, type FieldName, type Filter, FilterMethods, type ReferenceFieldsOf } from "./filterBuilder.ts"
import { DATA_ENVIRONMENTS, type DataEnvironment, DEFAULT_PAGE_SIZE } from "./protocol.ts"
import type {
  CountDataItemsRequest,
  ItemData,
  PagingMetadata,
  QueryDataItemsRequest,
  QueryDataItemsResponse,
  QueryDistinctValuesRequest,
  QueryDistinctValuesResponse,
  Sorting
} from "./wire/index.ts"

/** What the platform's query answered, before the items are decoded. */
export interface RawPage {
  readonly items: ReadonlyArray<ItemData>
  readonly paging: PagingMetadata
}

/** How a query reaches the platform and turns stored items into values. */
export interface QueryRunner<A, R> {
  readonly collection: string
  readonly fetch: (request: QueryDataItemsRequest) => Effect.Effect<QueryDataItemsResponse, DataError | PlatformError, R>
  readonly count: (request: CountDataItemsRequest) => Effect.Effect<number, DataError | PlatformError, R>
  readonly distinct: (request: QueryDistinctValuesRequest) => Effect.Effect<QueryDistinctValuesResponse, DataError | PlatformError, R>
  readonly decode: (data: ItemData) => Effect.Effect<A, DataError>
  /**
   * Optional: how items of a projection (`fields(...)`) decode, when they cannot decode as whole items
   * (a typed collection's Schema picked to the projected fields).
   */
  readonly decodeProjection?: (fields: ReadonlyArray<string>) => (data: ItemData) => Effect.Effect<unknown, DataError>
  /** Set when items are taken as they come (no decoding that can fail): pages skip an Effect per item. */
  readonly asIs?: boolean
  /**
   * Optional: fetches a page and hands back its paging as soon as that is known, the rest of the answer
   * (parsing and checking every item) as an effect for later. Streams use it to ask for the next page
   * while the current one is still being decoded.
   */
  readonly fetchPaged?: (request: QueryDataItemsRequest) => Effect.Effect<PagedAnswer, DataError | PlatformError, R>
}

/** A page answer whose paging is known while its items are not decoded yet. */
export interface PagedAnswer {
  readonly paging: PagingMetadata
  readonly response: Effect.Effect<QueryDataItemsResponse, DataError | PlatformError>
}

/** Where a page sits: how many items came before it, its size, its number, the total when known. */
interface At {
  readonly skip: number
  readonly pageSize: number | undefined
  readonly currentPage: number | undefined
  readonly totalCount: number | undefined
}

/** A page to fetch: its request and where it sits. */
interface Step {
  readonly request: QueryDataItemsRequest
  readonly at: At
}

/** Read options a query sends with every page. */
export interface QueryOptions {
  readonly consistentRead?: boolean
  readonly language?: string
  /** The environment the query reads (default: the DataEnvironment in effect). */
  readonly environment?: DataEnvironment
  readonly returnTotalCount?: boolean
  readonly suppressHooks?: boolean
}

/** One page of results, with the way to the neighbouring pages. */
export interface Page<A, R = never> {
  readonly items: ReadonlyArray<A>
  /** Only when the query asked for it (`withTotalCount`) or the platform sent it. */
  readonly totalCount: number | undefined
  readonly pageSize: number
  readonly currentPage: number
  readonly totalPages: number | undefined
  readonly hasNext: boolean
  readonly hasPrev: boolean
  readonly cursors: { readonly next: string | undefined; readonly prev: string | undefined }
  /** The next page; WDE0165 when there is none. */
  readonly next: Effect.Effect<Page<A, R>, DataError | PlatformError, R>
  /** The previous page; WDE0159 when there is none. */
  readonly prev: Effect.Effect<Page<A, R>, DataError | PlatformError, R>
}

interface State {
  readonly sort: ReadonlyArray<Sorting>
  readonly fields: ReadonlyArray<string>
  readonly limit: number | undefined
  readonly skip: number | undefined
  readonly cursor: string | undefined
  /** Cursor paging from the first page on (streams): `cursorPaging{limit}` without a cursor. */
  readonly cursorPaging: boolean
  readonly includes: ReadonlyArray<{ readonly field: string; readonly limit?: number }>
  readonly options: QueryOptions
}

const initial: State = { sort: [], fields: [], limit: undefined, skip: undefined, cursor: undefined, cursorPaging: false, includes: [], options: {} }

const MAX_LIMIT = 1000

/** A limit (positive, at most 1000) or a skip-like count (non-negative safe integer): WDE0032–WDE0036 naming `op`. */
export const checkLimit = (op: string, n: unknown, positive: boolean): DataError | undefined => {
  if (typeof n !== "number" || Number.isNaN(n)) {
    return invalid(WDE.notANumber, `Invalid ${op} parameter [${typeof n}]. ${op} parameter must be a ${positive ? "positive" : "non-negative"} number.`, op)
  }
  if (positive && n <= 0) return invalid(WDE.notPositive, `Invalid ${op} parameter [${n}]. ${op} parameter must be a positive number.`, op)
  if (!positive && n < 0) return invalid(WDE.negative, `Invalid ${op} parameter [${n}]. ${op} parameter must be a non-negative number.`, op)
  if (!Number.isInteger(n)) return invalid(WDE.notInteger, `Invalid ${op} parameter [${n}]. ${op} parameter must be an integer.`, op)
  if (!Number.isSafeInteger(n) || (positive && n > MAX_LIMIT)) {
    return invalid(WDE.tooLarge, `Invalid ${op} parameter [${n}]. ${op} parameter cannot exceed ${positive ? MAX_LIMIT : Number.MAX_SAFE_INTEGER}.`, op)
  }
  return undefined
}

const nonEmpty = (op: string, value: unknown): DataError | undefined =>
  typeof value === "string" && value !== ""
    ? undefined
    : invalid(WDE.emptyString, `Invalid ${op} parameter. ${op} parameter must be non-empty string.`, op)

/** An item type projected to fields `K`: those and `_id`. */
export type Projected<A, K extends PropertyKey> = Pick<A, Extract<K | "_id", keyof A>>

/**
 * A reference field's values once included: a single reference's id becomes the referenced item, a
 * multi-reference's array holds the referenced items (possibly none). Absence stays: an item without
 * the reference has no field to resolve, and the platform answers none.
 */
type IncludedValue<V> = V extends undefined ? V : V extends ReadonlyArray<infer E> ? ReadonlyArray<Exclude<E, string>> : Exclude<V, string>

/**
 * An item type with reference field `K` resolved: its ids replaced by the referenced items. Each field
 * keeps its modifiers: an optional reference stays optional (the referenced item, or absent), a
 * required one is the referenced item.
 */
export type Included<A, K extends PropertyKey> = { readonly [P in keyof A]: P extends K ? IncludedValue<A[P]> : A[P] }

/** An immutable query over a collection: filters, sort, paging; `find`, `pages`, `stream` and `count` run it. */
export class Query<A, R = never, F = AnyFields> extends FilterMethods<Query<A, R, F>, F> {
  readonly runner: QueryRunner<A, R>
  readonly state: State

  constructor(runner: QueryRunner<A, R>, state: State = initial, conditions: ReadonlyArray<Record<string, unknown>> = [], error?: DataError) {
    super(conditions, error)
    this.runner = runner
    this.state = state
  }

  protected withConditions(conditions: ReadonlyArray<Record<string, unknown>>, error: DataError | undefined): Query<A, R, F> {
    return new Query<A, R, F>(this.runner, this.state, conditions, error)
  }

  private with(patch: Partial<State>, error?: DataError): Query<A, R, F> {
    return new Query<A, R, F>(this.runner, { ...this.state, ...patch }, this.conditions, this.error ?? error)
  }

  /** Adds a whole filter (ANDed with the conditions so far). */
  where(filter: Filter): Query<A, R, F> {
    return this.and(filter)
  }

  private sortBy(op: string, order: "ASC" | "DESC", fields: ReadonlyArray<string>): Query<A, R, F> {
    if (fields.length === 0 || !fields.every((f) => typeof f === "string")) {
      return this.with({}, invalid(WDE.badSort, `Invalid ${op} parameters. Valid ${op} values are String, Array of String or varargs String.`, op))
    }
    return this.with({ sort: [...this.state.sort, ...fields.map((fieldName) => ({ fieldName, order }))] })
  }
  ascending(...fields: ReadonlyArray<FieldName<F>>): Query<A, R, F> {
    return this.sortBy(".ascending", "ASC", fields)
  }
  descending(...fields: ReadonlyArray<FieldName<F>>): Query<A, R, F> {
    return this.sortBy(".descending", "DESC", fields)
  }
  /** Page size (1–1000). */
  limit(n: number): Query<A, R, F> {
    const bad = checkLimit(".limit", n, true)
    return bad === undefined ? this.with({ limit: n }) : this.with({}, bad)
  }
  /** Items to skip (offset paging only). */
  skip(n: number): Query<A, R, F> {
    const bad = checkLimit(".skip", n, false)
    if (bad !== undefined) return this.with({}, bad)
    if (this.state.cursor !== undefined) return this.with({}, invalid(WDE.skipWithCursor, "Skip is not supported in cursor paging.", ".skip"))
    return this.with({ skip: n })
  }
  /** Continues from a cursor a previous page handed out. */
  cursor(cursor: string): Query<A, R, F> {
    const bad = nonEmpty(".cursor", cursor)
    if (bad !== undefined) return this.with({}, bad)
    if (this.state.skip !== undefined && this.state.skip > 0) {
      return this.with({}, invalid(WDE.skipWithCursor, "Skip is not supported in cursor paging.", ".cursor"))
    }
    return this.with({ cursor })
  }
  /** Only these fields (plus `_id`) come back. */
  /**
   * Answers only these fields of each item (and `_id`). On a typed query the item type narrows to them:
   * `fields("title")` gives items with `_id` and `title`, decoded by the collection's Schema picked to them.
   */
  fields<K extends FieldName<F>>(...names: ReadonlyArray<K>): Query<F extends AnyFields ? A : Projected<A, K>, R, F> {
    type Next = Query<F extends AnyFields ? A : Projected<A, K>, R, F>
    if (!names.every((n) => typeof n === "string" && n !== "")) return this.with({}, nonEmpty(".fields", "")) as unknown as Next
    return this.with({ fields: [...this.state.fields, ...names] }) as unknown as Next
  }
  /**
   * Resolves a reference field to the referenced items (at most `limit` per multi-reference). On a typed
   * query the field's type narrows to the referenced items and keeps its optionality: `include("author")`
   * on posts whose `author?` is `string | AuthorsItem` gives posts whose `author?` is an `AuthorsItem`, so
   * a post without an author reads `post.author?.name`. A multi-reference becomes an array of items.
   * A single reference the platform cannot resolve (the id of no item, or of an item in a collection the
   * caller may not read) comes back as its id, which the type does not show.
   */
  include<K extends ReferenceFieldsOf<F>>(field: K, limit?: number): Query<F extends AnyFields ? A : Included<A, K>, R, F> {
    const bad = nonEmpty(".include", field) ?? (limit === undefined ? undefined : checkLimit(".include", limit, true))
    type Next = Query<F extends AnyFields ? A : Included<A, K>, R, F>
    if (bad !== undefined) return this.with({}, bad) as unknown as Next
    // the platform answers the referenced items in place of their ids, which the item's Schema decodes
    return this.with({ includes: [...this.state.includes, limit === undefined ? { field } : { field, limit }] }) as unknown as Next
  }
  /** Reads the collection's items in `environment` (LIVE, SANDBOX or SANDBOX_PREFERRED) rather than the DataEnvironment in effect. */
  environment(environment: DataEnvironment): Query<A, R, F> {
    if (!(DATA_ENVIRONMENTS as ReadonlyArray<unknown>).includes(environment)) {
      return this.with({}, invalid(WDE.notString, `.environment: ${String(environment)} is none of ${DATA_ENVIRONMENTS.join(", ")}.`, "environment"))
    }
    return this.with({ options: { ...this.state.options, environment } })
  }
  consistentRead(value = true): Query<A, R, F> {
    return this.with({ options: { ...this.state.options, consistentRead: value } })
  }
  language(language: string): Query<A, R, F> {
    const bad = nonEmpty(".language", language)
    return bad === undefined ? this.with({ options: { ...this.state.options, language } }) : this.with({}, bad)
  }
  /** Ask for `totalCount` (costs the platform a count). */
  withTotalCount(value = true): Query<A, R, F> {
    return this.with({ options: { ...this.state.options, returnTotalCount: value } })
  }

  /** The request of the first page (what `find` sends). */
  get request(): QueryDataItemsRequest {
    const s = this.state
    const { returnTotalCount, ...read } = s.options
    const paging = s.cursor !== undefined
      ? { cursorPaging: { limit: s.limit ?? DEFAULT_PAGE_SIZE, cursor: s.cursor } }
      : s.cursorPaging
      ? { cursorPaging: { limit: s.limit ?? DEFAULT_PAGE_SIZE } }
      : s.limit !== undefined || (s.skip ?? 0) > 0
      ? { paging: { ...(s.limit === undefined ? {} : { limit: s.limit }), offset: s.skip ?? 0 } }
      : {}
    return {
      dataCollectionId: this.runner.collection,
      query: s.cursor !== undefined
        ? { fields: [...s.fields], ...paging }
        : { fields: [...s.fields], ...paging, filter: this.tree, sort: [...s.sort] },
      includeReferences: [...s.includes],
      ...read,
      ...(returnTotalCount === undefined ? {} : { returnTotalCount })
    }
  }

  /** Runs the query: the first page. */
  get find(): Effect.Effect<Page<A, R>, DataError | PlatformError, R> {
    return Effect.suspend(() => {
      if (this.error !== undefined) return Effect.fail(this.error)
      const s = this.state
      return this.fetchPage(this.request, { skip: s.skip ?? 0, pageSize: s.limit, currentPage: undefined, totalCount: undefined })
    })
  }

  /** The number of items the filter matches (a property, as `find`, `pages` and `stream` are: `yield* query.count`). */
  get count(): Effect.Effect<number, DataError | PlatformError, R> {
    if (this.error !== undefined) return Effect.fail(this.error)
    const { returnTotalCount: _, suppressHooks: __, ...read } = this.state.options
    return this.runner.count({ dataCollectionId: this.runner.collection, filter: this.tree, ...read })
  }

  /** The distinct values of a field among the matching items (one page; `limit` sets its size). */
  distinct(field: string): Effect.Effect<{ readonly values: ReadonlyArray<unknown>; readonly hasNext: boolean }, DataError | PlatformError, R> {
    const bad = nonEmpty(".distinct", field)
    if (bad !== undefined) return Effect.fail(bad)
    if (this.error !== undefined) return Effect.fail(this.error)
    const s = this.state
    const { returnTotalCount, suppressHooks: _, ...read } = s.options
    const order = s.sort.find((o) => o.fieldName === field)?.order
    return this.runner.distinct({
      dataCollectionId: this.runner.collection,
      fieldName: field,
      filter: this.tree,
      ...(order === undefined ? {} : { order }),
      ...(s.limit !== undefined || (s.skip ?? 0) > 0 ? { paging: { ...(s.limit === undefined ? {} : { limit: s.limit }), offset: s.skip ?? 0 } } : {}),
      ...(returnTotalCount === undefined ? {} : { returnTotalCount }),
      ...read
    }).pipe(Effect.map((r) => ({ values: r.distinctValues, hasNext: r.pagingMetadata?.hasNext === true })))
  }

  /**
   * Every page, one after another; the next page is fetched while the current one is consumed. Pages
   * go by cursors from the first one on (unless the query skips): each costs the platform the same
   * however deep the stream is, and items written meanwhile do not shift them.
   */
  get pages(): Stream.Stream<Page<A, R>, DataError | PlatformError, R> {
    return this.walk((page) => [page])
  }

  /** Every matching item, in order, with backpressure. */
  get stream(): Stream.Stream<A, DataError | PlatformError, R> {
    return this.walk((page) => page.items)
  }

  /**
   * The pages, each turned into what the stream emits. Exactly one page ahead: when the consumer takes
   * page k, the request for page k+1 goes out (as soon as page k's paging is known, before its items
   * are decoded) and is awaited when the consumer asks for more. Built on `Stream.paginate` and a
   * forked fetch rather than `Stream.buffer`, which would bring Stream's channel machinery (about 9 KB
   * gzip) into every page that runs a query.
   */
  private walk<X>(emit: (page: Page<A, R>) => ReadonlyArray<X>): Stream.Stream<X, DataError | PlatformError, R> {
    if (this.error !== undefined) return Stream.fail(this.error)
    // a stream wants throughput: unless the query set a page size, use the largest one
    const sized = this.state.limit === undefined ? this.limit(MAX_LIMIT) : this
    const first = (sized.state.skip ?? 0) > 0 || sized.state.cursor !== undefined ? sized : sized.with({ cursorPaging: true })
    const fetchPaged = this.runner.fetchPaged
    if (fetchPaged === undefined) {
      return readAhead(first.find, (page) => (page.hasNext ? page.next : undefined), (page) => Effect.succeed(emit(page)))
    }
    // The next request needs only the paging of the current answer; decoding its items happens after it
    // has gone out, so it overlaps the platform working on the next page.
    const s = first.state
    const load = (step: Step) => Effect.map(fetchPaged(step.request), (answer) => ({ step, answer }))
    const start: Step = { request: first.request, at: { skip: s.skip ?? 0, pageSize: s.limit, currentPage: undefined, totalCount: undefined } }
    return readAhead(
      load(start),
      (loaded) => {
        const next = first.navigate(loaded.answer.paging, loaded.step.at).next
        return next === undefined ? undefined : load(next)
      },
      ({ answer, step }) =>
        Effect.flatMap(answer.response, (response) =>
          Effect.map(first.itemsOf(response), (items) => emit(first.makePage(items, response.pagingMetadata ?? {}, step.at))))
    )
  }

  private fetchPage(request: QueryDataItemsRequest, at: At): Effect.Effect<Page<A, R>, DataError | PlatformError, R> {
    return Effect.flatMap(this.runner.fetch(request), (response) =>
      Effect.map(this.itemsOf(response), (items) => this.makePage(items, response.pagingMetadata ?? {}, at))
    )
  }

  /** The items of an answer, decoded. */
  private itemsOf(response: QueryDataItemsResponse): Effect.Effect<ReadonlyArray<A>, DataError> {
    // an item's data usually holds its _id already: then it is used as it came, without a copy
    const raw = response.dataItems.map((d): ItemData =>
      d.data !== undefined && d.data !== null && (d.id === undefined || d.data["_id"] !== undefined)
        ? d.data
        : { ...(d.data ?? {}), ...(d.id === undefined ? {} : { _id: d.id }) }
    )
    if (this.runner.asIs === true) return Effect.succeed(raw as unknown as ReadonlyArray<A>)
    const projected = this.state.fields.length > 0 ? this.runner.decodeProjection?.(this.state.fields) : undefined
    return Effect.forEach(raw, (projected ?? this.runner.decode) as (data: ItemData) => Effect.Effect<A, DataError>)
  }

  /** Where a page leads: its numbers and the requests of the next and previous pages, when there are such. */
  private navigate(paging: PagingMetadata, at: At) {
    const totalCount = at.totalCount ?? Option.getOrUndefined(Option.fromNullishOr(paging.total))
    const pageSize = at.pageSize ?? DEFAULT_PAGE_SIZE
    const currentPage = at.currentPage ?? Math.ceil(at.skip / pageSize)
    const nextCursor = Option.getOrUndefined(Option.fromNullishOr(paging.cursors?.next))
    const prevCursor = Option.getOrUndefined(Option.fromNullishOr(paging.cursors?.prev))
    // a query that started from a cursor can only move on with cursors
    const cursorMode = this.state.cursor !== undefined
    const hasNext = paging.hasNext === true && (!cursorMode || nextCursor !== undefined)
    const hasPrev = cursorMode ? prevCursor !== undefined : currentPage > 0 || prevCursor !== undefined
    const stepTo = (cursor: string | undefined, skip: number, page: number): Step => {
      const { fields, includes, options } = this.state
      const { returnTotalCount: _, ...read } = options
      const request: QueryDataItemsRequest = cursor !== undefined
        ? { dataCollectionId: this.runner.collection, query: { fields: [...fields], cursorPaging: { limit: pageSize, cursor } }, includeReferences: [...includes], ...read }
        : offsetRequest(this.request, pageSize, skip)
      return { request, at: { skip, pageSize, currentPage: page, totalCount } }
    }
    return {
      totalCount,
      pageSize,
      currentPage,
      nextCursor,
      prevCursor,
      hasNext,
      hasPrev,
      next: hasNext ? stepTo(nextCursor, at.skip + pageSize, currentPage + 1) : undefined,
      prev: hasPrev ? stepTo(prevCursor, Math.max(at.skip - pageSize, 0), Math.max(currentPage - 1, 0)) : undefined
    }
  }

  private makePage(items: ReadonlyArray<A>, paging: PagingMetadata, at: At): Page<A, R> {
    const nav = this.navigate(paging, at)
    const collection = this.runner.collection
    const { totalCount, pageSize, next, prev } = nav
    return {
      items,
      totalCount,
      pageSize,
      currentPage: nav.currentPage,
      totalPages: totalCount === undefined ? undefined : totalCount === 0 ? 0 : Math.ceil(totalCount / pageSize),
      hasNext: nav.hasNext,
      hasPrev: nav.hasPrev,
      cursors: { next: nav.nextCursor, prev: nav.prevCursor },
      next: next !== undefined
        ? Effect.suspend(() => this.fetchPage(next.request, next.at))
        : Effect.fail(invalid(WDE.noNextPage, `Invalid query on [${collection}].\nThere is no next page.`)),
      prev: prev !== undefined
        ? Effect.suspend(() => this.fetchPage(prev.request, prev.at))
        : Effect.fail(invalid(WDE.noPreviousPage, `Invalid query on [${collection}].\nThere is no prev page.`))
    }
  }
}

/**
 * Waits for the event loop's next turn: promise callbacks and I/O queued before it have run. Node's
 * `setImmediate` comes right after the I/O it waits for; `setTimeout` waits at least a millisecond.
 */
const nextTurn: (f: () => void) => unknown = typeof globalThis.setImmediate === "function" ? globalThis.setImmediate : (f) => setTimeout(f, 0)
const macrotask = Effect.callback<void>((resume) => {
  nextTurn(() => resume(Effect.void))
})

/**
 * A stream of loaded things, one ahead: `next` of the one just loaded is started (forked) before that
 * one is `finish`ed and emitted; a consumer that stops early interrupts the one on its way.
 */
const readAhead = <L, X, E, R>(
  first: Effect.Effect<L, E, R>,
  next: (loaded: L) => Effect.Effect<L, E, R> | undefined,
  finish: (loaded: L) => Effect.Effect<ReadonlyArray<X>, E, R>
): Stream.Stream<X, E, R> =>
  Stream.unwrap(Effect.sync(() => {
    let pending: Fiber.Fiber<L, E> | undefined
    return Stream.paginate(first, (current) =>
      Effect.gen(function*() {
        const loaded = yield* current
        const following = next(loaded)
        let later: Option.Option<Effect.Effect<L, E>> = Option.none()
        if (following !== undefined) {
          // started at once, not on the scheduler's next turn: else this page's decoding runs first and
          // the next request goes out late (a third of the export's time, measured)
          const fiber = yield* Effect.forkChild(following, { startImmediately: true })
          pending = fiber
          later = Option.some(Fiber.join(fiber))
          // let the next request go out before this page is decoded: a macrotask, so that the steps an
          // HTTP client takes before it writes (promise callbacks, which a yield alone would not run) are done
          yield* macrotask
        }
        return [yield* finish(loaded), later] as const
      })).pipe(Stream.ensuring(Effect.suspend(() => (pending === undefined ? Effect.void : Fiber.interrupt(pending)))))
  }))

/** A later offset page: same filter and sort, new paging, and no second count. */
const offsetRequest = (first: QueryDataItemsRequest, limit: number, offset: number): QueryDataItemsRequest => {
  const { returnTotalCount: _, query, ...rest } = first
  const { cursorPaging: __, ...q } = query ?? {}
  return { ...rest, query: { ...q, paging: { limit, offset } } }
}

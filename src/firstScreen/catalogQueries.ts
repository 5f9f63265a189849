/**
 * A catalog v1 query's first page, described without the query builders (which carry Effect): the
 * request the builder's `find` would send (`Products.query()`, `Collections.query()` with the same
 * filter, sort and limit), the cache key its query atom will have, and how its answer is read.
 *
 * The answer's envelope is checked (a list of objects, the paging's numbers): what the screen and the
 * query atom page with. Its items are taken as the platform sent them, as `hydrate` takes a server's
 * results: checking every field of a product would add 1.9 KB gzipped to a first script of 2.6.
 */
import type { Collection, Product } from "../catalog/guards/products.ts"
import { isRecord } from "../http/isRecord.ts"
import type { QueryFallback } from "../http/PlatformRequest.ts"
import { hasNextPage, offsetBody, offsetFallback, pagingOf } from "../catalog/offsetPage.ts"
import type { OffsetQueryBody, Sort } from "../catalog/OffsetQuery.ts"
import { CatalogPaths, DEFAULT_PRODUCT_PAGE, MAX_PRODUCT_PAGE } from "../catalog/protocol.ts"
import { catalogQueryKey } from "../react/keys.ts"

/** A query's first page as a page's first script sends it: see `products` and `collections`. */
export interface FirstQuery<A> {
  /** The cache key of the query atom of the same query (`queries.products(...)`), which the answer seeds. */
  readonly key: string
  /** What goes on the wire; undefined when the query builder would refuse the query before sending it. */
  readonly request: FirstRequest | undefined
  /** The answer's page: its items and whether more follow; undefined when it is not the answer's shape. */
  readonly read: (answer: unknown) => FirstAnswerPage<A> | undefined
}

/**
 * A query's request as the client sends it: a GET with the payload as `.r`, or, past the fallback's
 * limit, a POST of the same JSON to the fallback's path.
 */
export interface FirstRequest {
  readonly path: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly fallback: QueryFallback
}

/** A first page as read from the answer. */
export interface FirstAnswerPage<A> {
  readonly items: ReadonlyArray<A>
  /** How many items match, when the platform counted them. */
  readonly total: number | undefined
  /** Whether a next page follows. */
  readonly hasMore: boolean
}

/**
 * A catalog query's first page as JSON: the `filter` as the query builder writes it (its `filter`
 * getter: `{}` for none), the `sort` in order, the page size (`limit`, 1 to 100, 50 by default) and the
 * items to pass over (`skip`). `Products.query().limit(24).descending("createdDate")` is
 * `{ limit: 24, sort: [{ fieldName: "createdDate", order: "DESC" }] }`.
 */
export interface CatalogPageRequest {
  readonly filter?: Readonly<Record<string, unknown>> | undefined
  readonly sort?: ReadonlyArray<Sort> | undefined
  readonly limit?: number | undefined
  readonly skip?: number | undefined
}

// the checks the query builder makes before it sends anything: a query it refuses is not sent here either
const MAX_SORT = 50
const wellFormed = (q: CatalogPageRequest): boolean => {
  const { limit, skip, sort, filter } = q
  if (limit !== undefined && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_PRODUCT_PAGE)) return false
  if (skip !== undefined && (typeof skip !== "number" || !Number.isSafeInteger(skip) || skip < 0)) return false
  if (filter !== undefined && (typeof filter !== "object" || filter === null || Array.isArray(filter))) return false
  return sort === undefined || (Array.isArray(sort) && sort.length <= MAX_SORT &&
    sort.every((s) => typeof s?.fieldName === "string" && s.fieldName !== "" && (s.order === "ASC" || s.order === "DESC")))
}

const count = (n: unknown): n is number | undefined => n === undefined || typeof n === "number"

const catalogQuery = <A>(
  what: "products" | "collections",
  path: string,
  q: CatalogPageRequest,
  wrap: (query: OffsetQueryBody) => Record<string, unknown>,
  key: string | undefined
): FirstQuery<A> => {
  const limit = q.limit ?? DEFAULT_PRODUCT_PAGE
  const offset = q.skip ?? 0
  const sort = (q.sort ?? []).map(({ fieldName, order }) => ({ fieldName, order }))
  const body = offsetBody({ ...q.filter }, offset, limit, sort)
  return {
    key: catalogQueryKey(what, body, key),
    request: wellFormed(q) ? { path, payload: wrap(body), fallback: offsetFallback(path) } : undefined,
    read: (answer) => {
      // the envelope: the list under the call's key, the paging's numbers
      if (!isRecord(answer)) return undefined
      const { [what]: list = [], metadata = {}, totalResults } = answer
      if (!Array.isArray(list) || !list.every(isRecord) || !isRecord(metadata) || !count(metadata["total"]) || !count(totalResults)) return undefined
      const total = pagingOf(metadata, totalResults).total
      return { items: list as Array<A>, total, hasMore: hasNextPage(list.length, total, offset, limit) }
    }
  }
}

/**
 * The first page of a product query, as `Products.query(options)` with the same filter, sort and
 * limit sends it. `key` is the name the query atom was given for its options (`queries.products(query, { key })`).
 *
 * @example
 * import { products } from "sitefx/first-screen"
 * // Products.query().limit(24).descending("createdDate")
 * const grid = products({ limit: 24, sort: [{ fieldName: "createdDate", order: "DESC" }] })
 */
export const products = (
  query: CatalogPageRequest = {},
  options: { readonly includeVariants?: boolean; readonly includeHiddenProducts?: boolean; readonly key?: string } = {}
): FirstQuery<Product> =>
  catalogQuery("products", CatalogPaths.productsQuery, query, (q) => ({
    query: q,
    ...(options.includeVariants === undefined ? {} : { includeVariants: options.includeVariants }),
    ...(options.includeHiddenProducts === undefined ? {} : { includeHiddenProducts: options.includeHiddenProducts })
  }), options.key)

/**
 * The first page of a store-collection query, as `Collections.query()` with the same filter, sort and limit sends it.
 *
 * @example
 * import { collections } from "sitefx/first-screen"
 * // Collections.query().ascending("name").limit(100)
 * const nav = collections({ limit: 100, sort: [{ fieldName: "name", order: "ASC" }] })
 */
export const collections = (query: CatalogPageRequest = {}): FirstQuery<Collection> =>
  catalogQuery("collections", CatalogPaths.collectionsQuery, query, (q) => ({ query: q }), undefined)

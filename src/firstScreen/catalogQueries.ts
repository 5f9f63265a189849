/**
 * A catalog v1 query's first page, described without the query builders (which carry Effect): the
 * request the builder's `find` would send (`Products.query()`, `Collections.query()` with the same
 * filter, sort and limit), the cache key its query atom will have, and how its answer is checked and read.
 */
import type { Guard } from "../http/guard.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { type Collection, type Product, QueryCollectionsResponse, QueryProductsResponse } from "../catalog/guards/products.ts"
import { hasNextPage, offsetBody, offsetRequest, pagingOf } from "../catalog/offsetPage.ts"
import type { OffsetPaging, Sort } from "../catalog/OffsetQuery.ts"
import { CatalogPaths, DEFAULT_PRODUCT_PAGE, MAX_PRODUCT_PAGE } from "../catalog/protocol.ts"
import { catalogQueryKey } from "../react/keys.ts"

/** A query's first page as a page's first script sends it: see `products` and `collections`. */
export interface FirstQuery<A> {
  /** The cache key of the query atom of the same query (`queries.products(...)`), which the answer seeds. */
  readonly key: string
  /** What goes on the wire; undefined when the query builder would refuse the query before sending it. */
  readonly request: PlatformRequest | undefined
  /** The answer's page: its items and whether more follow; undefined when it is not the answer's shape. */
  readonly read: (answer: unknown) => FirstAnswerPage<A> | undefined
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

const catalogQuery = <R, A>(
  what: "products" | "collections",
  path: string,
  q: CatalogPageRequest,
  guard: Guard<R>,
  items: (answer: R) => { readonly items: ReadonlyArray<A> | undefined; readonly paging: OffsetPaging },
  wrap: (query: Record<string, unknown>) => Record<string, unknown>,
  key: string | undefined
): FirstQuery<A> => {
  const limit = q.limit ?? DEFAULT_PRODUCT_PAGE
  const offset = q.skip ?? 0
  const sort = (q.sort ?? []).map(({ fieldName, order }) => ({ fieldName, order }))
  const body = offsetBody({ ...q.filter }, offset, limit, sort)
  const ok = wellFormed(q)
  return {
    key: catalogQueryKey(what, body, key),
    request: ok ? offsetRequest("GET", path, wrap(body as unknown as Record<string, unknown>)) : undefined,
    read: (answer) => {
      if (guard(answer) !== undefined) return undefined
      const page = items(answer as R)
      const list = page.items ?? []
      return { items: list, total: page.paging.total, hasMore: hasNextPage(list.length, page.paging.total, offset, limit) }
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
  catalogQuery("products", CatalogPaths.productsQuery, query, QueryProductsResponse, (r) => ({ items: r.products, paging: pagingOf(r.metadata, r.totalResults) }), (q) => ({
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
  catalogQuery("collections", CatalogPaths.collectionsQuery, query, QueryCollectionsResponse, (r) => ({ items: r.collections, paging: pagingOf(r.metadata, r.totalResults) }), (q) => ({ query: q }), undefined)

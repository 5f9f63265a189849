/**
 * What a catalog v1 offset query sends and how its answer is read, as plain functions (no Effect): the
 * query of a page, the request that carries it, the paging of an answer and whether a next page follows.
 * `OffsetQuery` and the v1 readers use them, and so does a page's first script (`sitefx/first-screen`),
 * which sends a query's first page before the client has loaded: the two send the same bytes.
 */
import type { PlatformRequest, QueryFallback } from "../http/PlatformRequest.ts"
import type { OffsetPaging, OffsetQueryBody, Sort } from "./OffsetQuery.ts"
import { PRODUCT_QUERY_MAX_QUERY } from "./protocol.ts"

/** The query of the page at `offset`: `{filter, paging: {offset, limit}, sort}`, the sort left out when empty. */
export const offsetBody = (filter: Record<string, unknown>, offset: number, limit: number, sort: ReadonlyArray<Sort>): OffsetQueryBody => ({
  filter,
  paging: { offset, limit },
  ...(sort.length === 0 ? {} : { sort })
})

/** Where a v1 reader's GET goes when its query string is too long: a POST of the same JSON to the same path. */
export const offsetFallback = (path: string): QueryFallback => ({ path, limit: { kind: "query", max: PRODUCT_QUERY_MAX_QUERY } })

/** A v1 reader's request for one page: a GET goes as `.r`, and as a POST to the same path when its query string is too long. */
export const offsetRequest = (method: "GET" | "POST", path: string, payload: Record<string, unknown>): PlatformRequest => ({
  method,
  path,
  payload,
  idempotent: true,
  ...(method === "GET" ? { complex: { fallback: offsetFallback(path) } } : {})
})

/** v1 paging with the total from `metadata.total` or `totalResults`. */
export const pagingOf = (metadata: OffsetPaging | undefined, totalResults: number | undefined): OffsetPaging => ({
  ...metadata,
  total: metadata?.total ?? totalResults
})

/** Whether a page of `count` items at `offset` has one after it: without a total, a full page may. */
export const hasNextPage = (count: number, total: number | undefined, offset: number, limit: number): boolean =>
  total === undefined ? count === limit : offset + count < total && count > 0

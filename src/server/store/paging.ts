/**
 * What a query of stored documents asks for, in every module of the store: which documents (a filter in
 * the data filter language), in what order, and which page of them: `limit` from `offset`, or after
 * (or before) a cursor the last page handed out.
 */
import type { Sorting } from "../../http/wire.ts"

/** `limit` documents from the `offset`th match on. */
export interface OffsetPaging {
  readonly mode: "offset"
  readonly limit: number
  readonly offset: number
}

/**
 * `limit` documents after (or before) the boundary a cursor holds; no cursor: the first page. An
 * undefined `limit` is the cursor's own, or the query's default.
 */
export interface CursorPaging {
  readonly mode: "cursor"
  readonly limit: number | undefined
  readonly cursor: string | undefined
}

export type Paging = OffsetPaging | CursorPaging

/**
 * A query: its filter (`F`: unchecked JSON, or a tree a route checked already), its sort, and its page
 * (`P`: the paging a store supports).
 */
export interface PageRequest<P extends Paging = Paging, F = unknown> {
  readonly filter: F
  readonly sort: ReadonlyArray<Sorting>
  readonly paging: P
}

/** Offset paging of `limit` from `offset`. */
export const offsetPaging = (limit: number, offset: number): OffsetPaging => ({ mode: "offset", limit, offset })

/**
 * Paging requests and answers: offset paging `paging{limit, offset}` or cursor paging
 * `cursorPaging{limit, cursor}` (not both: a skip with cursor paging is WDE0080). Limits default to 50
 * and may not pass 1000. Answers always say `hasNext`, since the official client pages only then.
 */
import { WDE } from "../../data/DataError.ts"
import type { CursorPaging, Paging, PagingMetadata } from "../../data/wire/index.ts"
import { DEFAULT_PAGE_SIZE } from "../../data/protocol.ts"
import { MAX_INTEGER } from "../platform/limits.ts"
import { badRequest, pastBound } from "../store/engineFailures.ts"
import type { Paging as StorePaging } from "../store/paging.ts"

export const MAX_PAGE_SIZE = 1000

/** The store's paging with its limit settled (a data cursor's page size is the request's, else the default). */
export type DataPaging = StorePaging & { readonly limit: number }

const checkLimit = (limit: number | null | undefined, fallback: number, field: string): number => {
  if (limit === undefined || limit === null) return fallback
  if (!Number.isInteger(limit)) throw badRequest(WDE.notInteger, `WDE0035: Invalid limit parameter [${limit}]. limit parameter must be an integer.`, [field])
  if (limit <= 0) throw badRequest(WDE.notPositive, `WDE0033: Invalid limit parameter [${limit}]. limit parameter must be a positive number.`, [field])
  if (limit > MAX_PAGE_SIZE) {
    throw pastBound(WDE.tooLarge, `WDE0036: Invalid limit parameter [${limit}]. limit parameter cannot exceed ${MAX_PAGE_SIZE}.`, "data.paging.max-limit", field, MAX_PAGE_SIZE)
  }
  return limit
}

/** The page asked for; 400 with a WDE code for bad limits, a negative skip, or a skip with a cursor. */
export const pageRequest = (
  paging: Paging | undefined,
  cursorPaging: CursorPaging | undefined,
  fallback: number = DEFAULT_PAGE_SIZE
): DataPaging => {
  if (cursorPaging !== undefined) {
    if (paging !== undefined) throw badRequest(WDE.skipWithCursor, "WDE0080: Skip is not supported in cursor paging.", ["paging", "cursorPaging"])
    return { mode: "cursor", limit: checkLimit(cursorPaging.limit, fallback, "cursorPaging.limit"), cursor: cursorPaging.cursor ?? undefined }
  }
  const offset = paging?.offset ?? 0
  if (!Number.isInteger(offset)) throw badRequest(WDE.notInteger, `WDE0035: Invalid skip parameter [${offset}]. skip parameter must be an integer.`, ["paging.offset"])
  if (offset < 0) throw badRequest(WDE.negative, `WDE0034: Invalid skip parameter [${offset}]. skip parameter must be a non-negative number.`, ["paging.offset"])
  if (offset > MAX_INTEGER) {
    throw pastBound(WDE.tooLarge, `WDE0036: Invalid skip parameter [${offset}]. skip parameter cannot exceed ${MAX_INTEGER}.`, "data.paging.max-offset", "paging.offset", MAX_INTEGER)
  }
  return { mode: "offset", limit: checkLimit(paging?.limit, fallback, "paging.limit"), offset }
}

export const offsetMetadata = (count: number, offset: number, hasNext: boolean, total: number | undefined): PagingMetadata => ({
  count,
  offset,
  ...(total === undefined ? {} : { total, tooManyToCount: false }),
  hasNext
})

export const cursorMetadata = (count: number, next: string | undefined, prev: string | undefined, hasNext: boolean): PagingMetadata => ({
  count,
  cursors: { ...(next === undefined ? {} : { next }), ...(prev === undefined ? {} : { prev }) },
  hasNext
})

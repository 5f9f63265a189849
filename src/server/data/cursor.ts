/**
 * Opaque cursors: base64url JSON holding everything the next page needs (the request's filter, sort,
 * fields and limit, and the sort key of the item the page ended on), so a cursor request carries only
 * `cursorPaging`. Resuming from a sort key rather than an offset keeps paging stable while items are
 * inserted or removed: an item present the whole time is seen exactly once.
 */
import type { SQLInputValue } from "node:sqlite"
import { base64url, fromBase64url } from "../../http/wire.ts"
import { badRequest } from "./failures.ts"
import { isObject } from "./values.ts"

export type CursorState = Readonly<Record<string, unknown>> & {
  /** What the cursor pages: items of a query or search, distinct values, pipeline results. */
  readonly kind: string
  readonly collection: string
}

export const encodeCursor = (state: CursorState): string => base64url(JSON.stringify(state))

/** The cursor's state; 400 when it is not one of ours, or belongs to another collection or call. */
export const decodeCursor = (cursor: string, kind: string, collection: string): CursorState => {
  let state: unknown
  try {
    state = JSON.parse(fromBase64url(cursor))
  } catch {
    state = undefined
  }
  if (!isObject(state) || state["kind"] !== kind || state["collection"] !== collection) {
    throw badRequest("WDE0094", "Invalid cursor: it does not belong to this kind of call on this collection.")
  }
  return state as CursorState
}

/** The boundary sort key stored in a cursor (plain SQL values). */
export const keyValues = (value: unknown): ReadonlyArray<SQLInputValue> => {
  if (!Array.isArray(value) || !value.every((v) => v === null || typeof v === "number" || typeof v === "string")) {
    throw badRequest("WDE0094", "Invalid cursor.")
  }
  return value as ReadonlyArray<SQLInputValue>
}

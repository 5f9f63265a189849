/**
 * Opaque cursors: base64url JSON holding everything the next page needs (the request's filter, sort,
 * fields and limit, and the sort key of the item the page ended on), so a cursor request carries only
 * `cursorPaging`. Resuming from a sort key rather than an offset keeps paging stable while items are
 * inserted or removed: an item present the whole time is seen exactly once.
 */
import * as Schema from "effect/Schema"
import type { SQLInputValue } from "node:sqlite"
import { base64url, fromBase64url } from "../../http/codec.ts"
import { parseJson } from "../platform/json.ts"
import { MAX_INTEGER } from "../platform/limits.ts"
import { badRequest } from "../store/engineFailures.ts"
import { isObject } from "../store/values.ts"

export type CursorState = Readonly<Record<string, unknown>> & {
  /** What the cursor pages: items of a query or search, distinct values, pipeline results. */
  readonly kind: string
  readonly collection: string
}

export const encodeCursor = (state: CursorState): string => base64url(JSON.stringify(state))

/**
 * The cursor's state; 400 when it is not one of ours, belongs to another collection or call, or does
 * not have the shape `schema` gives the state of its kind. A cursor is the client's to send, so what it
 * holds is checked like any request (its filter and stages go through the same checks again).
 */
export const decodeCursor = <S extends Schema.Top>(cursor: string, kind: string, collection: string, schema: S): CursorState & S["Type"] => {
  const parsed = parseJson(fromBase64url(cursor), "cursor", "The cursor")
  const state = parsed.ok ? parsed.value : undefined
  if (!isObject(state) || state["kind"] !== kind || state["collection"] !== collection || !Schema.is(schema)(state)) {
    throw badRequest("WDE0094", "Invalid cursor: it does not belong to this kind of call on this collection.")
  }
  return state as CursorState & S["Type"]
}

/** A position stored in a cursor (the results of pipelines and referenced items have no sort key to resume from). */
export const CursorOffset = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_INTEGER }))

/** The boundary sort key stored in a cursor: plain SQL values. */
export const CursorKeys = Schema.Array(Schema.NullOr(Schema.Union([Schema.Finite, Schema.String])))

/** The boundary sort key stored in a cursor (plain SQL values). */
export const keyValues = (value: unknown): ReadonlyArray<SQLInputValue> => {
  if (!Array.isArray(value) || !value.every((v) => v === null || typeof v === "number" || typeof v === "string")) {
    throw badRequest("WDE0094", "Invalid cursor.")
  }
  return value as ReadonlyArray<SQLInputValue>
}

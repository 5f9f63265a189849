/**
 * Cursor paging over a table of JSON documents, for every store module that pages with cursors (the
 * catalog's v3 entities, the orders): the query runs in the data filter language over the document
 * (`checkFilter`, `where`, `sortTerms`, `beyond`), and a cursor is opaque base64url JSON holding the
 * query, its page size and the sort key of the row a page ended (or began) on, so that paging stays
 * stable while documents are added or removed.
 */
import * as Schema from "effect/Schema"
import type { SQLInputValue } from "node:sqlite"
import { base64url, fromBase64url } from "../../http/codec.ts"
import type { Sorting } from "../../http/wire.ts"
import type { DatabaseShape, Row } from "../platform/Database.ts"
import { parseJson } from "../platform/json.ts"
import type { EngineFailure } from "./engineFailures.ts"
import { outOfBounds } from "./engineFailures.ts"
import { checkFilter } from "./filters.ts"
import type { CursorPaging, PageRequest } from "./paging.ts"
import { beyond, concat, type Fragment, orderBy, type SortTerm, sortTerms, type Source, where } from "./sql.ts"
import { isObject, type Json, segments } from "./values.ts"

/** The page size when neither the request nor its cursor names one, and the largest allowed. */
export interface PageBounds {
  readonly defaultLimit: number
  readonly maxLimit: number
}

/** One page of documents and the cursors to the pages beside it. */
export interface PageResult {
  readonly items: ReadonlyArray<Json>
  readonly next: string | undefined
  readonly prev: string | undefined
}

/** What is paged, and how its requests name their parts. */
export interface CursorTable {
  /** The SQL table, with `doc` (the JSON document) and the tie-break column. */
  readonly table: string
  /** What a cursor names, so that a cursor of another query is refused. */
  readonly tag: string
  readonly source: Source
  /** The last sort term, so that every order is total. */
  readonly tie: SortTerm
  /** The request's field the paging is under (`query`, `search`), for the refusals' field paths. */
  readonly at: string
  /** What the documents are called in a refusal (`entities`, `orders`). */
  readonly noun: string
  readonly bounds: PageBounds
  /** The refusal of a cursor this table did not hand out. */
  readonly invalidCursor: () => EngineFailure
  /** The sort when the request gives none (no sort: the tie's order). */
  readonly defaultSort?: ReadonlyArray<Sorting> | undefined
  /** The most sort fields a request may name. */
  readonly maxSort?: number | undefined
  /** A condition every page keeps besides the filter (it sees the query's filter). */
  readonly guard?: ((filter: unknown) => Fragment) | undefined
}

/** What a cursor holds: the query, its page size, and the boundary row's sort key (after it, or before it). */
const CursorState = Schema.Struct({
  t: Schema.String,
  f: Schema.optionalKey(Schema.Unknown),
  s: Schema.Array(Schema.Struct({ fieldName: Schema.String, order: Schema.optionalKey(Schema.Literals(["ASC", "DESC"])) })),
  l: Schema.Int,
  d: Schema.Literals(["after", "before"]),
  k: Schema.Array(Schema.Union([Schema.Finite, Schema.String, Schema.Null]))
})
type CursorState = typeof CursorState.Type

type Key = ReadonlyArray<string | number | null>

const decodeCursor = (spec: CursorTable, cursor: string): CursorState => {
  const parsed = parseJson(fromBase64url(cursor), `${spec.at}.cursorPaging.cursor`, "The cursor")
  const state = parsed.ok ? parsed.value : undefined
  if (!isObject(state) || !Schema.is(CursorState)(state) || state.t !== spec.tag) throw spec.invalidCursor()
  return state
}

/** One page of the table's documents; throws an EngineFailure for a filter, sort, limit or cursor it refuses. */
export const cursorPage = (db: DatabaseShape, spec: CursorTable, request: PageRequest<CursorPaging>): PageResult => {
  const { bounds } = spec
  const limitOf = (n: number | undefined) => {
    if (n === undefined || n === 0) return undefined
    if (!Number.isInteger(n) || n < 0 || n > bounds.maxLimit) {
      throw outOfBounds(`${spec.at}.cursorPaging.limit`, `A page holds 1 to ${bounds.maxLimit} ${spec.noun}`, "MAX", { max: bounds.maxLimit })
    }
    return n
  }
  const { cursor } = request.paging
  const state = cursor === undefined || cursor === "" ? undefined : decodeCursor(spec, cursor)
  const filter = state === undefined ? request.filter : state.f
  const sort = state !== undefined ? state.s : request.sort.length === 0 && spec.defaultSort !== undefined ? spec.defaultSort : request.sort
  if (spec.maxSort !== undefined && sort.length > spec.maxSort) {
    throw outOfBounds(`${spec.at}.sort`, `A ${spec.at} sorts by at most ${spec.maxSort} fields`, "MAX_SIZE", { max: spec.maxSort })
  }
  // a cursor's page size is the client's to send, like any request's
  const limit = limitOf(request.paging.limit) ?? limitOf(state?.l) ?? bounds.defaultLimit
  const matches = where(checkFilter(filter, `${spec.at}.filter`), spec.source)
  const condition = spec.guard === undefined ? matches : concat(matches, " AND ", spec.guard(filter))
  for (const s of sort) segments(s.fieldName)
  const terms = [...sortTerms(spec.source, sort), spec.tie]
  if (state !== undefined && state.k.length !== terms.length) throw spec.invalidCursor()
  const backwards = state?.d === "before"
  const boundary = state === undefined ? undefined : beyond(terms, state.k as ReadonlyArray<SQLInputValue>, backwards)
  const ordered = backwards ? terms.map((term) => ({ ...term, desc: !term.desc })) : terms
  const keys = terms.map((term, i) => `${term.expr} AS k${i}`).join(", ")
  const query = concat(
    `SELECT doc, ${keys} FROM ${spec.table} WHERE `,
    condition,
    boundary === undefined ? "" : concat(" AND ", boundary),
    ` ORDER BY ${orderBy(ordered)} LIMIT ?`
  )
  const rows = db.all(query.sql, ...query.params, limit + 1)
  const more = rows.length > limit
  const kept = rows.slice(0, limit)
  const inOrder = backwards ? kept.reverse() : kept
  if (inOrder.length === 0) return { items: [], next: undefined, prev: undefined }
  const keyOf = (row: Row): Key => terms.map((_, j) => (row[`k${j}`] ?? null) as string | number | null)
  const cursorOf = (d: "after" | "before", k: Key) =>
    base64url(JSON.stringify({ t: spec.tag, ...(filter === undefined || filter === null ? {} : { f: filter }), s: [...sort], l: limit, d, k: [...k] } satisfies CursorState))
  const hasNext = backwards ? true : more
  const hasPrev = backwards ? more : state !== undefined
  return {
    items: inOrder.map((row) => JSON.parse(String(row["doc"])) as Json),
    next: hasNext ? cursorOf("after", keyOf(inOrder[inOrder.length - 1]!)) : undefined,
    prev: hasPrev ? cursorOf("before", keyOf(inOrder[0]!)) : undefined
  }
}

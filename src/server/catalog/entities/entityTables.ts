/**
 * One table per catalog v3 entity: the entity as a JSON document (in its wire form), its id, an
 * optional unique key (a brand's folded name, an inventory item's variant and location) and a sequence
 * that orders rows created later after earlier ones. Queries reuse the data engine's filter language and
 * SQL (`checkFilter`, `where`, `sortTerms`, `beyond`) over the document; cursors are opaque base64url
 * JSON holding the query and the sort key of the row a page ended (or began) on, so paging stays stable
 * while entities are added or removed.
 */
import * as Schema from "effect/Schema"
import type { SQLInputValue } from "node:sqlite"
import { base64url, fromBase64url } from "../../../http/codec.ts"
import { badRequest, outOfBounds } from "../../store/engineFailures.ts"
import { checkFilter } from "../../store/filters.ts"
import { beyond, concat, type Fragment, orderBy, type SortTerm, sortTerms, where } from "../../store/sql.ts"
import { isObject, type Json, segments } from "../../store/values.ts"
import type { CursorPaging, PageRequest } from "../../store/paging.ts"
import type { DatabaseShape } from "../../platform/Database.ts"
import { parseJson } from "../../platform/json.ts"

export interface EntityTableShape {
  readonly name: string
  readonly get: (id: string) => Json | undefined
  readonly byKey: (key: string) => Json | undefined
  /** Inserts a new entity; false when its id or key is taken. */
  readonly insert: (doc: Json, key: string | null) => boolean
  /** Writes an entity back (same id); false when its new key is another entity's. */
  readonly replace: (doc: Json, key: string | null) => boolean
  readonly remove: (id: string) => boolean
  readonly query: (request: PageRequest<CursorPaging>, bounds: PageBounds) => PageResult
  readonly count: (filter: unknown) => number
}

/** The page size when neither the request nor its cursor names one, and the largest allowed. */
export interface PageBounds {
  readonly defaultLimit: number
  readonly maxLimit: number
}

export interface PageResult {
  readonly items: ReadonlyArray<Json>
  readonly next: string | undefined
  readonly prev: string | undefined
}

const tableName = (name: string) => `catalog_${name}`

/** The migration creating an entity table. */
export const entityTableSql = (name: string): string => {
  const t = tableName(name)
  return `CREATE TABLE IF NOT EXISTS ${t} (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    ukey TEXT UNIQUE,
    doc TEXT NOT NULL
  );`
}

const SOURCE = { column: "doc" } as const
/** Rows created earlier come first among equals: every order is total. */
const TIE: SortTerm = { expr: "seq", desc: false }

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

const invalidCursor = () => badRequest("INVALID_CURSOR", "The cursor is not one this query handed out")

const decodeCursor = (cursor: string, table: string): CursorState => {
  const parsed = parseJson(fromBase64url(cursor), "query.cursorPaging.cursor", "The cursor")
  const state = parsed.ok ? parsed.value : undefined
  if (!isObject(state) || !Schema.is(CursorState)(state) || state.t !== table) throw invalidCursor()
  return state
}

const encodeCursor = (state: CursorState): string => base64url(JSON.stringify(state))

export const makeEntityTable = (db: DatabaseShape, name: string): EntityTableShape => {
  const t = tableName(name)
  const parse = (row: { readonly doc?: unknown } | undefined): Json | undefined =>
    row === undefined || typeof row.doc !== "string" ? undefined : JSON.parse(row.doc) as Json
  const taken = (e: unknown) => e instanceof Error && /UNIQUE constraint failed/.test(e.message)

  const compile = (filter: unknown, sort: PageRequest["sort"]) => {
    const condition = where(checkFilter(filter, "query.filter"), SOURCE)
    for (const s of sort) segments(s.fieldName)
    const terms = [...sortTerms(SOURCE, sort), TIE]
    return { condition, terms }
  }

  const page = (condition: Fragment, terms: ReadonlyArray<SortTerm>, limit: number, boundary: Fragment | undefined, reverse: boolean) => {
    const ordered = reverse ? terms.map((term) => ({ ...term, desc: !term.desc })) : terms
    const keys = terms.map((term, i) => `${term.expr} AS k${i}`).join(", ")
    const query = concat(
      `SELECT doc, ${keys} FROM ${t} WHERE `,
      condition,
      boundary === undefined ? "" : concat(" AND ", boundary),
      ` ORDER BY ${orderBy(ordered)} LIMIT ?`
    )
    const rows = db.all(query.sql, ...query.params, limit + 1)
    const more = rows.length > limit
    const kept = rows.slice(0, limit)
    const inOrder = reverse ? kept.reverse() : kept
    return {
      more,
      docs: inOrder.map((row) => JSON.parse(row["doc"] as string) as Json),
      keyOf: (i: number) => terms.map((_, j) => (inOrder[i]![`k${j}`] ?? null) as string | number | null)
    }
  }

  return {
    name,
    get: (id) => parse(db.get(`SELECT doc FROM ${t} WHERE id = ?`, id)),
    byKey: (key) => parse(db.get(`SELECT doc FROM ${t} WHERE ukey = ?`, key)),
    insert: (doc, key) => {
      try {
        db.run(`INSERT INTO ${t} (id, ukey, doc) VALUES (?, ?, ?)`, doc["id"] as string, key, JSON.stringify(doc))
        return true
      } catch (e) {
        if (taken(e)) return false
        throw e
      }
    },
    replace: (doc, key) => {
      try {
        return db.run(`UPDATE ${t} SET ukey = ?, doc = ? WHERE id = ?`, key, JSON.stringify(doc), doc["id"] as string) > 0
      } catch (e) {
        if (taken(e)) return false
        throw e
      }
    },
    remove: (id) => db.run(`DELETE FROM ${t} WHERE id = ?`, id) > 0,
    count: (filter) => {
      const condition = where(checkFilter(filter, "filter"), SOURCE)
      const query = concat(`SELECT COUNT(*) AS n FROM ${t} WHERE `, condition)
      return Number(db.get(query.sql, ...query.params)?.["n"] ?? 0)
    },
    query: (request, bounds) => {
      const limitOf = (n: number | undefined) => {
        if (n === undefined || n === 0) return undefined
        if (n < 0 || n > bounds.maxLimit) {
          throw outOfBounds("query.cursorPaging.limit", `A page holds 1 to ${bounds.maxLimit} entities`, "MAX", { max: bounds.maxLimit })
        }
        return n
      }
      const { cursor } = request.paging
      const state = cursor === undefined || cursor === "" ? undefined : decodeCursor(cursor, name)
      const filter = state === undefined ? request.filter : state.f
      const sort = state === undefined ? request.sort : state.s
      // a cursor's page size is the client's to send, like any request's
      const limit = limitOf(request.paging.limit) ?? limitOf(state?.l) ?? bounds.defaultLimit
      const { condition, terms } = compile(filter, sort)
      const cursorOf = (d: "after" | "before", k: ReadonlyArray<string | number | null>) =>
        encodeCursor({ t: name, ...(filter === undefined || filter === null ? {} : { f: filter }), s: [...sort], l: limit, d, k: [...k] })
      if (state !== undefined && state.k.length !== terms.length) throw invalidCursor()
      const boundary = state === undefined ? undefined : beyond(terms, state.k as ReadonlyArray<SQLInputValue>, state.d === "before")
      const backwards = state?.d === "before"
      const found = page(condition, terms, limit, boundary, backwards)
      const count = found.docs.length
      if (count === 0) return { items: [], next: undefined, prev: undefined }
      const hasNext = backwards ? true : found.more
      const hasPrev = backwards ? found.more : state !== undefined
      return {
        items: found.docs,
        next: hasNext ? cursorOf("after", found.keyOf(count - 1)) : undefined,
        prev: hasPrev ? cursorOf("before", found.keyOf(0)) : undefined
      }
    }
  }
}

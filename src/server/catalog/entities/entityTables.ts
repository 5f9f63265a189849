/**
 * One table per catalog v3 entity: the entity as a JSON document (in its wire form), its id, an
 * optional unique key (a brand's folded name, an inventory item's variant and location) and a sequence
 * that orders rows created later after earlier ones. Queries page with the store's cursor paging
 * (store/cursorPaging.ts) over the document, so paging stays stable while entities are added or removed.
 */
import { badRequest } from "../../store/engineFailures.ts"
import { checkFilter } from "../../store/filters.ts"
import { cursorPage, type PageBounds, type PageResult } from "../../store/cursorPaging.ts"
import { concat, type SortTerm, where } from "../../store/sql.ts"
import type { Json } from "../../store/values.ts"
import type { CursorPaging, PageRequest } from "../../store/paging.ts"
import type { DatabaseShape } from "../../platform/Database.ts"

export type { PageBounds, PageResult } from "../../store/cursorPaging.ts"

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

const invalidCursor = () => badRequest("INVALID_CURSOR", "The cursor is not one this query handed out")

export const makeEntityTable = (db: DatabaseShape, name: string): EntityTableShape => {
  const t = tableName(name)
  const parse = (row: { readonly doc?: unknown } | undefined): Json | undefined =>
    row === undefined || typeof row.doc !== "string" ? undefined : JSON.parse(row.doc) as Json
  const taken = (e: unknown) => e instanceof Error && /UNIQUE constraint failed/.test(e.message)

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
    query: (request, bounds) =>
      cursorPage(db, { table: t, tag: name, source: SOURCE, tie: TIE, at: "query", noun: "entities", bounds, invalidCursor }, request)
  }
}

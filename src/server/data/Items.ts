/**
 * Item storage: one table for the items of every collection. Each row holds the item's JSON (system
 * fields included: `_id`, `_createdDate`, `_updatedDate`, `_owner`), its id and owner as columns for
 * lookups and permission checks, and `seq`, a sequence that only grows: it orders items by insertion,
 * breaks ties between equal sort keys, and lets cursors resume exactly where a page ended.
 *
 * One table rather than one per collection: collections come and go through the API (no DDL per
 * collection, no table names built from ids), a reset or a collection delete is a plain DELETE, and
 * the table is clustered on `(collection_id, seq)` (WITHOUT ROWID), so a collection's items are one
 * contiguous range in insertion order, and an insert maintains two B-trees, not three.
 *
 * The engine assigns `seq` itself (no AUTOINCREMENT) and the table has no foreign key (a deleted
 * collection's items go through {@link Collections.onRemove}): measured, that makes an insert about a
 * third cheaper.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { SQLInputValue } from "node:sqlite"
import { Database, type Row } from "../Database.ts"
import { Collections } from "./Collections.ts"
import { type Fragment, registerFunctions, type Source } from "./sql.ts"
import type { Json } from "./values.ts"

/** Item rows as the SQL translator reads them. */
export const ITEMS: Source = { column: "data", idColumn: "id", ownerColumn: "owner" }

export interface StoredItem {
  readonly seq: number
  readonly id: string
  readonly data: Json
  readonly owner: string | undefined
}

export const toStored = (row: Row): StoredItem => ({
  seq: Number(row.seq),
  id: String(row.id),
  data: JSON.parse(String(row.data)) as Json,
  owner: typeof row.owner === "string" ? row.owner : undefined
})

export interface ItemsShape {
  readonly get: (collectionId: string, id: string) => StoredItem | undefined
  /** Inserts unless the id exists; undefined when it does. */
  readonly insert: (collectionId: string, id: string, data: Json, owner: string | undefined) => StoredItem | undefined
  readonly replace: (collectionId: string, id: string, data: Json, owner: string | undefined) => void
  readonly remove: (collectionId: string, id: string) => boolean
  readonly truncate: (collectionId: string) => number
  /** Rows of one collection: `SELECT <columns> FROM data_items WHERE collection_id = ? AND <where> <tail>`. */
  readonly select: (collectionId: string, columns: string, where: Fragment, tail?: Fragment) => ReadonlyArray<Row>
  readonly count: (collectionId: string, where: Fragment) => number
}

export class Items extends Context.Service<Items, ItemsShape>()("sitefx/server/data/Items") {
  static readonly layer: Layer.Layer<Items, never, Database | Collections> = Layer.effect(
    Items,
    Effect.gen(function*() {
      const db = yield* Database
      const collections = yield* Collections
      db.migrate(
        "data/items/1",
        `CREATE TABLE data_items (
          collection_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          id TEXT NOT NULL,
          data TEXT NOT NULL,
          owner TEXT,
          PRIMARY KEY (collection_id, seq),
          UNIQUE (collection_id, id)
        ) WITHOUT ROWID;`
      )
      registerFunctions(db)
      // the sequence only grows while the platform runs; this process is the database's only writer
      let lastSeq = Number(db.get("SELECT MAX(seq) AS last FROM data_items")?.last ?? 0)
      db.onReset(() => {
        lastSeq = 0
      })
      collections.onRemove((id) => {
        db.run("DELETE FROM data_items WHERE collection_id = ?", id)
      })

      const get = (collectionId: string, id: string) => {
        const row = db.get("SELECT seq, id, data, owner FROM data_items WHERE collection_id = ? AND id = ?", collectionId, id)
        return row === undefined ? undefined : toStored(row)
      }

      return Items.of({
        get,
        insert: (collectionId, id, data, owner) => {
          const seq = lastSeq + 1
          const inserted = db.run(
            "INSERT INTO data_items (collection_id, seq, id, data, owner) VALUES (?, ?, ?, ?, ?) ON CONFLICT (collection_id, id) DO NOTHING",
            collectionId,
            seq,
            id,
            JSON.stringify(data),
            owner ?? null
          )
          if (inserted === 0) return undefined
          lastSeq = seq
          return { seq, id, data, owner }
        },
        replace: (collectionId, id, data, owner) => {
          db.run("UPDATE data_items SET data = ?, owner = ? WHERE collection_id = ? AND id = ?", JSON.stringify(data), owner ?? null, collectionId, id)
        },
        remove: (collectionId, id) => db.run("DELETE FROM data_items WHERE collection_id = ? AND id = ?", collectionId, id) > 0,
        truncate: (collectionId) => db.run("DELETE FROM data_items WHERE collection_id = ?", collectionId),
        select: (collectionId, columns, where, tail) =>
          db.all(
            `SELECT ${columns} FROM data_items WHERE collection_id = ? AND ${where.sql}${tail === undefined ? "" : ` ${tail.sql}`}`,
            collectionId,
            ...where.params,
            ...(tail?.params ?? [] as ReadonlyArray<SQLInputValue>)
          ),
        count: (collectionId, where) =>
          Number(db.get(`SELECT COUNT(*) AS n FROM data_items WHERE collection_id = ? AND ${where.sql}`, collectionId, ...where.params)?.n ?? 0)
      })
    })
  )
}

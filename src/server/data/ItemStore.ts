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
 * collection's items go through {@link DataCollections.onRemove}): measured, that makes an insert about a
 * third cheaper.
 *
 * The site's event log names the items a write created by their `seq` rather than copying them (see
 * DataEvents): a row is its item as created until it changes. So before a row changes or goes, its
 * text is kept in `data_item_originals` when the log may still need it (its `seq` is at or past what
 * {@link ItemStoreShape.keepOriginals} says), and dropped with {@link ItemStoreShape.forgetOriginals} once the log
 * has moved past it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { SQLInputValue } from "node:sqlite"
import { Database, type Row } from "../platform/Database.ts"
import { DataCollections } from "./DataCollections.ts"
import { sandboxKey } from "./environments.ts"
import { type Fragment, registerFunctions, type Source } from "../store/sql.ts"
import type { Json } from "../store/values.ts"

/** Item rows as the SQL translator reads them. */
export const ITEMS: Source = { column: "data", idColumn: "id", ownerColumn: "owner" }

export interface StoredItem {
  readonly seq: number
  readonly id: string
  readonly data: Json
  /** `data` as the row holds it: JSON text. */
  readonly text: string
  readonly owner: string | undefined
}

/** What a change of a stored item needs of it. */
export type StoredRow = Pick<StoredItem, "seq" | "id" | "text">

export const toStored = (row: Row): StoredItem => {
  const text = String(row.data)
  return { seq: Number(row.seq), id: String(row.id), data: JSON.parse(text) as Json, text, owner: typeof row.owner === "string" ? row.owner : undefined }
}

/** What became of one row of {@link ItemStoreShape.insertMany}. */
export type InsertOutcome =
  | { readonly _tag: "Inserted"; readonly seq: number }
  | { readonly _tag: "Exists" }
  /** The database refused the row (a unique index of the collection): the error it threw. */
  | { readonly _tag: "Refused"; readonly error: unknown }

/** An item as created, for the event log: its id and its JSON text. */
export interface CreatedItem {
  readonly id: string
  readonly text: string
}

export interface NewRow {
  readonly id: string
  readonly data: Json
  /** `data` as JSON text, as the row stores it (and the event log reuses it). */
  readonly text: string
  readonly owner: string | undefined
}

export interface ItemStoreShape {
  readonly get: (collectionId: string, id: string) => StoredItem | undefined
  /**
   * Inserts rows in order, each unless its id exists (a repeated id is inserted once, then exists), with
   * one outcome per row; a refused row leaves the others in. Rows go to the database several per
   * statement, which costs it about half of one statement per row.
   */
  readonly insertMany: (collectionId: string, rows: ReadonlyArray<NewRow>) => ReadonlyArray<InsertOutcome>
  /** Stores `text` (an item's JSON) as the data of the stored item `previous`. */
  readonly replace: (collectionId: string, previous: StoredRow, text: string, owner: string | undefined) => void
  /** Removes the stored item `previous`. */
  readonly remove: (collectionId: string, previous: StoredRow) => boolean
  readonly truncate: (collectionId: string) => number
  /** Rows from this `seq` on are kept as created before they change (the event log may read them); `keepFrom` is asked at each change. */
  readonly keepOriginals: (keepFrom: () => number) => void
  /** Drops the kept originals of rows before `seq`. */
  readonly forgetOriginals: (seq: number) => void
  /** The items created with these `seq`s, as created: kept originals first, then the rows as they are; a `seq` of neither is absent. */
  readonly created: (collectionId: string, from: number, to: number) => ReadonlyMap<number, CreatedItem>
  /**
   * Rows of one collection: `SELECT <columns> FROM data_items WHERE collection_id = ? AND <where> <tail>`,
   * read through the SQL index `index` when one is named (its name as the Indexes module made it).
   */
  readonly select: (collectionId: string, columns: string, where: Fragment, tail?: Fragment, index?: string) => ReadonlyArray<Row>
  readonly count: (collectionId: string, where: Fragment) => number
  /** Rows were written with sequence numbers up to `seq` (restored from a backup): new rows come after them. */
  readonly noteSeq: (seq: number) => void
}

export class ItemStore extends Context.Service<ItemStore, ItemStoreShape>()("sitefx/server/data/ItemStore") {
  static readonly layer: Layer.Layer<ItemStore, never, Database | DataCollections> = Layer.effect(
    ItemStore,
    Effect.gen(function*() {
      const db = yield* Database
      const collections = yield* DataCollections
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
      db.migrate(
        "data/items/originals/1",
        "CREATE TABLE data_item_originals (seq INTEGER PRIMARY KEY, collection_id TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL)"
      )
      registerFunctions(db)
      // the sequence only grows while the platform runs; this process is the database's only writer. Its
      // last value is read with one index seek per collection (every item belongs to one, removed with it):
      // a plain MAX(seq) reads the whole table, 65 ms at start-up for 300 000 items
      // (a kept original may be the newest: its row is gone, and its `seq` still names it in the event log)
      // (sandbox items are stored under their collection's sandbox key: environments.ts)
      const readLastSeq = () => Math.max(
        Number(
          db.get(
            `SELECT MAX(max(coalesce((SELECT MAX(seq) FROM data_items WHERE collection_id = c.id), 0),
                            coalesce((SELECT MAX(seq) FROM data_items WHERE collection_id = c.id || ?), 0))) AS last FROM data_collections c`,
            sandboxKey("")
          )?.last ?? 0
        ),
        Number(db.get("SELECT MAX(seq) AS last FROM data_item_originals")?.last ?? 0)
      )
      let lastSeq = readLastSeq()
      let keepFrom = () => Number.POSITIVE_INFINITY
      /** Whether any original may be kept: while none is, dropping them costs no statement. */
      let keeping = db.get("SELECT 1 AS kept FROM data_item_originals LIMIT 1") !== undefined
      /** Keeps the rows of a collection from `seq` on, as they are now, unless kept already. */
      const keepRows = (collectionId: string, seq: number) => {
        if (!Number.isFinite(seq)) return
        keeping = true
        db.run(
          "INSERT OR IGNORE INTO data_item_originals (seq, collection_id, id, data) SELECT seq, collection_id, id, data FROM data_items WHERE collection_id = ? AND seq >= ?",
          collectionId,
          seq
        )
      }
      const keepRow = (collectionId: string, row: StoredRow) => {
        if (row.seq < keepFrom()) return
        keeping = true
        db.run("INSERT OR IGNORE INTO data_item_originals (seq, collection_id, id, data) VALUES (?, ?, ?, ?)", row.seq, collectionId, row.id, row.text)
      }
      db.onReset(() => {
        lastSeq = readLastSeq()
        keeping = db.get("SELECT 1 AS kept FROM data_item_originals LIMIT 1") !== undefined
      })
      collections.onRemove((id) => {
        keepRows(id, keepFrom())
        db.run("DELETE FROM data_items WHERE collection_id = ? OR collection_id = ?", id, sandboxKey(id))
      })

      const get = (collectionId: string, id: string) => {
        const row = db.get("SELECT seq, id, data, owner FROM data_items WHERE collection_id = ? AND id = ?", collectionId, id)
        return row === undefined ? undefined : toStored(row)
      }

      /** Rows per statement, largest first: a thousand rows take fifteen statements of 64 and five of 8. */
      const BATCHES = [64, 8, 1] as const
      /**
       * The collection and the first sequence number are bound once per statement (`:c`, `:s + j`), and
       * rows without an owner (an API key's) have none to bind: two values per row instead of five, which
       * measured 7% off the INSERTs in SQLite alone (100 000 rows of the benchmark's shape).
       */
      const insertSql = (n: number, owners: boolean) =>
        `INSERT INTO data_items (collection_id, seq, id, data, owner) VALUES ${
          Array.from({ length: n }, (_, j) => `(:c, :s + ${j}, ?, ?, ${owners ? "?" : "NULL"})`).join(", ")
        } ON CONFLICT (collection_id, id) DO NOTHING`
      const statements = new Map(BATCHES.map((n) => [n, { withOwners: insertSql(n, true), withoutOwners: insertSql(n, false) }]))

      /** Rows `from` to `from + n` in one statement; false when the database refused the statement as a whole. */
      const insertBatch = (collectionId: string, rows: ReadonlyArray<NewRow>, from: number, n: number, out: Array<InsertOutcome>): boolean => {
        const first = lastSeq + 1
        let owners = false
        for (let j = 0; j < n && !owners; j++) owners = rows[from + j]!.owner !== undefined
        const per = owners ? 3 : 2
        const params = new Array<SQLInputValue>(n * per)
        for (let j = 0; j < n; j++) {
          const row = rows[from + j]!
          const at = j * per
          params[at] = row.id
          params[at + 1] = row.text
          if (owners) params[at + 2] = row.owner ?? null
        }
        let changed: number
        try {
          const sql = statements.get(n as typeof BATCHES[number])!
          changed = db.runNamed(owners ? sql.withOwners : sql.withoutOwners, { c: collectionId, s: first }, ...params)
        } catch (error) {
          // the statement changed nothing; a single row is refused, a batch is retried row by row
          if (n > 1) return false
          out[from] = { _tag: "Refused", error }
          return true
        }
        // every sequence number of the batch is spent, also those of rows that were not inserted: the sequence only has to grow
        lastSeq = first + n - 1
        if (changed === n) {
          for (let j = 0; j < n; j++) out[from + j] = { _tag: "Inserted", seq: first + j }
          return true
        }
        // some ids existed (or repeat within the batch): the rows that landed are those holding their sequence numbers
        const landed = new Set(
          db.all("SELECT seq FROM data_items WHERE collection_id = ? AND seq BETWEEN ? AND ?", collectionId, first, lastSeq).map((r) => Number(r.seq))
        )
        for (let j = 0; j < n; j++) out[from + j] = landed.has(first + j) ? { _tag: "Inserted", seq: first + j } : { _tag: "Exists" }
        return true
      }

      return ItemStore.of({
        get,
        insertMany: (collectionId, rows) => {
          const out = new Array<InsertOutcome>(rows.length)
          let at = 0
          while (at < rows.length) {
            const left = rows.length - at
            const n = BATCHES.find((b) => b <= left)!
            if (!insertBatch(collectionId, rows, at, n, out)) {
              for (let j = at; j < at + n; j++) insertBatch(collectionId, rows, j, 1, out)
            }
            at += n
          }
          return out
        },
        replace: (collectionId, previous, text, owner) => {
          keepRow(collectionId, previous)
          db.run("UPDATE data_items SET data = ?, owner = ? WHERE collection_id = ? AND seq = ?", text, owner ?? null, collectionId, previous.seq)
        },
        remove: (collectionId, previous) => {
          keepRow(collectionId, previous)
          return db.run("DELETE FROM data_items WHERE collection_id = ? AND seq = ?", collectionId, previous.seq) > 0
        },
        truncate: (collectionId) => {
          keepRows(collectionId, keepFrom())
          return db.run("DELETE FROM data_items WHERE collection_id = ?", collectionId)
        },
        keepOriginals: (f) => {
          keepFrom = f
        },
        forgetOriginals: (seq) => {
          if (!keeping) return
          db.run("DELETE FROM data_item_originals WHERE seq < ?", seq)
          keeping = db.get("SELECT 1 AS kept FROM data_item_originals LIMIT 1") !== undefined
        },
        created: (collectionId, from, to) => {
          const found = new Map<number, CreatedItem>()
          for (const row of db.all("SELECT seq, id, data FROM data_item_originals WHERE seq BETWEEN ? AND ? AND collection_id = ?", from, to, collectionId)) {
            found.set(Number(row.seq), { id: String(row.id), text: String(row.data) })
          }
          for (const row of db.all("SELECT seq, id, data FROM data_items WHERE collection_id = ? AND seq BETWEEN ? AND ?", collectionId, from, to)) {
            if (!found.has(Number(row.seq))) found.set(Number(row.seq), { id: String(row.id), text: String(row.data) })
          }
          return found
        },
        select: (collectionId, columns, where, tail, index) =>
          db.all(
            `SELECT ${columns} FROM data_items${index === undefined ? "" : ` INDEXED BY "${index}"`} WHERE collection_id = ? AND ${where.sql}${tail === undefined ? "" : ` ${tail.sql}`}`,
            collectionId,
            ...where.params,
            ...(tail?.params ?? [] as ReadonlyArray<SQLInputValue>)
          ),
        noteSeq: (seq) => {
          lastSeq = Math.max(lastSeq, seq)
        },
        count: (collectionId, where) =>
          Number(db.get(`SELECT COUNT(*) AS n FROM data_items WHERE collection_id = ? AND ${where.sql}`, collectionId, ...where.params)?.n ?? 0)
      })
    })
  )
}

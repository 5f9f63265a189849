/**
 * Collection indexes (`/wix-data/v2/indexes`) as SQLite expression indexes on the item table: for each
 * indexed field the same rank and key expressions the query translator emits (store/sql.ts), so queries that
 * filter or sort on those fields use them. A new index answers BUILDING and is built in the background,
 * then turns ACTIVE, or FAILED with a `failure` saying why (a unique index over duplicate values names
 * one of the items in the way). A unique index only constrains items that have every indexed field; a
 * case-insensitive one compares text fields by their lower-case form, so "Ada" and "ada" clash.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import { createHash } from "node:crypto"
import type { DataIndex, Sorting } from "../../data/wire/index.ts"
import { Database, type Row } from "../platform/Database.ts"
import type { Caller } from "../platform/Caller.ts"
import { DataCollections } from "./DataCollections.ts"
import { badRequest, EngineFailure } from "../store/engineFailures.ts"
import { publicId, sandboxKey } from "./environments.ts"
import { ITEMS } from "./ItemStore.ts"
import { literal, ref, sortTerms } from "../store/sql.ts"

const SQL_PREFIX = "sfx_idx_"

/** An index created, changed (built, or failed) or dropped, by whom: what the site's events say of it. */
export interface IndexChange {
  readonly kind: "created" | "updated" | "deleted"
  readonly collectionId: string
  readonly index: DataIndex
  readonly actor: Caller
}

export interface IndexesShape {
  /** Records the index as BUILDING and builds it in the background. */
  readonly create: (collectionId: string, index: DataIndex, actor: Caller) => Effect.Effect<DataIndex, EngineFailure>
  readonly list: (collectionId: string) => ReadonlyArray<DataIndex>
  /** 404 when there is no such index. */
  readonly drop: (collectionId: string, name: string, actor: Caller) => void
  /** Calls `listener` with every change of an index, in the transaction that made it. */
  readonly onChange: (listener: (change: IndexChange) => void) => void
  /**
   * The SQL name of an ACTIVE index that holds the collection's items in exactly the order of `sort`
   * (then the item's sequence): the same fields, read forwards or backwards. Cursor paging seeks in it.
   */
  readonly orderedBy: (collectionId: string, sort: ReadonlyArray<Sorting>) => string | undefined
}

export class Indexes extends Context.Service<Indexes, IndexesShape>()("sitefx/server/data/Indexes") {
  static readonly layer: Layer.Layer<Indexes, never, Database | DataCollections> = Layer.effect(
    Indexes,
    Effect.gen(function*() {
      const db = yield* Database
      const collections = yield* DataCollections
      const building = yield* FiberSet.make()
      // ANALYZE reads a sample of each index, not all of it, so statistics stay quick on a big collection
      db.run("PRAGMA analysis_limit = 1000")
      db.migrate(
        "data/indexes/1",
        `CREATE TABLE data_indexes (
          collection_id TEXT NOT NULL REFERENCES data_collections (id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          doc TEXT NOT NULL,
          status TEXT NOT NULL,
          sql_name TEXT NOT NULL,
          PRIMARY KEY (collection_id, name)
        );`
      )

      const sqlName = (collectionId: string, name: string) =>
        `${SQL_PREFIX}${createHash("sha256").update(`${collectionId}\u0000${name}`).digest("hex").slice(0, 24)}`

      const dropSqlIndexes = (names: ReadonlyArray<string>) => {
        for (const name of names) db.run(`DROP INDEX IF EXISTS "${name}"`)
      }
      // a reset empties data_indexes; the SQL indexes themselves go with it (a restore brings the snapshot's)
      db.onReset((reason) =>
        reason === "reset" && dropSqlIndexes(
          db.all(`SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '${SQL_PREFIX}%'`).map((r) => String(r.name))
        )
      )
      collections.onRemove((id) =>
        dropSqlIndexes(db.all("SELECT sql_name FROM data_indexes WHERE collection_id = ?", id).map((r) => String(r.sql_name)))
      )

      const toIndex = (row: Row): DataIndex => ({ ...(JSON.parse(String(row.doc)) as DataIndex), status: String(row.status) as NonNullable<DataIndex["status"]> })

      /** The key expressions of an index: a field's rank and key, the key lower-cased for a case-insensitive one. */
      const keyTerms = (index: DataIndex) => {
        const keys = new Set(index.fields.map((f) => ref(ITEMS, f.path).key))
        return sortTerms(ITEMS, index.fields.map((f) => ({ fieldName: f.path, ...(f.order === undefined ? {} : { order: f.order }) })))
          .map((t) => (index.caseInsensitive === true && keys.has(t.expr) ? { ...t, expr: `lower(${t.expr})` } : t))
      }

      /**
       * Where an item of the collection, live or in its sandbox, has every indexed field (a unique index
       * constrains only those). An index is the collection's in both environments, unique in each on its own.
       */
      const presentIn = (collectionId: string, index: DataIndex) =>
        [`collection_id IN (${literal(collectionId)}, ${literal(sandboxKey(collectionId))})`, ...index.fields.map((f) => ref(ITEMS, f.path).rank).filter((r) => r !== undefined).map((r) => `${r} <> 0`)]
          .join(" AND ")

      const ddl = (collectionId: string, index: DataIndex, name: string): string => {
        const columns = keyTerms(index).map((t) => `${t.expr}${t.desc ? " DESC" : ""}`).join(", ")
        if (index.unique !== true) return `CREATE INDEX "${name}" ON data_items (collection_id, ${columns})`
        return `CREATE UNIQUE INDEX "${name}" ON data_items (collection_id, ${columns}) WHERE ${presentIn(collectionId, index)}`
      }

      /** Why a unique index could not be built: the items hold duplicate values; one of them is named. */
      const failureOf = (collectionId: string, index: DataIndex, error: unknown): NonNullable<DataIndex["failure"]> => {
        if (index.unique === true) {
          const exprs = ["collection_id", ...keyTerms(index).map((t) => t.expr)].join(", ")
          const row = db.get(
            `SELECT max(id) AS item FROM data_items WHERE ${presentIn(collectionId, index)} GROUP BY ${exprs} HAVING count(*) > 1 LIMIT 1`
          )
          if (row !== undefined) {
            return {
              code: "DUPLICATE_VALUES",
              description: `Items of ${collectionId} share values of the unique index ${index.name}; item ${String(row.item)} is one of them.`,
              itemId: String(row.item)
            }
          }
        }
        return { code: "BUILD_FAILED", description: `The index ${index.name} could not be built: ${error instanceof Error ? error.message : String(error)}` }
      }

      const listeners: Array<(change: IndexChange) => void> = []
      const changed = (kind: IndexChange["kind"], collectionId: string, index: DataIndex, actor: Caller) => {
        for (const listener of listeners) listener({ kind, collectionId, index, actor })
      }
      const current = (collectionId: string, name: string) => {
        const row = db.get("SELECT doc, status FROM data_indexes WHERE collection_id = ? AND name = ?", collectionId, name)
        return row === undefined ? undefined : toIndex(row)
      }

      const setStatus = (collectionId: string, name: string, status: string, actor: Caller) =>
        db.transaction(() => {
          db.run("UPDATE data_indexes SET status = ? WHERE collection_id = ? AND name = ?", status, collectionId, name)
          const index = current(collectionId, name)
          if (index !== undefined) changed("updated", collectionId, index, actor)
        })

      /** Builds a recorded index: ACTIVE, or FAILED with why. */
      const build = (collectionId: string, index: DataIndex, statement: string, actor: Caller) => {
        // dropped (or its collection deleted) before the build began
        if (db.get("SELECT 1 AS found FROM data_indexes WHERE collection_id = ? AND name = ?", collectionId, index.name) === undefined) return
        try {
          db.run(statement)
          // statistics for the planner, so that it weighs the new index against the table's own keys (it
          // takes the primary key without them); a sample of each index (analysis_limit) keeps this quick
          db.run("ANALYZE data_items")
          setStatus(collectionId, index.name, "ACTIVE", actor)
        } catch (error) {
          const failure = failureOf(collectionId, index, error)
          db.transaction(() => {
            db.run(
              "UPDATE data_indexes SET status = 'FAILED', doc = json_set(doc, '$.failure', json(?)) WHERE collection_id = ? AND name = ?",
              JSON.stringify(failure),
              collectionId,
              index.name
            )
            changed("updated", collectionId, current(collectionId, index.name)!, actor)
          })
        }
      }
      const forkBuild = yield* FiberSet.runtime(building)()
      // a snapshot saved while an index was building holds it BUILDING, without its SQL index: built again
      db.onReset((reason) => {
        if (reason !== "restore") return
        for (const row of db.all("SELECT collection_id, name, doc, status, sql_name FROM data_indexes WHERE status = 'BUILDING'")) {
          const index = toIndex(row)
          const collectionId = String(row.collection_id)
          const name = String(row.sql_name)
          forkBuild(Effect.sync(() => {
            // saved between the SQL index's making and the status's change: made again
            dropSqlIndexes([name])
            build(collectionId, index, ddl(collectionId, index, name), { kind: "none" })
          }))
        }
      })

      return Indexes.of({
        onChange: (listener) => {
          listeners.push(listener)
        },
        create: (collectionId, index, actor) =>
          Effect.gen(function*() {
            const name = sqlName(collectionId, index.name)
            const statement = yield* Effect.try({
              try: () =>
                db.transaction(() => {
                  collections.require(collectionId)
                  if (index.name.trim() === "") throw badRequest("WDE0094", "An index needs a name.")
                  if (index.fields.length === 0) throw badRequest("WDE0043", "An index needs at least one field.")
                  if (db.get("SELECT 1 AS found FROM data_indexes WHERE collection_id = ? AND name = ?", collectionId, index.name) !== undefined) {
                    throw new EngineFailure({ status: 409, code: "ALREADY_EXISTS", description: `The index ${index.name} already exists.` })
                  }
                  const statement = ddl(collectionId, index, name)
                  const { failure: _failure, status: _status, ...doc } = index
                  db.run(
                    "INSERT INTO data_indexes (collection_id, name, doc, status, sql_name) VALUES (?, ?, ?, 'BUILDING', ?)",
                    collectionId,
                    index.name,
                    JSON.stringify({ ...doc, id: index.id ?? name, source: "USER" }),
                    name
                  )
                  changed("created", collectionId, current(collectionId, index.name)!, actor)
                  return statement
                }),
              catch: (e) => (e instanceof EngineFailure ? e : new EngineFailure({ status: 500, code: "INTERNAL", description: String(e) }))
            })
            yield* FiberSet.run(building, Effect.yieldNow.pipe(Effect.andThen(Effect.sync(() => build(collectionId, index, statement, actor)))))
            const { failure: _failure, ...asked } = index
            return { ...asked, id: index.id ?? name, source: "USER" as const, status: "BUILDING" as const }
          }),
        orderedBy: (collectionId, sort) => {
          if (sort.length === 0) return undefined
          // an index ends with the item's sequence, ascending: read forwards it orders sorts whose last
          // field ascends (seq follows the last field's direction), read backwards those whose last descends
          const backwards = sort[sort.length - 1]!.order === "DESC"
          const found = db.all("SELECT doc, status, sql_name FROM data_indexes WHERE collection_id = ? AND status = 'ACTIVE'", publicId(collectionId)).find((row) => {
            const index = toIndex(row)
            return index.unique !== true && index.fields.length === sort.length &&
              index.fields.every((f, i) => f.path === sort[i]!.fieldName && ((f.order === "DESC") !== (sort[i]!.order === "DESC")) === backwards)
          })
          return found === undefined ? undefined : String(found.sql_name)
        },
        list: (collectionId) => {
          collections.require(collectionId)
          return db.all("SELECT doc, status FROM data_indexes WHERE collection_id = ? ORDER BY rowid", collectionId).map(toIndex)
        },
        drop: (collectionId, name, actor) =>
          db.transaction(() => {
            collections.require(collectionId)
            const row = db.get("SELECT sql_name FROM data_indexes WHERE collection_id = ? AND name = ?", collectionId, name)
            if (row === undefined) throw new EngineFailure({ status: 404, code: "NOT_FOUND", description: `No index ${name} on ${collectionId}.` })
            const index = current(collectionId, name)!
            dropSqlIndexes([String(row.sql_name)])
            db.run("DELETE FROM data_indexes WHERE collection_id = ? AND name = ?", collectionId, name)
            changed("deleted", collectionId, { ...index, status: "DROPPED" }, actor)
          })
      })
    })
  )
}

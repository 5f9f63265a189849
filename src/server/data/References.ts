/**
 * References between items. A REFERENCE field holds the referenced item's id in the item itself; a
 * MULTI_REFERENCE field's references live in their own table, in the order they were added (the
 * platform does not store them in the item either). References to a removed item, or from it, go with
 * it; references to an item that never existed are kept and read back as unresolved.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { DataCollection } from "../../data/wire/index.ts"
import { Database, type Row } from "../platform/Database.ts"
import { DataCollections } from "./DataCollections.ts"
import { sandboxKey } from "./environments.ts"
import { badRequest } from "../store/engineFailures.ts"

export interface ReferenceField {
  readonly key: string
  readonly kind: "single" | "multi"
  readonly referencedCollectionId: string
}

/** The collection's reference field with this key, or undefined. */
export const referenceField = (collection: DataCollection, key: string): ReferenceField | undefined => {
  const field = collection.fields?.find((f) => f.key === key)
  if (field?.type === "REFERENCE" && field.typeMetadata?.reference !== undefined) {
    return { key, kind: "single", referencedCollectionId: field.typeMetadata.reference.referencedCollectionId }
  }
  if (field?.type === "MULTI_REFERENCE" && field.typeMetadata?.multiReference !== undefined) {
    return { key, kind: "multi", referencedCollectionId: field.typeMetadata.multiReference.referencedCollectionId }
  }
  return undefined
}

/** The multi-reference field, or 400 WDE0020. */
export const multiReferenceField = (collection: DataCollection, key: string): ReferenceField => {
  const field = referenceField(collection, key)
  if (field?.kind !== "multi") throw badRequest("WDE0020", `WDE0020: Provided property [${key}] is not a multi-reference field.`, [key])
  return field
}

export interface ReferenceRow {
  readonly referringId: string
  readonly referencedId: string
}

export interface ReferencesShape {
  /** Adds a reference (once); true when it was new. */
  readonly add: (collectionId: string, field: ReferenceField, referringId: string, referencedId: string) => boolean
  readonly delete: (collectionId: string, field: string, referringId: string, referencedId: string) => boolean
  readonly replace: (collectionId: string, field: ReferenceField, referringId: string, referencedIds: ReadonlyArray<string>) => void
  readonly has: (collectionId: string, field: string, referringId: string, referencedId: string) => boolean
  /** References from these items, in the order they were added (or the reverse), one page. */
  readonly list: (
    collectionId: string,
    field: string,
    referringIds: ReadonlyArray<string>,
    options: { readonly desc: boolean; readonly limit: number; readonly offset: number }
  ) => ReadonlyArray<ReferenceRow>
  readonly count: (collectionId: string, field: string, referringIds: ReadonlyArray<string>) => number
  /** Drops every reference from or to an item. */
  readonly forgetItem: (collectionId: string, id: string) => void
  readonly forgetCollection: (collectionId: string) => void
  /**
   * Replaces the references held by the items of `to` with those of the items of `from` (a sandbox
   * synced to live, or the reverse), each referenced collection renamed by `target`.
   */
  readonly copyReferences: (from: string, to: string, target: (referencedCollectionId: string) => string) => void
}

const toRow = (row: Row): ReferenceRow => ({ referringId: String(row.referring_id), referencedId: String(row.referenced_id) })

export class References extends Context.Service<References, ReferencesShape>()("sitefx/server/data/References") {
  static readonly layer: Layer.Layer<References, never, Database | DataCollections> = Layer.effect(
    References,
    Effect.gen(function*() {
      const db = yield* Database
      const collections = yield* DataCollections
      db.migrate(
        "data/references/1",
        `CREATE TABLE data_references (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          collection_id TEXT NOT NULL REFERENCES data_collections (id) ON DELETE CASCADE,
          field TEXT NOT NULL,
          referring_id TEXT NOT NULL,
          referenced_collection_id TEXT NOT NULL,
          referenced_id TEXT NOT NULL,
          UNIQUE (collection_id, field, referring_id, referenced_id)
        );
        CREATE INDEX data_references_to ON data_references (referenced_collection_id, referenced_id);
        CREATE INDEX data_references_from ON data_references (collection_id, referring_id);`
      )
      // a sandbox's references are stored under its sandbox key (environments.ts), which names no row of
      // data_collections: the key's foreign key goes, and a collection's removal forgets both environments
      db.migrate(
        "data/references/2",
        `CREATE TABLE data_references_2 (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          collection_id TEXT NOT NULL,
          field TEXT NOT NULL,
          referring_id TEXT NOT NULL,
          referenced_collection_id TEXT NOT NULL,
          referenced_id TEXT NOT NULL,
          UNIQUE (collection_id, field, referring_id, referenced_id)
        );
        INSERT INTO data_references_2 SELECT seq, collection_id, field, referring_id, referenced_collection_id, referenced_id FROM data_references;
        DROP TABLE data_references;
        ALTER TABLE data_references_2 RENAME TO data_references;
        CREATE INDEX data_references_to ON data_references (referenced_collection_id, referenced_id);
        CREATE INDEX data_references_from ON data_references (collection_id, referring_id);`
      )
      const forgetCollection = (collectionId: string) => {
        db.run("DELETE FROM data_references WHERE collection_id = ? OR referenced_collection_id = ?", collectionId, collectionId)
      }
      collections.onRemove((id) => {
        forgetCollection(id)
        forgetCollection(sandboxKey(id))
      })

      const add = (collectionId: string, field: ReferenceField, referringId: string, referencedId: string) =>
        db.run(
          `INSERT INTO data_references (collection_id, field, referring_id, referenced_collection_id, referenced_id)
           VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
          collectionId,
          field.key,
          referringId,
          field.referencedCollectionId,
          referencedId
        ) > 0

      const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ")

      return References.of({
        add,
        delete: (collectionId, field, referringId, referencedId) =>
          db.run(
            "DELETE FROM data_references WHERE collection_id = ? AND field = ? AND referring_id = ? AND referenced_id = ?",
            collectionId,
            field,
            referringId,
            referencedId
          ) > 0,
        replace: (collectionId, field, referringId, referencedIds) =>
          db.transaction(() => {
            db.run("DELETE FROM data_references WHERE collection_id = ? AND field = ? AND referring_id = ?", collectionId, field.key, referringId)
            for (const id of referencedIds) add(collectionId, field, referringId, id)
          }),
        has: (collectionId, field, referringId, referencedId) =>
          db.get(
            "SELECT 1 AS found FROM data_references WHERE collection_id = ? AND field = ? AND referring_id = ? AND referenced_id = ?",
            collectionId,
            field,
            referringId,
            referencedId
          ) !== undefined,
        list: (collectionId, field, referringIds, options) =>
          referringIds.length === 0 ? [] : db.all(
            `SELECT referring_id, referenced_id FROM data_references
             WHERE collection_id = ? AND field = ? AND referring_id IN (${placeholders(referringIds.length)})
             ORDER BY seq ${options.desc ? "DESC" : "ASC"} LIMIT ? OFFSET ?`,
            collectionId,
            field,
            ...referringIds,
            options.limit,
            options.offset
          ).map(toRow),
        count: (collectionId, field, referringIds) =>
          referringIds.length === 0 ? 0 : Number(db.get(
            `SELECT COUNT(*) AS n FROM data_references WHERE collection_id = ? AND field = ? AND referring_id IN (${placeholders(referringIds.length)})`,
            collectionId,
            field,
            ...referringIds
          )?.n ?? 0),
        copyReferences: (from, to, target) =>
          db.transaction(() => {
            db.run("DELETE FROM data_references WHERE collection_id = ?", to)
            const targets = db.all("SELECT DISTINCT referenced_collection_id AS c FROM data_references WHERE collection_id = ?", from).map((r) => String(r.c))
            for (const referenced of targets) {
              db.run(
                `INSERT INTO data_references (collection_id, field, referring_id, referenced_collection_id, referenced_id)
                 SELECT ?, field, referring_id, ?, referenced_id FROM data_references
                 WHERE collection_id = ? AND referenced_collection_id = ? ORDER BY seq`,
                to,
                target(referenced),
                from,
                referenced
              )
            }
          }),
        forgetItem: (collectionId, id) => {
          db.run(
            "DELETE FROM data_references WHERE (collection_id = ? AND referring_id = ?) OR (referenced_collection_id = ? AND referenced_id = ?)",
            collectionId,
            id,
            collectionId,
            id
          )
        },
        forgetCollection
      })
    })
  )
}

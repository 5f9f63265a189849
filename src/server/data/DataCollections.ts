/**
 * Data collections: their schema (fields), permissions and paging modes, kept as the wire
 * `DataCollection` JSON in sqlite. A new collection gets the system fields (`_id`, `_createdDate`,
 * `_updatedDate`, `_owner`), default permissions (read ANYONE, writes ADMIN) and both paging modes.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { FilterNode } from "../../data/FilterTree.ts"
import type { CollectionField, DataCollection, Permissions, Sorting } from "../../data/wire/index.ts"
import { Database, type Row } from "../platform/Database.ts"
import { isoDate, ServerClock } from "../platform/ServerClock.ts"
import { badRequest, EngineFailure } from "../store/engineFailures.ts"
import { collectionNotFound } from "./dataFailures.ts"
import { type DataEnvironment, isSandboxKey, publicId, sandboxed } from "./environments.ts"
import { orderBy, sortTerms, where } from "../store/sql.ts"

export const SYSTEM_FIELDS: ReadonlyArray<CollectionField> = [
  { key: "_id", displayName: "ID", type: "TEXT", systemField: true, readOnly: true },
  { key: "_createdDate", displayName: "Created Date", type: "DATETIME", systemField: true, readOnly: true },
  { key: "_updatedDate", displayName: "Updated Date", type: "DATETIME", systemField: true, readOnly: true },
  { key: "_owner", displayName: "Owner", type: "TEXT", systemField: true, readOnly: true }
]

export const DEFAULT_PERMISSIONS: Required<Permissions> = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" }

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_\-@/]{0,255}$/

export interface DataCollectionsShape {
  readonly get: (id: string) => DataCollection | undefined
  /** The collection, or 404 WDE0025. */
  readonly require: (id: string) => DataCollection
  readonly list: () => ReadonlyArray<DataCollection>
  /** 409 when the id is taken. */
  readonly create: (collection: DataCollection) => DataCollection
  /** Replaces schema, permissions and settings; 409 when `revision` is given and stale. */
  readonly update: (collection: DataCollection) => DataCollection
  /** Deletes the collection with its items. */
  readonly remove: (id: string) => void
  readonly createField: (id: string, field: CollectionField) => DataCollection
  readonly updateField: (id: string, field: CollectionField) => DataCollection
  readonly deleteField: (id: string, key: string) => DataCollection
  /** The effective permissions (defaults filled in). */
  readonly permissions: (collection: DataCollection) => Required<Permissions>
  /** Runs when a collection is deleted (its indexes and references go too). */
  readonly onRemove: (hook: (id: string) => void) => void
  /**
   * The collection as a call in `environment` works on it (see environments.ts): LIVE as it is, SANDBOX as
   * its sandbox (refused with 400 SANDBOX_NOT_ENABLED where none is enabled), SANDBOX_PREFERRED as its
   * sandbox where enabled. 404 when there is no such collection.
   */
  readonly inEnvironment: (id: string, environment: DataEnvironment | undefined) => DataCollection
  /** The collection a storage key names (a reference field's target), its sandbox for a sandbox key; undefined when none. */
  readonly byKey: (key: string) => DataCollection | undefined
  readonly hasSandbox: (id: string) => boolean
  /** Records whether the collection has a sandbox (the items are Sandboxes' business). */
  readonly setSandbox: (id: string, enabled: boolean) => void
  /** The collections whose sandbox is enabled. */
  readonly sandboxes: () => ReadonlyArray<string>
  /** Collections matching a filter over their wire properties (dates as ISO text), sorted. */
  readonly query: (filter: FilterNode, sort: ReadonlyArray<Sorting>) => ReadonlyArray<DataCollection>
}

export class DataCollections extends Context.Service<DataCollections, DataCollectionsShape>()("sitefx/server/data/DataCollections") {
  static readonly layer: Layer.Layer<DataCollections, never, Database | ServerClock> = Layer.effect(
    DataCollections,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      db.migrate(
        "data/collections/1",
        `CREATE TABLE data_collections (
          id TEXT PRIMARY KEY,
          doc TEXT NOT NULL,
          revision INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );`
      )
      db.migrate("data/sandboxes/1", "CREATE TABLE data_sandboxes (collection_id TEXT PRIMARY KEY, enabled_at INTEGER NOT NULL)")
      const removeHooks: Array<(id: string) => void> = []

      const toCollection = (row: Row): DataCollection => ({
        ...(JSON.parse(String(row.doc)) as DataCollection),
        revision: String(row.revision),
        createdDate: isoDate(Number(row.created_at)),
        updatedDate: isoDate(Number(row.updated_at))
      })

      const get = (id: string) => {
        const row = db.get("SELECT * FROM data_collections WHERE id = ?", id)
        return row === undefined ? undefined : toCollection(row)
      }
      const require = (id: string) => {
        const found = get(id)
        if (found === undefined) throw collectionNotFound(id)
        return found
      }

      // read on every call that names an environment: kept in memory, as the table is (reset empties both)
      const readSandboxes = () => new Set(db.all("SELECT collection_id FROM data_sandboxes").map((r) => String(r.collection_id)))
      let withSandbox = readSandboxes()
      db.onReset(() => {
        withSandbox = readSandboxes()
      })
      const hasSandbox = (id: string) => withSandbox.has(id)
      removeHooks.push((id) => {
        withSandbox.delete(id)
        db.run("DELETE FROM data_sandboxes WHERE collection_id = ?", id)
      })

      const checkFields = (fields: ReadonlyArray<CollectionField>) => {
        const seen = new Set<string>()
        for (const field of fields) {
          if (field.key === "" || field.key.includes(".") || field.key.includes("\"") || field.key.includes("\\") || /[\u0000-\u001f]/.test(field.key)) {
            throw badRequest("WDE0003", `Invalid field key [${field.key}].`, [field.key])
          }
          if (seen.has(field.key)) throw badRequest("WDE0003", `The field key [${field.key}] appears twice.`, [field.key])
          seen.add(field.key)
          if (field.type === "REFERENCE" && field.typeMetadata?.reference === undefined) {
            throw badRequest("WDE0020", `The reference field [${field.key}] needs typeMetadata.reference.referencedCollectionId.`, [field.key])
          }
          if (field.type === "MULTI_REFERENCE" && field.typeMetadata?.multiReference === undefined) {
            throw badRequest("WDE0020", `The multi-reference field [${field.key}] needs typeMetadata.multiReference.referencedCollectionId.`, [field.key])
          }
        }
      }

      /** What is stored: the collection without the values kept in columns. */
      const stored = (c: DataCollection): string => {
        const { createdDate: _c, updatedDate: _u, revision: _r, ...rest } = c
        return JSON.stringify(rest)
      }

      const withSystemFields = (fields: ReadonlyArray<CollectionField>) => [
        ...SYSTEM_FIELDS.filter((s) => !fields.some((f) => f.key === s.key)),
        ...fields
      ]

      const save = (collection: DataCollection, bump: boolean): DataCollection => {
        checkFields(collection.fields ?? [])
        const now = clock.millis()
        db.run(
          `UPDATE data_collections SET doc = ?, updated_at = ?${bump ? ", revision = revision + 1" : ""} WHERE id = ?`,
          stored(collection),
          now,
          collection.id
        )
        return require(collection.id)
      }

      const changeFields = (id: string, change: (fields: ReadonlyArray<CollectionField>) => ReadonlyArray<CollectionField>) =>
        db.transaction(() => {
          const current = require(id)
          return save({ ...current, fields: change(current.fields ?? []) }, true)
        })

      return DataCollections.of({
        get,
        require,
        inEnvironment: (id, environment) => {
          const collection = require(id)
          if (environment === undefined || environment === "LIVE") return collection
          if (hasSandbox(id)) return sandboxed(collection, hasSandbox)
          if (environment === "SANDBOX_PREFERRED") return collection
          throw new EngineFailure({
            status: 400,
            code: "SANDBOX_NOT_ENABLED",
            description: `The ${id} collection has no sandbox: enable it first (\`sitefx data sandbox enable ${id}\`, or POST /_sitefx/data/sandboxes), or ask for SANDBOX_PREFERRED to fall back to LIVE.`
          })
        },
        byKey: (key) => {
          if (!isSandboxKey(key)) return get(key)
          const id = publicId(key)
          const collection = hasSandbox(id) ? get(id) : undefined
          return collection === undefined ? undefined : sandboxed(collection, hasSandbox)
        },
        hasSandbox,
        setSandbox: (id, enabled) => {
          if (enabled) {
            db.run("INSERT OR IGNORE INTO data_sandboxes (collection_id, enabled_at) VALUES (?, ?)", id, clock.millis())
            withSandbox.add(id)
          } else {
            db.run("DELETE FROM data_sandboxes WHERE collection_id = ?", id)
            withSandbox.delete(id)
          }
        },
        sandboxes: () => [...withSandbox].sort(),
        list: () => db.all("SELECT * FROM data_collections ORDER BY created_at, id").map(toCollection),
        create: (input) =>
          db.transaction(() => {
            if (!ID_PATTERN.test(input.id)) {
              throw badRequest("WDE0001", `Invalid collection id [${input.id}]: letters, digits, _ - @ / only, up to 256.`)
            }
            if (get(input.id) !== undefined) {
              throw new EngineFailure({ status: 409, code: "ALREADY_EXISTS", description: `The collection ${input.id} already exists.` })
            }
            const collection: DataCollection = {
              ...input,
              collectionType: input.collectionType ?? "NATIVE",
              displayName: input.displayName ?? input.id,
              fields: withSystemFields(input.fields ?? []),
              permissions: { ...DEFAULT_PERMISSIONS, ...input.permissions },
              pagingModes: input.pagingModes ?? ["OFFSET", "CURSOR"]
            }
            checkFields(collection.fields ?? [])
            const now = clock.millis()
            db.run(
              "INSERT INTO data_collections (id, doc, revision, created_at, updated_at) VALUES (?, ?, 1, ?, ?)",
              collection.id,
              stored(collection),
              now,
              now
            )
            return require(collection.id)
          }),
        update: (input) =>
          db.transaction(() => {
            const current = require(input.id)
            if (input.revision !== undefined && input.revision !== null && input.revision !== current.revision) {
              throw new EngineFailure({
                status: 409,
                code: "REVISION_MISMATCH",
                description: `The collection ${input.id} is at revision ${current.revision}, not ${input.revision}.`
              })
            }
            return save({
              ...current,
              ...input,
              fields: withSystemFields(input.fields ?? current.fields ?? []),
              permissions: { ...DEFAULT_PERMISSIONS, ...current.permissions, ...input.permissions }
            }, true)
          }),
        remove: (id) =>
          db.transaction(() => {
            require(id)
            for (const hook of removeHooks) hook(id)
            db.run("DELETE FROM data_collections WHERE id = ?", id)
          }),
        createField: (id, field) =>
          changeFields(id, (fields) => {
            if (fields.some((f) => f.key === field.key)) {
              throw new EngineFailure({ status: 409, code: "ALREADY_EXISTS", description: `The field ${field.key} already exists.` })
            }
            return [...fields, field]
          }),
        updateField: (id, field) =>
          changeFields(id, (fields) => {
            const existing = fields.find((f) => f.key === field.key)
            if (existing === undefined) throw new EngineFailure({ status: 404, code: "NOT_FOUND", description: `No field ${field.key}.` })
            if (existing.systemField === true) throw badRequest("WDE0003", `The system field ${field.key} cannot change.`, [field.key])
            return fields.map((f) => (f.key === field.key ? field : f))
          }),
        deleteField: (id, key) =>
          changeFields(id, (fields) => {
            const existing = fields.find((f) => f.key === key)
            if (existing === undefined) throw new EngineFailure({ status: 404, code: "NOT_FOUND", description: `No field ${key}.` })
            if (existing.systemField === true) throw badRequest("WDE0003", `The system field ${key} cannot be deleted.`, [key])
            return fields.filter((f) => f.key !== key)
          }),
        permissions: (collection) => ({ ...DEFAULT_PERMISSIONS, ...collection.permissions }),
        query: (filter, sort) => {
          const source = { column: "full" }
          const condition = where(filter, source)
          const terms = [...sortTerms(source, sort), { expr: "created_at", desc: false }, { expr: "id", desc: false }]
          const iso = (column: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch')`
          return db.all(
            `SELECT * FROM (SELECT *, json_set(doc, '$.revision', CAST(revision AS TEXT), '$.createdDate', ${iso("created_at")}, ` +
              `'$.updatedDate', ${iso("updated_at")}) AS full FROM data_collections) WHERE ${condition.sql} ORDER BY ${orderBy(terms)}`,
            ...condition.params
          ).map(toCollection)
        },
        onRemove: (hook) => {
          removeHooks.push(hook)
        }
      })
    })
  )
}

/**
 * Backups of the site's data (`/wix-data/v2/backups`). A backup is a consistent copy of the database
 * file, taken with SQLite's online backup (Database.backupTo): writers go on while it is taken, held
 * only for one copy step at a time. It lives as a file of its own beside the database (`<db>.backups/`,
 * a temporary folder for a database in memory), so it survives a restart, and deleting it frees its
 * space at once.
 *
 * A restoration puts collections back as the backup holds them: their items with their ids, dates,
 * owners and order, the references they hold, and their sandbox copies where the backup has them. It
 * attaches the backup file and replaces each collection in one transaction: a reader sees every
 * collection before or after, a failure (say, a unique index the restored items break) changes nothing.
 * A collection deleted since the backup is created again from its definition there; one that exists
 * keeps its current definition. A partial restoration restores only the collections it names, each
 * into itself or into another collection (created when missing).
 *
 * Backups and restorations run one at a time, in the background; their state changes are logged as the
 * site's events (`wix.data.v2.backup_backup_state_changed`, `..._restoration_state_changed`). A backup or
 * restoration the platform was stopped in the middle of ends FAILED when it starts again: a restoration
 * changes nothing until its transaction commits, and a half-written backup file is removed.
 *
 * The platform keeps at most {@link MAX_BACKUPS} backups that are PENDING or READY; past that, creating
 * one is refused until one is deleted.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Semaphore from "effect/Semaphore"
import { randomUUID } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Backup, DataCollection, Restoration, RestorationCollection } from "../../data/wire/index.ts"
import type { Caller } from "../platform/Caller.ts"
import { Database, type Row } from "../platform/Database.ts"
import { isoDate, ServerClock } from "../platform/ServerClock.ts"
import { DataCollections } from "./DataCollections.ts"
import { badRequest, EngineFailure } from "../store/engineFailures.ts"
import { sandboxKey } from "./environments.ts"
import { ItemStore } from "./ItemStore.ts"

/** Backups a site keeps at once (PENDING or READY); a deleted or failed one does not count. */
export const MAX_BACKUPS = 20

export type BackupStatus = Backup["status"]
export type RestorationStatus = Restoration["status"]

/** A backup's or restoration's state changed (the logged event's body), for the API key that asked for it. */
export type BackupChange =
  | { readonly _tag: "Backup"; readonly backup: Backup; readonly actor: Caller }
  | { readonly _tag: "Restoration"; readonly restoration: Restoration; readonly actor: Caller }

export interface BackupsShape {
  /** Asks for a backup: answered PENDING, taken in the background. */
  readonly create: (actor: Caller) => Backup
  readonly list: (filter: { readonly status?: ReadonlyArray<BackupStatus> | undefined; readonly type?: ReadonlyArray<string> | undefined }) => ReadonlyArray<Backup>
  /** Asks to restore a READY backup, all of its collections or those named; answered PENDING. */
  readonly restore: (backupId: string, collections: ReadonlyArray<RestorationCollection> | undefined, actor: Caller) => Restoration
  readonly restorations: (status: ReadonlyArray<RestorationStatus> | undefined) => ReadonlyArray<Restoration>
  /** Deletes a backup that is not being taken: its file goes, it stays listed as DELETED. */
  readonly remove: (backupId: string, actor: Caller) => void
  /** Calls `listener` with every state change, in the transaction that made it. */
  readonly onChange: (listener: (change: BackupChange) => void) => void
  /** Resolves once no backup or restoration is waiting or running (for tests and a clean stop). */
  readonly settled: Effect.Effect<void>
}

const notFound = (id: string) => new EngineFailure({ status: 404, code: "NOT_FOUND", description: `No backup ${id}.` })

export class Backups extends Context.Service<Backups, BackupsShape>()("sitefx/server/data/Backups") {
  static readonly layer: Layer.Layer<Backups, never, Database | ServerClock | DataCollections | ItemStore> = Layer.effect(
    Backups,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const collections = yield* DataCollections
      const items = yield* ItemStore
      db.migrate(
        "data/backups/1",
        `CREATE TABLE data_backups (
          id TEXT PRIMARY KEY,
          status TEXT NOT NULL,
          type TEXT NOT NULL,
          requested_at INTEGER NOT NULL,
          started_at INTEGER,
          finished_at INTEGER,
          deleted_at INTEGER,
          size_bytes INTEGER,
          collections TEXT,
          actor TEXT NOT NULL
        );
        CREATE TABLE data_restorations (
          id TEXT PRIMARY KEY,
          backup_id TEXT NOT NULL,
          status TEXT NOT NULL,
          requested_at INTEGER NOT NULL,
          started_at INTEGER,
          finished_at INTEGER,
          collections TEXT,
          error TEXT,
          actor TEXT NOT NULL
        );`
      )

      // where backup files live: beside the database file, or in a folder of this process for one in memory
      // made when the first backup is taken: a platform that takes none leaves no folder behind
      const inMemory = db.location === ":memory:"
      let dir: string | undefined = inMemory ? undefined : `${db.location}.backups`
      const folder = (): string => {
        if (dir === undefined) dir = mkdtempSync(join(tmpdir(), "sitefx-backups-"))
        else mkdirSync(dir, { recursive: true })
        return dir
      }
      if (inMemory) yield* Effect.addFinalizer(() => Effect.sync(() => dir === undefined ? undefined : rmSync(dir, { recursive: true, force: true })))
      /** Where a backup's file is; `dir` exists once a backup is being taken. */
      const fileOf = (id: string) => join(dir ?? "", `${id}.db`)

      const listeners: Array<(change: BackupChange) => void> = []
      const time = (v: unknown) => (v === null || v === undefined ? undefined : isoDate(Number(v)))

      const toBackup = (row: Row): Backup => {
        const started = time(row.started_at)
        const finished = time(row.finished_at)
        const deleted = time(row.deleted_at)
        return {
          id: String(row.id),
          status: String(row.status) as BackupStatus,
          type: String(row.type) as Backup["type"],
          requestedDate: isoDate(Number(row.requested_at)),
          ...(started === undefined ? {} : { startedDate: started }),
          ...(finished === undefined ? {} : { finishedDate: finished }),
          ...(deleted === undefined ? {} : { deletedDate: deleted }),
          ...(row.size_bytes === null || row.size_bytes === undefined ? {} : { sizeInBytes: String(row.size_bytes) }),
          ...(row.collections === null || row.collections === undefined ? {} : { collections: JSON.parse(String(row.collections)) as NonNullable<Backup["collections"]> })
        }
      }
      const backupRow = (id: string) => db.get("SELECT * FROM data_backups WHERE id = ?", id)
      const backupOf = (id: string): Backup => {
        const row = backupRow(id)
        if (row === undefined) throw notFound(id)
        return toBackup(row)
      }

      const toRestoration = (row: Row): Restoration => {
        const started = time(row.started_at)
        const finished = time(row.finished_at)
        const named = row.collections === null || row.collections === undefined ? undefined : JSON.parse(String(row.collections)) as ReadonlyArray<RestorationCollection>
        return {
          id: String(row.id),
          backup: backupOf(String(row.backup_id)),
          status: String(row.status) as RestorationStatus,
          requestedDate: isoDate(Number(row.requested_at)),
          ...(started === undefined ? {} : { startedDate: started }),
          ...(finished === undefined ? {} : { finishedDate: finished }),
          ...(named === undefined ? {} : { restorationCollections: named })
        }
      }
      const restorationOf = (id: string) => toRestoration(db.get("SELECT * FROM data_restorations WHERE id = ?", id)!)

      /** Who asked, kept with the backup or restoration so that its later changes are theirs too. */
      const actorOf = (row: Row | undefined): Caller => (row === undefined ? { kind: "none" } : JSON.parse(String(row.actor)) as Caller)
      const backupChanged = (id: string, by?: Caller) => {
        const backup = backupOf(id)
        const actor = by ?? actorOf(backupRow(id))
        for (const listener of listeners) listener({ _tag: "Backup", backup, actor })
      }
      const restorationChanged = (id: string) => {
        const restoration = restorationOf(id)
        const actor = actorOf(db.get("SELECT actor FROM data_restorations WHERE id = ?", id))
        for (const listener of listeners) listener({ _tag: "Restoration", restoration, actor })
      }
      const actorText = (actor: Caller) => JSON.stringify(actor.kind === "admin" ? { kind: "admin", keyId: actor.keyId } : actor)

      // what a stop in the middle left: a backup half taken (its file goes) or a restoration not applied
      for (const row of db.all("SELECT id FROM data_backups WHERE status = 'PENDING'")) {
        rmSync(fileOf(String(row.id)), { force: true })
        db.run("UPDATE data_backups SET status = 'FAILED', finished_at = ? WHERE id = ?", clock.millis(), String(row.id))
      }
      db.run(
        "UPDATE data_restorations SET status = 'FAILED', finished_at = ?, error = 'The platform stopped before the restoration was applied; nothing was changed.' WHERE status = 'PENDING'",
        clock.millis()
      )
      // a reset empties the tables: their files go too
      db.onReset((reason) => {
        // a snapshot leaves the backups as they are (they are this machine's files, not the site's state)
        if (reason === "restore" || dir === undefined || !existsSync(dir)) return
        for (const name of readdirSync(dir)) if (name.endsWith(".db")) rmSync(join(dir, name), { force: true })
      })

      const running = yield* FiberSet.make<void, never>()
      const fork = yield* FiberSet.runtime(running)()
      const oneAtATime = yield* Semaphore.make(1)
      /** Backups and restorations run one at a time, in the order they were asked for. */
      const inBackground = (work: Effect.Effect<void>) => {
        fork(oneAtATime.withPermits(1)(work))
      }

      const take = (id: string): Effect.Effect<void> =>
        Effect.gen(function*() {
          if (backupRow(id)?.status !== "PENDING") return
          db.transaction(() => {
            db.run("UPDATE data_backups SET started_at = ? WHERE id = ?", clock.millis(), id)
            backupChanged(id)
          })
          const file = join(folder(), `${id}.db`)
          rmSync(file, { force: true })
          const copied = yield* Effect.tryPromise(() => db.backupTo(file)).pipe(
            Effect.flatMap(() =>
              Effect.try(() =>
                db.withAttached(file, "backup", () =>
                  db.all("SELECT id, doc FROM backup.data_collections ORDER BY created_at, id").map((r) => ({
                    id: String(r.id),
                    displayName: (JSON.parse(String(r.doc)) as DataCollection).displayName ?? String(r.id)
                  })))
              )
            ),
            Effect.map((held) => ({ ok: true as const, held })),
            Effect.catch(() => Effect.succeed({ ok: false as const }))
          )
          db.transaction(() => {
            if (copied.ok) {
              db.run(
                "UPDATE data_backups SET status = 'READY', finished_at = ?, size_bytes = ?, collections = ? WHERE id = ?",
                clock.millis(),
                statSync(file).size,
                JSON.stringify(copied.held),
                id
              )
            } else {
              rmSync(file, { force: true })
              db.run("UPDATE data_backups SET status = 'FAILED', finished_at = ? WHERE id = ?", clock.millis(), id)
            }
            backupChanged(id)
          })
        })

      /** The items (and references) stored under `from` in the backup replace those under `to`. */
      const restoreKey = (from: string, to: string) => {
        items.truncate(to)
        db.run("INSERT INTO data_items (collection_id, seq, id, data, owner) SELECT ?, seq, id, data, owner FROM backup.data_items WHERE collection_id = ? ORDER BY seq", to, from)
        items.noteSeq(Number(db.get("SELECT MAX(seq) AS last FROM backup.data_items WHERE collection_id = ?", from)?.last ?? 0))
        db.run("DELETE FROM data_references WHERE collection_id = ?", to)
        db.run(
          `INSERT INTO data_references (collection_id, field, referring_id, referenced_collection_id, referenced_id)
           SELECT ?, field, referring_id, referenced_collection_id, referenced_id FROM backup.data_references WHERE collection_id = ? ORDER BY seq`,
          to,
          from
        )
      }

      const apply = (id: string): Effect.Effect<void> =>
        Effect.sync(() => {
          const row = db.get("SELECT * FROM data_restorations WHERE id = ?", id)
          if (row === undefined || row.status !== "PENDING") return
          const backupId = String(row.backup_id)
          db.transaction(() => {
            db.run("UPDATE data_restorations SET started_at = ? WHERE id = ?", clock.millis(), id)
            restorationChanged(id)
          })
          const named = row.collections === null ? undefined : JSON.parse(String(row.collections)) as ReadonlyArray<RestorationCollection>
          let error: string | undefined
          try {
            db.withAttached(fileOf(backupId), "backup", () =>
              db.transaction(() => {
                const held = new Map(db.all("SELECT id, doc FROM backup.data_collections").map((r) => [String(r.id), JSON.parse(String(r.doc)) as DataCollection]))
                const sandboxes = new Set(db.all("SELECT collection_id FROM backup.data_sandboxes").map((r) => String(r.collection_id)))
                const pairs = named === undefined
                  ? [...held.keys()].map((c) => ({ from: c, to: c, displayName: undefined }))
                  : named.map((c) => ({ from: c.dataCollectionId, to: c.restoreDestination?.dataCollectionId ?? c.dataCollectionId, displayName: c.restoreDestination?.displayName ?? undefined }))
                for (const { from, to, displayName } of pairs) {
                  const definition = held.get(from)
                  if (definition === undefined) throw badRequest("WDE0025", `The backup holds no collection ${from}.`)
                  if (collections.get(to) === undefined) {
                    collections.create({ ...definition, id: to, ...(displayName === undefined ? {} : { displayName }) })
                  }
                  restoreKey(from, to)
                  if (sandboxes.has(from)) {
                    collections.setSandbox(to, true)
                    restoreKey(sandboxKey(from), sandboxKey(to))
                  }
                }
                db.run("UPDATE data_restorations SET status = 'COMPLETED', finished_at = ? WHERE id = ?", clock.millis(), id)
                restorationChanged(id)
              })
            )
          } catch (e) {
            error = e instanceof EngineFailure ? e.description : e instanceof Error ? e.message : String(e)
          }
          if (error !== undefined) {
            db.transaction(() => {
              db.run("UPDATE data_restorations SET status = 'FAILED', finished_at = ?, error = ? WHERE id = ?", clock.millis(), error, id)
              restorationChanged(id)
            })
          }
        })

      const backupsLimit = () => {
        const kept = Number(db.get("SELECT COUNT(*) AS n FROM data_backups WHERE status IN ('PENDING', 'READY')")?.n ?? 0)
        if (kept >= MAX_BACKUPS) {
          throw new EngineFailure({
            status: 400,
            code: "BACKUP_LIMIT_REACHED",
            description: `The site keeps at most ${MAX_BACKUPS} backups; delete one (DELETE /wix-data/v2/backups/{id}) before taking another.`
          })
        }
      }

      return Backups.of({
        create: (actor) => {
          const id = randomUUID()
          const backup = db.transaction(() => {
            backupsLimit()
            db.run("INSERT INTO data_backups (id, status, type, requested_at, actor) VALUES (?, 'PENDING', 'ON_DEMAND', ?, ?)", id, clock.millis(), actorText(actor))
            backupChanged(id)
            return backupOf(id)
          })
          inBackground(take(id))
          return backup
        },
        list: (filter) => {
          const rows = db.all("SELECT * FROM data_backups ORDER BY requested_at DESC, rowid DESC").map(toBackup)
          return rows.filter((b) =>
            (filter.status === undefined || filter.status.length === 0 || filter.status.includes(b.status)) &&
            (filter.type === undefined || filter.type.length === 0 || filter.type.includes(b.type))
          )
        },
        restore: (backupId, named, actor) => {
          const id = randomUUID()
          const restoration = db.transaction(() => {
            const backup = backupOf(backupId)
            if (backup.status !== "READY") {
              throw new EngineFailure({ status: 400, code: "BACKUP_NOT_READY", description: `The backup ${backupId} is ${backup.status}; only a READY backup can be restored.` })
            }
            if (named !== undefined) {
              if (named.length === 0) throw badRequest("WDE0043", "A partial restoration names at least one collection.")
              const held = new Set((backup.collections ?? []).map((c) => c.id))
              for (const c of named) {
                if (!held.has(c.dataCollectionId)) throw badRequest("WDE0025", `The backup ${backupId} holds no collection ${c.dataCollectionId}.`)
              }
            }
            db.run(
              "INSERT INTO data_restorations (id, backup_id, status, requested_at, collections, actor) VALUES (?, ?, 'PENDING', ?, ?, ?)",
              id,
              backupId,
              clock.millis(),
              named === undefined ? null : JSON.stringify(named),
              actorText(actor)
            )
            restorationChanged(id)
            return restorationOf(id)
          })
          inBackground(apply(id))
          return restoration
        },
        restorations: (status) =>
          db.all("SELECT * FROM data_restorations ORDER BY requested_at DESC, rowid DESC").map(toRestoration)
            .filter((r) => status === undefined || status.length === 0 || status.includes(r.status)),
        remove: (backupId, actor) =>
          db.transaction(() => {
            const backup = backupOf(backupId)
            if (backup.status === "DELETED") return
            if (backup.status === "PENDING") {
              throw new EngineFailure({ status: 409, code: "BACKUP_IN_PROGRESS", description: `The backup ${backupId} is being taken; delete it once it is READY.` })
            }
            if (db.get("SELECT 1 AS waiting FROM data_restorations WHERE backup_id = ? AND status = 'PENDING'", backupId) !== undefined) {
              throw new EngineFailure({ status: 409, code: "BACKUP_IN_USE", description: `A restoration from the backup ${backupId} is under way; delete it once it has ended.` })
            }
            rmSync(fileOf(backupId), { force: true })
            db.run("UPDATE data_backups SET status = 'DELETED', deleted_at = ? WHERE id = ?", clock.millis(), backupId)
            backupChanged(backupId, actor)
          }),
        onChange: (listener) => {
          listeners.push(listener)
        },
        settled: FiberSet.awaitEmpty(running)
      })
    })
  )
}

/**
 * Snapshots: the whole state of the site (members and their sessions, collections and items, the store,
 * events and webhook subscriptions, settings) saved by name while the platform runs, and put back in
 * one transaction, fast enough to reset a site before every test (`npm run bench`).
 *
 * A snapshot is a folder a team can commit and share:
 *
 * - `snapshot.sqlite`: the site's tables in a SQLite database file, with a `_snapshot` table whose one
 *   row is the manifest (format, format version, the sitefx version that saved it, the storage
 *   migrations its tables have, counts). The platform reads only this file; it is replaced by a rename,
 *   so a platform stopped while saving leaves the previous snapshot whole.
 * - `manifest.json`: the same manifest, for people and for review.
 *
 * A snapshot saved before some of this platform's migrations is brought up to them on a copy (the
 * file itself is left as it was); one of another format version, or with a migration this platform does
 * not know (saved by a later sitefx), is refused with what differs, never half loaded. The instance's own secrets (the key that signs access tokens) are never in
 * it: a restore signs with a new key, so access tokens issued before it stop working while the
 * snapshot's sessions (its refresh tokens) go on. The site's admin key becomes this platform's own.
 * Backups, restorations and movement jobs are this machine's operations, not the site's state: a
 * snapshot neither saves nor replaces them.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Semaphore from "effect/Semaphore"
import { randomBytes } from "node:crypto"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { Database, quoted, ReplaceFailed } from "../platform/Database.ts"
import type { Snapshot } from "../../dev/wire/platform.ts"
import { isoDate, ServerClock } from "../platform/ServerClock.ts"
import { Seeder } from "../accounts/seed.ts"

/** What a snapshot's manifest says: all of {@link Snapshot} but its name and size. */
export type SnapshotManifest = Omit<Snapshot, "name" | "sizeBytes">
type SnapshotCounts = Snapshot["counts"]
/** A saved snapshot: its name, its manifest and its size on disk. */
export type SnapshotInfo = Snapshot

/** Why a snapshot could not be saved, found or restored. */
export class SnapshotError extends Data.TaggedError("SnapshotError")<{
  readonly reason: "NotFound" | "AlreadyExists" | "InvalidName" | "Incompatible" | "Unreadable" | "WriteFailed" | "RestoreFailed"
  readonly message: string
}> {}

const snapshotError = (reason: SnapshotError["reason"], message: string) => new SnapshotError({ reason, message })

/** Save, list, restore, delete and export the platform's state as snapshots. */
export interface SnapshotsShape {
  readonly list: () => ReadonlyArray<SnapshotInfo>
  readonly get: (name: string) => SnapshotInfo
  /** Saves the platform's state under `name`; an existing name only with `overwrite`. */
  readonly save: (name: string, options?: { readonly overwrite?: boolean }) => Effect.Effect<SnapshotInfo, SnapshotError>
  /** Replaces the platform's state with the snapshot's, atomically; answers how long it took. */
  readonly restore: (name: string) => Effect.Effect<{ readonly snapshot: SnapshotInfo; readonly tookMs: number }, SnapshotError>
  readonly remove: (name: string) => void
  /** The snapshot's database file, for a download. */
  readonly file: (name: string) => string
  /** Saves the state into the folder `dir` (`--export-on-exit`), replacing what is there. */
  readonly exportTo: (dir: string) => Effect.Effect<SnapshotInfo, SnapshotError>
  /** Restores the snapshot in the folder `dir` (or the snapshot file `dir` names): `--import`. */
  readonly importFrom: (dir: string) => Effect.Effect<{ readonly snapshot: SnapshotInfo; readonly tookMs: number }, SnapshotError>
}

const FORMAT = "sitefx-snapshot"
/** Raised when the file's layout changes in a way older platforms cannot read. */
export const SNAPSHOT_FORMAT_VERSION = 1
const FILE = "snapshot.sqlite"
const MANIFEST = "manifest.json"

/** This machine's operations, kept as they are by a restore and left out of a snapshot. */
const LOCAL_TABLES: ReadonlySet<string> = new Set([
  "data_backups",
  "data_restorations",
  "movement_jobs",
  "movement_logs",
  "movement_files",
  "movement_file_chunks"
])

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

const checkName = (name: string) => {
  if (!NAME.test(name) || name.includes("..")) {
    throw snapshotError("InvalidName", `A snapshot name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit: ${JSON.stringify(name)}`)
  }
}

let version: string | undefined
/** The version of the sitefx package this code belongs to (the nearest package.json named sitefx). */
const sitefxVersion = (): string => {
  if (version !== undefined) return version
  let dir = dirname(new URL(import.meta.url).pathname)
  for (let i = 0; i < 6; i++) {
    const file = join(dir, "package.json")
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string }
      if (pkg.name === "sitefx" && pkg.version !== undefined) return (version = pkg.version)
    }
    dir = dirname(dir)
  }
  return (version = "unknown")
}

/** The manifest inside a snapshot file; fails with a message for a file that is not one. */
const readManifest = (file: string): SnapshotManifest => {
  let db: DatabaseSync | undefined
  try {
    db = new DatabaseSync(file, { readOnly: true })
    const row = db.prepare("SELECT manifest FROM _snapshot WHERE id = 1").get()
    if (row === undefined) throw new Error("it has no manifest")
    const manifest = JSON.parse(String(row.manifest)) as SnapshotManifest
    if (manifest.format !== FORMAT || typeof manifest.formatVersion !== "number" || !Array.isArray(manifest.migrations)) {
      throw new Error("its manifest is not a sitefx snapshot's")
    }
    return manifest
  } catch (error) {
    throw snapshotError("Unreadable", `${file} is not a sitefx snapshot (${error instanceof Error ? error.message : String(error)})`)
  } finally {
    db?.close()
  }
}

const countsOf = (db: DatabaseSync): SnapshotCounts => {
  const count = (sql: string) => {
    try {
      return Number(db.prepare(sql).get()?.n ?? 0)
    } catch {
      // a table this platform does not have (a module missing) counts nothing
      return 0
    }
  }
  return {
    members: count("SELECT COUNT(*) AS n FROM members"),
    collections: count("SELECT COUNT(*) AS n FROM data_collections"),
    items: count("SELECT COUNT(*) AS n FROM data_items"),
    products: count("SELECT COUNT(*) AS n FROM catalog_products"),
    orders: count("SELECT COUNT(*) AS n FROM ecom_orders"),
    events: count("SELECT coalesce(SUM(last_id - first_id + 1), 0) AS n FROM site_event_batches")
  }
}

/** The platform's snapshots, kept beside its database file (in a temporary folder for one in memory). */
export class Snapshots extends Context.Service<Snapshots, SnapshotsShape>()("sitefx/server/Snapshots") {
  static readonly layer: Layer.Layer<Snapshots, never, Database | ServerClock | Seeder> = Layer.effect(
    Snapshots,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const seeder = yield* Seeder
      const inMemory = db.location === ":memory:"
      // beside a database file, so snapshots outlive the process; a platform in memory keeps them in a
      // temporary folder of its own, removed when it stops
      let root: string | undefined = inMemory ? undefined : `${db.location}.snapshots`
      let madeRoot = false
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          if (madeRoot && inMemory && root !== undefined) rmSync(root, { recursive: true, force: true })
        })
      )
      const rootDir = () => {
        if (root === undefined) root = mkdtempSync(join(tmpdir(), "sitefx-snapshots-"))
        else mkdirSync(root, { recursive: true })
        madeRoot = true
        return root
      }
      const dirOf = (name: string) => {
        checkName(name)
        return join(rootDir(), name)
      }

      const migrations = () => db.all("SELECT name FROM _migrations ORDER BY rowid").map((r) => String(r.name))

      const infoOf = (name: string, dir: string): SnapshotInfo => {
        const file = join(dir, FILE)
        return { name, ...readManifest(file), sizeBytes: statSync(file).size }
      }

      /** Writes the state into `dir` (made if missing) as a new file renamed over the old one. */
      const writeInto = (dir: string, name: string) =>
        Effect.tryPromise({
          try: async () => {
            mkdirSync(dir, { recursive: true })
            const temporary = join(dir, `.${FILE}.${randomBytes(6).toString("hex")}.tmp`)
            try {
              await db.backupTo(temporary)
              const copy = new DatabaseSync(temporary)
              let manifest: SnapshotManifest
              try {
                // deleted rows are overwritten, not left in free pages: the instance's secrets go for good
                copy.exec("PRAGMA secure_delete = ON; PRAGMA journal_mode = DELETE")
                copy.exec("DROP TABLE IF EXISTS _instance")
                const tables = new Set(copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => String(r.name)))
                for (const table of LOCAL_TABLES) if (tables.has(table)) copy.exec(`DELETE FROM ${quoted(table)}`)
                manifest = {
                  format: FORMAT,
                  formatVersion: SNAPSHOT_FORMAT_VERSION,
                  sitefxVersion: sitefxVersion(),
                  createdDate: isoDate(clock.millis()),
                  migrations: copy.prepare("SELECT name FROM _migrations ORDER BY rowid").all().map((r) => String(r.name)),
                  counts: countsOf(copy)
                }
                copy.exec("CREATE TABLE _snapshot (id INTEGER PRIMARY KEY CHECK (id = 1), manifest TEXT NOT NULL)")
                copy.prepare("INSERT INTO _snapshot (id, manifest) VALUES (1, ?)").run(JSON.stringify(manifest))
              } finally {
                copy.close()
              }
              renameSync(temporary, join(dir, FILE))
              const readable = join(dir, `.${MANIFEST}.tmp`)
              writeFileSync(readable, `${JSON.stringify(manifest, null, 2)}\n`)
              renameSync(readable, join(dir, MANIFEST))
              return { name, ...manifest, sizeBytes: statSync(join(dir, FILE)).size }
            } finally {
              rmSync(temporary, { force: true })
            }
          },
          catch: (error) =>
            error instanceof SnapshotError ? error : snapshotError("WriteFailed", `The snapshot could not be written: ${error instanceof Error ? error.message : String(error)}`)
        })

      // one save or restore at a time: a restore must not read a file a save is renaming
      const oneAtATime = yield* Semaphore.make(1)

      const restoreFile = (file: string, name: string) =>
        oneAtATime.withPermits(1)(Effect.try({
          try: () => {
            const started = performance.now()
            if (!existsSync(file)) throw snapshotError("NotFound", `There is no snapshot at ${file}`)
            const manifest = readManifest(file)
            if (manifest.formatVersion !== SNAPSHOT_FORMAT_VERSION) {
              throw snapshotError("Incompatible", `The snapshot ${name} has format version ${manifest.formatVersion} (saved by sitefx ${manifest.sitefxVersion}); this platform (sitefx ${sitefxVersion()}) reads version ${SNAPSHOT_FORMAT_VERSION}. Nothing was changed.`
              )
            }
            // a snapshot saved before this platform's later migrations is brought up to them on a copy;
            // one with a migration this platform does not know (saved by a later sitefx) is refused
            const known = new Set(db.migrations().flatMap((m) => [m.name, ...m.formerly]))
            const unknown = manifest.migrations.filter((m) => !known.has(m))
            if (unknown.length > 0) {
              throw snapshotError("Incompatible", `The snapshot ${name} was saved by sitefx ${manifest.sitefxVersion}, whose storage differs from this platform's (sitefx ${sitefxVersion()}): ` +
                  `this platform does not know ${unknown.join(", ")}. Nothing was changed; restore it with the sitefx version that saved it, then save it again.`
              )
            }
            const behind = migrations().some((m) => !manifest.migrations.includes(m))
            const workDir = behind ? mkdtempSync(join(tmpdir(), "sitefx-upgrade-")) : undefined
            try {
              const source = workDir === undefined ? file : join(workDir, FILE)
              if (workDir !== undefined) {
                copyFileSync(file, source)
                try {
                  db.upgrade(source)
                } catch (error) {
                  throw snapshotError("RestoreFailed", `The snapshot ${name} (saved by sitefx ${manifest.sitefxVersion}) could not be brought up to this platform's storage, and nothing was changed: ${error instanceof Error ? error.message : String(error)}`)
                }
              }
              try {
                db.replaceWith(source, LOCAL_TABLES)
              } catch (error) {
                // past the transaction (a module's reset hook) the failure is the platform's own: a defect
                if (!(error instanceof ReplaceFailed)) throw error
                throw snapshotError("RestoreFailed", `The snapshot ${name} could not be restored, and nothing was changed: ${error.message}`)
              }
            } finally {
              if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true })
            }
            seeder.claimSite()
            return { snapshot: { name, ...manifest, sizeBytes: statSync(file).size }, tookMs: Math.round((performance.now() - started) * 10) / 10 }
          },
          catch: (error) => {
            if (error instanceof SnapshotError) return error
            throw error
          }
        }))

      const existing = (name: string) => {
        const dir = dirOf(name)
        if (!existsSync(join(dir, FILE))) throw snapshotError("NotFound", `There is no snapshot named ${name}`)
        return dir
      }

      return Snapshots.of({
        list: () => {
          const dir = rootDir()
          return readdirSync(dir, { withFileTypes: true })
            .filter((entry) => entry.isDirectory() && NAME.test(entry.name) && existsSync(join(dir, entry.name, FILE)))
            .flatMap((entry) => {
              try {
                return [infoOf(entry.name, join(dir, entry.name))]
              } catch {
                // a folder someone put there that holds no snapshot is not listed
                return []
              }
            })
            .sort((a, b) => a.createdDate.localeCompare(b.createdDate) || a.name.localeCompare(b.name))
        },
        get: (name) => infoOf(name, existing(name)),
        save: (name, options) =>
          Effect.suspend(() => {
            const dir = dirOf(name)
            if (options?.overwrite !== true && existsSync(join(dir, FILE))) {
              return Effect.fail(snapshotError("AlreadyExists", `A snapshot named ${name} exists; delete it or save with overwrite`))
            }
            return oneAtATime.withPermits(1)(writeInto(dir, name))
          }).pipe(Effect.catchDefect((error) => Effect.fail(error instanceof SnapshotError ? error : snapshotError("WriteFailed", String(error))))),
        restore: (name) =>
          Effect.suspend(() => restoreFile(join(existing(name), FILE), name)).pipe(
            Effect.catchDefect((error) => Effect.fail(error instanceof SnapshotError ? error : snapshotError("RestoreFailed", String(error))))
          ),
        remove: (name) => {
          rmSync(existing(name), { recursive: true, force: true })
        },
        file: (name) => join(existing(name), FILE),
        exportTo: (dir) => oneAtATime.withPermits(1)(writeInto(resolve(dir), dir)),
        importFrom: (path) =>
          Effect.suspend(() => {
            const full = resolve(path)
            const file = existsSync(full) && statSync(full).isDirectory() ? join(full, FILE) : full
            return restoreFile(file, path)
          })
      })
    })
  )
}

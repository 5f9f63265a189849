/**
 * The local platform's storage: one node:sqlite database (a file in WAL mode, or `:memory:`). Each
 * platform module creates its own tables through {@link DatabaseShape.migrate} when its layer is built,
 * so later modules add storage without touching this file.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomBytes } from "node:crypto"
import { backup, DatabaseSync, type SQLInputValue, type SQLOutputValue, type StatementSync } from "node:sqlite"
import { Worker } from "node:worker_threads"

export type Row = Record<string, SQLOutputValue>

/** Secrets that belong to this platform instance rather than to its data. */
export interface Instance {
  /** Derives the seeded API key; survives a reset so a re-seed gives the same values. */
  readonly seedSecret: Uint8Array
  /** Signs access tokens; replaced on reset so every token issued before it stops working. */
  readonly tokenSecret: Uint8Array
}

/** A migration as a module asks for it: its name, its SQL, and the names it had before. */
export interface Migration {
  readonly name: string
  readonly sql: string
  readonly formerly: ReadonlyArray<string>
}

export interface DatabaseShape {
  /** `:memory:` or the file path. */
  readonly location: string
  readonly get: (sql: string, ...params: ReadonlyArray<SQLInputValue>) => Row | undefined
  readonly all: (sql: string, ...params: ReadonlyArray<SQLInputValue>) => ReadonlyArray<Row>
  /** Runs a write; returns the number of changed rows. */
  readonly run: (sql: string, ...params: ReadonlyArray<SQLInputValue>) => number
  /**
   * `run` with named parameters (`:name`) besides the anonymous ones. Numbered ones (`?1`) are not used:
   * Node 22's node:sqlite refuses to bind positional values to them ("column index out of range").
   */
  readonly runNamed: (sql: string, named: Readonly<Record<string, SQLInputValue>>, ...params: ReadonlyArray<SQLInputValue>) => number
  /** Runs `f` atomically; nested calls join the outer transaction. */
  readonly transaction: <A>(f: () => A) => A
  /**
   * Inside a transaction: runs `f` once the outermost transaction ends, with `true` when it committed and
   * `false` when it rolled back, so in-memory state that mirrors rows (a counter, a cache) follows them.
   */
  readonly onTransactionEnd: (f: (committed: boolean) => void) => void
  /**
   * Applies `sql` once per database, identified by `name` ("identity/1"). `formerly`: names the same
   * migration had before; a database that applied it under one of them records it under `name` instead,
   * without running it again.
   */
  readonly migrate: (name: string, sql: string, formerly?: ReadonlyArray<string>) => void
  /** The migrations the modules asked for since the database opened, in their order. */
  readonly migrations: () => ReadonlyArray<Migration>
  /**
   * Brings the database file `file` (a snapshot's copy, closed) up to this database's migrations: the
   * ones it lacks run on it in this database's order, and one it applied under a former name is renamed,
   * in one transaction (a failure leaves the file as it was). Returns the names of those that ran.
   */
  readonly upgrade: (file: string) => ReadonlyArray<string>
  readonly instance: () => Instance
  /** Deletes every row of every table, replaces the token secret, then runs the reset hooks. */
  readonly reset: () => void
  /**
   * Replaces the rows of every table (but the private ones and `keep`) with those of the database file
   * `file`, whose tables are this database's (same migrations: the caller checks), in one transaction:
   * a failure changes nothing. Indexes made at run time (a data collection's) follow the file's. Then
   * replaces the token secret and runs the reset hooks with `"restore"`.
   */
  readonly replaceWith: (file: string, keep: ReadonlySet<string>) => void
  /**
   * Registers in-memory state to bring in line with the tables after a reset (they are empty) or a
   * restore (they hold a snapshot's rows): clock skew and counters start over, caches are read again.
   */
  readonly onReset: (hook: (reason: "reset" | "restore") => void) => void
  /** Registers a deterministic SQL function written in JavaScript (the data engine's text folding). */
  readonly defineFunction: (name: string, fn: (...args: Array<SQLOutputValue>) => SQLInputValue) => void
  /**
   * Copies the whole database to a new file with SQLite's online backup, a few thousand pages per step
   * on a thread of its own: the copy is consistent (writes made meanwhile through this connection reach
   * it too), and writers wait only for the step under way (`npm run bench`: 1 000 000 items, a 498 MB
   * file, in 0.8–1.5 s; inserts meanwhile waited about 5 ms at the median, 230 ms at most). Resolves
   * with the pages copied.
   */
  readonly backupTo: (file: string) => Promise<number>
  /**
   * Runs `f` with the database file `file` attached as `alias`, outside any transaction (SQLite
   * attaches only between them); detached afterwards, also when `f` throws.
   */
  readonly withAttached: <A>(file: string, alias: string, f: () => A) => A
}

export class Database extends Context.Service<Database, DatabaseShape>()("sitefx/server/Database") {
  /** Opens (and closes with the layer) the database at `location`. */
  static readonly layer = (location: string): Layer.Layer<Database> =>
    Layer.effect(
      Database,
      Effect.acquireRelease(Effect.sync(() => open(location)), ({ close }) => Effect.promise(close)).pipe(
        Effect.map(({ shape }) => Database.of(shape))
      )
    )
}

/**
 * WAL pages a commit may leave before the committing thread checkpoints by itself (SQLite's own
 * automatic checkpoint, 40 MB here). Normally the checkpointer thread has copied them long before.
 */
const WAL_BACKSTOP_PAGES = 10_000

/**
 * The checkpointer: a worker thread with its own connection that copies committed WAL pages into the
 * database file (and waits for the disk) while the platform goes on answering. A commit only nudges
 * it; nudges while it works fold into one more pass.
 */
const startCheckpointer = (location: string, onFailure: () => void) => {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads")
    const { DatabaseSync } = require("node:sqlite")
    const db = new DatabaseSync(workerData.location)
    const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)")
    parentPort.on("message", () => {
      try { checkpoint.get() } catch {}
      parentPort.postMessage(0)
    })`,
    { eval: true, workerData: { location } }
  )
  // the platform's process may end while a pass runs: the next open finishes the copy
  worker.unref()
  let running = false
  let again = false
  let failed = false
  // a checkpointer that cannot run leaves the copying to SQLite's own automatic checkpoint
  worker.on("error", () => {
    failed = true
    onFailure()
  })
  worker.on("message", () => {
    running = again
    again = false
    if (running) worker.postMessage(0)
  })
  return {
    nudge: () => {
      if (failed) return
      if (running) again = true
      else {
        running = true
        worker.postMessage(0)
      }
    },
    stop: () => worker.terminate().then(() => undefined)
  }
}

/** A restore that could not complete: its transaction rolled back, nothing changed. */
export class ReplaceFailed extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause })
  }
}

/** Tables of the instance, not of the site: a reset keeps them, a snapshot leaves them out. */
export const PRIVATE_TABLES: ReadonlySet<string> = new Set(["_migrations", "_instance"])

/** A table or index name as an SQL identifier. */
export const quoted = (name: string) => `"${name.replace(/"/g, "\"\"")}"`

/**
 * Pages an online backup copies per step: about 4 MB. Measured on 1 000 000 items, 4096 pages a step
 * held a writer 18 ms at the median, 1024 pages 4.7 ms, for about the same total time.
 */
const BACKUP_PAGES_PER_STEP = 1024

/** Generated SQL (data filters) varies with every query shape, so only the most recent statements stay prepared. */
const MAX_PREPARED = 500

const open = (location: string): { readonly shape: DatabaseShape; readonly close: () => Promise<void> } => {
  const db = new DatabaseSync(location)
  // WAL with synchronous NORMAL: a commit does not wait for the disk (only a checkpoint does); a crash of
  // the process loses nothing, a power cut at most the last commits, never the database's consistency
  // WAL pages are copied into the file by the checkpointer thread, off the thread that answers requests
  if (location !== ":memory:") db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = ${WAL_BACKSTOP_PAGES}`)
  // temporary storage in memory: a statement writing many rows (a batch INSERT) keeps a statement journal,
  // which SQLite otherwise spills to a new file in the temp directory past 64 KB; measured on 200 000
  // inserted rows: 59 MB to 118 temp files beside 131 MB to the log. Sorts and temporary tables stay in
  // memory too.
  db.exec("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA temp_store = MEMORY")
  db.exec(`
    CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS _instance (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      seed_secret BLOB NOT NULL,
      token_secret BLOB NOT NULL
    );
  `)

  const checkpointer = location === ":memory:"
    ? undefined
    : startCheckpointer(location, () => {
      // SQLite's default; a database already closed needs nothing
      if (db.isOpen) db.exec("PRAGMA wal_autocheckpoint = 1000")
    })

  const statements = new Map<string, StatementSync>()
  const prepare = (sql: string): StatementSync => {
    let statement = statements.get(sql)
    if (statement === undefined) {
      statement = db.prepare(sql)
      if (statements.size >= MAX_PREPARED) statements.delete(statements.keys().next().value as string)
    } else {
      // least recently used goes first
      statements.delete(sql)
    }
    statements.set(sql, statement)
    return statement
  }

  let depth = 0
  let ending: Array<(committed: boolean) => void> = []
  const ended = (committed: boolean) => {
    const hooks = ending
    ending = []
    for (const hook of hooks) hook(committed)
  }
  const transaction = <A>(f: () => A): A => {
    if (depth > 0) return f()
    db.exec("BEGIN IMMEDIATE")
    depth++
    let result: A
    try {
      result = f()
      db.exec("COMMIT")
    } catch (error) {
      db.exec("ROLLBACK")
      depth--
      ended(false)
      throw error
    }
    depth--
    checkpointer?.nudge()
    ended(true)
    return result
  }

  const readInstance = (): Instance => {
    const row = prepare("SELECT seed_secret, token_secret FROM _instance WHERE id = 1").get()
    if (row !== undefined) {
      return { seedSecret: row.seed_secret as Uint8Array, tokenSecret: row.token_secret as Uint8Array }
    }
    const created = { seedSecret: randomBytes(32), tokenSecret: randomBytes(32) }
    prepare("INSERT INTO _instance (id, seed_secret, token_secret) VALUES (1, ?, ?)").run(
      created.seedSecret,
      created.tokenSecret
    )
    return created
  }
  let instance = readInstance()

  const hooks: Array<(reason: "reset" | "restore") => void> = []
  const known: Array<Migration> = []
  const newTokenSecret = () => {
    prepare("UPDATE _instance SET token_secret = ? WHERE id = 1").run(randomBytes(32))
  }
  const siteTables = (schema: string) =>
    prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table'`).all().map((r) => String(r.name)).filter((name) =>
      !PRIVATE_TABLES.has(name) && !name.startsWith("sqlite_")
    )

  /** The rows of every site table (but `keep`) replaced with those of `file`, in one transaction. */
  const replaceRows = (file: string, keep: ReadonlySet<string>) =>
    shape.withAttached(file, "snapshot", () =>
      transaction(() => {
        db.exec("PRAGMA defer_foreign_keys = ON")
        const theirs = new Set(siteTables("snapshot"))
        for (const name of siteTables("main")) {
          if (keep.has(name)) continue
          db.exec(`DELETE FROM main.${quoted(name)}`)
          if (!theirs.has(name)) continue
          // by name: a column added by a later migration sits at the end of one table and not the other
          const columns = prepare(`SELECT name FROM pragma_table_info(?, 'main')`).all(name).map((r) => quoted(String(r.name))).join(", ")
          db.exec(`INSERT INTO main.${quoted(name)} (${columns}) SELECT ${columns} FROM snapshot.${quoted(name)}`)
        }
        const kept = JSON.stringify([...keep])
        const hasSequence = (schema: string) => prepare(`SELECT 1 AS x FROM ${schema}.sqlite_master WHERE name = 'sqlite_sequence'`).get() !== undefined
        if (hasSequence("main")) {
          prepare("DELETE FROM main.sqlite_sequence WHERE name NOT IN (SELECT value FROM json_each(?))").run(kept)
          if (hasSequence("snapshot")) {
            prepare("INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM snapshot.sqlite_sequence WHERE name NOT IN (SELECT value FROM json_each(?))").run(kept)
          }
        }
        // indexes made while the platform runs (a collection's): the snapshot's, not the ones of now
        const indexes = (schema: string) =>
          new Map(
            prepare(`SELECT name, sql FROM ${schema}.sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).all().map((r) => [String(r.name), String(r.sql)])
          )
        const ours = indexes("main")
        const wanted = indexes("snapshot")
        for (const [name, sql] of ours) if (wanted.get(name) !== sql) db.exec(`DROP INDEX main.${quoted(name)}`)
        for (const [name, sql] of wanted) {
          if (ours.get(name) === sql) continue
          // the file may come from elsewhere: its schema text runs only as the one index it claims to be
          if (!/^CREATE (UNIQUE )?INDEX /i.test(sql)) throw new Error(`not an index: ${name}`)
          db.prepare(sql).run()
        }
        newTokenSecret()
      })
    )

  const shape: DatabaseShape = {
    location,
    get: (sql, ...params) => prepare(sql).get(...params),
    all: (sql, ...params) => prepare(sql).all(...params),
    run: (sql, ...params) => Number(prepare(sql).run(...params).changes),
    runNamed: (sql, named, ...params) => Number(prepare(sql).run(named, ...params).changes),
    transaction,
    onTransactionEnd: (f) => {
      if (depth === 0) throw new Error("onTransactionEnd outside a transaction")
      ending.push(f)
    },
    migrate: (name, sql, formerly = []) => {
      if (!known.some((m) => m.name === name)) known.push({ name, sql, formerly })
      transaction(() => {
        const applied = (n: string) => prepare("SELECT 1 AS done FROM _migrations WHERE name = ?").get(n) !== undefined
        if (applied(name)) return
        const before = formerly.find(applied)
        // renamed in place: the row keeps its place in the order of migrations (snapshots compare that list)
        if (before !== undefined) return void prepare("UPDATE _migrations SET name = ? WHERE name = ?").run(name, before)
        db.exec(sql)
        prepare("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)").run(name, Date.now())
      })
    },
    migrations: () => [...known],
    upgrade: (file) => {
      const copy = new DatabaseSync(file)
      try {
        const applied = (n: string) => copy.prepare("SELECT 1 AS done FROM _migrations WHERE name = ?").get(n) !== undefined
        const ran: Array<string> = []
        copy.exec("BEGIN IMMEDIATE")
        try {
          for (const { formerly, name, sql } of known) {
            if (applied(name)) continue
            const before = formerly.find(applied)
            if (before !== undefined) {
              copy.prepare("UPDATE _migrations SET name = ? WHERE name = ?").run(name, before)
              continue
            }
            copy.exec(sql)
            copy.prepare("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)").run(name, Date.now())
            ran.push(name)
          }
          copy.exec("COMMIT")
        } catch (error) {
          copy.exec("ROLLBACK")
          throw error
        }
        return ran
      } finally {
        copy.close()
      }
    },
    instance: () => instance,
    reset: () => {
      transaction(() => {
        const tables = prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()
        db.exec("PRAGMA defer_foreign_keys = ON")
        for (const name of siteTables("main")) db.exec(`DELETE FROM ${quoted(name)}`)
        // AUTOINCREMENT counters start over too: nothing of the old data shows through
        if (tables.some((t) => t.name === "sqlite_sequence")) db.exec("DELETE FROM sqlite_sequence")
        newTokenSecret()
      })
      instance = readInstance()
      for (const hook of hooks) hook("reset")
    },
    replaceWith: (file, keep) => {
      try {
        replaceRows(file, keep)
      } catch (error) {
        throw new ReplaceFailed(error)
      }
      instance = readInstance()
      for (const hook of hooks) hook("restore")
    },
    onReset: (hook) => {
      hooks.push(hook)
    },
    defineFunction: (name, fn) => db.function(name, { deterministic: true, varargs: true }, fn),
    backupTo: (file) => {
      // a database in memory restarts an online backup at every write, so under a steady load it never
      // ends: it is copied in one statement instead (VACUUM INTO), writers waiting for that one
      if (location !== ":memory:") return backup(db, file, { rate: BACKUP_PAGES_PER_STEP })
      try {
        db.prepare("VACUUM INTO ?").run(file)
        return Promise.resolve(Number(db.prepare("PRAGMA page_count").get()?.page_count ?? 0))
      } catch (error) {
        return Promise.reject(error)
      }
    },
    withAttached: (file, alias, f) => {
      if (depth > 0) throw new Error("withAttached inside a transaction")
      if (!/^[a-z_]+$/.test(alias)) throw new Error(`not an alias: ${alias}`)
      db.prepare(`ATTACH DATABASE ? AS ${alias}`).run(file)
      try {
        return f()
      } finally {
        db.exec(`DETACH DATABASE ${alias}`)
      }
    }
  }
  return {
    shape,
    close: async () => {
      await checkpointer?.stop()
      db.close()
    }
  }
}

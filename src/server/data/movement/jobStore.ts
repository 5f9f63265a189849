/**
 * Where movement jobs are kept: one row per job (its answer as JSON, its status, and the runner's state:
 * how far it got, so that a job left running by a stopped platform resumes where it was), the jobs'
 * logs, and the files jobs read and write (uploaded sources, written destinations; kept as chunks of
 * text, one per batch a job wrote, so a resumed job appends without rewriting what it wrote before).
 */
import { randomBytes, randomUUID } from "node:crypto"
import type { FilterNode } from "../../../data/FilterTree.ts"
import type { Format } from "../../../data/formats/rows.ts"
import type { DataMovementJob, MovementLog, Sorting } from "../../../data/wire/index.ts"
import type { Caller } from "../../platform/Caller.ts"
import type { DatabaseShape, Row } from "../../platform/Database.ts"
import { orderBy, sortTerms, where } from "../../store/sql.ts"

/** What the runner of a job keeps between batches (and across restarts). */
export interface RunState {
  /** Who submitted the job: its writes and events act as them. */
  readonly actor: Caller
  /** The last source position handled: an item's sequence in its collection, or a file's line. */
  readonly position: number
  /** A collection source: the last sequence it held when the job started (items added later are not moved). */
  readonly endSeq?: number
  /** A file source: its format, as given or as told from the file. */
  readonly format?: Format
  /** A file destination: the file being written, and its CSV columns once the first batch chose them. */
  readonly outputId?: string
  readonly columns?: ReadonlyArray<string>
  /** Whether the job has started moving (totals counted, a TRUNCATE_BEFORE destination emptied). */
  readonly prepared?: boolean
}

export interface JobRow {
  readonly seq: number
  readonly job: DataMovementJob
  readonly state: RunState
}

export interface StoredFile {
  readonly id: string
  readonly token: string
  readonly kind: "upload" | "output"
  readonly name: string | undefined
  /** A written file's format. */
  readonly format: Format | undefined
  readonly createdAt: number
  readonly complete: boolean
  readonly size: number
}

/** Statuses of a job that has not finished. */
export const RUNNING: ReadonlySet<string> = new Set(["UNINITIALIZED", "INITIALIZING", "IN_PROGRESS"])

const JOB_DOCS = { column: "doc" }

export const makeJobStore = (db: DatabaseShape) => {
  db.migrate(
    "data/movement-jobs/1",
    `CREATE TABLE movement_jobs (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      status TEXT NOT NULL,
      doc TEXT NOT NULL,
      state TEXT NOT NULL
    );
    CREATE INDEX movement_jobs_status ON movement_jobs (status);
    CREATE TABLE movement_logs (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      job_id TEXT NOT NULL,
      doc TEXT NOT NULL
    );
    CREATE INDEX movement_logs_job ON movement_logs (job_id, seq);
    CREATE TABLE movement_files (
      id TEXT PRIMARY KEY,
      token TEXT NOT NULL,
      kind TEXT NOT NULL,
      name TEXT,
      format TEXT,
      created_at INTEGER NOT NULL,
      complete INTEGER NOT NULL DEFAULT 0,
      size INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE movement_file_chunks (
      file_id TEXT NOT NULL REFERENCES movement_files (id) ON DELETE CASCADE,
      n INTEGER NOT NULL,
      text TEXT NOT NULL,
      PRIMARY KEY (file_id, n)
    );`
  )

  const toRow = (row: Row): JobRow => ({
    seq: Number(row.seq),
    job: JSON.parse(String(row.doc)) as DataMovementJob,
    state: JSON.parse(String(row.state)) as RunState
  })

  const toFile = (row: Row): StoredFile => ({
    id: String(row.id),
    token: String(row.token),
    kind: row.kind === "output" ? "output" : "upload",
    name: row.name === null ? undefined : String(row.name),
    format: row.format === "csv" || row.format === "jsonl" ? row.format : undefined,
    createdAt: Number(row.created_at),
    complete: Number(row.complete) === 1,
    size: Number(row.size)
  })

  return {
    insert: (job: DataMovementJob, state: RunState): void => {
      db.run("INSERT INTO movement_jobs (id, status, doc, state) VALUES (?, ?, ?, ?)", job.id, job.status, JSON.stringify(job), JSON.stringify(state))
    },
    load: (id: string): JobRow | undefined => {
      const row = db.get("SELECT seq, doc, state FROM movement_jobs WHERE id = ?", id)
      return row === undefined ? undefined : toRow(row)
    },
    save: (job: DataMovementJob, state: RunState): void => {
      db.run("UPDATE movement_jobs SET status = ?, doc = ?, state = ? WHERE id = ?", job.status, JSON.stringify(job), JSON.stringify(state), job.id)
    },
    /** The jobs that have not finished, oldest first. */
    unfinished: (): ReadonlyArray<JobRow> =>
      db.all(`SELECT seq, doc, state FROM movement_jobs WHERE status IN (${[...RUNNING].map((s) => `'${s}'`).join(", ")}) ORDER BY seq`).map(toRow),
    /** Jobs after `afterSeq`, in the order they were submitted; one more than `limit` tells whether more follow. */
    page: (afterSeq: number, limit: number): ReadonlyArray<JobRow> =>
      db.all("SELECT seq, doc, state FROM movement_jobs WHERE seq > ? ORDER BY seq LIMIT ?", afterSeq, limit + 1).map(toRow),
    /** Jobs matching a filter on their answer's fields, in `sort` order, then as submitted. */
    query: (filter: FilterNode, sort: ReadonlyArray<Sorting>, offset: number, limit: number): ReadonlyArray<JobRow> => {
      const condition = where(filter, JOB_DOCS)
      const order = orderBy([...sortTerms(JOB_DOCS, sort), { expr: "seq", desc: false }])
      return db.all(`SELECT seq, doc, state FROM movement_jobs WHERE ${condition.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, ...condition.params, limit + 1, offset)
        .map(toRow)
    },
    addLogs: (jobId: string, logs: ReadonlyArray<MovementLog>): void => {
      for (const log of logs) db.run("INSERT INTO movement_logs (job_id, doc) VALUES (?, ?)", jobId, JSON.stringify(log))
    },
    /** A job's logs after `afterSeq`, oldest first; one more than `limit` tells whether more follow. */
    logs: (jobId: string, afterSeq: number, limit: number): ReadonlyArray<{ readonly seq: number; readonly log: MovementLog }> =>
      db.all("SELECT seq, doc FROM movement_logs WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?", jobId, afterSeq, limit + 1)
        .map((row) => ({ seq: Number(row.seq), log: JSON.parse(String(row.doc)) as MovementLog })),

    /** A new file and the token that reaches it (an upload URL or a download URL carries both). */
    createFile: (kind: "upload" | "output", name: string | undefined, now: number, format: Format | undefined): StoredFile => {
      const file: StoredFile = { id: randomUUID(), token: randomBytes(24).toString("base64url"), kind, name, format, createdAt: now, complete: false, size: 0 }
      db.run(
        "INSERT INTO movement_files (id, token, kind, name, format, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        file.id,
        file.token,
        kind,
        name ?? null,
        format ?? null,
        now
      )
      return file
    },
    file: (id: string): StoredFile | undefined => {
      const row = db.get("SELECT * FROM movement_files WHERE id = ?", id)
      return row === undefined ? undefined : toFile(row)
    },
    /** Replaces an upload's content with `text` (a new upload to the same URL replaces the last). */
    putFile: (id: string, text: string): void =>
      db.transaction(() => {
        db.run("DELETE FROM movement_file_chunks WHERE file_id = ?", id)
        db.run("INSERT INTO movement_file_chunks (file_id, n, text) VALUES (?, 0, ?)", id, text)
        db.run("UPDATE movement_files SET complete = 1, size = ? WHERE id = ?", Buffer.byteLength(text), id)
      }),
    /** Adds chunk `n` to a file being written (a chunk already there is replaced: a batch written again writes the same). */
    appendChunk: (id: string, n: number, text: string): void => {
      db.run("INSERT OR REPLACE INTO movement_file_chunks (file_id, n, text) VALUES (?, ?, ?)", id, n, text)
    },
    completeFile: (id: string): void => {
      db.run(
        "UPDATE movement_files SET complete = 1, size = (SELECT coalesce(sum(length(CAST(text AS BLOB))), 0) FROM movement_file_chunks WHERE file_id = ?) WHERE id = ?",
        id,
        id
      )
    },
    /** A file's text, its chunks in order. */
    fileText: (id: string): string =>
      db.all("SELECT text FROM movement_file_chunks WHERE file_id = ? ORDER BY n", id).map((r) => String(r.text)).join("")
  }
}

export type JobStore = ReturnType<typeof makeJobStore>

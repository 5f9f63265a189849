/**
 * An import's checkpoint: enough to run it again after a crash, a kill or Ctrl-C and end with every
 * item written once. It holds the bulk write's resume key (ids of items without one follow from it
 * and the item's position, so a chunk written twice lands on the same ids) and the position up to
 * which every item is settled, with the counts and failures so far, so the final report covers the
 * whole input and not only the last run.
 *
 * Every import of a file keeps one: the one `--checkpoint FILE` names (kept once the import is
 * complete, so a run again reports the finished import), or else one of its own in the state folder
 * ({@link stateDir}), named by the import's site, collection and file, and removed once the import is
 * complete. An import of standard input keeps none: nothing says that a second run reads the same rows.
 *
 * It is written beside its final name and renamed over it, so a kill mid-write leaves the previous
 * checkpoint, never half of one. A lock beside it keeps two runs of one import from writing at once.
 */
import { createHash } from "node:crypto"
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import type { BulkItemError } from "../../data/Bulk.ts"

/** One item the platform refused, with the line of the input it came from. */
export interface FailedItem {
  readonly line: number
  readonly id: string | undefined
  readonly code: string
  readonly reason: string
}

/** A row that was not written: its line and why. */
export interface CheckpointBadRow {
  readonly line: number
  readonly reason: string
}

export interface Checkpoint {
  readonly version: 1
  readonly collection: string
  readonly mode: string
  readonly input: { readonly path: string; readonly size: number | undefined; readonly mtimeMs: number | undefined }
  /** The input's format (absent in checkpoints written before it was kept). */
  readonly format?: string
  /** The platform written to (absent when not known). */
  readonly site?: string
  readonly resumeKey: string
  /** Items (valid rows, in file order) before this position are settled. */
  readonly settled: number
  readonly inserted: number
  readonly updated: number
  readonly skipped: number
  readonly failed: ReadonlyArray<FailedItem>
  /** When the import began (ISO), and when it was complete. */
  readonly startedAt?: string
  readonly completedAt?: string
  /** The bad rows of the whole input, kept once the import is complete (its report needs no second read). */
  readonly badRows?: ReadonlyArray<CheckpointBadRow>
  readonly complete: boolean
}

/** What identifies an input file (nothing, for stdin). */
export const inputIdentity = (path: string): Checkpoint["input"] => {
  if (path === "-") return { path: "-", size: undefined, mtimeMs: undefined }
  const stat = statSync(path)
  return { path: resolve(path), size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) }
}

/**
 * The folder where sitefx keeps what must outlive a run, such as the checkpoints of unfinished imports:
 * `$SITEFX_STATE_DIR`, else `$XDG_STATE_HOME/sitefx`, else `~/.local/state/sitefx` (on Windows
 * `%LOCALAPPDATA%\sitefx\state`). Per user, not beside the input: the input's folder may be read-only,
 * shared, or synced, and a checkpoint is not part of the data.
 */
export const stateDir = (): string => {
  const given = process.env["SITEFX_STATE_DIR"]?.trim()
  if (given !== undefined && given !== "") return resolve(given)
  const xdg = process.env["XDG_STATE_HOME"]?.trim()
  if (xdg !== undefined && xdg !== "") return join(resolve(xdg), "sitefx")
  const local = process.env["LOCALAPPDATA"]?.trim()
  if (process.platform === "win32" && local !== undefined && local !== "") return join(local, "sitefx", "state")
  return join(homedir(), ".local", "state", "sitefx")
}

/**
 * The file an import keeps its own checkpoint in: in `<state>/<kind>/`, named by a readable label and a
 * digest of what identifies the import (site, collection, input file), so the same command finds it
 * again and another import never does.
 */
export const automaticCheckpointFile = (kind: string, label: string, identity: Record<string, unknown>, extension = "json"): string => {
  const digest = createHash("sha256").update(JSON.stringify(identity)).digest("hex").slice(0, 16)
  const readable = label.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 60)
  return join(stateDir(), kind, `${readable}-${digest}.${extension}`)
}

export type Loaded =
  | { readonly _tag: "None" }
  | { readonly _tag: "Found"; readonly checkpoint: Checkpoint }
  | { readonly _tag: "Unusable"; readonly reason: string }

export const loadCheckpoint = (file: string): Loaded => {
  if (!existsSync(file)) return { _tag: "None" }
  let value: Partial<Checkpoint>
  try {
    value = JSON.parse(readFileSync(file, "utf8")) as Partial<Checkpoint>
  } catch (error) {
    return { _tag: "Unusable", reason: `it is not JSON (${(error as Error).message})` }
  }
  if (value.version !== 1 || typeof value.resumeKey !== "string" || typeof value.settled !== "number" || !Array.isArray(value.failed)) {
    return { _tag: "Unusable", reason: "it is not a sitefx import checkpoint" }
  }
  return { _tag: "Found", checkpoint: value as Checkpoint }
}

/** What a checkpoint must match to resume an import. */
export interface ImportIdentity {
  readonly collection: string
  readonly mode: string
  readonly format: string
  readonly site: string | undefined
  readonly input: Checkpoint["input"]
}

/** Why this checkpoint cannot resume this import, or undefined when it can. */
export const mismatch = (checkpoint: Checkpoint, identity: ImportIdentity): string | undefined => {
  const { collection, mode, format, site, input } = identity
  if (checkpoint.site !== undefined && site !== undefined && checkpoint.site !== site) return `it belongs to an import into ${checkpoint.site}`
  if (checkpoint.collection !== collection) return `it belongs to an import into ${checkpoint.collection}`
  if (checkpoint.mode !== mode) return `it belongs to an import with --mode ${checkpoint.mode}`
  if (checkpoint.format !== undefined && checkpoint.format !== format) return `it belongs to an import with --format ${checkpoint.format}`
  if (checkpoint.input.path !== input.path) return `it belongs to an import of ${checkpoint.input.path}`
  if (checkpoint.input.size !== input.size || checkpoint.input.mtimeMs !== input.mtimeMs) return `${input.path} changed since it was written`
  return undefined
}

export const saveCheckpoint = (file: string, checkpoint: Checkpoint): void => {
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(checkpoint))
  renameSync(temporary, file)
}

/** Makes the folder a checkpoint goes in (only its owner may read it: it names sites and files). */
export const ensureFolderOf = (file: string): void => {
  mkdirSync(resolve(file, ".."), { recursive: true, mode: 0o700 })
}

export const removeCheckpoint = (file: string): void => {
  rmSync(file, { force: true })
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

export type Lock =
  | { readonly _tag: "Taken"; readonly release: () => void }
  | { readonly _tag: "Held"; readonly pid: number; readonly file: string }

/**
 * Takes the lock of a checkpoint (`<file>.lock`, holding this process's id), so that two runs of the
 * same import do not both write from the same place. A lock whose process is gone (killed, crashed) is
 * taken over.
 */
export const lockCheckpoint = (file: string): Lock => {
  const lock = `${file}.lock`
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lock, "wx")
      writeSync(fd, String(process.pid))
      closeSync(fd)
      let released = false
      return {
        _tag: "Taken",
        release: () => {
          if (released) return
          released = true
          rmSync(lock, { force: true })
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      let pid = Number.NaN
      try {
        pid = Number(readFileSync(lock, "utf8").trim())
      } catch {
        // removed meanwhile: try again
      }
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) return { _tag: "Held", pid, file: lock }
      rmSync(lock, { force: true })
    }
  }
  throw new Error(`cannot take the lock ${lock}`)
}

/** The failures of a bulk write's report, placed at their input lines. */
export const failedItems = (errors: ReadonlyArray<BulkItemError>, lineOf: (position: number) => number): Array<FailedItem> =>
  errors.map((e) => ({ line: lineOf(e.index), id: e.id, code: e.code, reason: e.message }))

/** The command line that started this process, to say what to run again (an API key given as a flag is not repeated). */
export const commandLine = (): string => {
  const args = process.argv.slice(2)
  const shown: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--api-key" && i + 1 < args.length) {
      shown.push(arg, "'<the same key>'")
      i++
    } else if (arg.startsWith("--api-key=")) shown.push("--api-key='<the same key>'")
    else shown.push(/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`)
  }
  return ["sitefx", ...shown].join(" ")
}

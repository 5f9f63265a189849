/**
 * An import's checkpoint: enough to run it again after a crash, a kill or Ctrl-C and end with every
 * item written once. It holds the bulk write's resume key (ids of items without one follow from it
 * and the item's position, so a chunk written twice lands on the same ids) and the position up to
 * which every item is settled, with the counts and failures so far, so the final report covers the
 * whole input and not only the last run.
 *
 * It is written beside its final name and renamed over it, so a kill mid-write leaves the previous
 * checkpoint, never half of one.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import type { BulkItemError } from "../../data/Bulk.ts"

/** One item the platform refused, with the line of the input it came from. */
export interface FailedItem {
  readonly line: number
  readonly id: string | undefined
  readonly code: string
  readonly reason: string
}

export interface Checkpoint {
  readonly version: 1
  readonly collection: string
  readonly mode: string
  readonly input: { readonly path: string; readonly size: number | undefined; readonly mtimeMs: number | undefined }
  readonly resumeKey: string
  /** Items (valid rows, in file order) before this position are settled. */
  readonly settled: number
  readonly inserted: number
  readonly updated: number
  readonly skipped: number
  readonly failed: ReadonlyArray<FailedItem>
  readonly complete: boolean
}

/** What identifies an input file (nothing, for stdin). */
export const inputIdentity = (path: string): Checkpoint["input"] => {
  if (path === "-") return { path: "-", size: undefined, mtimeMs: undefined }
  const stat = statSync(path)
  return { path: resolve(path), size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) }
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

/** Why this checkpoint cannot resume this import, or undefined when it can. */
export const mismatch = (checkpoint: Checkpoint, collection: string, mode: string, input: Checkpoint["input"]): string | undefined => {
  if (checkpoint.collection !== collection) return `it belongs to an import into ${checkpoint.collection}`
  if (checkpoint.mode !== mode) return `it belongs to an import with --mode ${checkpoint.mode}`
  if (checkpoint.input.path !== input.path) return `it belongs to an import of ${checkpoint.input.path}`
  if (checkpoint.input.size !== input.size || checkpoint.input.mtimeMs !== input.mtimeMs) return `${input.path} changed since it was written`
  return undefined
}

export const saveCheckpoint = (file: string, checkpoint: Checkpoint): void => {
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(checkpoint))
  renameSync(temporary, file)
}

/** The failures of a bulk write's report, placed at their input lines. */
export const failedItems = (errors: ReadonlyArray<BulkItemError>, lineOf: (position: number) => number): Array<FailedItem> =>
  errors.map((e) => ({ line: lineOf(e.index), id: e.id, code: e.code, reason: e.message }))

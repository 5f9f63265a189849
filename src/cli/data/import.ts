/**
 * `sitefx data import`: items from a JSONL or CSV file into a collection, with a full account.
 *
 * - Every row is checked first (JSON, `_id`, the collection's field types); a bad row is reported with
 *   its line number and not written, and the rest go on.
 * - Good rows go through the data client's bulk writes: chunks of at most 1000, `--concurrency` in
 *   flight, transient failures retried, every item's fate in the report.
 * - An import of a file is resumable without asking: its checkpoint holds the bulk write's resume key
 *   and the position up to which everything is settled, saved before the first write and as the write
 *   goes. Run the same command again after a kill, a crash, Ctrl-C or a refused write and it continues
 *   there, writing no item twice. The checkpoint is `--checkpoint FILE` (kept once complete, so a run
 *   again reports the finished import and sends nothing), or else one in the state folder (see
 *   ./checkpoint.ts), removed once the import is complete. Standard input (`-`) and `--no-checkpoint`
 *   keep none, and their messages say that such an import cannot resume.
 * - Ctrl-C (or SIGTERM) stops reading, lets the chunks in flight finish, saves the checkpoint, prints
 *   the report and exits 130. A second Ctrl-C saves the checkpoint where the write is and quits at once
 *   (chunks then still in flight may land; a resume finds them by their ids).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { existsSync, writeFileSync } from "node:fs"
import { type BulkProgress, type BulkReport } from "../../data/Bulk.ts"
import { type BulkItem, bulkItems } from "../../data/bulkWrites.ts"
import * as DataItems from "../../data/DataItems.ts"
import { newBulkKey } from "../../data/ids.ts"
import { JsonItem } from "../../data/JsonItem.ts"
import type { CollectionField } from "../../data/wire/index.ts"
import { explain } from "../failures.ts"
import { countRecords } from "../files.ts"
import { collectEvery } from "../memory.ts"
import { CliFailure, ExitCode, type OutputMode, pacingReport, type PacingReport, pacingText, printResult, usage, withProgress } from "../output.ts"
import { stopOnSignals } from "../signals.ts"
import {
  automaticCheckpointFile,
  type Checkpoint,
  commandLine,
  ensureFolderOf,
  failedItems,
  type FailedItem,
  type ImportIdentity,
  inputIdentity,
  loadCheckpoint,
  lockCheckpoint,
  mismatch,
  removeCheckpoint,
  saveCheckpoint
} from "./checkpoint.ts"
import { type BadRow, type Format, readRows, type Row } from "./input.ts"

export type ImportMode = "insert" | "save" | "update"

export interface ImportOptions {
  readonly collection: string
  readonly path: string
  readonly format: Format
  readonly mode: ImportMode
  readonly concurrency: number
  /** `--checkpoint FILE`: the checkpoint is this file, kept once the import is complete. */
  readonly checkpoint: string | undefined
  /** `--no-checkpoint`: keep none (the import cannot resume). */
  readonly noCheckpoint?: boolean
  readonly dryRun: boolean
  readonly report: string | undefined
  readonly output: OutputMode
  /** The platform written to: part of what names the import's own checkpoint, and of its failures' messages. */
  readonly site?: { readonly baseUrl: string; readonly siteId?: string | undefined }
  /** The data environment given (`--environment`), part of what names the import's own checkpoint. */
  readonly environment?: string | undefined
}

export interface ImportReport {
  readonly collection: string
  readonly input: string
  readonly mode: ImportMode
  readonly dryRun: boolean
  /** Rows read and valid (in a dry run: what would be written). */
  readonly valid: number
  /** The counts of the whole import, earlier runs' included. */
  readonly inserted: number
  readonly updated: number
  /** Left alone by rule: ids already there on insert, ids missing on update. */
  readonly skipped: number
  /** Bad rows plus items the platform refused. */
  readonly failed: number
  readonly badRows: ReadonlyArray<BadRow>
  readonly failedItems: ReadonlyArray<FailedItem>
  /** Columns typed by no field of the collection (CSV): their cells were imported as text. */
  readonly untypedColumns: ReadonlyArray<string>
  readonly interrupted: boolean
  /** Items settled by earlier runs, which this run went on from. */
  readonly resumedAt: number
  /** The import was complete before this run, which sent nothing. */
  readonly alreadyComplete: boolean
  /** Items this run settled (sent and answered). */
  readonly settledThisRun: number
  /** The checkpoint file that is kept (null when there is none, or it was removed as complete). */
  readonly checkpoint: string | null
  /** Seconds this run took. */
  readonly seconds: number
  /** How the site's calls were paced in this run: the limit, the calls, the 429s met (null: no pacer). */
  readonly pacing: PacingReport | null
}

/** Where this import keeps its checkpoint, or why it keeps none. */
type Keeping =
  | { readonly _tag: "File"; readonly file: string; readonly automatic: boolean }
  | { readonly _tag: "None"; readonly why: "stdin" | "flag" | "dry-run" }

/** What a run again does when no checkpoint is kept. */
const noResume = (why: "stdin" | "flag" | "dry-run"): string =>
  why === "stdin"
    ? "an import of standard input keeps no checkpoint and cannot resume: run again, it starts from the first row, and rows without an _id are written a second time (import from a file to make it resumable)"
    : "with --no-checkpoint this import keeps no checkpoint and cannot resume: run again, it starts from the first row, and rows without an _id are written a second time"

const resumeLine = (file: string): string => `the checkpoint is ${file}; to resume, run the same command again: ${commandLine()}`

/** Takes over Ctrl-C and SIGTERM for the import: the first asks it to stop cleanly, the second quits. */
const stopOnSignal = (keeping: Keeping, quitting: () => void) =>
  stopOnSignals({
    stopping: () =>
      keeping._tag === "File"
        ? `the chunks in flight finish, then the checkpoint ${keeping.file} is saved (Ctrl-C again quits at once)`
        : `the chunks in flight finish (Ctrl-C again quits at once); ${noResume(keeping.why)}`,
    beforeQuit: quitting,
    quitting: () =>
      keeping._tag === "File"
        ? `the checkpoint ${keeping.file} holds every item settled so far (chunks still in flight may land; a resume finds them): to resume, run the same command again: ${commandLine()}`
        : noResume(keeping.why)
  })

const counts = (r: ImportReport) => `${r.inserted} inserted, ${r.updated} updated, ${r.skipped} skipped, ${r.failed} failed`

const summaryText = (r: ImportReport, keeping: Keeping, reportFile: string | undefined): string => {
  const rate = r.seconds > 0 && r.settledThisRun > 0 ? `, ${Math.round(r.settledThisRun / r.seconds)} items/s` : ""
  // the time and rate are this run's: with a resume, of the items it settled itself
  const paced = pacingText(r.pacing)
  const timing = r.resumedAt > 0 ? `(this run: ${r.settledThisRun} items in ${r.seconds.toFixed(1)} s${rate}${paced})` : `(${r.seconds.toFixed(1)} s${rate}${paced})`
  const head = r.dryRun
    ? `dry run of ${r.input} into ${r.collection}: ${r.valid} rows would be written, ${r.badRows.length} bad rows`
    : r.alreadyComplete
    ? `${r.input} was imported into ${r.collection} by an earlier run: ${counts(r)}; nothing was sent now`
    : `${r.interrupted ? "interrupted" : "imported"} ${r.input} into ${r.collection}: ${counts(r)} ${timing}`
  const problems = [
    ...r.badRows.map((b) => ({ line: b.line, text: b.reason })),
    ...r.failedItems.map((f) => ({ line: f.line, text: `${f.code}: ${f.reason}${f.id === undefined ? "" : ` (_id ${f.id})`}` }))
  ].sort((a, b) => a.line - b.line)
  const shown = problems.slice(0, 20).map((p) => `  line ${p.line}: ${p.text}`)
  const more = problems.length > 20 ? [`  ... and ${problems.length - 20} more${reportFile === undefined ? "; --report FILE lists them all" : ` (all in ${reportFile})`}`] : []
  const untyped = r.untypedColumns.length > 0 ? [`  left as text (the collection declares no type for them): ${r.untypedColumns.join(", ")}`] : []
  const resume = !r.interrupted ? [] : keeping._tag === "File" ? [`  ${resumeLine(keeping.file)}`] : [`  ${noResume(keeping.why)}`]
  const resumed = r.resumedAt > 0 ? [`  resumed after ${r.resumedAt} items settled by an earlier run`] : []
  const finished = r.alreadyComplete && keeping._tag === "File"
    ? [keeping.automatic
      ? `  its checkpoint ${keeping.file} is now removed: running the command again imports the file again`
      : `  the checkpoint ${keeping.file} says so; to import the file again, delete it or give another --checkpoint`]
    : []
  return [head, ...resumed, ...shown, ...more, ...untyped, ...finished, ...resume].join("\n")
}

/** The exit code a report calls for. */
export const exitCodeOf = (r: ImportReport): number =>
  r.interrupted ? ExitCode.interrupted : r.failed > 0 ? ExitCode.itemsFailed : ExitCode.ok

/** Where the import keeps its checkpoint; a usage error for flags that cannot go together. */
const keepingOf = (options: ImportOptions): Effect.Effect<Keeping, CliFailure> => {
  if (options.checkpoint !== undefined && options.noCheckpoint === true) return Effect.fail(usage("--checkpoint and --no-checkpoint contradict each other: give one"))
  if (options.checkpoint !== undefined && options.path === "-") {
    return Effect.fail(usage("--checkpoint needs an input file: standard input cannot be read again to resume; save it to a file and import that"))
  }
  if (options.dryRun) return Effect.succeed({ _tag: "None", why: "dry-run" })
  if (options.checkpoint !== undefined) return Effect.succeed({ _tag: "File", file: options.checkpoint, automatic: false })
  if (options.path === "-") return Effect.succeed({ _tag: "None", why: "stdin" })
  if (options.noCheckpoint === true) return Effect.succeed({ _tag: "None", why: "flag" })
  const file = automaticCheckpointFile("imports", options.collection, {
    site: options.site?.baseUrl ?? null,
    siteId: options.site?.siteId ?? null,
    environment: options.environment ?? null,
    collection: options.collection,
    input: inputIdentity(options.path).path
  })
  return Effect.succeed({ _tag: "File", file, automatic: true })
}

const why = (error: unknown): string => {
  const e = error as { code?: unknown; message?: unknown }
  return typeof e.code === "string" ? e.code : typeof e.message === "string" ? e.message : String(error)
}

export const runImport = (options: ImportOptions) =>
  Effect.scoped(Effect.gen(function*() {
    if (options.path !== "-" && !existsSync(options.path)) return yield* usage(`no file ${options.path}`)
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 32) {
      return yield* usage(`--concurrency must be a whole number from 1 to 32, not ${options.concurrency}`)
    }
    const keeping = yield* keepingOf(options)
    const collection = yield* DataItems.collections.get(options.collection)
    if (Option.isNone(collection)) {
      return yield* usage(`the site has no collection ${JSON.stringify(options.collection)}; create it first (\`sitefx data collections create FILE\`)`)
    }
    const fields = new Map<string, CollectionField>((collection.value.fields ?? []).map((f) => [f.key, f]))

    // ---- the checkpoint: start fresh, resume, or report a finished import again ----
    const input = inputIdentity(options.path)
    const identity: ImportIdentity = { collection: options.collection, mode: options.mode, format: options.format, site: options.site?.baseUrl, input }
    let previous: Checkpoint | undefined
    let releaseLock = () => {}
    if (keeping._tag === "File") {
      const file = keeping.file
      const lock = yield* Effect.try({
        try: () => {
          ensureFolderOf(file)
          return lockCheckpoint(file)
        },
        catch: (error) => usage(`cannot keep the checkpoint ${file} (${why(error)})${keeping.automatic ? "; SITEFX_STATE_DIR names another folder for it, or --no-checkpoint keeps none" : ""}`)
      })
      if (lock._tag === "Held") {
        return yield* usage(`another sitefx (process ${lock.pid}) is running this import, with the checkpoint ${file}; wait for it to end or stop it (if no such import runs, delete ${lock.file})`)
      }
      releaseLock = lock.release
      yield* Effect.addFinalizer(() => Effect.sync(lock.release))
      const loaded = loadCheckpoint(file)
      if (loaded._tag === "Unusable") {
        return yield* usage(`cannot use the checkpoint ${file}: ${loaded.reason}; delete it to start over`)
      }
      if (loaded._tag === "Found") {
        const problem = mismatch(loaded.checkpoint, identity)
        if (problem !== undefined) {
          return yield* usage(
            keeping.automatic
              ? `an unfinished import left the checkpoint ${file}, and it does not fit this one: ${problem}; run that import as it was started to finish it, or delete ${file} to start over (rows without an _id it wrote would then be written again)`
              : `the checkpoint ${file} does not fit this import: ${problem}; delete it to start over, or give another --checkpoint`
          )
        }
        previous = loaded.checkpoint
      }
    }
    const alreadyComplete = previous?.complete === true
    const resumeKey = previous?.resumeKey ?? newBulkKey()
    const startAt = alreadyComplete ? Number.POSITIVE_INFINITY : previous?.settled ?? 0
    const startedAt = previous?.startedAt ?? new Date().toISOString()

    const badRows: Array<BadRow> = []
    let untyped: ReadonlyArray<string> = []
    // the input line of each valid row from `startAt` on, by position
    const lines: Array<number> = []
    let valid = 0
    let readAll = false
    const started = performance.now()
    const lineOf = (position: number) => lines[position - (Number.isFinite(startAt) ? startAt : 0)] ?? 0

    const checkpointOf = (progress: Pick<BulkProgress, "settled" | "inserted" | "updated" | "skipped" | "failures">, complete: boolean): Checkpoint => ({
      version: 1,
      collection: options.collection,
      mode: options.mode,
      input,
      format: options.format,
      ...(options.site === undefined ? {} : { site: options.site.baseUrl }),
      resumeKey,
      settled: progress.settled,
      inserted: (previous?.inserted ?? 0) + progress.inserted,
      updated: (previous?.updated ?? 0) + progress.updated,
      skipped: (previous?.skipped ?? 0) + progress.skipped,
      failed: [...(previous?.failed ?? []), ...failedItems(progress.failures, lineOf)],
      startedAt,
      complete
    })
    // what this run has settled so far (before its first chunk: nothing, from where it starts)
    let last: Pick<BulkProgress, "settled" | "inserted" | "updated" | "skipped" | "failures"> = {
      settled: Number.isFinite(startAt) ? startAt : 0,
      inserted: 0,
      updated: 0,
      skipped: 0,
      failures: []
    }
    const saveNow = () => {
      if (keeping._tag === "File" && !alreadyComplete) saveCheckpoint(keeping.file, checkpointOf(last, false))
    }

    const { stop } = yield* stopOnSignal(keeping, () => {
      saveNow()
      releaseLock()
    })

    const rows = async function*(): AsyncGenerator<Array<BulkItem>> {
      for await (const batch of readRows({
        path: options.path,
        format: options.format,
        fields,
        onBad: (row) => badRows.push(row),
        stopped: () => stop.requested,
        onUntyped: (columns) => {
          untyped = columns
        }
      })) {
        const items: Array<BulkItem> = []
        for (const row of batch as Array<Row>) {
          if (options.mode === "update" && typeof row.item["_id"] !== "string") {
            badRows.push({ line: row.line, reason: "--mode update needs an _id in every row" })
            continue
          }
          const position = valid++
          if (position < startAt) continue
          lines.push(row.line)
          // a JSONL line that the checks left as it was is sent as its own text: not encoded and written again
          const id = row.item["_id"]
          items.push(row.json !== undefined ? new JsonItem(row.json, typeof id === "string" ? id : undefined) : row.item)
        }
        if (items.length > 0) yield items
        if (stop.requested) return
      }
      readAll = true
    }
    const source = Stream.fromAsyncIterable(rows(), (cause) => usage(`cannot read ${options.path}: ${(cause as Error).message ?? String(cause)}`)).pipe(
      Stream.flattenIterable
    )

    const refusalNote = (settled: number): string =>
      keeping._tag === "File"
        ? `; ${settled} items are settled, and the checkpoint ${keeping.file} keeps that place: once that is fixed, run the same command again to resume (${commandLine()})`
        : `; ${settled} items were settled before it, and ${noResume(keeping.why)}`
    const refusal = (error: unknown, settled: number): CliFailure => {
      const explained = explain(error, options.site)
      return new CliFailure({ message: `the import into ${options.collection} stopped: ${explained.message}${refusalNote(settled)}`, exitCode: explained.exitCode })
    }

    let checkpointAt = 0
    // a full collection every 20 chunks: the peak stays far under 200 MB for a million rows (with the
    // young generation held small, see ../memory.ts), at about a tenth of the command's CPU
    const tidy = collectEvery(20)

    // rows, not lines: a CSV cell may hold line breaks, and blank lines are no rows
    const records = countRecords(options.path, options.format === "csv" ? "csv" : "lines")
    const total = records === undefined ? undefined : options.format === "csv" ? Math.max(0, records - 1) : records
    let report: BulkReport | undefined
    if (!alreadyComplete) {
      // saved before anything is sent: the resume key must outlive a kill during the first chunk
      if (keeping._tag === "File" && previous === undefined) saveNow()
      report = yield* withProgress(options.output, `import ${options.collection}`, "rows", total, (progress) => {
        if (options.dryRun) {
          // and once at the end: bad rows after the last good one come with no batch
          return Stream.runForEach(source, () => Effect.sync(() => progress.update(valid + badRows.length))).pipe(
            Effect.andThen(Effect.sync(() => progress.update(valid + badRows.length))),
            Effect.as(undefined)
          )
        }
        const bulkOptions = {
          concurrency: options.concurrency,
          // the report counts; a million ids would be most of the command's memory
          keepIds: false,
          startAt: Number.isFinite(startAt) ? startAt : 0,
          ...(options.mode === "update" ? {} : { resumeKey }),
          onProgress: (p: BulkProgress) =>
            Effect.sync(() => {
              tidy()
              last = p
              progress.update(p.settled + badRows.length)
              // saved about once a second (each save writes and renames a file on the command's thread); what
              // it is behind, a resume writes again onto the same ids
              const now = performance.now()
              if (keeping._tag === "File" && now - checkpointAt > 1000) {
                checkpointAt = now
                saveNow()
              }
            })
        }
        return bulkItems(options.mode, options.collection, source, bulkOptions).pipe(
          Effect.tap(() => Effect.sync(() => progress.update(last.settled + badRows.length))),
          // refused as a whole (the key, the collection, the platform gone): every chunk before the
          // refusal is settled and in `last`; the checkpoint keeps that place for a resume
          Effect.catch((error: unknown) =>
            Effect.suspend(() => {
              saveNow()
              return Effect.fail(refusal(error, last.settled))
            })
          )
        )
      })
    } else if (previous?.badRows === undefined) {
      // finished before, by a run that did not keep its bad rows: read the input again for them
      yield* Stream.runDrain(source)
    }

    const interrupted = stop.requested && !readAll && !alreadyComplete
    const runFailed = report === undefined ? [] : failedItems(report.errors, lineOf)
    const settledThisRun = report === undefined ? 0 : report.inserted + report.updated + report.skipped + report.errors.length
    const earlierBad = alreadyComplete ? previous?.badRows : undefined
    const allBad: ReadonlyArray<BadRow> = earlierBad ?? badRows
    const complete = !options.dryRun && !interrupted
    const kept = keeping._tag === "File" && !(keeping.automatic && (complete || alreadyComplete))
    const final: ImportReport = {
      collection: options.collection,
      input: options.path,
      mode: options.mode,
      dryRun: options.dryRun,
      valid: earlierBad !== undefined ? previous?.settled ?? 0 : valid,
      inserted: (previous?.inserted ?? 0) + (report?.inserted ?? 0),
      updated: (previous?.updated ?? 0) + (report?.updated ?? 0),
      skipped: (previous?.skipped ?? 0) + (report?.skipped ?? 0),
      failed: allBad.length + (previous?.failed.length ?? 0) + runFailed.length,
      badRows: allBad,
      failedItems: [...(previous?.failed ?? []), ...runFailed],
      untypedColumns: untyped,
      interrupted,
      resumedAt: alreadyComplete ? 0 : previous?.settled ?? 0,
      alreadyComplete,
      settledThisRun,
      checkpoint: kept && keeping._tag === "File" ? keeping.file : null,
      seconds: (performance.now() - started) / 1000,
      pacing: yield* pacingReport
    }
    if (keeping._tag === "File" && report !== undefined) {
      if (complete && keeping.automatic) removeCheckpoint(keeping.file)
      else {
        saveCheckpoint(keeping.file, {
          ...checkpointOf(last, complete),
          settled: Math.max(last.settled, (Number.isFinite(startAt) ? startAt : 0) + settledThisRun),
          inserted: final.inserted,
          updated: final.updated,
          skipped: final.skipped,
          failed: final.failedItems,
          ...(complete ? { completedAt: new Date().toISOString(), badRows: allBad.map((b) => ({ line: b.line, reason: b.reason })) } : {}),
          complete
        })
      }
    } else if (alreadyComplete && keeping._tag === "File" && keeping.automatic) {
      // complete, but its run ended before removing it: it is done with now
      removeCheckpoint(keeping.file)
    }
    if (options.report !== undefined) writeFileSync(options.report, `${JSON.stringify(final, null, 2)}\n`)
    yield* printResult(options.output, final, summaryText(final, keeping, options.report))
    const code = exitCodeOf(final)
    if (code !== ExitCode.ok) process.exitCode = code
    return final
  }))

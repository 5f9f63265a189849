/**
 * `sitefx data import`: items from a JSONL or CSV file into a collection, with a full account.
 *
 * - Every row is checked first (JSON, `_id`, the collection's field types); a bad row is reported with
 *   its line number and not written, and the rest go on.
 * - Good rows go through the data client's bulk writes: chunks of at most 1000, `--concurrency` in
 *   flight, transient failures retried, every item's fate in the report.
 * - With `--checkpoint FILE` the run can be resumed: the checkpoint holds the bulk write's resume key
 *   and the position up to which everything is settled, saved as the write goes. Run the same command
 *   again after a kill, a crash or Ctrl-C and it continues there, writing no item twice.
 * - Ctrl-C (or SIGTERM) stops reading, lets the chunks in flight finish, saves the checkpoint, prints
 *   the report and exits 130. A second Ctrl-C quits at once (the checkpoint is then at most a moment
 *   behind, which a resume makes good).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { existsSync, writeFileSync } from "node:fs"
import { type BulkProgress, type BulkReport } from "../../data/Bulk.ts"
import type { Item } from "../../data/calls.ts"
import * as DataItems from "../../data/DataItems.ts"
import { newBulkKey } from "../../data/ids.ts"
import type { CollectionField } from "../../data/wire/index.ts"
import { countRecords } from "../files.ts"
import { collectEvery } from "../memory.ts"
import { ExitCode, type OutputMode, printResult, usage, withProgress } from "../output.ts"
import { type Checkpoint, failedItems, type FailedItem, inputIdentity, loadCheckpoint, mismatch, saveCheckpoint } from "./checkpoint.ts"
import { type BadRow, type Format, readRows, type Row } from "./input.ts"

export type ImportMode = "insert" | "save" | "update"

export interface ImportOptions {
  readonly collection: string
  readonly path: string
  readonly format: Format
  readonly mode: ImportMode
  readonly concurrency: number
  readonly checkpoint: string | undefined
  readonly dryRun: boolean
  readonly report: string | undefined
  readonly output: OutputMode
}

export interface ImportReport {
  readonly collection: string
  readonly input: string
  readonly mode: ImportMode
  readonly dryRun: boolean
  /** Rows read and valid (in a dry run: what would be written). */
  readonly valid: number
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
  readonly resumedAt: number
  readonly seconds: number
}

/** Takes over Ctrl-C and SIGTERM for the import: the first asks it to stop cleanly, the second quits. */
const stopOnSignal = Effect.acquireRelease(
  Effect.sync(() => {
    const saved = { int: process.listeners("SIGINT"), term: process.listeners("SIGTERM") }
    process.removeAllListeners("SIGINT")
    process.removeAllListeners("SIGTERM")
    const stop = { requested: false }
    const onSignal = () => {
      if (stop.requested) {
        process.stderr.write("\nsitefx: stopped at once; run the same command again to resume from the checkpoint\n")
        process.exit(ExitCode.interrupted)
      }
      stop.requested = true
      process.stderr.write("\nsitefx: stopping: the chunks in flight finish and the checkpoint is saved (Ctrl-C again quits at once)\n")
    }
    process.on("SIGINT", onSignal)
    process.on("SIGTERM", onSignal)
    const restore = () => {
      process.removeListener("SIGINT", onSignal)
      process.removeListener("SIGTERM", onSignal)
      for (const l of saved.int) process.on("SIGINT", l as () => void)
      for (const l of saved.term) process.on("SIGTERM", l as () => void)
    }
    return { stop, restore }
  }),
  ({ restore }) => Effect.sync(restore)
)

const summaryText = (r: ImportReport, reportFile: string | undefined): string => {
  const rate = r.seconds > 0 ? Math.round((r.inserted + r.updated + r.skipped) / r.seconds) : 0
  const head = r.dryRun
    ? `dry run of ${r.input} into ${r.collection}: ${r.valid} rows would be written, ${r.badRows.length} bad rows`
    : `${r.interrupted ? "interrupted" : "imported"} ${r.input} into ${r.collection}: ${r.inserted} inserted, ${r.updated} updated, ${r.skipped} skipped, ${r.failed} failed (${r.seconds.toFixed(1)} s, ${rate} items/s)`
  const problems = [
    ...r.badRows.map((b) => ({ line: b.line, text: b.reason })),
    ...r.failedItems.map((f) => ({ line: f.line, text: `${f.code}: ${f.reason}${f.id === undefined ? "" : ` (_id ${f.id})`}` }))
  ].sort((a, b) => a.line - b.line)
  const shown = problems.slice(0, 20).map((p) => `  line ${p.line}: ${p.text}`)
  const more = problems.length > 20 ? [`  ... and ${problems.length - 20} more${reportFile === undefined ? "; --report FILE lists them all" : ` (all in ${reportFile})`}`] : []
  const untyped = r.untypedColumns.length > 0 ? [`  left as text (the collection declares no type for them): ${r.untypedColumns.join(", ")}`] : []
  const resume = r.interrupted ? ["  run the same command again to resume"] : []
  const resumed = r.resumedAt > 0 ? [`  resumed after ${r.resumedAt} items settled by an earlier run`] : []
  return [head, ...resumed, ...shown, ...more, ...untyped, ...resume].join("\n")
}

/** The exit code a report calls for. */
export const exitCodeOf = (r: ImportReport): number =>
  r.interrupted ? ExitCode.interrupted : r.failed > 0 ? ExitCode.itemsFailed : ExitCode.ok

export const runImport = (options: ImportOptions) =>
  Effect.scoped(Effect.gen(function*() {
    if (options.path !== "-" && !existsSync(options.path)) return yield* usage(`no file ${options.path}`)
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 32) {
      return yield* usage(`--concurrency must be a whole number from 1 to 32, not ${options.concurrency}`)
    }
    const collection = yield* DataItems.collections.get(options.collection)
    if (Option.isNone(collection)) {
      return yield* usage(`the site has no collection ${JSON.stringify(options.collection)}; create it first (\`sitefx data collections create FILE\`)`)
    }
    const fields = new Map<string, CollectionField>((collection.value.fields ?? []).map((f) => [f.key, f]))

    // ---- the checkpoint: start fresh, resume, or report a finished import again ----
    const input = inputIdentity(options.path)
    let previous: Checkpoint | undefined
    if (options.checkpoint !== undefined && !options.dryRun) {
      const loaded = loadCheckpoint(options.checkpoint)
      if (loaded._tag === "Unusable") {
        return yield* usage(`cannot use the checkpoint ${options.checkpoint}: ${loaded.reason}; delete it to start over`)
      }
      if (loaded._tag === "Found") {
        const why = mismatch(loaded.checkpoint, options.collection, options.mode, input)
        if (why !== undefined) return yield* usage(`the checkpoint ${options.checkpoint} does not fit this import: ${why}; delete it to start over, or give another --checkpoint`)
        previous = loaded.checkpoint
      }
    }
    const resumeKey = previous?.resumeKey ?? newBulkKey()
    const startAt = previous?.complete === true ? Number.POSITIVE_INFINITY : previous?.settled ?? 0

    const { stop } = yield* stopOnSignal
    const badRows: Array<BadRow> = []
    let untyped: ReadonlyArray<string> = []
    // the input line of each valid row from `startAt` on, by position
    const lines: Array<number> = []
    let valid = 0
    const started = performance.now()

    const rows = async function*(): AsyncGenerator<Array<Item>> {
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
        const items: Array<Item> = []
        for (const row of batch as Array<Row>) {
          if (options.mode === "update" && typeof row.item["_id"] !== "string") {
            badRows.push({ line: row.line, reason: "--mode update needs an _id in every row" })
            continue
          }
          const position = valid++
          if (position < startAt) continue
          lines.push(row.line)
          items.push(row.item as Item)
        }
        if (items.length > 0) yield items
        if (stop.requested) return
      }
    }
    const source = Stream.fromAsyncIterable(rows(), (cause) => usage(`cannot read ${options.path}: ${(cause as Error).message ?? String(cause)}`)).pipe(
      Stream.flattenIterable
    )
    const lineOf = (position: number) => lines[position - (Number.isFinite(startAt) ? startAt : 0)] ?? 0

    let checkpointAt = 0
    const tidy = collectEvery(5)
    const checkpointOf = (progress: BulkProgress, complete: boolean): Checkpoint => ({
      version: 1,
      collection: options.collection,
      mode: options.mode,
      input,
      resumeKey,
      settled: progress.settled,
      inserted: (previous?.inserted ?? 0) + progress.inserted,
      updated: (previous?.updated ?? 0) + progress.updated,
      skipped: (previous?.skipped ?? 0) + progress.skipped,
      failed: [...(previous?.failed ?? []), ...failedItems(progress.failures, lineOf)],
      complete
    })

    // rows, not lines: a CSV cell may hold line breaks, and blank lines are no rows
    const records = countRecords(options.path, options.format === "csv" ? "csv" : "lines")
    const total = records === undefined ? undefined : options.format === "csv" ? Math.max(0, records - 1) : records
    let report: BulkReport | undefined
    let settled = startAt
    if (previous?.complete !== true) {
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
              settled = p.settled
              progress.update(p.settled + badRows.length)
              // the checkpoint is saved at most a few times a second; what it is behind, a resume writes again
              const now = performance.now()
              if (options.checkpoint !== undefined && now - checkpointAt > 250) {
                checkpointAt = now
                saveCheckpoint(options.checkpoint, checkpointOf(p, false))
              }
            })
        }
        const write = options.mode === "insert"
          ? DataItems.bulkInsert(options.collection, source, bulkOptions)
          : options.mode === "save"
          ? DataItems.bulkSave(options.collection, source, bulkOptions)
          : DataItems.bulkUpdate(options.collection, source, bulkOptions)
        return Effect.tap(write, () => Effect.sync(() => progress.update(settled + badRows.length)))
      })
    } else {
      // finished before: read the input again for its bad rows, and report the whole import once more
      yield* Stream.runDrain(source)
    }

    const interrupted = stop.requested
    const runFailed = report === undefined ? [] : failedItems(report.errors, lineOf)
    const final: ImportReport = {
      collection: options.collection,
      input: options.path,
      mode: options.mode,
      dryRun: options.dryRun,
      valid,
      inserted: (previous?.inserted ?? 0) + (report?.inserted ?? 0),
      updated: (previous?.updated ?? 0) + (report?.updated ?? 0),
      skipped: (previous?.skipped ?? 0) + (report?.skipped ?? 0),
      failed: badRows.length + (previous?.failed.length ?? 0) + runFailed.length,
      badRows,
      failedItems: [...(previous?.failed ?? []), ...runFailed],
      untypedColumns: untyped,
      interrupted,
      resumedAt: previous?.complete === true ? 0 : previous?.settled ?? 0,
      seconds: (performance.now() - started) / 1000
    }
    if (options.checkpoint !== undefined && !options.dryRun && report !== undefined) {
      saveCheckpoint(options.checkpoint, {
        version: 1,
        collection: options.collection,
        mode: options.mode,
        input,
        resumeKey,
        settled: Math.max(settled, (Number.isFinite(startAt) ? startAt : 0) + report.inserted + report.updated + report.skipped + report.errors.length),
        inserted: final.inserted,
        updated: final.updated,
        skipped: final.skipped,
        failed: final.failedItems,
        complete: !interrupted
      })
    }
    if (options.report !== undefined) writeFileSync(options.report, `${JSON.stringify(final, null, 2)}\n`)
    yield* printResult(options.output, final, summaryText(final, options.report))
    const code = exitCodeOf(final)
    if (code !== ExitCode.ok) process.exitCode = code
    return final
  }))

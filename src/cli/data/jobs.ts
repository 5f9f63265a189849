/**
 * `sitefx data jobs [submit|get|logs|cancel]`: the site's data movement jobs (sitefx/data/movement-jobs).
 * `submit` moves a collection into another collection (`--to COLLECTION`, `--policy`), a file into a
 * collection (`--from-file FILE`), or a collection into a file (`--to-file FILE`, downloaded when the
 * job is done), and follows the job with a progress bar like the other batch commands (`--no-wait`
 * returns at once). It exits 1 when the job failed, or when some items did not move (their reasons are
 * in `sitefx data jobs logs JOB`).
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { readFileSync, writeFileSync } from "node:fs"
import type { DataFailure } from "../../data/calls.ts"
import * as MovementJobs from "../../data/MovementJobs.ts"
import { failed, type OutputMode, printResult, usage, withProgress } from "../output.ts"
import { confirm } from "./admin.ts"

const describeJob = (j: MovementJobs.Job) => {
  const p = j.progress
  const moved = p === undefined ? "" : `  ${p.itemsSuccessful ?? 0} moved${(p.itemsRejected ?? 0) > 0 ? `, ${p.itemsRejected} rejected` : ""}`
  const from = j.source.wixDataCollection?.collectionId ?? (j.source.file === undefined ? "?" : `file (${j.source.file.format ?? "?"})`)
  const to = j.destination.wixDataCollection?.collectionId ?? (j.destination.file === undefined ? "?" : `file (${j.destination.file.format ?? "?"})`)
  return `${j.id}  ${j.status.padEnd(20)} ${from} → ${to}${moved}${j.error === undefined ? "" : `  (${j.error.code}: ${j.error.description})`}`
}

/** A job id the platform does not know: a usage error saying where the ids are. */
const knownJob = <A, R>(id: string, effect: Effect.Effect<A, DataFailure, R>) =>
  effect.pipe(Effect.catchIf(
    (e: DataFailure) => e._tag === "DataError" && (e.code === "JOB_NOT_FOUND" || e.status === 404),
    () => Effect.fail(usage(`there is no job ${JSON.stringify(id)}; \`sitefx data jobs\` lists them`))
  ))

export const runJobsList = (options: { readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const page = yield* MovementJobs.list({ limit: MovementJobs.MAX_JOBS_PAGE })
    yield* printResult(options.mode, { jobs: page.items }, page.items.length === 0 ? "no jobs" : page.items.map(describeJob).join("\n"))
  })

export const runJobsGet = (options: { readonly id: string; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const job = yield* knownJob(options.id, MovementJobs.get(options.id))
    yield* printResult(options.mode, { job }, describeJob(job))
  })

export const runJobsLogs = (options: { readonly id: string; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const logs = yield* knownJob(options.id, Stream.runCollect(MovementJobs.logStream(options.id)))
    const text = logs.length === 0 ? `job ${options.id} logged nothing` : logs.map((l) => JSON.stringify(l)).join("\n")
    yield* printResult(options.mode, { logs }, text)
  })

export const runJobsCancel = (options: { readonly id: string; readonly yes: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    yield* confirm(options.yes, `stop job ${options.id} (what it moved stays moved)`)
    const job = yield* knownJob(options.id, MovementJobs.terminate(options.id))
    yield* printResult(options.mode, { job }, `stopped job ${options.id}: ${describeJob(job)}`)
  })

const formatOfFile = (file: string, given: "csv" | "jsonl" | undefined): "CSV" | "JSONL" =>
  (given ?? (file.toLowerCase().endsWith(".csv") ? "csv" : "jsonl")).toUpperCase() as "CSV" | "JSONL"

export interface SubmitOptions {
  readonly collection: string | undefined
  readonly to: string | undefined
  readonly fromFile: string | undefined
  readonly toFile: string | undefined
  readonly format: "csv" | "jsonl" | undefined
  readonly policy: MovementJobs.WritePolicy
  readonly filter: string | undefined
  readonly fields: ReadonlyArray<string>
  readonly name: string | undefined
  readonly wait: boolean
  readonly mode: OutputMode
}

export const runJobsSubmit = (options: SubmitOptions) =>
  Effect.gen(function*() {
    const from = options.fromFile
    if ((from === undefined) === (options.collection === undefined)) {
      return yield* usage("name one source: a COLLECTION, or --from-file FILE")
    }
    if ((options.to === undefined) === (options.toFile === undefined)) {
      return yield* usage("name one destination: --to COLLECTION or --to-file FILE")
    }
    if (from !== undefined && options.toFile !== undefined) return yield* usage("a file goes into a collection: --from-file FILE --to COLLECTION")
    let filter: Record<string, unknown> | undefined
    if (options.filter !== undefined) {
      try {
        filter = JSON.parse(options.filter) as Record<string, unknown>
      } catch {
        return yield* usage(`--filter is not JSON: ${options.filter}`)
      }
    }
    const source: MovementJobs.Source = from !== undefined
      ? {
        file: {
          fileId: yield* MovementJobs.upload(
            yield* Effect.try({ try: () => readFileSync(from, "utf8"), catch: () => usage(`cannot read ${from}`) }),
            { fileName: from.split(/[\\/]/).pop() ?? from }
          ),
          format: formatOfFile(from, options.format)
        }
      }
      : {
        wixDataCollection: {
          collectionId: options.collection!,
          ...(filter === undefined && options.fields.length === 0 ? {} : { filterQuery: { ...(filter === undefined ? {} : { filter }), ...(options.fields.length === 0 ? {} : { fields: options.fields }) } })
        }
      }
    const destination: MovementJobs.Destination = options.toFile !== undefined
      ? { file: { format: formatOfFile(options.toFile, options.format), fileName: options.toFile.split(/[\\/]/).pop() ?? options.toFile } }
      : { wixDataCollection: { collectionId: options.to!, writePolicy: options.policy } }
    const job = yield* MovementJobs.submit(source, destination, options.name === undefined ? {} : { name: options.name })
    if (!options.wait) return yield* printResult(options.mode, { job }, `submitted job ${job.id}: ${job.status}`)

    const done = yield* withProgress(options.mode, `job ${job.id}`, "items", undefined, (bar) =>
      MovementJobs.progress(job.id, { interval: "200 millis" }).pipe(
        Stream.runForEach((snapshot) =>
          Effect.sync(() => {
            bar.setTotal(snapshot.progress?.total ?? undefined)
            bar.update(snapshot.progress?.current ?? 0)
          })
        ),
        Effect.andThen(MovementJobs.get(job.id))
      ))
    if (options.toFile !== undefined && done.status !== "FAILED") {
      const text = yield* MovementJobs.download(done)
      yield* Effect.try({ try: () => writeFileSync(options.toFile!, text), catch: () => failed(`cannot write ${options.toFile}`) })
    }
    yield* printResult(options.mode, { job: done }, describeJob(done))
    if (done.status === "FAILED") return yield* Effect.fail(failed(`job ${job.id} failed: ${done.error?.code ?? ""} ${done.error?.description ?? ""}`.trim()))
    if (done.status === "PARTIALLY_SUCCESSFUL") {
      return yield* Effect.fail(failed(`job ${job.id}: ${done.progress?.itemsRejected ?? "some"} items did not move; \`sitefx data jobs logs ${job.id}\` says why`))
    }
  })

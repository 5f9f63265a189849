/**
 * Data movement jobs (`/data-mover/v1/*`): a job moves items from a collection or an uploaded CSV/JSONL
 * file into a collection, or from a collection into a file to download. Submitting answers at once; the
 * job then runs in the background, one batch of {@link MOVE_BATCH} source items per transaction, through
 * the data engine's own writes (permissions, hooks, unique indexes and item events apply, as for the API
 * key that submitted it). A batch's writes, its logs and the job's progress commit together, so:
 *
 * - every source item is accounted for once: it moved (`itemsSuccessful`; an item SKIP_EXISTING left
 *   alone counts here too, with a log saying so) or it was rejected (`itemsRejected`, with a log naming
 *   the item, or the file's line, and the refusal);
 * - a job left running by a stopped platform resumes after its last committed batch when the platform
 *   starts again, or ends FAILED with the reason it cannot go on (its collection is gone);
 * - `terminate` takes effect before the next batch: the job ends FAILED with `JOB_TERMINATED` (the
 *   platform has no status of its own for it; its `job_deleted` event is the one sent for a termination).
 *
 * A job ends COMPLETED when nothing was rejected, PARTIALLY_SUCCESSFUL (with a cause) when some items
 * were, and FAILED when every item was rejected or the job could not go on.
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Latch from "effect/Latch"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import { encodeDates } from "../../../http/codec.ts"
import { columnsFor, encodeRow, encodeValues } from "../../../data/formats/csv.ts"
import { type Entry, type Format, formatNamed, isBad, makeRowReader } from "../../../data/formats/rows.ts"
import type {
  CollectionField,
  DataCollection,
  DataMovementJob,
  MovementError,
  MovementLog,
  MovementProgress,
  MovementSource
} from "../../../data/wire/index.ts"
import { SiteEvents } from "../../store/SiteEvents.ts"
import type { AdminCaller, Caller } from "../../platform/Caller.ts"
import { Database } from "../../platform/Database.ts"
import { MAX_PROJECTED_FIELDS } from "../../platform/limits.ts"
import { isoDate, ServerClock } from "../../platform/ServerClock.ts"
import type { Reject } from "../../platform/responses.ts"
import { SiteRegistry } from "../../platform/SiteRegistry.ts"
import { accessFor } from "../access.ts"
import { DataCollections } from "../DataCollections.ts"
import { atMost, attempt, badRequest, catchFailure, EngineFailure } from "../../store/engineFailures.ts"
import { checkFilter } from "../../store/filters.ts"
import { ItemStore, ITEMS } from "../ItemStore.ts"
import { Reads } from "../Reads.ts"
import { concat, projection, sql } from "../../store/sql.ts"
import { isObject, segments } from "../../store/values.ts"
import { ItemWrites, type WriteContext } from "../Writes.ts"
import { jobEvents } from "./jobEvents.ts"
import { type JobRow, type JobStore, makeJobStore, type RunState, RUNNING, type StoredFile } from "./jobStore.ts"

/** Source items per batch: one transaction, one progress update. */
export const MOVE_BATCH = 100

/** An upload URL is good for this long after it was made. */
export const UPLOAD_URL_TTL_MILLIS = 15 * 60 * 1000

/** The path a file is downloaded from (answers put the host the caller reached in front of it). */
export const filePath = (file: StoredFile) => `/data-mover/v1/files/${file.id}?token=${file.token}`

/** What `submit` takes: the request as the wire schema decodes it. */
export type SubmitInput = Pick<DataMovementJob, "source" | "destination" | "name" | "sourceSiteId" | "destinationSiteId">

export interface MovementJobsShape {
  /** Checks and records a job (4xx for what cannot run), then starts it in the background. */
  readonly submit: (input: SubmitInput, actor: AdminCaller) => Effect.Effect<DataMovementJob, Reject>
  /** 404 when there is no such job. */
  readonly get: (jobId: string) => DataMovementJob
  readonly store: JobStore
  /** Ends a running job FAILED with JOB_TERMINATED; 409 for a job that has finished. */
  readonly terminate: (jobId: string, actor: Caller) => DataMovementJob
  /** A new file to upload a job's source into. */
  readonly createUpload: (fileName: string | undefined) => StoredFile
  /** The upload itself (without `text`, only its checks): 404 for no such file, 403 for a wrong token or an expired URL. */
  readonly upload: (fileId: string, token: string, text?: string) => void
  /** A finished job's written file: 404 unless the token is the file's and the file is complete. */
  readonly download: (fileId: string, token: string) => { readonly name: string; readonly format: Format; readonly text: string }
  /**
   * Dev: lets running jobs run `batches` more batches, then holds them until released (`undefined`), so
   * tests can stop, terminate or restart a job at a known point.
   */
  readonly hold: (batches: number | undefined) => void
}

const isAdmin = (caller: Caller): caller is AdminCaller => caller.kind === "admin"

/** The kinds a source or destination names; the local platform moves `wixDataCollection` and `file`. */
const kindsOf = (value: object): ReadonlyArray<string> =>
  Object.entries(value).filter(([, v]) => v !== undefined && v !== null).map(([k]) => k)

const formatOfWire = (format: string | undefined): Format | undefined =>
  format === "CSV" ? "csv" : format === "JSONL" ? "jsonl" : undefined

/** A file's format when neither the job nor its name says: JSONL when it starts with an object. */
const sniff = (text: string): Format => (/^\uFEFF?\s*\{/.test(text) ? "jsonl" : "csv")

/** The REST names of the system fields (the official clients rename `_id` to `id` in every key they send). */
const SYSTEM_FIELDS: Readonly<Record<string, string>> = { id: "_id", createdDate: "_createdDate", updatedDate: "_updatedDate" }

/** A source filter with the REST names of the system fields read as the fields they name. */
const withSystemFields = (filter: unknown): unknown => {
  if (Array.isArray(filter)) return filter.map(withSystemFields)
  if (typeof filter !== "object" || filter === null) return filter
  return Object.fromEntries(Object.entries(filter).map(([k, v]) => [k.startsWith("$") ? k : SYSTEM_FIELDS[k] ?? k, k.startsWith("$") ? withSystemFields(v) : v]))
}

/** One source item of a batch: its data to write (or its stored JSON text), or why it cannot be read. */
type SourceEntry =
  | { readonly sourceItemId: string; readonly position: number; readonly data: Record<string, unknown> }
  | { readonly sourceItemId: string; readonly position: number; readonly failure: MovementError }

/** What the runner reads a job's source through: the next batch after a position, and how many items there are. */
interface SourceReader {
  readonly total: () => number
  readonly next: (after: number) => ReadonlyArray<SourceEntry>
}

/** A refusal as a job's error or an item's log; `more` joins its data (the item's id). */
const failureOf = (e: EngineFailure, more: Record<string, unknown> = {}): MovementError => {
  const data = { ...(e.data === undefined ? {} : isObject(e.data) ? e.data : { value: e.data }), ...more }
  return { code: e.code, description: e.description, ...(Object.keys(data).length === 0 ? {} : { data }) }
}

export class MovementJobs extends Context.Service<MovementJobs, MovementJobsShape>()("sitefx/server/data/MovementJobs") {
  static readonly layer: Layer.Layer<
    MovementJobs,
    never,
    Database | ServerClock | SiteRegistry | SiteEvents | DataCollections | ItemStore | Reads | ItemWrites
  > = Layer.effect(
    MovementJobs,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const site = yield* SiteRegistry
      const collections = yield* DataCollections
      const items = yield* ItemStore
      const reads = yield* Reads
      const writes = yield* ItemWrites
      const store = makeJobStore(db)
      const logEvent = jobEvents(yield* SiteEvents)
      const running = yield* FiberSet.make()

      let held: { remaining: number } | undefined
      const gate = yield* Latch.make(true)
      db.onReset(() => {
        held = undefined
        gate.openUnsafe()
      })

      const now = () => isoDate(clock.millis())

      const require = (jobId: string): JobRow => {
        const row = store.load(jobId)
        if (row === undefined) throw new EngineFailure({ status: 404, code: "JOB_NOT_FOUND", description: `There is no movement job ${jobId}.` })
        return row
      }

      /** Saves a job; a changed status is a `job_updated` event. */
      const save = (row: JobRow, job: DataMovementJob, state: RunState) => {
        store.save(job, state)
        if (job.status !== row.job.status) logEvent("updated", job, state.actor)
        return { ...row, job, state }
      }

      // ---- what a job moves from, checked when it is submitted ----

      const collectionSource = (from: MovementSource) => {
        const source = from.wixDataCollection!
        const filter = withSystemFields(source.filterQuery?.filter ?? source.filter ?? null)
        const fields = source.filterQuery?.fields ?? source.fields
        return { collectionId: source.collectionId, filter, fields: fields === undefined || fields.length === 0 ? undefined : fields }
      }

      const checkSubmit = (input: SubmitInput): void => {
        const sources = kindsOf(input.source)
        const destinations = kindsOf(input.destination)
        if (sources.length !== 1) throw badRequest("INVALID_SOURCE", `A job moves from exactly one source; this one names ${sources.length === 0 ? "none" : sources.join(", ")}.`)
        if (destinations.length !== 1) {
          throw badRequest("INVALID_DESTINATION", `A job moves to exactly one destination; this one names ${destinations.length === 0 ? "none" : destinations.join(", ")}.`)
        }
        const [source] = sources
        const [destination] = destinations
        if (source !== "wixDataCollection" && source !== "file") throw badRequest("UNSUPPORTED_SOURCE", `The local platform does not move data from ${source}.`)
        if (destination !== "wixDataCollection" && destination !== "file") {
          throw badRequest("UNSUPPORTED_DESTINATION", `The local platform does not move data to ${destination}.`)
        }
        if (source === "file" && destination === "file") throw badRequest("UNSUPPORTED_DESTINATION", "A file moves into a collection, not into another file.")
        const own = site.siteId()
        for (const [field, id] of [["sourceSiteId", input.sourceSiteId], ["destinationSiteId", input.destinationSiteId]] as const) {
          if (id !== undefined && id !== own) throw badRequest("UNSUPPORTED_SITE", `${field}: the local platform moves data within its own site only.`)
        }
        if (input.name !== undefined && input.name.length > 1024) throw badRequest("INVALID_NAME", "A job's name is at most 1024 characters.")

        const wixData = input.source.wixDataCollection
        if (wixData !== undefined) {
          const from = collectionSource(input.source)
          collections.require(from.collectionId)
          checkFilter(from.filter, "source.wixDataCollection.filterQuery.filter")
          if (from.fields !== undefined) {
            atMost(from.fields.length, MAX_PROJECTED_FIELDS, "source.wixDataCollection.filterQuery.fields", "A projection names")
            for (const f of from.fields) segments(f)
          }
        }
        const file = input.source.file
        if (file !== undefined) {
          const stored = store.file(file.fileId)
          if (stored === undefined || stored.kind !== "upload") throw new EngineFailure({ status: 404, code: "FILE_NOT_FOUND", description: `No file ${file.fileId} was created for upload.` })
          if (!stored.complete) throw badRequest("FILE_NOT_UPLOADED", `Nothing was uploaded to the file ${file.fileId} yet.`)
        }
        const into = input.destination.wixDataCollection
        if (into !== undefined) {
          collections.require(into.collectionId)
          // emptied first, the source would have nothing left to move
          if (into.writePolicy === "TRUNCATE_BEFORE" && wixData?.collectionId === into.collectionId) {
            throw badRequest("INVALID_DESTINATION", "TRUNCATE_BEFORE would empty the source collection before moving it into itself.")
          }
        }
        const out = input.destination.file
        if (out !== undefined) {
          if (formatOfWire(out.format) === undefined) throw badRequest("INVALID_FORMAT", "A file destination needs its format: CSV or JSONL.")
          if ((out.fileName?.length ?? 0) > 512) throw badRequest("INVALID_FILE_NAME", "A file name is at most 512 characters.")
        }
      }

      // ---- reading a job's source ----

      const readCollection = (job: DataMovementJob, state: RunState): SourceReader => {
        const from = collectionSource(job.source)
        const collection = collections.require(from.collectionId)
        const condition = reads.visible(accessFor(collection, "read", state.actor), from.filter)
        const columns = `seq, id, ${from.fields === undefined ? "data" : projection(ITEMS, from.fields)} AS doc`
        const upTo = state.endSeq ?? Number.MAX_SAFE_INTEGER
        return {
          total: () => items.count(collection.id, concat(condition, sql(" AND seq <= ?", upTo))),
          next: (after) =>
            items.select(collection.id, columns, concat(condition, sql(" AND seq > ? AND seq <= ?", after, upTo)), sql("ORDER BY seq LIMIT ?", MOVE_BATCH))
              .map((row) => ({ sourceItemId: String(row.id), position: Number(row.seq), data: JSON.parse(String(row.doc)) as Record<string, unknown> }))
        }
      }

      /** A file's records, read once per run of the job (a resumed job reads the file again and skips what it handled). */
      const readFile = (job: DataMovementJob, state: RunState, fields: ReadonlyMap<string, CollectionField>): SourceReader => {
        const fileId = job.source.file!.fileId
        const text = store.fileText(fileId)
        const format = state.format ?? "csv"
        const entriesOf = function*(): Generator<Entry> {
          const reader = makeRowReader(format, fields)
          const slice = 1 << 20
          for (let at = 0; at < text.length; at += slice) yield* reader.push(text.slice(at, at + slice))
          yield* reader.end()
        }
        const toSource = (e: Entry): SourceEntry =>
          isBad(e)
            ? { sourceItemId: String(e.line), position: e.line, failure: { code: "INVALID_ITEM", description: `line ${e.line}: ${e.reason}`, data: { line: e.line } } }
            : { sourceItemId: String(e.line), position: e.line, data: encodeDates(e.item) as Record<string, unknown> }
        let entries: Iterator<Entry> | undefined
        return {
          total: () => {
            let n = 0
            for (const _ of entriesOf()) n++
            return n
          },
          next: (after) => {
            entries ??= entriesOf()
            const out: Array<SourceEntry> = []
            while (out.length < MOVE_BATCH) {
              const step = entries.next()
              if (step.done === true) break
              if (step.value.line > after) out.push(toSource(step.value))
            }
            return out
          }
        }
      }

      // ---- writing a batch to its destination ----

      interface Outcome {
        readonly ok: number
        readonly logs: ReadonlyArray<MovementLog>
      }

      const intoCollection = (job: DataMovementJob, ctx: WriteContext, batch: ReadonlyArray<SourceEntry>): Outcome => {
        const policy = job.destination.wixDataCollection!.writePolicy ?? "OVERWRITE"
        const logs: Array<MovementLog> = []
        let ok = 0
        for (const entry of batch) {
          if ("failure" in entry) {
            logs.push({ sourceItemId: entry.sourceItemId, failure: entry.failure })
            continue
          }
          const id = typeof entry.data["_id"] === "string" ? entry.data["_id"] : undefined
          const outcome = catchFailure(() => {
            if (policy === "SKIP_EXISTING") {
              if (id !== undefined && items.get(ctx.collection.id, id) !== undefined) return "SKIPPED" as const
              return writes.insert(ctx, id === undefined ? { data: entry.data } : { id, data: entry.data }).action
            }
            return writes.save(ctx, id === undefined ? { data: entry.data } : { id, data: entry.data }).action
          })
          if (!outcome.ok) logs.push({ sourceItemId: entry.sourceItemId, failure: failureOf(outcome.failure, id === undefined ? {} : { itemId: id }) })
          else {
            ok++
            if (outcome.value === "SKIPPED") {
              logs.push({ sourceItemId: entry.sourceItemId, details: { skipped: true, reason: `An item with _id ${id} is in ${ctx.collection.id} already (SKIP_EXISTING).` } })
            }
          }
        }
        return { ok, logs }
      }

      /** Appends a batch to the destination file; a CSV file's first batch chooses its columns (as `sitefx data export` does). */
      const intoFile = (job: DataMovementJob, state: RunState, batch: ReadonlyArray<SourceEntry>): { readonly outcome: Outcome; readonly state: RunState } => {
        const format = formatOfWire(job.destination.file!.format)
        const found = batch.flatMap((e) => ("data" in e ? [e.data] : []))
        let text = ""
        let next = state
        if (format === "csv") {
          let columns = state.columns
          if (columns === undefined) {
            const from = collectionSource(job.source)
            columns = from.fields !== undefined
              ? (from.fields.includes("_id") ? from.fields : ["_id", ...from.fields])
              : columnsFor(collections.require(from.collectionId).fields, found)
            text += encodeRow(columns)
            next = { ...state, columns }
          }
          for (const item of found) text += encodeValues(columns.map((c) => item[c]))
        } else {
          for (const item of found) text += `${JSON.stringify(item)}\n`
        }
        if (text !== "") store.appendChunk(state.outputId!, batch[batch.length - 1]?.position ?? 0, text)
        return { outcome: { ok: found.length, logs: [] }, state: next }
      }

      // ---- running a job ----

      /** Runs `f` on the job in one transaction (with the destination's item events when it is a collection), unless it has stopped. */
      const step = <A>(jobId: string, f: (row: JobRow, ctx: WriteContext | undefined) => A): Effect.Effect<A | "stopped", EngineFailure> =>
        Effect.suspend(() => {
          const row = store.load(jobId)
          if (row === undefined || !RUNNING.has(row.job.status)) return Effect.succeed("stopped" as const)
          const into = row.job.destination.wixDataCollection
          try {
            if (into === undefined) return Effect.succeed(db.transaction(() => guarded(jobId, (r) => f(r, undefined))))
            const collection: DataCollection = collections.require(into.collectionId)
            return writes.commit(collection, row.state.actor, undefined, (ctx) => guarded(jobId, (r) => f(r, ctx))).pipe(
              Effect.mapError((reject) => new EngineFailure({ status: reject.status, code: reject.code ?? "WRITE_FAILED", description: reject.body.message ?? "The write failed." }))
            )
          } catch (e) {
            if (e instanceof EngineFailure) return Effect.fail(e)
            throw e
          }
        })

      /** Inside the transaction: the job as it is now (terminate may have come in between). */
      const guarded = <A>(jobId: string, f: (row: JobRow) => A): A | "stopped" => {
        const row = store.load(jobId)
        return row === undefined || !RUNNING.has(row.job.status) ? "stopped" : f(row)
      }

      const sourceOf = (row: JobRow): SourceReader => {
        if (row.job.source.wixDataCollection !== undefined) return readCollection(row.job, row.state)
        const into = collections.require(row.job.destination.wixDataCollection!.collectionId)
        return readFile(row.job, row.state, new Map((into.fields ?? []).map((f) => [f.key, f])))
      }

      /** Waits while a dev hold has no batches left. */
      const gated: Effect.Effect<void> = Effect.suspend((): Effect.Effect<void> => {
        if (held === undefined) return Effect.void
        if (held.remaining > 0) {
          held.remaining--
          return Effect.void
        }
        return Effect.andThen(gate.await, Effect.suspend(() => gated))
      })

      const finish = (row: JobRow): JobRow => {
        const progress = row.job.progress ?? {}
        const rejected = progress.itemsRejected ?? 0
        const moved = progress.itemsSuccessful ?? 0
        const done = { ...row.job, finishedAt: now() }
        let job: DataMovementJob
        if (rejected === 0) job = { ...done, status: "COMPLETED" }
        else if (moved === 0) {
          job = { ...done, status: "FAILED", error: { code: "ALL_ITEMS_REJECTED", description: `None of the ${rejected} items moved; the job's logs say why.` } }
        } else {
          job = { ...done, status: "PARTIALLY_SUCCESSFUL", partiallySuccessfulOptions: { cause: `${rejected} of ${rejected + moved} items were rejected; the job's logs say why.` } }
        }
        const outputId = row.state.outputId
        if (outputId !== undefined) {
          if (job.status !== "FAILED") {
            if (row.state.columns === undefined && formatOfWire(row.job.destination.file!.format) === "csv") {
              // no item at all: the file still says its columns
              const from = collectionSource(row.job.source)
              store.appendChunk(outputId, 0, encodeRow(from.fields ?? columnsFor(collections.require(from.collectionId).fields, [])))
            }
            store.completeFile(outputId)
            const file = store.file(outputId)!
            job = { ...job, destination: { ...job.destination, file: { ...job.destination.file!, url: filePath(file) } } }
          }
        }
        return save(row, job, row.state)
      }

      const fail = (jobId: string, error: MovementError) =>
        Effect.sync(() =>
          db.transaction(() => {
            const row = store.load(jobId)
            if (row === undefined || !RUNNING.has(row.job.status)) return
            save(row, { ...row.job, status: "FAILED", finishedAt: now(), error }, row.state)
          })
        )

      const run = (jobId: string): Effect.Effect<void> =>
        Effect.gen(function*() {
          yield* Effect.yieldNow
          // starting (again): the source is read afresh; counting and emptying happen once
          const started = yield* step(jobId, (row) =>
            row.job.status === "UNINITIALIZED" ? save(row, { ...row.job, status: "INITIALIZING" }, row.state) : row)
          if (started === "stopped") return
          yield* Effect.yieldNow
          const prepared = yield* step(jobId, (row, ctx) => {
            if (row.state.prepared === true) return row
            let state: RunState = { ...row.state, prepared: true }
            if (row.job.source.wixDataCollection !== undefined) {
              const from = collectionSource(row.job.source)
              state = { ...state, endSeq: Number(items.select(from.collectionId, "coalesce(max(seq), 0) AS s", sql("1"))[0]?.["s"] ?? 0) }
            } else {
              const file = store.file(row.job.source.file!.fileId)
              state = { ...state, format: formatOfWire(row.job.source.file!.format) ?? formatNamed(file?.name ?? "") ?? sniff(store.fileText(file?.id ?? "").slice(0, 1024)) }
            }
            const out = row.job.destination.file
            if (out !== undefined) {
              const format = formatOfWire(out.format) ?? "jsonl"
              state = { ...state, outputId: store.createFile("output", out.fileName ?? `${row.job.id}.${format}`, clock.millis(), format).id }
            }
            if (ctx !== undefined && row.job.destination.wixDataCollection?.writePolicy === "TRUNCATE_BEFORE") writes.truncate(ctx)
            const total = sourceOf({ ...row, state }).total()
            const progress: MovementProgress = { current: 0, total, itemsRejected: 0, itemsSuccessful: 0 }
            return save(row, { ...row.job, status: "IN_PROGRESS", progress }, state)
          })
          if (prepared === "stopped") return
          let source: SourceReader | undefined
          while (true) {
            yield* gated
            yield* Effect.yieldNow
            const moved = yield* step(jobId, (row, ctx) => {
              // a source collection deleted while the job runs ends it FAILED, saying so
              const from = row.job.source.wixDataCollection
              if (from !== undefined) collections.require(from.collectionId)
              source ??= sourceOf(row)
              const batch = source.next(row.state.position)
              if (batch.length === 0) return finish(row)
              let state = row.state
              let outcome: Outcome
              if (ctx !== undefined) outcome = intoCollection(row.job, ctx, batch)
              else {
                const written = intoFile(row.job, state, batch)
                outcome = written.outcome
                state = written.state
              }
              store.addLogs(row.job.id, outcome.logs)
              const p = row.job.progress ?? {}
              const failed = batch.length - outcome.ok
              const progress: MovementProgress = {
                ...p,
                current: (p.current ?? 0) + batch.length,
                itemsSuccessful: (p.itemsSuccessful ?? 0) + outcome.ok,
                itemsRejected: (p.itemsRejected ?? 0) + failed
              }
              const job: DataMovementJob = { ...row.job, progress, logsRecorded: (row.job.logsRecorded ?? 0) + outcome.logs.length }
              return save(row, job, { ...state, position: batch[batch.length - 1]!.position })
            })
            if (moved === "stopped" || !RUNNING.has(moved.job.status)) return
          }
        }).pipe(
          Effect.catchCause((cause) => {
            // a platform that stops leaves the job as its last batch left it: it resumes at the next start
            if (Cause.hasInterruptsOnly(cause)) return Effect.interrupt
            const failure = Cause.findErrorOption(cause)
            const error: MovementError = failure._tag === "Some"
              ? failureOf(failure.value)
              : { code: "INTERNAL", description: `The job stopped on an unexpected failure: ${String(Cause.squash(cause))}` }
            return fail(jobId, error)
          })
        )

      const start = (jobId: string) => FiberSet.run(running, run(jobId))

      // jobs a stopped platform left running: each resumes after its last committed batch (or fails saying why)
      for (const row of store.unfinished()) yield* start(row.job.id)

      return MovementJobs.of({
        store,
        submit: (input, actor) =>
          Effect.gen(function*() {
            const job = yield* attempt(() => db.transaction(() => {
              checkSubmit(input)
              const job: DataMovementJob = {
                ...input,
                id: randomUUID(),
                status: "UNINITIALIZED",
                startedAt: now(),
                progress: { current: 0, itemsRejected: 0, itemsSuccessful: 0 },
                logsRecorded: 0
              }
              const state: RunState = { actor: { kind: "admin", keyId: actor.keyId, session: undefined }, position: 0 }
              store.insert(job, state)
              logEvent("created", job, state.actor)
              return job
            }))
            yield* start(job.id)
            return job
          }),
        get: (jobId) => require(jobId).job,
        terminate: (jobId, actor) =>
          db.transaction(() => {
            const row = require(jobId)
            if (!RUNNING.has(row.job.status)) {
              throw new EngineFailure({ status: 409, code: "JOB_NOT_RUNNING", description: `The job ${jobId} has finished (${row.job.status}); there is nothing to terminate.` })
            }
            const job: DataMovementJob = {
              ...row.job,
              status: "FAILED",
              finishedAt: now(),
              error: { code: "JOB_TERMINATED", description: "The job was terminated before it finished." }
            }
            save(row, job, row.state)
            logEvent("deleted", job, isAdmin(actor) ? actor : row.state.actor)
            return job
          }),
        createUpload: (fileName) => store.createFile("upload", fileName, clock.millis(), undefined),
        upload: (fileId, token, text) => {
          const file = store.file(fileId)
          if (file === undefined || file.kind !== "upload") throw new EngineFailure({ status: 404, code: "FILE_NOT_FOUND", description: `No file ${fileId} was created for upload.` })
          if (file.token !== token) throw new EngineFailure({ status: 403, code: "INVALID_UPLOAD_URL", description: "The upload URL is not valid." })
          if (clock.millis() > file.createdAt + UPLOAD_URL_TTL_MILLIS) {
            throw new EngineFailure({ status: 403, code: "UPLOAD_URL_EXPIRED", description: "The upload URL has expired; create another." })
          }
          if (text !== undefined) store.putFile(fileId, text)
        },
        download: (fileId, token) => {
          const file = store.file(fileId)
          if (file === undefined || file.kind !== "output" || file.token !== token || !file.complete) {
            throw new EngineFailure({ status: 404, code: "FILE_NOT_FOUND", description: "No such file." })
          }
          return { name: file.name ?? file.id, format: file.format ?? "jsonl", text: store.fileText(fileId) }
        },
        hold: (batches) => {
          if (batches === undefined) {
            held = undefined
            gate.openUnsafe()
          } else {
            held = { remaining: batches }
            gate.closeUnsafe()
          }
        }
      })
    })
  )
}

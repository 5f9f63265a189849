/**
 * sitefx/data/movement-jobs: data movement jobs, with an API key. A job moves items in the background
 * from a collection (all of it, or what a filter matches, optionally only some fields) or from an
 * uploaded CSV or JSONL file, into a collection (overwriting, skipping or replacing what is there) or
 * into a CSV or JSONL file to download. `submit` answers the job at once; `progress` follows it as a
 * Stream of snapshots and `awaitDone` waits for it to finish. Every item a job could not move is in its
 * logs, with the item's id (or the file's line) and why.
 *
 * @example
 * import * as MovementJobs from "sitefx/data/movement-jobs"
 *
 * const fileId = yield* MovementJobs.upload("title,likes\nHello,3\n", { fileName: "posts.csv" })
 * const job = yield* MovementJobs.submit({ file: { fileId, format: "CSV" } }, { wixDataCollection: { collectionId: "Posts" } })
 * const done = yield* MovementJobs.awaitDone(job.id, { timeout: "1 minute" })
 * console.log(done.status, done.progress?.itemsSuccessful)
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { unlessInvalid } from "../http/checks.ts"
import { readAnswer } from "../http/answer.ts"
import { encodeDates } from "../http/codec.ts"
import type { Guard } from "../http/guard.ts"
import type { PlatformClient, PlatformClientShape } from "../http/PlatformClient.ts"
import { PlatformError } from "../http/PlatformError.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { fetchTransport } from "../http/transport.ts"
import { checkPageLimit, type DataFailure, failure, isObject } from "./calls.ts"
import { badAnswer, type DataError, invalid, WDE } from "./DataError.ts"
import { withClient } from "./withClient.ts"
import { Filter } from "./filterBuilder.ts"
import {
  CreateFileUploadUrlResponse,
  MovementJobResponse,
  MovementJobsResponse,
  MovementLogsResponse
} from "./guards/movementJobs.ts"
import { MOVEMENT_JOB_FINAL_STATUSES, MovementJobPaths } from "./protocol.ts"
import type * as W from "./wire/index.ts"

/** A job as the platform keeps it: its source and destination, status, progress and, when it finished, how. */
export type Job = W.DataMovementJob
/** Where a job stands. */
export type JobStatus = W.MovementJobStatus
/** What happened to one source item that did not move (or moved with details). */
export type MovementLog = W.MovementLog
/** A job's progress: items handled of the total, moved and rejected. */
export type Progress = W.MovementProgress

/** What a move into a collection does with an item whose `_id` is there already. */
export type WritePolicy = "OVERWRITE" | "SKIP_EXISTING" | "TRUNCATE_BEFORE"

/** Where a job moves items from: a collection (what `filter` matches, only `fields` when given), or an uploaded file. */
export type Source =
  | {
    readonly wixDataCollection: {
      readonly collectionId: string
      readonly filterQuery?: { readonly filter?: Filter | Readonly<Record<string, unknown>>; readonly fields?: ReadonlyArray<string> }
    }
  }
  | { readonly file: { readonly fileId: string; readonly format?: "CSV" | "JSONL" } }

/** Where a job moves items to: a collection (default policy OVERWRITE), or a file to download. */
export type Destination =
  | { readonly wixDataCollection: { readonly collectionId: string; readonly writePolicy?: WritePolicy } }
  | { readonly file: { readonly format: "CSV" | "JSONL"; readonly fileName?: string } }

/** One page of jobs or logs, and the cursor of the next page when there is one. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string | undefined
}

/** Options of a paged call: the page size and the cursor a previous page gave. */
export interface PageOptions {
  readonly limit?: number
  readonly cursor?: string
}

/** The most jobs a page lists (the platform's bound). */
export const MAX_JOBS_PAGE = 100
/** The most logs a page lists. */
export const MAX_LOGS_PAGE = 1000

/** Whether a status is final: the job will not change any more. */
export const isFinal = (status: JobStatus): boolean => (MOVEMENT_JOB_FINAL_STATUSES as ReadonlyArray<string>).includes(status)

const send = <A>(client: PlatformClientShape, req: PlatformRequest, guard: Guard<A>): Effect.Effect<A, DataFailure> =>
  client.json(req, guard).pipe(Effect.mapError(failure(undefined)))

const checkJobId = (jobId: unknown): DataError | undefined =>
  typeof jobId === "string" && jobId !== "" ? undefined : invalid(WDE.notString, "A job id must be a non-empty string.", "jobId")


const paging = (options: PageOptions) => ({
  ...(options.limit === undefined ? {} : { limit: options.limit }),
  ...(options.cursor === undefined ? {} : { cursor: options.cursor })
})

/** A filter as JSON: a Filter builder's tree (its recorded error, if any, refuses the call) or the platform's filter JSON. */
const filterJson = (filter: Filter | Readonly<Record<string, unknown>>): DataError | Record<string, unknown> => {
  if (filter instanceof Filter) return filter.error ?? (encodeDates(filter.tree) as Record<string, unknown>)
  return isObject(filter) ? encodeDates(filter) as Record<string, unknown> : invalid(WDE.filterNotObject, "A filter must be a Filter or a JSON object.", "filter")
}

/** The source as the wire has it: a Filter builder as its JSON. */
const wireSource = (source: Source): DataError | Record<string, unknown> => {
  if (!isObject(source)) return invalid(WDE.notString, "A source must name a collection or a file.", "source")
  if ("wixDataCollection" in source) {
    const from = source.wixDataCollection
    if (typeof from?.collectionId !== "string" || from.collectionId === "") return invalid(WDE.collectionNameNotString, "A source collection needs its id.", "source.wixDataCollection.collectionId")
    const q = from.filterQuery
    if (q === undefined) return { wixDataCollection: from }
    const filter = q.filter === undefined ? undefined : filterJson(q.filter)
    if (filter instanceof Error) return filter
    return { wixDataCollection: { ...from, filterQuery: { ...(filter === undefined ? {} : { filter }), ...(q.fields === undefined ? {} : { fields: q.fields }) } } }
  }
  if ("file" in source) {
    return typeof source.file?.fileId === "string" && source.file.fileId !== ""
      ? { file: source.file }
      : invalid(WDE.notString, "A file source needs the fileId that createFileUploadUrl answered.", "source.file.fileId")
  }
  return invalid(WDE.notString, "A source must name a collection or a file.", "source")
}

/**
 * Submits a job; the platform answers it at once and moves the items in the background. A source or
 * destination collection that does not exist is refused (WDE0025), as is a file not uploaded yet.
 *
 * @example
 * import * as MovementJobs from "sitefx/data/movement-jobs"
 * const job = yield* MovementJobs.submit(
 *   { wixDataCollection: { collectionId: "Posts", filterQuery: { filter: { likes: { $gt: 10 } }, fields: ["title"] } } },
 *   { file: { format: "CSV", fileName: "popular.csv" } },
 *   { name: "popular posts" }
 * )
 */
export const submit = (
  source: Source,
  destination: Destination,
  options: { readonly name?: string } = {}
): Effect.Effect<Job, DataFailure, PlatformClient> => {
  const wire = wireSource(source)
  return unlessInvalid(wire instanceof Error ? wire : isObject(destination) ? undefined : invalid(WDE.notString, "A destination must name a collection or a file.", "destination"), () =>
    withClient((client) =>
      send(client, {
        method: "POST",
        path: MovementJobPaths.jobs,
        payload: { source: wire, destination, ...(options.name === undefined ? {} : { name: options.name }) }
      }, MovementJobResponse).pipe(Effect.map((r) => r.job))
    ))
}

/**
 * A URL to upload a job's source file to (good for 15 minutes), and the id a file source names.
 *
 * @example
 * import * as MovementJobs from "sitefx/data/movement-jobs"
 * const { fileId, uploadUrl } = yield* MovementJobs.createFileUploadUrl({ fileName: "posts.jsonl" })
 * yield* MovementJobs.uploadFile(uploadUrl, '{"title": "Hello"}\n')
 */
export const createFileUploadUrl = (
  options: { readonly fileName?: string } = {}
): Effect.Effect<{ readonly fileId: string; readonly uploadUrl: string }, DataFailure, PlatformClient> =>
  withClient((client) =>
    send(client, { method: "POST", path: MovementJobPaths.uploadUrl, payload: options.fileName === undefined ? {} : { fileName: options.fileName } }, CreateFileUploadUrlResponse)
  )

const pathOf = (url: string): string | undefined => {
  try {
    return new URL(url).pathname
  } catch {
    return undefined
  }
}

/** PUTs `content` (CSV or JSONL text) to an upload URL; the URL carries its own authorization. */
export const uploadFile = (uploadUrl: string, content: string): Effect.Effect<void, DataFailure> => {
  const path = pathOf(uploadUrl)
  if (path === undefined) return Effect.fail(invalid(WDE.notString, `Not a URL: ${uploadUrl}`, "uploadUrl"))
  const fail = (reason: PlatformError["reason"]) => new PlatformError({ method: "PUT", path, reason })
  return fetchTransport({ method: "PUT", url: uploadUrl, body: content, headers: { "content-type": "application/octet-stream" } }).pipe(
    Effect.mapError(fail),
    Effect.flatMap((response) => readAnswer(response, fail)),
    Effect.asVoid,
    Effect.mapError(failure(undefined))
  )
}

/** Uploads `content` for a job's file source and gives its `fileId` (createFileUploadUrl, then uploadFile). */
export const upload = (content: string, options: { readonly fileName?: string } = {}): Effect.Effect<string, DataFailure, PlatformClient> =>
  Effect.flatMap(createFileUploadUrl(options), ({ fileId, uploadUrl }) => Effect.as(uploadFile(uploadUrl, content), fileId))

/** A job by its id (`JOB_NOT_FOUND`, 404, when there is none). */
export const get = (jobId: string): Effect.Effect<Job, DataFailure, PlatformClient> =>
  unlessInvalid(checkJobId(jobId), () =>
    withClient((client) => send(client, { method: "GET", path: MovementJobPaths.job(jobId), payload: { jobId } }, MovementJobResponse).pipe(Effect.map((r) => r.job))))

/**
 * One page of the site's jobs, in the order they were submitted.
 *
 * @example
 * import * as MovementJobs from "sitefx/data/movement-jobs"
 * const first = yield* MovementJobs.list({ limit: 10 })
 * const second = first.cursor === undefined ? undefined : yield* MovementJobs.list({ limit: 10, cursor: first.cursor })
 */
export const list = (options: PageOptions = {}): Effect.Effect<Page<Job>, DataFailure, PlatformClient> =>
  unlessInvalid(checkPageLimit(options.limit, MAX_JOBS_PAGE), () =>
    withClient((client) =>
      send(
        client,
        // no paging, no `.r` (as the official client sends it)
        options.limit === undefined && options.cursor === undefined
          ? { method: "GET", path: MovementJobPaths.jobs }
          : {
            method: "GET",
            path: MovementJobPaths.jobs,
            payload: { paging: paging(options) },
            complex: { fallback: { path: `${MovementJobPaths.jobs}/list`, limit: { kind: "url", max: 2048 } } }
          },
        MovementJobsResponse
      ).pipe(Effect.map((r) => ({ items: r.jobs, cursor: r.pagingMetadata?.cursors?.next ?? undefined })))
    ))

const pages = <A>(page: (cursor: string | undefined) => Effect.Effect<Page<A>, DataFailure, PlatformClient>): Stream.Stream<A, DataFailure, PlatformClient> =>
  Stream.paginate(undefined as string | undefined, (cursor) =>
    Effect.map(page(cursor), (p) => [p.items, p.cursor === undefined ? Option.none() : Option.some(p.cursor)] as const))

/** Every job of the site, page after page. */
export const stream = (options: { readonly pageSize?: number } = {}): Stream.Stream<Job, DataFailure, PlatformClient> =>
  pages((cursor) => list({ ...(options.pageSize === undefined ? {} : { limit: options.pageSize }), ...(cursor === undefined ? {} : { cursor }) }))

/**
 * One page of the jobs a filter matches, on `id`, `status`, `name`, `startedAt` and `finishedAt`, in
 * `sort` order (then as submitted). A next page's cursor carries the filter and sort.
 *
 * @example
 * import * as MovementJobs from "sitefx/data/movement-jobs"
 * const failed = yield* MovementJobs.query({ status: "FAILED" }, { sort: [{ fieldName: "startedAt", order: "DESC" }] })
 */
export const query = (
  filter: Filter | Readonly<Record<string, unknown>>,
  options: PageOptions & { readonly sort?: ReadonlyArray<{ readonly fieldName: string; readonly order?: "ASC" | "DESC" }> } = {}
): Effect.Effect<Page<Job>, DataFailure, PlatformClient> => {
  const json = filterJson(filter)
  return unlessInvalid(json instanceof Error ? json : checkPageLimit(options.limit, MAX_JOBS_PAGE), () =>
    withClient((client) =>
      send(client, {
        method: "GET",
        path: MovementJobPaths.query,
        payload: {
          query: {
            ...(options.cursor === undefined ? { filter: json } : {}),
            ...(options.sort === undefined || options.cursor !== undefined ? {} : { sort: options.sort }),
            cursorPaging: paging(options)
          }
        },
        complex: { fallback: { path: MovementJobPaths.query, limit: { kind: "url", max: 2048 } } }
      }, MovementJobsResponse).pipe(Effect.map((r) => ({ items: r.jobs, cursor: r.pagingMetadata?.cursors?.next ?? undefined })))
    ))
}

/**
 * Stops a running job before its next batch: it ends FAILED with the error code `JOB_TERMINATED`
 * (what moved so far stays moved). A job that has finished is refused (`JOB_NOT_RUNNING`, 409).
 */
export const terminate = (jobId: string): Effect.Effect<Job, DataFailure, PlatformClient> =>
  unlessInvalid(checkJobId(jobId), () =>
    withClient((client) =>
      send(client, { method: "POST", path: MovementJobPaths.terminate(jobId), payload: { jobId } }, MovementJobResponse).pipe(Effect.map((r) => r.job))
    ))

/** One page of a job's logs, oldest first. */
export const logs = (jobId: string, options: PageOptions = {}): Effect.Effect<Page<MovementLog>, DataFailure, PlatformClient> =>
  unlessInvalid(checkJobId(jobId) ?? checkPageLimit(options.limit, MAX_LOGS_PAGE), () =>
    withClient((client) =>
      send(client, { method: "GET", path: MovementJobPaths.logs(jobId), payload: options.limit === undefined && options.cursor === undefined ? { jobId } : { jobId, paging: paging(options) } }, MovementLogsResponse).pipe(
        Effect.map((r) => ({ items: r.logs, cursor: r.pagingMetadata?.cursors?.next ?? undefined }))
      )
    ))

/** Every log of a job, page after page. */
export const logStream = (jobId: string, options: { readonly pageSize?: number } = {}): Stream.Stream<MovementLog, DataFailure, PlatformClient> =>
  pages((cursor) => logs(jobId, { ...(options.pageSize === undefined ? {} : { limit: options.pageSize }), ...(cursor === undefined ? {} : { cursor }) }))

/** How often `progress` and `awaitDone` ask: every `interval` at first (default 100 ms), then less often, up to 5 s. */
const polling = (interval: Duration.Input | undefined) =>
  Schedule.min([Schedule.exponential(interval ?? "100 millis", 1.5), Schedule.spaced("5 seconds")])

const sameSnapshot = (a: Job, b: Job) =>
  a.status === b.status && JSON.stringify(a.progress ?? {}) === JSON.stringify(b.progress ?? {}) && a.logsRecorded === b.logsRecorded

/**
 * The job as it runs: a snapshot each time its status or progress changes, ending with the snapshot of
 * its final status (COMPLETED, PARTIALLY_SUCCESSFUL or FAILED).
 *
 * @example
 * import * as MovementJobs from "sitefx/data/movement-jobs"
 * declare const jobId: string
 * yield* MovementJobs.progress(jobId).pipe(
 *   Stream.runForEach((j) => Effect.log(`${j.status} ${j.progress?.current}/${j.progress?.total}`))
 * )
 */
export const progress = (jobId: string, options: { readonly interval?: Duration.Input } = {}): Stream.Stream<Job, DataFailure, PlatformClient> =>
  Stream.fromEffectSchedule(get(jobId), polling(options.interval)).pipe(
    Stream.changesWith(sameSnapshot),
    Stream.takeUntil((job) => isFinal(job.status))
  )

/**
 * Waits until the job finishes and gives it: COMPLETED, or PARTIALLY_SUCCESSFUL (its logs say which
 * items did not move). Fails with a DataError when it ends FAILED (the code is the job's error code,
 * `JOB_TERMINATED` for a terminated one), or when it is still running after `timeout` (`JOB_NOT_DONE`;
 * default 10 minutes).
 *
 * @example
 * import * as MovementJobs from "sitefx/data/movement-jobs"
 * declare const jobId: string
 * const done = yield* MovementJobs.awaitDone(jobId, { timeout: "2 minutes" })
 */
export const awaitDone = (
  jobId: string,
  options: { readonly timeout?: Duration.Input; readonly interval?: Duration.Input } = {}
): Effect.Effect<Job, DataFailure, PlatformClient> => {
  const timeout = Duration.fromInputUnsafe(options.timeout ?? "10 minutes")
  return progress(jobId, options).pipe(
    Stream.runLast,
    Effect.flatMap((last): Effect.Effect<Job, DataFailure> => {
      if (Option.isNone(last)) return Effect.fail(badAnswer("JOB_NOT_FOUND", `No snapshot of the job ${jobId}.`))
      const job = last.value
      return job.status === "FAILED"
        ? Effect.fail(badAnswer(job.error?.code ?? "JOB_FAILED", job.error?.description ?? `The job ${jobId} failed.`))
        : Effect.succeed(job)
    }),
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () => Effect.fail(badAnswer("JOB_NOT_DONE", `The job ${jobId} has not finished after ${Duration.format(timeout)}.`))
    })
  )
}

/** The file a finished job wrote (its destination file's download URL), as text. */
export const download = (job: Job): Effect.Effect<string, DataFailure> => {
  const url = job.destination.file?.url
  const path = url === undefined ? undefined : pathOf(url)
  if (url === undefined || path === undefined) return Effect.fail(badAnswer("NO_FILE", `The job ${job.id} has no file to download (yet).`))
  const fail = (reason: PlatformError["reason"]) => new PlatformError({ method: "GET", path, reason })
  return fetchTransport({ method: "GET", url, body: undefined, headers: {} }).pipe(
    Effect.mapError(fail),
    Effect.flatMap((response) =>
      response.status === 200 ? Effect.succeed(response.text) : Effect.flatMap(readAnswer(response, fail), () => Effect.succeed(response.text))
    ),
    Effect.mapError(failure(undefined))
  )
}

/**
 * The routes of the data movement jobs API (`/data-mover/v1/*`): submit, get, list, query, terminate
 * and the logs of jobs, all with an API key (visitors and members get 403, nobody 401); and the two
 * file routes a job's URLs point at, which carry their own token instead (as the platform's storage
 * URLs do): PUT an upload, GET a written file. List, query and logs page by opaque cursors.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { base64url, fromBase64url } from "../../../http/codec.ts"
import { checkFilter } from "../../store/filters.ts"
import {
  CreateFileUploadUrlRequest,
  CreateFileUploadUrlResponse,
  type CursorPaging,
  type DataMovementJob,
  FilterJson,
  ListMovementJobsRequest,
  ListMovementLogsRequest,
  MovementJobResponse,
  MovementJobsResponse,
  MovementLogsResponse,
  QueryMovementJobsRequest,
  Sorting,
  SubmitMovementJobRequest
} from "../../../data/wire/index.ts"
import { MovementJobPaths } from "../../../data/protocol.ts"
import { Callers } from "../../accounts/Callers.ts"
import { parseJson } from "../../platform/json.ts"
import { MAX_MOVEMENT_FILE_BYTES, MAX_SORT_FIELDS } from "../../platform/limits.ts"
import { invalidField, payloadTooLarge, type Reject, reply, replyEmpty } from "../../platform/responses.ts"
import { BodyLimit, bodyText, pathParam, query, requestOrigin, route } from "../../platform/routing.ts"
import { DataSettings } from "../DataSettings.ts"
import { atMost, attempt } from "../../store/engineFailures.ts"
import { dataBody } from "../requests.ts"
import { getPayload } from "../../store/payload.ts"
import { MovementJobs } from "./MovementJobs.ts"

const MOVER = "/data-mover/v1"

export const movementRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const jobs = yield* MovementJobs
  const settings = yield* DataSettings

  const body = <A, I>(schema: Schema.Codec<A, I>) => Effect.provideService(dataBody(schema), DataSettings, settings)

  /** The job as answered: its file's download URL on the host the caller reached. */
  const answer = (job: DataMovementJob) =>
    Effect.map(requestOrigin, (origin): DataMovementJob => {
      const url = job.destination.file?.url
      return url === undefined || !url.startsWith("/") ? job : { ...job, destination: { ...job.destination, file: { ...job.destination.file!, url: `${origin}${url}` } } }
    })

  const listJobs = (paging: CursorPaging | undefined) =>
    Effect.gen(function*() {
      const cursor = paging?.cursor ? yield* decodeCursor(ListCursor, paging.cursor) : undefined
      const limit = yield* limitOf(paging?.limit === undefined && cursor !== undefined ? { limit: cursor.limit } : paging, DEFAULT_JOBS_PAGE, MAX_JOBS_PAGE, "paging.limit")
      const rows = jobs.store.page(cursor?.after ?? 0, limit)
      const page = rows.slice(0, limit)
      const next = rows.length > limit ? encodeCursor({ k: "jobs", after: page[page.length - 1]!.seq, limit }) : undefined
      const answered = yield* Effect.forEach(page, (r) => answer(r.job))
      return reply(MovementJobsResponse, { jobs: answered, pagingMetadata: metadata(page.length, next) })
    })

  const queryJobs = (request: typeof QueryMovementJobsRequest.Type) =>
    Effect.gen(function*() {
      const q = request.query ?? {}
      const given = q.cursorPaging?.cursor
      const cursor = given ? yield* decodeCursor(QueryCursor, given) : undefined
      const limit = yield* limitOf(
        q.cursorPaging?.limit === undefined && cursor !== undefined ? { limit: cursor.limit } : q.cursorPaging,
        DEFAULT_JOBS_PAGE,
        MAX_JOBS_PAGE,
        "query.cursorPaging.limit"
      )
      // a cursor carries its query: the filter and sort of the first page hold for the next ones
      const filter = cursor !== undefined ? cursor.filter : q.filter ?? null
      const sort = cursor !== undefined ? cursor.sort : (q.sort ?? []).map((s) => (s.fieldName === "_id" ? { ...s, fieldName: "id" } : s))
      const offset = cursor?.offset ?? 0
      const rows = yield* attempt(() => {
        atMost(sort.length, MAX_SORT_FIELDS, "query.sort", "A query sorts by")
        const node = checkFilter(filter === null ? null : renameId(filter), "query.filter")
        return jobs.store.query(node, sort, offset, limit)
      })
      const page = rows.slice(0, limit)
      const next = rows.length > limit ? encodeCursor({ k: "query", filter, sort, offset: offset + limit, limit }) : undefined
      const answered = yield* Effect.forEach(page, (r) => answer(r.job))
      return reply(MovementJobsResponse, { jobs: answered, pagingMetadata: metadata(page.length, next) })
    })

  const PagingNumbers = { numbers: ["paging.limit"] }

  return [
    route(
      "POST",
      MovementJobPaths.jobs,
      Effect.gen(function*() {
        const admin = yield* callers.admin
        const request = yield* body(SubmitMovementJobRequest)
        const job = yield* jobs.submit(request, admin)
        return reply(MovementJobResponse, { job: yield* answer(job) })
      })
    ),
    route(
      "POST",
      MovementJobPaths.uploadUrl,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* body(CreateFileUploadUrlRequest)
        if ((request.fileName?.length ?? 0) > 512) return yield* invalidField("fileName", "A file name is at most 512 characters.", "MAX_LENGTH")
        const file = yield* attempt(() => jobs.createUpload(request.fileName ?? undefined))
        const origin = yield* requestOrigin
        return reply(CreateFileUploadUrlResponse, { fileId: file.id, uploadUrl: `${origin}${MOVER}/temporary-files/${file.id}?token=${file.token}` })
      })
    ),
    route(
      "PUT",
      `${MOVER}/temporary-files/:fileId`,
      Effect.gen(function*() {
        const fileId = yield* pathParam("fileId")
        const token = (yield* query).get("token") ?? ""
        // refused before the body is read: a wrong URL uploads nothing
        yield* attempt(() => jobs.upload(fileId, token))
        const text = yield* Effect.provideService(bodyText, BodyLimit, { maxBytes: MAX_MOVEMENT_FILE_BYTES, tooLarge: () => payloadTooLarge(MAX_MOVEMENT_FILE_BYTES) })
        yield* attempt(() => jobs.upload(fileId, token, text))
        return replyEmpty()
      })
    ),
    route(
      "GET",
      `${MOVER}/files/:fileId`,
      Effect.gen(function*() {
        const fileId = yield* pathParam("fileId")
        const token = (yield* query).get("token") ?? ""
        const file = yield* attempt(() => jobs.download(fileId, token))
        return HttpServerResponse.text(file.text, {
          status: 200,
          contentType: file.format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
          headers: { "content-disposition": `attachment; filename="${file.name.replace(/[^\w.\-]/g, "_")}"`, "cache-control": "no-store" }
        })
      })
    ),
    route(
      "GET",
      MovementJobPaths.jobs,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* getPayload(ListMovementJobsRequest, PagingNumbers)
        return yield* listJobs(request.paging)
      })
    ),
    // the official client's POST when the `.r` query would make the URL too long
    route(
      "POST",
      `${MOVER}/jobs/list`,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* body(ListMovementJobsRequest)
        return yield* listJobs(request.paging)
      })
    ),
    route(
      "GET",
      MovementJobPaths.query,
      Effect.gen(function*() {
        yield* callers.admin
        return yield* queryJobs(yield* getPayload(QueryMovementJobsRequest))
      })
    ),
    route(
      "POST",
      MovementJobPaths.query,
      Effect.gen(function*() {
        yield* callers.admin
        return yield* queryJobs(yield* body(QueryMovementJobsRequest))
      })
    ),
    route(
      "GET",
      `${MOVER}/jobs/:jobId`,
      Effect.gen(function*() {
        yield* callers.admin
        const jobId = yield* pathParam("jobId")
        const job = yield* attempt(() => jobs.get(jobId))
        return reply(MovementJobResponse, { job: yield* answer(job) })
      })
    ),
    route(
      "POST",
      `${MOVER}/jobs/:jobId/terminate`,
      Effect.gen(function*() {
        const admin = yield* callers.admin
        const jobId = yield* pathParam("jobId")
        // the body repeats the path's job id (the official client sends it); read, checked, not needed
        yield* body(TerminateMovementJobRequest)
        const job = yield* attempt(() => jobs.terminate(jobId, admin))
        return reply(MovementJobResponse, { job: yield* answer(job) })
      })
    ),
    route(
      "GET",
      `${MOVER}/jobs/:jobId/logs`,
      Effect.gen(function*() {
        yield* callers.admin
        const jobId = yield* pathParam("jobId")
        const request = yield* getPayload(ListMovementLogsRequest, PagingNumbers, { jobId })
        const paging = request.paging
        const cursor = paging?.cursor ? yield* decodeCursor(LogsCursor, paging.cursor) : undefined
        if (cursor !== undefined && cursor.job !== jobId) return yield* invalidField("paging.cursor", "The cursor belongs to another job's logs.", "FORMAT")
        const limit = yield* limitOf(paging?.limit === undefined && cursor !== undefined ? { limit: cursor.limit } : paging, DEFAULT_LOGS_PAGE, MAX_LOGS_PAGE, "paging.limit")
        yield* attempt(() => jobs.get(jobId))
        const rows = jobs.store.logs(jobId, cursor?.after ?? 0, limit)
        const page = rows.slice(0, limit)
        const next = rows.length > limit ? encodeCursor({ k: "logs", job: jobId, after: page[page.length - 1]!.seq, limit }) : undefined
        return reply(MovementLogsResponse, { logs: page.map((r) => r.log), pagingMetadata: metadata(page.length, next) })
      })
    )
  ]
}))

/** Jobs a page lists at most (the platform's bound), and by default. */
const MAX_JOBS_PAGE = 100

const DEFAULT_JOBS_PAGE = 50

/** Logs a page lists at most, and by default. */
const MAX_LOGS_PAGE = 1000

const DEFAULT_LOGS_PAGE = 100

const ListCursor = Schema.Struct({ k: Schema.Literal("jobs"), after: Schema.Int, limit: Schema.Int })

const QueryCursor = Schema.Struct({
  k: Schema.Literal("query"),
  filter: Schema.NullOr(FilterJson),
  sort: Schema.Array(Sorting),
  offset: Schema.Int,
  limit: Schema.Int
})

const LogsCursor = Schema.Struct({ k: Schema.Literal("logs"), job: Schema.String, after: Schema.Int, limit: Schema.Int })

const TerminateMovementJobRequest = Schema.Struct({ jobId: Schema.optionalKey(Schema.String) })

const encodeCursor = (state: object) => base64url(JSON.stringify(state))

/** A cursor this API gave out, of this kind; a 400 for anything else. */
const decodeCursor = <A, I>(schema: Schema.Codec<A, I>, cursor: string): Effect.Effect<A, Reject> => {
  const parsed = parseJson(fromBase64url(cursor), "paging.cursor", "The cursor")
  return parsed.ok && Schema.is(schema)(parsed.value)
    ? Effect.succeed(parsed.value as A)
    : Effect.fail(invalidField("paging.cursor", "The cursor was not given by this call.", "FORMAT"))
}

const limitOf = (paging: CursorPaging | undefined, fallback: number, max: number, field: string): Effect.Effect<number, Reject> => {
  const limit = paging?.limit ?? fallback
  return Number.isInteger(limit) && limit >= 1 && limit <= max
    ? Effect.succeed(limit)
    : Effect.fail(invalidField(field, `The limit must be a whole number from 1 to ${max}.`, "MAX", { max }))
}

const metadata = (count: number, next: string | undefined) => ({
  count,
  cursors: next === undefined ? {} : { next },
  hasNext: next !== undefined
})

/** `_id` in a jobs filter is the job's `id` (the official client renames it on the way; sitefx's callers may not). */
const renameId = (filter: unknown): unknown => {
  if (Array.isArray(filter)) return filter.map(renameId)
  if (typeof filter !== "object" || filter === null) return filter
  return Object.fromEntries(Object.entries(filter).map(([k, v]) => [k === "_id" ? "id" : k, k.startsWith("$") ? renameId(v) : v]))
}

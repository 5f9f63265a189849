/**
 * Data movement jobs (`/data-mover/v1/*`): a job moves items from a source (a collection, an uploaded
 * CSV or JSONL file) to a destination (a collection, a file to download) in the background, with its
 * progress and a log of the items it could not move.
 */
import * as Schema from "effect/Schema"
import { MOVEMENT_FILE_FORMATS, MOVEMENT_JOB_STATUSES, MOVEMENT_WRITE_POLICIES } from "../protocol.ts"
import { CursorPaging, FilterJson, PagingMetadata, Sorting } from "./common.ts"

/** Where a job stands: submitted, starting, moving items, or finished (completed, failed, partially successful). */
export const MovementJobStatus = Schema.Literals(MOVEMENT_JOB_STATUSES)
export type MovementJobStatus = typeof MovementJobStatus.Type
/** A job file's format: CSV or JSONL (UNKNOWN: told by the file's name or content). */
export const MovementFileFormat = Schema.Literals(MOVEMENT_FILE_FORMATS)
/** What a move into a collection does with an item whose id is there already. */
export const MovementWritePolicy = Schema.Literals(MOVEMENT_WRITE_POLICIES)

/** The items of a source collection to move: those matching `filter`, with only `fields` (and `_id`) when given. */
export const MovementFilterQuery = Schema.Struct({
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  fields: Schema.optionalKey(Schema.Array(Schema.String))
})
/** A collection to move items from; `filter` and `fields` at the top are the older form of `filterQuery`. */
export const MovementCollectionSource = Schema.Struct({
  collectionId: Schema.String,
  filterQuery: Schema.optionalKey(MovementFilterQuery),
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  fields: Schema.optionalKey(Schema.Array(Schema.String))
})
/** An uploaded file to move items from: the id `createFileUploadUrl` answered, and its format. */
export const MovementFileSource = Schema.Struct({
  format: Schema.optionalKey(MovementFileFormat),
  fileId: Schema.String,
  url: Schema.optionalKey(Schema.String)
})
/** Kinds of sources and destinations the platform has and the local platform does not move (refused when asked for). */
const OTHER_KINDS = Schema.optionalKey(Schema.Unknown)

/** Where a job moves items from: one kind of source. */
export const MovementSource = Schema.Struct({
  wixDataCollection: Schema.optionalKey(MovementCollectionSource),
  file: Schema.optionalKey(MovementFileSource),
  localization: OTHER_KINDS,
  test: OTHER_KINDS,
  dataMovementLogs: OTHER_KINDS,
  externalFile: OTHER_KINDS,
  googleSheets: OTHER_KINDS,
  wixMedia: OTHER_KINDS,
  wixDataCollectionDefinition: OTHER_KINDS,
  wixApi: OTHER_KINDS
})
export type MovementSource = typeof MovementSource.Type

/** A collection to move items into, and what to do with an item whose id is there already (default OVERWRITE). */
export const MovementCollectionDestination = Schema.Struct({
  collectionId: Schema.String,
  writePolicy: Schema.optionalKey(MovementWritePolicy)
})
/** A file to write the items to; the job gives its download `url` once it is written. */
export const MovementFileDestination = Schema.Struct({
  format: MovementFileFormat,
  fileName: Schema.optionalKey(Schema.NullOr(Schema.String)),
  url: Schema.optionalKey(Schema.String)
})
/** Where a job moves items to: one kind of destination. */
export const MovementDestination = Schema.Struct({
  wixDataCollection: Schema.optionalKey(MovementCollectionDestination),
  file: Schema.optionalKey(MovementFileDestination),
  localization: OTHER_KINDS,
  storesCatalogProducts: OTHER_KINDS,
  wixMedia: OTHER_KINDS,
  wixDataCollectionDefinition: OTHER_KINDS,
  storesCatalogInventory: OTHER_KINDS,
  wixApi: OTHER_KINDS,
  test: OTHER_KINDS
})
export type MovementDestination = typeof MovementDestination.Type

/** How far a job is: items handled (`current`) of `total`, and how many of them moved or were rejected. */
export const MovementProgress = Schema.Struct({
  current: Schema.optionalKey(Schema.Number),
  total: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  itemsRejected: Schema.optionalKey(Schema.Number),
  itemsSuccessful: Schema.optionalKey(Schema.Number)
})
export type MovementProgress = typeof MovementProgress.Type

/** Why a job failed, or why one item did not move: a code, a description, and data about it. */
export const MovementError = Schema.Struct({
  code: Schema.optionalKey(Schema.String),
  description: Schema.optionalKey(Schema.String),
  data: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)))
})
export type MovementError = typeof MovementError.Type

/** A data movement job: what it moves from where to where, where it stands, and when it started and finished (ISO times). */
export const DataMovementJob = Schema.Struct({
  id: Schema.String,
  status: MovementJobStatus,
  source: MovementSource,
  destination: MovementDestination,
  name: Schema.optionalKey(Schema.String),
  progress: Schema.optionalKey(MovementProgress),
  startedAt: Schema.optionalKey(Schema.NullOr(Schema.String)),
  finishedAt: Schema.optionalKey(Schema.NullOr(Schema.String)),
  error: Schema.optionalKey(MovementError),
  /** When the status is PARTIALLY_SUCCESSFUL: why. */
  partiallySuccessfulOptions: Schema.optionalKey(Schema.Struct({ cause: Schema.optionalKey(Schema.String) })),
  sourceSiteId: Schema.optionalKey(Schema.String),
  destinationSiteId: Schema.optionalKey(Schema.String),
  /** How many movement logs the job has written. */
  logsRecorded: Schema.optionalKey(Schema.Number)
})
export type DataMovementJob = typeof DataMovementJob.Type

/** `POST /data-mover/v1/jobs`: the job to start. */
export const SubmitMovementJobRequest = Schema.Struct({
  source: MovementSource,
  destination: MovementDestination,
  name: Schema.optionalKey(Schema.String),
  sourceSiteId: Schema.optionalKey(Schema.String),
  destinationSiteId: Schema.optionalKey(Schema.String)
})
/** The answer of submit, get and terminate: the job. */
export const MovementJobResponse = Schema.Struct({ job: DataMovementJob })

/** `POST /data-mover/v1/temporary-files/upload-url`: the name of the file to upload. */
export const CreateFileUploadUrlRequest = Schema.Struct({ fileName: Schema.optionalKey(Schema.NullOr(Schema.String)) })
/** Its answer: the file's id (for a job's file source) and the URL to PUT its bytes to. */
export const CreateFileUploadUrlResponse = Schema.Struct({ fileId: Schema.String, uploadUrl: Schema.String })

/** `GET /data-mover/v1/jobs` (`.r`): a page of the site's jobs, in the order they were submitted. */
export const ListMovementJobsRequest = Schema.Struct({ paging: Schema.optionalKey(CursorPaging) })
/** `GET /data-mover/v1/jobs/query` (`.r`): jobs matching a filter on `id`, `status`, `name`, `startedAt`, `finishedAt`. */
export const QueryMovementJobsRequest = Schema.Struct({
  query: Schema.optionalKey(Schema.Struct({
    filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
    sort: Schema.optionalKey(Schema.Array(Sorting)),
    cursorPaging: Schema.optionalKey(CursorPaging)
  }))
})
/** The answer of list and query: a page of jobs, with the cursor of the next. */
export const MovementJobsResponse = Schema.Struct({ jobs: Schema.Array(DataMovementJob), pagingMetadata: Schema.optionalKey(PagingMetadata) })

/** `GET /data-mover/v1/jobs/{jobId}/logs?paging.limit=&paging.cursor=`. */
export const ListMovementLogsRequest = Schema.Struct({ jobId: Schema.String, paging: Schema.optionalKey(CursorPaging) })
/** What happened to one source item: its id (an item id, or a file's line), why it did not move, or details of how it did. */
export const MovementLog = Schema.Struct({
  sourceItemId: Schema.optionalKey(Schema.String),
  failure: Schema.optionalKey(MovementError),
  details: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)))
})
export type MovementLog = typeof MovementLog.Type
/** The answer of the logs call: a page of logs, oldest first, with the cursor of the next. */
export const MovementLogsResponse = Schema.Struct({ logs: Schema.Array(MovementLog), pagingMetadata: Schema.optionalKey(PagingMetadata) })

/** Guards of the answers about data movement jobs. */
import * as G from "../../http/guard.ts"
import { MOVEMENT_FILE_FORMATS, MOVEMENT_JOB_STATUSES, MOVEMENT_WRITE_POLICIES } from "../protocol.ts"
import { paging } from "./common.ts"

const opt = G.optional
const nullable = <A>(g: G.Guard<A>) => opt(G.nullOr(g))
const other = opt(G.unknown)
const json = G.record(G.unknown)
const Format = G.literals(MOVEMENT_FILE_FORMATS)

const MovementSource = G.struct({
  wixDataCollection: opt(G.struct({
    collectionId: G.string,
    filterQuery: opt(G.struct({ filter: nullable(json), fields: opt(G.array(G.string)) })),
    filter: nullable(json),
    fields: opt(G.array(G.string))
  })),
  file: opt(G.struct({ format: opt(Format), fileId: G.string, url: opt(G.string) })),
  localization: other,
  test: other,
  dataMovementLogs: other,
  externalFile: other,
  googleSheets: other,
  wixMedia: other,
  wixDataCollectionDefinition: other,
  wixApi: other
})

const MovementDestination = G.struct({
  wixDataCollection: opt(G.struct({ collectionId: G.string, writePolicy: opt(G.literals(MOVEMENT_WRITE_POLICIES)) })),
  file: opt(G.struct({ format: Format, fileName: nullable(G.string), url: opt(G.string) })),
  localization: other,
  storesCatalogProducts: other,
  wixMedia: other,
  wixDataCollectionDefinition: other,
  storesCatalogInventory: other,
  wixApi: other,
  test: other
})

const MovementError = G.struct({ code: opt(G.string), description: opt(G.string), data: nullable(json) })

export const DataMovementJob = G.struct({
  id: G.string,
  status: G.literals(MOVEMENT_JOB_STATUSES),
  source: MovementSource,
  destination: MovementDestination,
  name: opt(G.string),
  progress: opt(G.struct({ current: opt(G.number), total: nullable(G.number), itemsRejected: opt(G.number), itemsSuccessful: opt(G.number) })),
  startedAt: nullable(G.string),
  finishedAt: nullable(G.string),
  error: opt(MovementError),
  partiallySuccessfulOptions: opt(G.struct({ cause: opt(G.string) })),
  sourceSiteId: opt(G.string),
  destinationSiteId: opt(G.string),
  logsRecorded: opt(G.number)
})
export const MovementJobResponse = G.struct({ job: DataMovementJob })
export const MovementJobsResponse = G.struct({ jobs: G.array(DataMovementJob), pagingMetadata: paging })
export const CreateFileUploadUrlResponse = G.struct({ fileId: G.string, uploadUrl: G.string })
export const MovementLog = G.struct({ sourceItemId: opt(G.string), failure: opt(MovementError), details: nullable(json) })
export const MovementLogsResponse = G.struct({ logs: G.array(MovementLog), pagingMetadata: paging })

/** Asynchronous jobs: patches and removals by filter, and their status. */
import * as Schema from "effect/Schema"
import { ASYNC_JOB_STATUSES } from "../protocol.ts"
import { FilterJson } from "./common.ts"
import { WriteOptions } from "./fields.ts"
import { FieldModification } from "./items.ts"

/** The body of `POST /bulk/items/async-patch-by-filter`: field modifications a background job applies to every item matching a filter. */
export const AsyncPatchByFilterRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  fieldModifications: Schema.Array(FieldModification),
  ...WriteOptions
})
/** The body of `POST /bulk/items/async-remove-by-filter`: the filter whose matching items a background job removes. */
export const AsyncRemoveByFilterRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  ...WriteOptions
})
/** The answer of the two by-filter calls: the id to follow the job with at `GET /async-jobs/{jobId}/status`. */
export const AsyncJobResponse = Schema.Struct({ jobId: Schema.String })
/** Where a background job stands: initialized, processing, succeeded or failed. */
export const AsyncJobStatus = Schema.Literals(ASYNC_JOB_STATUSES)
export type AsyncJobStatus = typeof AsyncJobStatus.Type
/** The answer of `GET /async-jobs/{jobId}/status`: the job's status and how many items it has changed so far. */
export const AsyncJobStatusResponse = Schema.Struct({
  status: AsyncJobStatus,
  successCount: Schema.optionalKey(Schema.Number)
})

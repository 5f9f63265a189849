/** Asynchronous jobs: patches and removals by filter, and their status. */
import * as Schema from "effect/Schema"
import { ASYNC_JOB_STATUSES } from "../protocol.ts"
import { FilterJson } from "./common.ts"
import { WriteOptions } from "./fields.ts"
import { FieldModification } from "./items.ts"

export const AsyncPatchByFilterRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  fieldModifications: Schema.Array(FieldModification),
  ...WriteOptions
})
export const AsyncRemoveByFilterRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  ...WriteOptions
})
export const AsyncJobResponse = Schema.Struct({ jobId: Schema.String })
export const AsyncJobStatus = Schema.Literals(ASYNC_JOB_STATUSES)
export type AsyncJobStatus = typeof AsyncJobStatus.Type
export const AsyncJobStatusResponse = Schema.Struct({
  status: AsyncJobStatus,
  successCount: Schema.optionalKey(Schema.Number)
})

/**
 * Writes the platform runs as jobs: a patch or a removal of every item a filter matches. Each gives a job
 * id, whose status can be asked for or awaited.
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import { first, unlessInvalid } from "../http/checks.ts"
import type * as G from "../http/guard.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { call, checkCollection, type DataFailure, post } from "./calls.ts"
import { withClient } from "./withClient.ts"
import type { Filter } from "./Filter.ts"
import { AsyncJobResponse, AsyncJobStatusResponse } from "./guards/jobs.ts"
import { Patch } from "./Patch.ts"
import { DataPaths } from "./protocol.ts"

/** A job's status and, when done, how many items it wrote. */
export type AsyncJobState = G.TypeOf<typeof AsyncJobStatusResponse>

/** Patches every item the filter matches, as a platform job; `run` sends it and gives the job id. */
export const patchByFilter = (collection: string, filter: Filter): Patch<string, PlatformClient> =>
  new Patch(
    (fieldModifications) =>
      withClient((client) =>
        post(client, collection, DataPaths.asyncPatchByFilter, { dataCollectionId: collection, filter: filter.tree, fieldModifications }, AsyncJobResponse).pipe(
          Effect.map((r) => r.jobId)
        )
      ),
    [],
    first(checkCollection(collection), filter.error)
  )

/** Removes every item the filter matches, as a platform job; the job id. */
export const removeByFilter = (collection: string, filter: Filter): Effect.Effect<string, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), filter.error), () =>
    withClient((client) =>
      post(client, collection, DataPaths.asyncRemoveByFilter, { dataCollectionId: collection, filter: filter.tree }, AsyncJobResponse).pipe(Effect.map((r) => r.jobId))
    ))

/** A job's status now. */
export const jobStatus = (jobId: string): Effect.Effect<AsyncJobState, DataFailure, PlatformClient> =>
  withClient((client) => call(client, undefined, { method: "GET", path: DataPaths.asyncJobStatus(jobId), payload: { jobId } }, AsyncJobStatusResponse))

/** Polls a job until it SUCCEEDED or FAILED (every 100 ms unless `every` says otherwise). */
export const awaitJob = (jobId: string, options: { readonly every?: Duration.Input } = {}): Effect.Effect<AsyncJobState, DataFailure, PlatformClient> =>
  jobStatus(jobId).pipe(
    Effect.repeat({ until: (s) => s.status === "SUCCEEDED" || s.status === "FAILED", schedule: Schedule.spaced(options.every ?? "100 millis") })
  )

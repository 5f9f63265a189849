/**
 * Async jobs (patch or remove by filter): the call answers at once with a job id; the job then runs
 * in the background in chunks, one transaction per chunk, so other requests interleave with it and
 * its progress (`successCount`) is visible while it runs. Items are visited in sequence order, each
 * once; an item a hook or the permissions refuse is skipped, and the job then ends FAILED.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import type { AsyncJobStatus, DataCollection, FieldModification } from "../../data/wire/index.ts"
import type { Caller } from "../platform/Caller.ts"
import { Database } from "../platform/Database.ts"
import { accessFor } from "./access.ts"
import { catchFailure } from "../store/engineFailures.ts"
import { ItemStore } from "./ItemStore.ts"
import { Reads } from "./Reads.ts"
import { concat, sql } from "../store/sql.ts"
import { ItemWrites } from "./Writes.ts"

export const JOB_CHUNK = 200

export interface JobState {
  readonly status: AsyncJobStatus
  readonly successCount: number
}

export type JobWork =
  | { readonly kind: "patch"; readonly fieldModifications: ReadonlyArray<FieldModification> }
  | { readonly kind: "remove" }

export interface AsyncJobsShape {
  /** Starts a job over the items matching `filter` that the caller may change; answers its id. */
  readonly start: (
    collection: DataCollection,
    caller: Caller,
    filter: unknown,
    work: JobWork,
    suppressHooks: boolean | undefined
  ) => Effect.Effect<string>
  readonly status: (jobId: string) => JobState | undefined
}

export class AsyncJobs extends Context.Service<AsyncJobs, AsyncJobsShape>()("sitefx/server/data/AsyncJobs") {
  static readonly layer: Layer.Layer<AsyncJobs, never, Database | ItemStore | Reads | ItemWrites> = Layer.effect(
    AsyncJobs,
    Effect.gen(function*() {
      const db = yield* Database
      const items = yield* ItemStore
      const reads = yield* Reads
      const writes = yield* ItemWrites
      const running = yield* FiberSet.make()
      const jobs = new Map<string, { status: AsyncJobStatus; successCount: number }>()
      db.onReset(() => jobs.clear())

      const run = (
        job: { status: AsyncJobStatus; successCount: number },
        collection: DataCollection,
        caller: Caller,
        filter: unknown,
        work: JobWork,
        suppressHooks: boolean | undefined
      ) =>
        Effect.gen(function*() {
          const action = work.kind === "patch" ? "update" : "remove"
          const matching = reads.visible(accessFor(collection, action, caller), filter)
          let after = 0
          let failed = false
          job.status = "PROCESSING"
          while (true) {
            yield* Effect.yieldNow
            const ids = items.select(collection.id, "seq, id", concat(matching, sql(" AND seq > ?", after)), sql("ORDER BY seq LIMIT ?", JOB_CHUNK))
            const last = ids[ids.length - 1]
            if (last === undefined) break
            after = Number(last.seq)
            const outcomes = yield* writes.commit(collection, caller, suppressHooks, (ctx) =>
              ids.map((row) =>
                catchFailure(() =>
                  work.kind === "patch"
                    ? writes.patch(ctx, String(row.id), work.fieldModifications)
                    : writes.remove(ctx, String(row.id))
                )
              ))
            job.successCount += outcomes.filter((o) => o.ok).length
            failed = failed || outcomes.some((o) => !o.ok)
          }
          job.status = failed ? "FAILED" : "SUCCEEDED"
        }).pipe(Effect.catchCause(() => Effect.sync(() => {
          job.status = "FAILED"
        })))

      return AsyncJobs.of({
        start: (collection, caller, filter, work, suppressHooks) =>
          Effect.gen(function*() {
            const id = randomUUID()
            const job = { status: "INITIALIZED" as AsyncJobStatus, successCount: 0 }
            jobs.set(id, job)
            yield* FiberSet.run(running, run(job, collection, caller, filter, work, suppressHooks))
            return id
          }),
        status: (jobId) => {
          const job = jobs.get(jobId)
          return job === undefined ? undefined : { status: job.status, successCount: job.successCount }
        }
      })
    })
  )
}

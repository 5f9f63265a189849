/**
 * sitefx/data/movement-jobs against the local platform: collection to collection with each write
 * policy; CSV and JSONL files into a collection with bad rows logged; a collection into CSV and JSONL
 * files and their download; filter and projection on the source; progress and awaitDone; list, stream,
 * query and logs; terminate; the events jobs log; refusals (visitors, members, an unknown job, a
 * missing collection, bad input); and jobs left running by a stopped platform, which resume where they
 * were (or end FAILED saying why) when it starts again on the same database.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as DataItems from "../../src/data/DataItems.ts"
import { Filter } from "../../src/data/Filter.ts"
import * as MovementJobs from "../../src/data/MovementJobs.ts"
import { MOVE_BATCH } from "../../src/server/data/movement/MovementJobs.ts"
import { dev, LocalPlatform } from "../support/platform.ts"
import { call, login, visitor } from "../server/support.ts"
import { asAdmin, freshCollection, posts } from "./support.ts"

const refusal = <A, E extends { readonly _tag: string; readonly code?: string; readonly status?: number | undefined }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flip(effect).pipe(Effect.map((e) => ({ tag: e._tag, code: e.code, status: e.status })))

const fast = { interval: "5 millis", timeout: "30 seconds" } as const

/** Items of a collection by id, without the system dates (they are the write's own). */
const contents = (collection: string) =>
  asAdmin(DataItems.query(collection).limit(1000).find).pipe(
    Effect.map((page) =>
      Object.fromEntries(page.items.map(({ _createdDate: _c, _updatedDate: _u, _owner: _o, ...rest }) => [rest._id, rest]))
    )
  )

const hold = (batches: number) => dev("/data/movement-jobs/hold", { body: { batches } })
const release = dev("/data/movement-jobs/hold", { method: "DELETE" })

/** The job once `predicate` holds for it (asked again and again: a status is waited for, never a time). */
const until = (jobId: string, predicate: (job: MovementJobs.Job) => boolean) =>
  asAdmin(MovementJobs.progress(jobId, { interval: "5 millis" }).pipe(Stream.filter(predicate), Stream.runHead)).pipe(
    Effect.map((found) => {
      if (found._tag === "None") throw new Error(`the job ${jobId} finished before it got there`)
      return found.value
    })
  )

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("sitefx/data/movement-jobs", (it) => {
  it.effect("collection to collection, OVERWRITE (the default): every item copied; existing ids overwritten", () =>
    Effect.gen(function*() {
      const from = yield* freshCollection("From")
      const into = yield* freshCollection("Into")
      yield* asAdmin(DataItems.bulkInsert(from, posts(250)))
      yield* asAdmin(DataItems.insert(into, { _id: "p0001", title: "old", extra: true }))
      yield* asAdmin(DataItems.insert(into, { _id: "other", title: "stays" }))
      const job = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { wixDataCollection: { collectionId: into } }, { name: "copy" }))
      assert.strictEqual(job.status, "UNINITIALIZED")
      assert.strictEqual(job.name, "copy")
      const done = yield* asAdmin(MovementJobs.awaitDone(job.id, fast))
      assert.strictEqual(done.status, "COMPLETED")
      assert.deepStrictEqual(done.progress, { current: 250, total: 250, itemsRejected: 0, itemsSuccessful: 250 })
      assert.isString(done.finishedAt)
      const items = yield* contents(into)
      assert.strictEqual(Object.keys(items).length, 251)
      assert.deepStrictEqual(items["p0001"], { _id: "p0001", title: "Post 1", likes: 1, tags: ["odd"], published: new Date(Date.UTC(2026, 0, 2)) })
      assert.deepStrictEqual(items["other"], { _id: "other", title: "stays" })
      assert.strictEqual(done.logsRecorded, 0)
    }))
})

/**
 * The platform's official `movementJobs` module (`@wix/data`) against the local platform, unchanged:
 * an upload URL and a PUT to it, a file job and a collection job submitted, got, listed, queried (the
 * builder and a query object), terminated, and their logs listed; and sitefx's
 * `sitefx/data/movement-jobs` sends what the official module sends for each call.
 */
import { assert, describe, it } from "@effect/vitest"
import { items, movementJobs } from "@wix/data"
import { ApiKeyStrategy, createClient } from "@wix/sdk"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as MovementJobs from "../../src/data/MovementJobs.ts"
import { MOVE_BATCH } from "../../src/server/data/movement/MovementJobs.ts"
import { freshCollection } from "../data/support.ts"
import { wireRecorder } from "../support/official.ts"

// the official client's hosts go to a local platform for this file; both sides' calls are recorded
const { onLocal, sitefx, sent } = wireRecorder()

const official = () =>
  createClient({ modules: { movementJobs, items }, auth: ApiKeyStrategy({ apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId }) })

const collection = () => onLocal.run(freshCollection("Compat"))

const dev = async (path: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await onLocal.fetch(`${onLocal.platform.url}/_sitefx${path}`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })
  assert.strictEqual(res.status, 200)
}

const FINAL = new Set(["COMPLETED", "FAILED", "PARTIALLY_SUCCESSFUL"])

/** The job once `predicate` holds (asked again until it does: a status is waited for, never a time). */
const until = async (jobId: string, predicate: (job: { status?: string; progress?: { current?: number } }) => boolean) => {
  for (let i = 0; i < 2000; i++) {
    const job = await official().movementJobs.getJob(jobId)
    if (predicate(job)) return job
    if (FINAL.has(job.status ?? "")) throw new Error(`the job ended ${job.status} first`)
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`the job ${jobId} never got there`)
}
const done = async (jobId: string) => {
  for (let i = 0; i < 2000; i++) {
    const job = await official().movementJobs.getJob(jobId)
    if (FINAL.has(job.status ?? "")) return job
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`the job ${jobId} never finished`)
}

describe("the official movementJobs module on the local platform", () => {
  it("uploads a file and imports it; exports a collection to a file; gets, lists, queries, terminates, lists logs", async () => {
    const client = official()
    const into = await onLocal.run(freshCollection("Compat", { fields: [{ key: "likes", type: "NUMBER" }] }))

    const { fileId, uploadUrl } = await client.movementJobs.createFileUploadUrl({ fileName: "posts.csv" })
    assert.isString(fileId)
    const put = await onLocal.fetch(uploadUrl!, { method: "PUT", body: "_id,title,likes\na,Hello,1\nb,\"Bad \"quote\",2\nc,World,3\n" })
    assert.strictEqual(put.status, 200)
    const { job } = await client.movementJobs.submitJob({ file: { fileId: fileId!, format: "CSV" } }, { wixDataCollection: { collectionId: into, writePolicy: "OVERWRITE" } }, { name: "import" })
    assert.isString(job?._id)
    assert.deepInclude(job, { name: "import", status: "UNINITIALIZED" })
    const imported = await done(job!._id!)
    assert.deepInclude(imported, { status: "PARTIALLY_SUCCESSFUL", logsRecorded: 1 })
    assert.deepStrictEqual(imported.progress, { current: 3, total: 3, itemsRejected: 1, itemsSuccessful: 2 })
    assert.instanceOf(imported.startedAt, Date)
    assert.instanceOf(imported.finishedAt, Date)
    const { logs, pagingMetadata } = await client.movementJobs.listMovementLogs(job!._id!, { paging: { limit: 10 } })
    assert.deepStrictEqual(logs?.map((l) => [l.sourceItemId, l.failure?.code]), [["3", "INVALID_ITEM"]])
    assert.strictEqual(pagingMetadata?.hasNext, false)
    const titles = (await client.items.query(into).find()).items.map((i) => i["title"]).sort()
    assert.deepStrictEqual(titles, ["Hello", "World"])

    const exported = await client.movementJobs.submitJob(
      { wixDataCollection: { collectionId: into, filterQuery: { filter: { likes: { $gt: 1 } }, fields: ["title"] } } },
      { file: { format: "JSONL", fileName: "out.jsonl" } }
    )
    const finished = await done(exported.job!._id!)
    assert.strictEqual(finished.status, "COMPLETED")
    const file = await (await onLocal.fetch(finished.destination!.file!.url!)).text()
    assert.deepStrictEqual(file.trim().split("\n").map((l) => JSON.parse(l)), [{ _id: "c", title: "World" }])

    const listed = await client.movementJobs.listJobs({ paging: { limit: 1 } })
    assert.strictEqual(listed.jobs?.length, 1)
    assert.isTrue(listed.pagingMetadata?.hasNext === true)
    const next = await client.movementJobs.listJobs({ paging: { limit: 100, cursor: listed.pagingMetadata!.cursors!.next! } })
    assert.includeMembers(next.jobs?.map((j) => j._id) ?? [], [exported.job!._id])

    const found = await client.movementJobs.queryJobs().eq("name", "import").find()
    assert.deepStrictEqual(found.items.map((j) => j._id), [job!._id])
    const byId = await client.movementJobs.queryJobs().eq("_id", exported.job!._id).find()
    assert.deepStrictEqual(byId.items.map((j) => j.status), ["COMPLETED"])
    const firstPage = await client.movementJobs.queryJobs().in("status", ["COMPLETED", "PARTIALLY_SUCCESSFUL"]).ascending("startedAt").limit(1).find()
    assert.deepStrictEqual([firstPage.items.length, firstPage.hasNext()], [1, true])
    const secondPage = await firstPage.next()
    assert.notStrictEqual(secondPage.items[0]?._id, firstPage.items[0]?._id)
    const typed = await client.movementJobs.queryJobs({ filter: { status: "COMPLETED" }, cursorPaging: { limit: 100 } })
    assert.include(typed.jobs?.map((j) => j._id) ?? [], exported.job!._id)

    // a long job, held after its first batch, then terminated
    const from = await collection()
    await client.items.bulkInsert(from, Array.from({ length: MOVE_BATCH * 3 }, (_, i) => ({ _id: `i${i}`, n: i })))
    await dev("/data/movement-jobs/hold", { body: { batches: 1 } })
    try {
      const long = await client.movementJobs.submitJob({ wixDataCollection: { collectionId: from } }, { wixDataCollection: { collectionId: await collection(), writePolicy: "TRUNCATE_BEFORE" } })
      await until(long.job!._id!, (j) => j.progress?.current === MOVE_BATCH)
      const terminated = await client.movementJobs.terminateJob(long.job!._id!)
      assert.deepInclude(terminated.job, { status: "FAILED" })
      assert.strictEqual(terminated.job?.error?.code, "JOB_TERMINATED")
      const again = await client.movementJobs.terminateJob(long.job!._id!).then(() => undefined, (e: { details?: { applicationError?: { code?: string } } }) => e)
      assert.strictEqual(again?.details?.applicationError?.code, "JOB_NOT_RUNNING")
    } finally {
      await dev("/data/movement-jobs/hold", { method: "DELETE" })
    }
    const missing = await client.movementJobs.getJob("no-such-job").then(() => undefined, (e: { details?: { applicationError?: { code?: string } } }) => e)
    assert.strictEqual(missing?.details?.applicationError?.code, "JOB_NOT_FOUND")
  })
})

describe("sitefx/data/movement-jobs sends what the official module sends", () => {
  it("createFileUploadUrl, submit, get, list, query, terminate and logs", async () => {
    const c = await collection()
    const o1 = await sent(() => official().movementJobs.createFileUploadUrl({ fileName: "a.csv" }))
    const s1 = await sent(() => sitefx(MovementJobs.createFileUploadUrl({ fileName: "a.csv" })))
    assert.deepStrictEqual(s1, o1)
    const o1b = await sent(() => official().movementJobs.createFileUploadUrl())
    const s1b = await sent(() => sitefx(MovementJobs.createFileUploadUrl()))
    assert.deepStrictEqual(s1b, o1b)

    const source = { wixDataCollection: { collectionId: c, filterQuery: { filter: { likes: { $gt: 1 } }, fields: ["title"] } } }
    const destination = { wixDataCollection: { collectionId: c, writePolicy: "SKIP_EXISTING" as const } }
    let officialJob = ""
    const o2 = await sent(async () => {
      officialJob = (await official().movementJobs.submitJob(source, destination, { name: "wire" })).job!._id!
    })
    let sitefxJob = ""
    const s2 = await sent(async () => {
      sitefxJob = (await sitefx(MovementJobs.submit(source, destination, { name: "wire" }))).id
    })
    assert.deepStrictEqual(s2, o2)
    await done(officialJob)
    await done(sitefxJob)

    const o3 = await sent(() => official().movementJobs.getJob(officialJob))
    const s3 = await sent(() => sitefx(MovementJobs.get(officialJob)))
    assert.deepStrictEqual(s3, o3)

    const o4 = await sent(() => official().movementJobs.listJobs({ paging: { limit: 5 } }))
    const s4 = await sent(() => sitefx(MovementJobs.list({ limit: 5 })))
    assert.deepStrictEqual(s4, o4)
    const o4b = await sent(() => official().movementJobs.listJobs())
    const s4b = await sent(() => sitefx(MovementJobs.list()))
    assert.deepStrictEqual(s4b, o4b)

    const o5 = await sent(() => official().movementJobs.queryJobs({ filter: { status: "COMPLETED" }, sort: [{ fieldName: "startedAt", order: "DESC" }], cursorPaging: { limit: 2 } }))
    const s5 = await sent(() => sitefx(MovementJobs.query({ status: "COMPLETED" }, { sort: [{ fieldName: "startedAt", order: "DESC" }], limit: 2 })))
    assert.deepStrictEqual(s5, o5)

    const o6 = await sent(() => official().movementJobs.listMovementLogs(officialJob, { paging: { limit: 3 } }))
    const s6 = await sent(() => sitefx(MovementJobs.logs(officialJob, { limit: 3 })))
    assert.deepStrictEqual(s6, o6)
    const o6b = await sent(() => official().movementJobs.listMovementLogs(officialJob))
    const s6b = await sent(() => sitefx(MovementJobs.logs(officialJob)))
    assert.deepStrictEqual(s6b, o6b)

    // terminate: both refused alike (the jobs have finished), having sent the same request
    const o7 = await sent(() => official().movementJobs.terminateJob(officialJob).catch(() => undefined))
    const s7 = await sent(() => sitefx(Effect.ignore(MovementJobs.terminate(officialJob))))
    assert.deepStrictEqual(s7, o7)
    assert.deepStrictEqual(o7.map((r) => [r.method, r.path]), [["POST", `/data-mover/v1/jobs/${officialJob}/terminate`]])
  })
})

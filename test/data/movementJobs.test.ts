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
import { request as httpRequest } from "node:http"
import { join } from "node:path"
import * as DataItems from "../../src/data/DataItems.ts"
import { Filter } from "../../src/data/Filter.ts"
import * as MovementJobs from "../../src/data/MovementJobs.ts"
import { MOVE_BATCH } from "../../src/server/data/movement/MovementJobs.ts"
import { MAX_MOVEMENT_FILE_BYTES } from "../../src/server/platform/limits.ts"
import { domainOf, loggedSince, logMark } from "../support/eventLog.ts"
import { dev, LocalPlatform, tempDir } from "../support/platform.ts"
import { call, login, visitor } from "../server/support.ts"
import { asAdmin, freshCollection, posts } from "./support.ts"
import { layerWithCore } from "../../src/server/LocalPlatform.ts"

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

/** `n` CSV rows without ids (each becomes a new item: a row moved twice would be two items). */
const csvRows = (n: number) => `title,likes\n${Array.from({ length: n }, (_, i) => `Row ${i},${i}`).join("\n")}\n`

const byTitle = (collection: string) =>
  Effect.map(contents(collection), (items) => Object.values(items).map((i) => i["title"]).sort())

it.layer(layerWithCore({ seed: "demo" }), { excludeTestServices: true })("sitefx/data/movement-jobs", (it) => {
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

  it.effect("collection to collection, SKIP_EXISTING: existing ids are left alone, and logged as skipped", () =>
    Effect.gen(function*() {
      const from = yield* freshCollection("From")
      const into = yield* freshCollection("Into")
      yield* asAdmin(DataItems.bulkInsert(from, [{ _id: "a", n: 1 }, { _id: "b", n: 2 }, { _id: "c", n: 3 }]))
      yield* asAdmin(DataItems.insert(into, { _id: "b", n: 20 }))
      const job = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { wixDataCollection: { collectionId: into, writePolicy: "SKIP_EXISTING" } }))
      const done = yield* asAdmin(MovementJobs.awaitDone(job.id, fast))
      assert.strictEqual(done.status, "COMPLETED")
      assert.deepStrictEqual(done.progress, { current: 3, total: 3, itemsRejected: 0, itemsSuccessful: 3 })
      assert.deepStrictEqual(yield* contents(into), { a: { _id: "a", n: 1 }, b: { _id: "b", n: 20 }, c: { _id: "c", n: 3 } })
      const logs = yield* asAdmin(MovementJobs.logs(job.id))
      assert.deepStrictEqual(logs.items.map((l) => [l.sourceItemId, l.details?.["skipped"]]), [["b", true]])
      assert.strictEqual(done.logsRecorded, 1)
    }))

  it.effect("collection to collection, TRUNCATE_BEFORE: the destination holds the moved items only", () =>
    Effect.gen(function*() {
      const from = yield* freshCollection("From")
      const into = yield* freshCollection("Into")
      yield* asAdmin(DataItems.bulkInsert(from, [{ _id: "a", n: 1 }, { _id: "b", n: 2 }]))
      yield* asAdmin(DataItems.bulkInsert(into, [{ _id: "b", n: 20 }, { _id: "old", n: 0 }]))
      const job = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { wixDataCollection: { collectionId: into, writePolicy: "TRUNCATE_BEFORE" } }))
      const done = yield* asAdmin(MovementJobs.awaitDone(job.id, fast))
      assert.strictEqual(done.status, "COMPLETED")
      assert.deepStrictEqual(yield* contents(into), { a: { _id: "a", n: 1 }, b: { _id: "b", n: 2 } })
    }))

  it.effect("a filter and a projection on the source: only matching items move, with only the fields named (and _id)", () =>
    Effect.gen(function*() {
      const from = yield* freshCollection("From")
      const into = yield* freshCollection("Into")
      yield* asAdmin(DataItems.bulkInsert(from, posts(30)))
      const job = yield* asAdmin(MovementJobs.submit(
        { wixDataCollection: { collectionId: from, filterQuery: { filter: Filter.ge("likes", 8), fields: ["title", "likes"] } } },
        { wixDataCollection: { collectionId: into } }
      ))
      const done = yield* asAdmin(MovementJobs.awaitDone(job.id, fast))
      assert.deepStrictEqual(done.progress, { current: 6, total: 6, itemsRejected: 0, itemsSuccessful: 6 })
      assert.deepStrictEqual(yield* contents(into), {
        p0008: { _id: "p0008", title: "Post 8", likes: 8 },
        p0009: { _id: "p0009", title: "Post 9", likes: 9 },
        p0018: { _id: "p0018", title: "Post 18", likes: 8 },
        p0019: { _id: "p0019", title: "Post 19", likes: 9 },
        p0028: { _id: "p0028", title: "Post 28", likes: 8 },
        p0029: { _id: "p0029", title: "Post 29", likes: 9 }
      })
      // the platform's JSON form of a filter, and `id` for `_id` as the official client sends it
      const byId = yield* asAdmin(MovementJobs.submit(
        { wixDataCollection: { collectionId: from, filterQuery: { filter: { id: { $in: ["p0001", "p0002"] } } } } },
        { wixDataCollection: { collectionId: yield* freshCollection("Into") } }
      ))
      assert.strictEqual((yield* asAdmin(MovementJobs.awaitDone(byId.id, fast))).progress?.itemsSuccessful, 2)
    }))

  it.effect("items the destination refuses are logged with their id and error; the job ends PARTIALLY_SUCCESSFUL, or FAILED when none moved", () =>
    Effect.gen(function*() {
      const from = yield* freshCollection("From")
      const into = yield* freshCollection("Unique")
      yield* asAdmin(DataItems.bulkInsert(from, [{ _id: "a", email: "ada@example.com" }, { _id: "b", email: "grace@example.com" }, { _id: "c", email: "ADA@example.com" }]))
      yield* asAdmin(DataItems.insert(into, { _id: "z", email: "grace@example.com" }))
      yield* asAdmin(Effect.gen(function*() {
        const Indexes = yield* Effect.promise(() => import("../../src/data/Indexes.ts"))
        yield* Indexes.create(into, { name: "email", fields: [{ path: "email" }], unique: true, caseInsensitive: true })
        yield* Indexes.awaitActive(into, "email", { interval: "5 millis" })
      }))
      const job = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { wixDataCollection: { collectionId: into } }))
      const done = yield* asAdmin(MovementJobs.awaitDone(job.id, fast))
      assert.strictEqual(done.status, "PARTIALLY_SUCCESSFUL")
      assert.deepStrictEqual(done.progress, { current: 3, total: 3, itemsRejected: 2, itemsSuccessful: 1 })
      assert.match(done.partiallySuccessfulOptions?.cause ?? "", /2 of 3 items were rejected/)
      const logs = yield* asAdmin(MovementJobs.logStream(job.id).pipe(Stream.runCollect))
      assert.deepStrictEqual(logs.map((l) => [l.sourceItemId, l.failure?.code, l.failure?.data?.["itemId"]]), [
        ["b", "UNIQUE_INDEX_VIOLATION", "b"],
        ["c", "UNIQUE_INDEX_VIOLATION", "c"]
      ])
      assert.deepStrictEqual(Object.keys(yield* contents(into)).sort(), ["a", "z"])

      // a data hook refuses every insert: nothing moved, the job FAILED, each item logged with the hook's error
      const hooked = yield* freshCollection("Hooked")
      yield* dev("/data/hooks", { body: { dataCollectionId: hooked, hook: "beforeInsert", error: { name: "Error", message: "no imports today" } } })
      const refused = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { wixDataCollection: { collectionId: hooked } }))
      const failed = yield* Effect.flip(asAdmin(MovementJobs.awaitDone(refused.id, fast)))
      assert.strictEqual(failed.code, "ALL_ITEMS_REJECTED")
      const after = yield* asAdmin(MovementJobs.get(refused.id))
      assert.deepStrictEqual([after.status, after.progress?.itemsRejected, after.progress?.itemsSuccessful], ["FAILED", 3, 0])
      const hookLogs = yield* asAdmin(MovementJobs.logs(refused.id, { limit: 2 }))
      assert.deepStrictEqual(hookLogs.items.map((l) => [l.sourceItemId, l.failure?.code, l.failure?.description]), [["a", "WDE0078", "no imports today"], ["b", "WDE0078", "no imports today"]])
      const rest = yield* asAdmin(MovementJobs.logs(refused.id, { cursor: hookLogs.cursor! }))
      assert.deepStrictEqual([rest.items.map((l) => l.sourceItemId), rest.cursor], [["c"], undefined])
      yield* dev("/data/hooks", { method: "DELETE" })
    }))

  it.effect("a CSV file into a collection: cells typed by the collection's fields, a bad row logged by its line", () =>
    Effect.gen(function*() {
      const into = yield* freshCollection("Csv", { fields: [{ key: "likes", type: "NUMBER" }, { key: "published", type: "DATE" }, { key: "title", type: "TEXT" }] })
      const csv = "_id,title,likes,published\na,Hello,3,2026-01-05\nb,\"Comma, quoted\",x,2026-01-06\nc,World,7,\n"
      const { fileId, uploadUrl } = yield* asAdmin(MovementJobs.createFileUploadUrl({ fileName: "posts.csv" }))
      yield* MovementJobs.uploadFile(uploadUrl, csv)
      const job = yield* asAdmin(MovementJobs.submit({ file: { fileId } }, { wixDataCollection: { collectionId: into } }))
      const done = yield* asAdmin(MovementJobs.awaitDone(job.id, fast))
      assert.strictEqual(done.status, "PARTIALLY_SUCCESSFUL")
      assert.deepStrictEqual(done.progress, { current: 3, total: 3, itemsRejected: 1, itemsSuccessful: 2 })
      assert.deepStrictEqual(yield* contents(into), {
        a: { _id: "a", title: "Hello", likes: 3, published: new Date("2026-01-05") },
        c: { _id: "c", title: "World", likes: 7 }
      })
      const logs = yield* asAdmin(MovementJobs.logs(job.id))
      assert.deepStrictEqual(logs.items.map((l) => [l.sourceItemId, l.failure?.code, l.failure?.description]), [["3", "INVALID_ITEM", "line 3: likes: \"x\" is not a number"]])
    }))

  it.effect("a JSONL file into a collection (format told by its name, ids generated where rows have none); a line that is not JSON is logged", () =>
    Effect.gen(function*() {
      const into = yield* freshCollection("Jsonl")
      const jsonl = '{"_id": "a", "when": {"$date": "2026-02-01T10:00:00.000Z"}, "tags": ["x"]}\n{not json\n\n{"title": "no id"}\n[1, 2]\n'
      const fileId = yield* asAdmin(MovementJobs.upload(jsonl, { fileName: "rows.jsonl" }))
      const job = yield* asAdmin(MovementJobs.submit({ file: { fileId } }, { wixDataCollection: { collectionId: into } }))
      const done = yield* asAdmin(MovementJobs.awaitDone(job.id, fast))
      assert.deepStrictEqual([done.status, done.progress], ["PARTIALLY_SUCCESSFUL", { current: 4, total: 4, itemsRejected: 2, itemsSuccessful: 2 }])
      const items = Object.values(yield* contents(into))
      assert.deepStrictEqual(items.find((i) => i._id === "a"), { _id: "a", when: new Date("2026-02-01T10:00:00.000Z"), tags: ["x"] })
      assert.deepStrictEqual(items.filter((i) => i._id !== "a").map((i) => i["title"]), ["no id"])
      const logs = yield* asAdmin(MovementJobs.logs(job.id))
      assert.deepStrictEqual(logs.items.map((l) => l.sourceItemId), ["2", "5"])
      assert.match(logs.items[0]!.failure?.description ?? "", /^line 2: invalid JSON/)
      assert.strictEqual(logs.items[1]!.failure?.description, "line 5: not a JSON object but an array")
    }))

  it.effect("a collection into CSV and JSONL files: the job gives a download URL, the file holds the items (filtered, projected)", () =>
    Effect.gen(function*() {
      const from = yield* freshCollection("Export", { fields: [{ key: "title", type: "TEXT" }, { key: "likes", type: "NUMBER" }] })
      yield* asAdmin(DataItems.bulkInsert(from, posts(4)))
      const csvJob = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { file: { format: "CSV", fileName: "posts.csv" } }))
      const csvDone = yield* asAdmin(MovementJobs.awaitDone(csvJob.id, fast))
      assert.strictEqual(csvDone.status, "COMPLETED")
      const platform = yield* LocalPlatform
      assert.isTrue(csvDone.destination.file?.url?.startsWith(`${platform.url}/`))
      const csv = yield* MovementJobs.download(csvDone)
      const lines = csv.trim().split("\n")
      // the columns `sitefx data export` writes: _id, the collection's fields, then the other keys of the first items
      assert.strictEqual(lines[0], "_id,_createdDate,_updatedDate,_owner,title,likes,tags,published")
      assert.match(lines[1]!, /^p0000,\d{4}-[^,]+,\d{4}-[^,]+,[^,]*,Post 0,0,"\[""even""\]",2026-01-01T00:00:00.000Z$/)
      assert.strictEqual(lines.length, 5)

      const jsonlJob = yield* asAdmin(MovementJobs.submit(
        { wixDataCollection: { collectionId: from, filterQuery: { filter: { likes: { $gt: 1 } }, fields: ["title", "published"] } } },
        { file: { format: "JSONL" } }
      ))
      const jsonlDone = yield* asAdmin(MovementJobs.awaitDone(jsonlJob.id, fast))
      const rows = (yield* MovementJobs.download(jsonlDone)).trim().split("\n").map((l) => JSON.parse(l))
      assert.deepStrictEqual(rows, [
        { _id: "p0002", title: "Post 2", published: { $date: "2026-01-03T00:00:00.000Z" } },
        { _id: "p0003", title: "Post 3", published: { $date: "2026-01-04T00:00:00.000Z" } }
      ])
      // the file is the job's: without its token, nothing
      const url = new URL(jsonlDone.destination.file!.url!)
      const wrong = yield* call("GET", `${url.pathname}?token=wrong`)
      assert.strictEqual(wrong.status, 404)
      // an empty source still makes a CSV file with its header
      const empty = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from, filterQuery: { filter: { likes: 99 } } } }, { file: { format: "CSV" } }))
      const emptyDone = yield* asAdmin(MovementJobs.awaitDone(empty.id, fast))
      assert.strictEqual(yield* MovementJobs.download(emptyDone), "_id,_createdDate,_updatedDate,_owner,title,likes\n")
    }))

  it.effect("progress is a Stream of snapshots ending at the final status; list, stream and query page through jobs", () =>
    Effect.gen(function*() {
      const from = yield* freshCollection("Progress")
      yield* asAdmin(DataItems.bulkInsert(from, posts(MOVE_BATCH * 3)))
      const job = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { wixDataCollection: { collectionId: yield* freshCollection("Into") } }, { name: "tracked" }))
      const snapshots = yield* asAdmin(MovementJobs.progress(job.id, { interval: "1 millis" }).pipe(Stream.runCollect))
      const last = snapshots[snapshots.length - 1]!
      assert.strictEqual(last.status, "COMPLETED")
      assert.deepStrictEqual(last.progress, { current: MOVE_BATCH * 3, total: MOVE_BATCH * 3, itemsRejected: 0, itemsSuccessful: MOVE_BATCH * 3 })
      const order = ["UNINITIALIZED", "INITIALIZING", "IN_PROGRESS", "COMPLETED"]
      const seen = snapshots.map((s) => order.indexOf(s.status))
      assert.deepStrictEqual(seen, [...seen].sort((a, b) => a - b))
      assert.isTrue(snapshots.slice(0, -1).every((s) => !MovementJobs.isFinal(s.status)))

      const first = yield* asAdmin(MovementJobs.list({ limit: 2 }))
      assert.strictEqual(first.items.length, 2)
      assert.isString(first.cursor)
      const all = yield* asAdmin(MovementJobs.stream({ pageSize: 3 }).pipe(Stream.runCollect))
      assert.deepStrictEqual(all.slice(0, 2).map((j) => j.id), first.items.map((j) => j.id))
      assert.strictEqual(all[all.length - 1]!.id, job.id)
      assert.strictEqual(new Set(all.map((j) => j.id)).size, all.length)

      const named = yield* asAdmin(MovementJobs.query({ name: "tracked" }))
      assert.deepStrictEqual([named.items.map((j) => j.id), named.cursor], [[job.id], undefined])
      const byId = yield* asAdmin(MovementJobs.query(Filter.eq("_id", job.id)))
      assert.deepStrictEqual(byId.items.map((j) => j.id), [job.id])
      const partial = yield* asAdmin(MovementJobs.query({ status: { $in: ["PARTIALLY_SUCCESSFUL"] } }, { sort: [{ fieldName: "startedAt", order: "DESC" }], limit: 1 }))
      assert.deepStrictEqual(partial.items.map((j) => j.status), ["PARTIALLY_SUCCESSFUL"])
      const next = yield* asAdmin(MovementJobs.query({}, { cursor: partial.cursor!, limit: 1 }))
      assert.strictEqual(next.items[0]!.status, "PARTIALLY_SUCCESSFUL")
      assert.isTrue(next.items[0]!.startedAt! <= partial.items[0]!.startedAt!)
    }))

  it.effect("terminate stops a running job before its next batch: FAILED with JOB_TERMINATED, what moved stays; a finished job cannot be terminated", () =>
    Effect.gen(function*() {
      const from = yield* freshCollection("Long")
      const into = yield* freshCollection("Into")
      yield* asAdmin(DataItems.bulkInsert(from, posts(MOVE_BATCH * 4)))
      yield* hold(1)
      const job = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { wixDataCollection: { collectionId: into } }))
      yield* until(job.id, (j) => j.progress?.current === MOVE_BATCH)
      const terminated = yield* asAdmin(MovementJobs.terminate(job.id))
      assert.deepStrictEqual([terminated.status, terminated.error?.code], ["FAILED", "JOB_TERMINATED"])
      yield* release
      const failed = yield* Effect.flip(asAdmin(MovementJobs.awaitDone(job.id, fast)))
      assert.strictEqual(failed.code, "JOB_TERMINATED")
      const after = yield* asAdmin(MovementJobs.get(job.id))
      assert.deepStrictEqual([after.status, after.progress?.current, after.progress?.total], ["FAILED", MOVE_BATCH, MOVE_BATCH * 4])
      assert.strictEqual(yield* asAdmin(DataItems.query(into).count), MOVE_BATCH)
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.terminate(job.id))), { tag: "DataError", code: "JOB_NOT_RUNNING", status: 409 })
    }))

  it.effect("a job logs job_created, a job_updated per status, and job_deleted when terminated, as the API key that submitted it", () =>
    Effect.gen(function*() {
      const from = yield* freshCollection("Events")
      yield* asAdmin(DataItems.bulkInsert(from, posts(3)))
      const mark = yield* logMark
      const job = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { file: { format: "JSONL" } }))
      yield* asAdmin(MovementJobs.awaitDone(job.id, fast))
      const events = (yield* loggedSince(mark)).filter((e) => e.type.startsWith("wix.hub.v1.job_"))
      assert.deepStrictEqual(events.map((e) => [e.type, domainOf(e).entityId, domainOf(e).slug]), [
        ["wix.hub.v1.job_created", job.id, "created"],
        ["wix.hub.v1.job_updated", job.id, "updated"],
        ["wix.hub.v1.job_updated", job.id, "updated"],
        ["wix.hub.v1.job_updated", job.id, "updated"]
      ])
      assert.deepStrictEqual(events.map((e) => (domainOf(e) as any).updatedEvent?.currentEntity?.status ?? (domainOf(e) as any).createdEvent?.entity?.status), [
        "UNINITIALIZED",
        "INITIALIZING",
        "IN_PROGRESS",
        "COMPLETED"
      ])
      assert.strictEqual(events[0]!.identity.identityType, "WIX_USER")

      yield* hold(0)
      const held = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { file: { format: "JSONL" } }))
      yield* until(held.id, (j) => j.status === "IN_PROGRESS")
      const before = yield* logMark
      yield* asAdmin(MovementJobs.terminate(held.id))
      yield* release
      const ended = (yield* loggedSince(before)).filter((e) => e.type.startsWith("wix.hub.v1.job_"))
      assert.deepStrictEqual(ended.map((e) => e.type), ["wix.hub.v1.job_updated", "wix.hub.v1.job_deleted"])
      assert.strictEqual((domainOf(ended[1]!) as any).deletedEvent?.deletedEntity?.error?.code, "JOB_TERMINATED")
    }))

  it.effect("refusals: visitors and members 403, nobody 401, an unknown job 404, a missing collection 404, bad input 400", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const c = yield* freshCollection("Refusals")
      const guest = yield* visitor
      const member = yield* login(platform.demoMember!.email, Redacted.value(platform.demoMember!.password))
      const submit = { source: { wixDataCollection: { collectionId: c } }, destination: { wixDataCollection: { collectionId: c } } }
      for (const [method, path, body] of [
        ["POST", "/data-mover/v1/jobs", submit],
        ["GET", "/data-mover/v1/jobs", undefined],
        ["GET", "/data-mover/v1/jobs/query", undefined],
        ["GET", "/data-mover/v1/jobs/x", undefined],
        ["POST", "/data-mover/v1/jobs/x/terminate", {}],
        ["GET", "/data-mover/v1/jobs/x/logs", undefined],
        ["POST", "/data-mover/v1/temporary-files/upload-url", {}]
      ] as const) {
        assert.strictEqual((yield* call(method, path, { body, auth: guest.access_token })).status, 403, `${method} ${path} as a visitor`)
        assert.strictEqual((yield* call(method, path, { body, auth: member.access_token })).status, 403, `${method} ${path} as a member`)
        assert.strictEqual((yield* call(method, path, { body })).status, 401, `${method} ${path} without a token`)
      }

      const notFound = { tag: "DataError", code: "JOB_NOT_FOUND", status: 404 }
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.get("no-such-job"))), notFound)
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.terminate("no-such-job"))), notFound)
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.logs("no-such-job"))), notFound)

      const missing = { tag: "DataError", code: "WDE0025", status: 404 }
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: "NoSuch" } }, { wixDataCollection: { collectionId: c } }))), missing)
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: c } }, { wixDataCollection: { collectionId: "NoSuch" } }))), missing)
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.submit({ file: { fileId: "no-such-file" } }, { wixDataCollection: { collectionId: c } }))), { tag: "DataError", code: "FILE_NOT_FOUND", status: 404 })
      const { fileId, uploadUrl } = yield* asAdmin(MovementJobs.createFileUploadUrl())
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.submit({ file: { fileId } }, { wixDataCollection: { collectionId: c } }))), { tag: "DataError", code: "FILE_NOT_UPLOADED", status: 400 })
      const badToken = uploadUrl.replace(/token=[^&]+/, "token=wrong")
      assert.deepStrictEqual(yield* refusal(MovementJobs.uploadFile(badToken, "a\n")), { tag: "DataError", code: "INVALID_UPLOAD_URL", status: 403 })

      const bad = (body: unknown) => Effect.map(call("POST", "/data-mover/v1/jobs", { body, auth: Redacted.value(platform.apiKey) }), (r) => [r.status, r.body?.details?.applicationError?.code ?? "validation"])
      const collection = { wixDataCollection: { collectionId: c } }
      assert.deepStrictEqual(yield* bad({ destination: collection }), [400, "validation"])
      assert.deepStrictEqual(yield* bad({ source: {}, destination: collection }), [400, "INVALID_SOURCE"])
      assert.deepStrictEqual(yield* bad({ source: { ...collection, file: { fileId } }, destination: collection }), [400, "INVALID_SOURCE"])
      assert.deepStrictEqual(yield* bad({ source: { googleSheets: { spreadsheetId: "s" } }, destination: collection }), [400, "UNSUPPORTED_SOURCE"])
      assert.deepStrictEqual(yield* bad({ source: collection, destination: { file: { format: "UNKNOWN" } } }), [400, "INVALID_FORMAT"])
      assert.deepStrictEqual(yield* bad({ source: collection, destination: { file: { format: "XML" } } }), [400, "validation"])
      assert.deepStrictEqual(yield* bad({ source: { wixDataCollection: { collectionId: c, filterQuery: { filter: { a: { $regex: "x" } } } } }, destination: collection }), [400, "WDE0070"])
      assert.deepStrictEqual(yield* bad({ source: collection, destination: collection, sourceSiteId: "another-site" }), [400, "UNSUPPORTED_SITE"])
      assert.deepStrictEqual(yield* bad({ source: collection, destination: { wixDataCollection: { collectionId: c, writePolicy: "TRUNCATE_BEFORE" } } }), [400, "INVALID_DESTINATION"])
      assert.deepStrictEqual(yield* bad({ source: collection, destination: { wixDataCollection: { collectionId: c, writePolicy: "MERGE" } } }), [400, "validation"])
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.list({ limit: 101 }))), { tag: "DataError", code: "WDE0033", status: undefined })
      assert.deepStrictEqual(yield* refusal(asAdmin(MovementJobs.get(""))), { tag: "DataError", code: "WDE0044", status: undefined })
      const wrongCursor = yield* call("GET", "/data-mover/v1/jobs?paging.cursor=bm90LW91cnM", { auth: Redacted.value(platform.apiKey) })
      assert.strictEqual(wrongCursor.status, 400)
    }))

  it.effect("an upload over the size limit is refused with 413 before it is read; an expired upload URL with 403", () =>
    Effect.gen(function*() {
      const { uploadUrl } = yield* asAdmin(MovementJobs.createFileUploadUrl({ fileName: "big.csv" }))
      const status = yield* Effect.promise(() =>
        new Promise<number>((resolve, reject) => {
          const url = new URL(uploadUrl)
          const request = httpRequest(url, { method: "PUT", headers: { "content-length": String(MAX_MOVEMENT_FILE_BYTES + 1) } }, (response) => {
            response.resume()
            resolve(response.statusCode ?? 0)
            request.destroy()
          })
          request.on("error", reject)
          request.write("a,b\n")
        })
      )
      assert.strictEqual(status, 413)
      const { uploadUrl: later } = yield* asAdmin(MovementJobs.createFileUploadUrl())
      yield* dev("/clock", { body: { skewSeconds: 16 * 60 } })
      const expired = yield* refusal(MovementJobs.uploadFile(later, "a\n"))
      yield* dev("/clock", { body: { skewSeconds: 0 } })
      assert.deepStrictEqual(expired, { tag: "DataError", code: "UPLOAD_URL_EXPIRED", status: 403 })
    }))
})

/** Runs `effect` against a platform on the database `file`, stopped afterwards (running jobs stop with it). */
const onFile = <A, E>(file: string, effect: Effect.Effect<A, E, LocalPlatform>) =>
  Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(LocalPlatform.layer({ db: file }))
    return yield* Effect.provideContext(effect, context)
  }))

describe("movement jobs across a restart", () => {
  it.live("a job left running resumes after its last batch: every row of the file moved exactly once", () =>
    Effect.scoped(Effect.gen(function*() {
      const file = join(yield* tempDir("sitefx-movement-"), "platform.db")
      const rows = MOVE_BATCH * 5
      const { jobId, into } = yield* onFile(file, Effect.gen(function*() {
        const into = yield* freshCollection("Resumed")
        const fileId = yield* asAdmin(MovementJobs.upload(csvRows(rows), { fileName: "rows.csv" }))
        yield* hold(2)
        const job = yield* asAdmin(MovementJobs.submit({ file: { fileId } }, { wixDataCollection: { collectionId: into } }))
        const stopped = yield* until(job.id, (j) => j.progress?.current === MOVE_BATCH * 2)
        assert.strictEqual(stopped.status, "IN_PROGRESS")
        return { jobId: job.id, into }
      }))
      yield* onFile(file, Effect.gen(function*() {
        const done = yield* asAdmin(MovementJobs.awaitDone(jobId, fast))
        assert.deepStrictEqual([done.status, done.progress], ["COMPLETED", { current: rows, total: rows, itemsRejected: 0, itemsSuccessful: rows }])
        const titles = yield* asAdmin(DataItems.query(into).limit(1000).find.pipe(Effect.map((p) => p.items.map((i) => String(i["title"])))))
        assert.strictEqual(titles.length, rows)
        assert.deepStrictEqual(new Set(titles), new Set(Array.from({ length: rows }, (_, i) => `Row ${i}`)))
      }))
    })))

  it.live("a job that cannot go on after a restart (its source collection was deleted) ends FAILED saying why, and does not hang", () =>
    Effect.scoped(Effect.gen(function*() {
      const file = join(yield* tempDir("sitefx-movement-"), "platform.db")
      const jobId = yield* onFile(file, Effect.gen(function*() {
        const from = yield* freshCollection("Gone")
        yield* asAdmin(DataItems.bulkInsert(from, posts(MOVE_BATCH * 2)))
        yield* hold(1)
        const job = yield* asAdmin(MovementJobs.submit({ wixDataCollection: { collectionId: from } }, { file: { format: "JSONL" } }))
        yield* until(job.id, (j) => j.progress?.current === MOVE_BATCH)
        const platform = yield* LocalPlatform
        assert.strictEqual((yield* call("DELETE", `/wix-data/v2/collections/${from}`, { auth: Redacted.value(platform.apiKey) })).status, 200)
        return job.id
      }))
      yield* onFile(file, Effect.gen(function*() {
        const failed = yield* Effect.flip(asAdmin(MovementJobs.awaitDone(jobId, fast)))
        assert.strictEqual(failed.code, "WDE0025")
        const job = yield* asAdmin(MovementJobs.get(jobId))
        assert.deepStrictEqual([job.status, job.progress?.current], ["FAILED", MOVE_BATCH])
        assert.match(job.error?.description ?? "", /does not exist/)
        assert.isUndefined(job.destination.file?.url)
      }))
    })))
})

/**
 * The platform's official `backups` module (`@wix/data`) against the local platform, unchanged: create,
 * list (filtered, paged), restore, partial restore, list restorations, delete; and sitefx's
 * `sitefx/data/backups` sends what the official module sends for each call.
 */
import { assert, describe, it } from "@effect/vitest"
import { backups, items } from "@wix/data"
import { ApiKeyStrategy, createClient } from "@wix/sdk"
import * as Redacted from "effect/Redacted"
import * as Backups from "../../src/data/Backups.ts"
import { freshCollection } from "../data/support.ts"
import { wireRecorder } from "../support/official.ts"

// the official client's hosts go to a local platform for this file; both sides' calls are recorded
const { onLocal, sitefx, sent } = wireRecorder()

const official = () =>
  createClient({ modules: { backups, items }, auth: ApiKeyStrategy({ apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId }) })

const ready = async (id: string) => {
  for (let i = 0; i < 500; i++) {
    const { backups: all } = await official().backups.listBackups()
    const found = all?.find((b) => b._id === id)
    if (found !== undefined && found.status !== "PENDING") return found
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`backup ${id} still PENDING`)
}
const restored = async (id: string) => {
  for (let i = 0; i < 500; i++) {
    const { restorations: all } = await official().backups.listRestorations()
    const found = all?.find((r) => r._id === id)
    if (found !== undefined && found.status !== "PENDING") return found
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`restoration ${id} still PENDING`)
}

describe("the official backups module on the local platform", () => {
  it("takes a backup, restores it whole and in part, lists both, deletes it", async () => {
    const c = await onLocal.run(freshCollection("CompatBackup"))
    const client = official()
    await client.items.bulkInsert(c, [{ _id: "a", title: "A" }, { _id: "b", title: "B" }])
    const { backup } = await client.backups.createBackup()
    assert.strictEqual(backup?.status, "PENDING")
    const done = await ready(backup!._id!)
    assert.strictEqual(done.status, "READY")
    assert.instanceOf(done.requestedDate, Date)
    assert.isTrue(done.collections?.some((x) => x._id === c))

    await client.items.remove(c, "a")
    const { restoration } = await client.backups.restoreBackup(backup!._id!)
    assert.strictEqual(restoration?.backup?._id, backup!._id)
    assert.strictEqual((await restored(restoration!._id!)).status, "COMPLETED")
    assert.isNotNull(await client.items.get(c, "a"))

    await client.items.remove(c, "b")
    const partial = await client.backups.restorePartialBackup(backup!._id!, [{ dataCollectionId: c, restoreDestination: { dataCollectionId: `${c}_copy` } }])
    assert.strictEqual((await restored(partial.restoration!._id!)).status, "COMPLETED")
    assert.isNull(await client.items.get(c, "b"), "the partial restoration went to the copy")
    assert.isNotNull(await client.items.get(`${c}_copy`, "b"))

    const { backups: readyOnes, pagingMetadata } = await client.backups.listBackups({ status: ["READY"], paging: { limit: 1 } })
    assert.deepStrictEqual(readyOnes?.map((b) => b._id), [backup!._id])
    assert.strictEqual(pagingMetadata?.total, 1)
    const { restorations } = await client.backups.listRestorations({ status: ["COMPLETED"] })
    assert.includeMembers(restorations!.map((r) => r._id), [restoration!._id, partial.restoration!._id])

    await client.backups.deleteBackup(backup!._id!)
    const { backups: deleted } = await client.backups.listBackups({ status: ["DELETED"] })
    assert.strictEqual(deleted?.[0]?.status, "DELETED")
    assert.instanceOf(deleted?.[0]?.deletedDate, Date)
    const refused = await client.backups.restoreBackup(backup!._id!).then(() => undefined, (e: Error) => e)
    assert.match(String(refused), /only a READY backup/)
  })
})

describe("sitefx/data/backups sends what the official module sends", () => {
  it("create, list (filtered and paged), restore, partial restore, restorations, delete", async () => {
    await onLocal.run(freshCollection("WireBackup"))
    const o1 = await sent(() => official().backups.createBackup())
    const s1 = await sent(() => sitefx(Backups.create))
    assert.deepStrictEqual(s1, o1)
    const id = (await ready((await official().backups.listBackups()).backups![0]!._id!))._id!
    await ready((await official().backups.listBackups()).backups![1]!._id!)

    const o2 = await sent(() => official().backups.listBackups({ status: ["READY", "FAILED"], type: ["ON_DEMAND"], paging: { limit: 5, offset: 1 } }))
    const s2 = await sent(() => sitefx(Backups.list({ status: ["READY", "FAILED"], type: ["ON_DEMAND"], limit: 5, offset: 1 })))
    assert.deepStrictEqual(s2, o2)

    const o3 = await sent(() => official().backups.restoreBackup(id))
    const s3 = await sent(() => sitefx(Backups.restore(id)))
    assert.deepStrictEqual(s3, o3)

    const collections = [{ dataCollectionId: "Posts", restoreDestination: { dataCollectionId: "PostsCopy", displayName: "Copy" } }]
    const o4 = await sent(() => official().backups.restorePartialBackup(id, collections))
    const s4 = await sent(() => sitefx(Backups.restorePartial(id, collections)))
    assert.deepStrictEqual(s4, o4)

    const o5 = await sent(() => official().backups.listRestorations({ status: ["COMPLETED"], paging: { limit: 3 } }))
    const s5 = await sent(() => sitefx(Backups.restorations({ status: ["COMPLETED"], limit: 3 })))
    assert.deepStrictEqual(s5, o5)
    const o7 = await sent(() => official().backups.listBackups())
    const s7 = await sent(() => sitefx(Backups.list()))
    assert.deepStrictEqual(s7, o7)

    // both restorations must end before the backup can go
    for (const r of (await official().backups.listRestorations()).restorations!) await restored(r._id!)
    const o6 = await sent(() => official().backups.deleteBackup(id))
    const other = (await official().backups.listBackups({ status: ["READY"] })).backups![0]!._id!
    const s6 = await sent(() => sitefx(Backups.remove(other)))
    assert.deepStrictEqual(s6, o6.map((r) => ({ ...r, path: r.path.replace(id, other), query: { ...r.query, backupId: other } })))
  })
})

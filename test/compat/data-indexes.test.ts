/**
 * The platform's official `indexes` module (`@wix/data`) against the local platform, unchanged: create,
 * list and drop, a unique index that refuses a duplicate, an index over clashing values that ends FAILED;
 * and sitefx's `sitefx/data/indexes` sends what the official module sends for each call.
 */
import { assert, describe, it } from "@effect/vitest"
import { indexes, items } from "@wix/data"
import { ApiKeyStrategy, createClient } from "@wix/sdk"
import * as Redacted from "effect/Redacted"
import * as Indexes from "../../src/data/Indexes.ts"
import { freshCollection } from "../data/support.ts"
import { wireRecorder } from "../support/official.ts"

// the official client's hosts go to a local platform for this file; both sides' calls are recorded
const { onLocal, sitefx, sent } = wireRecorder()

const official = () =>
  createClient({ modules: { indexes, items }, auth: ApiKeyStrategy({ apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId }) })

const collection = () => onLocal.run(freshCollection("Compat"))

const until = async (c: string, name: string, status: string) => {
  for (let i = 0; i < 200; i++) {
    const { indexes: all } = await official().indexes.listIndexes(c)
    const found = all?.find((x) => x.name === name)
    if (found?.status === status) return found
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`${name} never became ${status}`)
}

describe("the official indexes module on the local platform", () => {
  it("creates, lists and drops; a unique index refuses a duplicate; an index over clashing values ends FAILED with its failure", async () => {
    const c = await collection()
    const client = official()
    await client.items.bulkInsert(c, [{ _id: "a", email: "ada@example.com", tag: "x" }, { _id: "b", email: "grace@example.com", tag: "x" }])
    const created = await client.indexes.createIndex(c, { name: "uniqueEmail", fields: [{ path: "email" }], unique: true, caseInsensitive: true })
    assert.deepInclude(created, { name: "uniqueEmail", status: "BUILDING", unique: true, caseInsensitive: true })
    await until(c, "uniqueEmail", "ACTIVE")
    const refused = await client.items.insert(c, { email: "ADA@example.com" }).then(() => undefined, (e: Error) => e)
    assert.match(String(refused), /unique index/)

    await client.indexes.createIndex(c, { name: "uniqueTag", fields: [{ path: "tag" }], unique: true })
    const failed = await until(c, "uniqueTag", "FAILED")
    assert.strictEqual(failed.failure?.code, "DUPLICATE_VALUES")
    assert.include(["a", "b"], failed.failure?.itemId)

    const { indexes: listed, pagingMetadata } = await client.indexes.listIndexes(c, { paging: { limit: 1 } })
    assert.deepStrictEqual([listed?.map((x) => x.name), pagingMetadata?.total], [["uniqueEmail"], 2])
    await client.indexes.dropIndex(c, "uniqueTag")
    assert.deepStrictEqual((await client.indexes.listIndexes(c)).indexes?.map((x) => x.name), ["uniqueEmail"])
  })
})

describe("sitefx/data/indexes sends what the official module sends", () => {
  it("create, list (paged) and drop", async () => {
    const c = await collection()
    const create = { name: "byLikes", fields: [{ path: "likes", order: "DESC" as const }, { path: "title" }], unique: false, caseInsensitive: true }
    const o1 = await sent(() => official().indexes.createIndex(c, create))
    const s1 = await sent(() => sitefx(Indexes.create(c, { ...create, name: "byLikes2" })))
    assert.deepStrictEqual(s1, o1.map((r) => ({ ...r, body: { ...(r.body as any), index: { ...(r.body as any).index, name: "byLikes2" } } })))

    const o2 = await sent(() => official().indexes.listIndexes(c, { paging: { limit: 1, offset: 1 } }))
    const s2 = await sent(() => sitefx(Indexes.list(c, { limit: 1, offset: 1 })))
    assert.deepStrictEqual(s2, o2)

    const o3 = await sent(() => official().indexes.dropIndex(c, "byLikes"))
    const s3 = await sent(() => sitefx(Indexes.drop(c, "byLikes2")))
    assert.deepStrictEqual(s3, o3.map((r) => ({ ...r, query: { ...r.query, indexName: "byLikes2" } })))
    assert.deepStrictEqual(o3.map((r) => [r.method, r.path]), [["DELETE", "/wix-data/v2/indexes"]])
  })
})

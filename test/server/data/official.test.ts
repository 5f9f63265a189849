/**
 * The platform's official data client (`@wix/data` items and collections through `@wix/sdk` with an API
 * key), unchanged, against the data engine. The client calls fixed hosts through the global fetch, so
 * the test rewrites them to the local platform and records what it called.
 */
import { assert, describe, it } from "@effect/vitest"
import { collections, items } from "@wix/data"
import { ApiKeyStrategy, createClient } from "@wix/sdk"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { officialClientsOnLocalPlatform } from "../../support/official.ts"

// the official clients' hosts point at a local platform for this file
const onLocal = officialClientsOnLocalPlatform()
const originalFetch = onLocal.fetch
const called = onLocal.called

const client = () =>
  createClient({
    modules: { items, collections },
    auth: ApiKeyStrategy({ apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId })
  })

let counter = 0
const freshCollection = async () => {
  const id = `Official_${process.pid}_${counter++}`
  await client().collections.createDataCollection({ _id: id, fields: [{ key: "title", type: "TEXT" }, { key: "n", type: "NUMBER" }] } as never)
  return id
}

describe("the official data client against the data engine", () => {
  it("inserts, gets, updates, saves, removes; missing items read as null", async () => {
    const wix = client()
    const c = await freshCollection()
    const inserted = await wix.items.insert(c, { _id: "a", title: "Hello", n: 1, at: new Date("2026-01-02T03:04:05.000Z") })
    assert.strictEqual(inserted._id, "a")
    assert.instanceOf(inserted._createdDate, Date)
    const got = await wix.items.get(c, "a")
    assert.strictEqual(got?.title, "Hello")
    assert.deepStrictEqual(got?.at, new Date("2026-01-02T03:04:05.000Z"))
    assert.isNull(await wix.items.get(c, "missing"))
    const updated = await wix.items.update(c, { _id: "a", title: "Bye", n: 2 })
    assert.strictEqual(updated.title, "Bye")
    const saved = await wix.items.save(c, { _id: "b", title: "New", n: 3 })
    assert.strictEqual(saved._id, "b")
    assert.strictEqual((await wix.items.remove(c, "a"))?._id, "a")
    assert.isNull(await wix.items.remove(c, "a"))
    const duplicate = await wix.items.insert(c, { _id: "b", title: "dup" }).then(() => undefined, (e: any) => e)
    assert.strictEqual(duplicate?.details?.applicationError?.code, "WDE0074")
  })

  it("queries by GET .r with filters, sort, paging (next pages), count and distinct", async () => {
    const wix = client()
    const c = await freshCollection()
    await wix.items.bulkInsert(c, Array.from({ length: 25 }, (_, i) => ({ _id: `i${String(i).padStart(2, "0")}`, title: i % 2 === 0 ? "even" : "odd", n: i })))
    called.length = 0
    const first = await wix.items.query(c).eq("title", "even").gt("n", 3).descending("n").limit(5).find()
    assert.deepStrictEqual(first.items.map((x: any) => x.n), [24, 22, 20, 18, 16])
    assert.isTrue(first.hasNext())
    assert.isTrue(called.some((x) => x === "GET /wix-data/v2/items/query"))
    const second = await first.next()
    assert.deepStrictEqual(second.items.map((x: any) => x.n), [14, 12, 10, 8, 6])
    const third = await second.next()
    assert.deepStrictEqual(third.items.map((x: any) => x.n), [4])
    assert.isFalse(third.hasNext())
    assert.strictEqual(await wix.items.query(c).lt("n", 10).count(), 10)
    const distinct = await wix.items.query(c).distinct("title")
    assert.deepStrictEqual(distinct.items, ["even", "odd"])
  })

  it("bulk results count inserted, updated, removed and skipped items as the client reads them", async () => {
    const wix = client()
    const c = await freshCollection()
    await wix.items.insert(c, { _id: "x", n: 0 })
    const inserted = await wix.items.bulkInsert(c, [{ _id: "x", n: 1 }, { _id: "y", n: 2 }, { n: 3 }])
    assert.strictEqual(inserted.inserted, 2)
    assert.strictEqual(inserted.skipped, 1)
    assert.strictEqual(inserted.errors.length, 0)
    const saved = await wix.items.bulkSave(c, [{ _id: "x", n: 10 }, { _id: "z", n: 4 }])
    assert.strictEqual(saved.updated, 1)
    assert.strictEqual(saved.inserted, 1)
    const removed = await wix.items.bulkRemove(c, ["x", "nope"])
    assert.strictEqual(removed.removed, 1)
    assert.strictEqual(removed.skipped, 1)
  })

  it("aggregates with group, count, sum and having", async () => {
    const wix = client()
    const c = await freshCollection()
    await wix.items.bulkInsert(c, [{ title: "a", n: 1 }, { title: "a", n: 2 }, { title: "b", n: 5 }])
    const result = await wix.items.aggregate(c).group("title").count().sum("n").descending("nSum").run()
    assert.deepStrictEqual(result.items, [{ _id: "b", title: "b", count: 1, nSum: 5 }, { _id: "a", title: "a", count: 2, nSum: 3 }])
  })

  it("hook errors, payload limits and async jobs read as the client expects", async () => {
    const wix = client()
    const c = await freshCollection()
    const hook = await originalFetch(`${onLocal.platform.url}/_sitefx/data/hooks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dataCollectionId: c, hook: "beforeInsert", error: { name: "TitleError", message: "No titles today", code: "NO_TITLES" } })
    })
    assert.strictEqual(hook.status, 200)
    const hooked = await wix.items.insert(c, { title: "x" }).then(() => undefined, (e: any) => e)
    assert.deepStrictEqual([hooked?.name, hooked?.message, hooked?.code], ["TitleError", "No titles today", "NO_TITLES"])
    await originalFetch(`${onLocal.platform.url}/_sitefx/data/hooks`, { method: "DELETE" })
    const tooBig = await wix.items.insert(c, { title: "x".repeat(6 * 1024 * 1024) }).then(() => undefined, (e: any) => e)
    assert.match(String(tooBig?.message), /WDE0109/)
    await wix.items.bulkInsert(c, Array.from({ length: 30 }, (_, i) => ({ n: i })))
    const { jobId } = await wix.items.asyncRemoveByFilter(c, wix.items.filter().lt("n", 10))
    let status = await wix.items.getAsyncJobStatus(jobId)
    for (let i = 0; i < 100 && status.status !== "SUCCEEDED"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      status = await wix.items.getAsyncJobStatus(jobId)
    }
    assert.deepStrictEqual(status, { status: "SUCCEEDED", successCount: 10 })
    assert.strictEqual(await wix.items.query(c).count(), 20)
  })

  it("references, patch and truncate", async () => {
    const wix = client()
    const c = await freshCollection()
    await wix.items.insert(c, { _id: "p", n: 1, tags: ["x"] })
    const patched = await wix.items.patch(c, "p").incrementField("n", 4).appendToArray("tags", "y").run()
    assert.strictEqual(patched.n, 5)
    assert.deepStrictEqual(patched.tags, ["x", "y"])
    await wix.items.truncate(c)
    assert.strictEqual(await wix.items.query(c).count(), 0)
    const posts = await wix.items.query("Posts").include("author").ascending("likes").find()
    assert.deepStrictEqual(posts.items.map((p: any) => p.author.name), ["Ada Lovelace", "Ada Lovelace", "Grace Hopper"])
  })
})

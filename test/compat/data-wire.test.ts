/**
 * sitefx's data client must send what the platform's official items client sends. Both make the same
 * calls against the local platform; every request is recorded (the official client's through the
 * global fetch, which also rewrites its fixed host; sitefx's through `PlatformFetch`). Method,
 * path and JSON body must match: a GET's `.r` parameter is decoded back to JSON, other GET parameters
 * become an object, key order does not matter. The only values normalised are the `_id`s sitefx
 * generates for bulk items that came without one, and server cursors are compared decoded.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { items } from "@wix/data"
import { ApiKeyStrategy, createClient } from "@wix/sdk"
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import type { BulkServices } from "../../src/data/bulkWrites.ts"
import * as DataEnvironment from "../../src/data/DataEnvironment.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import * as Sandbox from "../../src/data/Sandbox.ts"
import { Filter } from "../../src/data/Filter.ts"
import { fromBase64url } from "../../src/http/codec.ts"
import { LocalPlatform, type LocalPlatformShape } from "../../src/server/index.ts"
import { asAdmin, freshCollection, posts } from "../data/support.ts"

interface Recorded {
  readonly method: string
  readonly path: string
  readonly body: unknown
  /** The API-key headers: the raw key (no Bearer) and the site id. */
  readonly auth: string
}

const originalFetch = globalThis.fetch
const runtime = ManagedRuntime.make(LocalPlatform.layer({}))
let platform: LocalPlatformShape
const log: Array<Recorded> = []

/** Cursors are opaque base64url JSON: compared by what they hold, so key order inside them does not matter. */
const decodeCursors = (value: unknown, key?: string): unknown => {
  if (Array.isArray(value)) return value.map((v) => decodeCursors(v))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeCursors(v, k)]))
  }
  if (key === "cursor" && typeof value === "string") return { cursor: JSON.parse(fromBase64url(value)) }
  return value
}

const record = async (request: Request): Promise<void> => {
  const url = new URL(request.url)
  let body: unknown
  if (request.method === "GET") {
    const r = url.searchParams.get(".r")
    if (r !== null) body = JSON.parse(fromBase64url(r))
    else {
      const params: Record<string, unknown> = {}
      for (const key of new Set(url.searchParams.keys())) {
        const all = url.searchParams.getAll(key)
        params[key] = all.length === 1 ? all[0] : all
      }
      body = params
    }
  } else {
    const text = await request.clone().text()
    body = text === "" ? undefined : JSON.parse(text)
  }
  const auth = `${request.headers.get("authorization")} ${request.headers.get("wix-site-id")}`
  log.push({ method: request.method, path: url.pathname, body: decodeCursors(body), auth })
}

/** sitefx's fetch: records, then sends. */
const sitefxFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  await record(request)
  return originalFetch(request)
}

beforeAll(async () => {
  platform = await runtime.runPromise(Effect.gen(function*() {
    return yield* LocalPlatform
  }))
  // the official client: its fixed host goes to the local platform, and what it sends is recorded
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const rewritten = request.url.replace(/^https:\/\/(www|edge)\.wixapis\.com/, platform.url)
    if (rewritten === request.url) return originalFetch(request)
    const local = new Request(rewritten, request)
    await record(local)
    return originalFetch(local)
  }
})

afterAll(async () => {
  globalThis.fetch = originalFetch
  await runtime.dispose()
})

const official = () =>
  createClient({
    modules: { items },
    auth: ApiKeyStrategy({ apiKey: Redacted.value(platform.apiKey), siteId: platform.siteId })
  }).items

type Official = ReturnType<typeof official>

/** Runs sitefx calls as the admin, through the recording fetch. */
const sitefx = <A, E>(f: (d: typeof DataItems) => Effect.Effect<A, E, BulkServices>): Promise<A> =>
  runtime.runPromise(asAdmin(f(DataItems)).pipe(Effect.provideService(PlatformFetch, sitefxFetch)))

/** What a step sent. */
const sent = async (step: () => Promise<unknown>): Promise<ReadonlyArray<Recorded>> => {
  const from = log.length
  await step()
  return log.slice(from)
}

/** Both clients make "the same call"; `reset` puts the data back in between, so both calls meet the same state. */
const compare = async <A, E>(
  name: string,
  officialStep: (data: Official) => Promise<unknown>,
  sitefxStep: (d: typeof DataItems) => Effect.Effect<A, E, BulkServices>,
  options: { readonly reset?: () => Promise<unknown>; readonly normalize?: (sitefx: ReadonlyArray<Recorded>) => ReadonlyArray<Recorded> } = {}
): Promise<ReadonlyArray<Recorded>> => {
  await options.reset?.()
  const o = await sent(() => officialStep(official()))
  await options.reset?.()
  const s = await sent(() => sitefx(sitefxStep))
  assert.isAbove(o.length, 0, `${name}: the official client sent something`)
  assert.isTrue(o.every((r) => r.auth === `${Redacted.value(platform.apiKey)} ${platform.siteId}`), `${name}: API-key headers`)
  assert.deepStrictEqual(options.normalize === undefined ? s : options.normalize(s), o, name)
  return o
}

const admin = { authorization: "", "wix-site-id": "" }
/** A raw platform call as the admin, not recorded. */
const raw = async (path: string, body: unknown): Promise<any> => {
  admin.authorization = Redacted.value(platform.apiKey)
  admin["wix-site-id"] = platform.siteId
  const res = await originalFetch(`${platform.url}${path}`, {
    method: "POST",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  assert.strictEqual(res.status, 200, `${path}: ${await res.clone().text()}`)
  return res.json()
}


const seeded = async (prefix: string, n = 60) => {
  const c = await runtime.runPromise(freshCollection(prefix))
  await runtime.runPromise(asAdmin(DataItems.bulkInsert(c, posts(n))))
  return c
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * sitefx gives bulk items without an `_id` a generated one before the first attempt (so a retried chunk
 * stays idempotent); the official client leaves them to the platform. Those ids are checked (a UUID,
 * the same in `id` and `data._id`) and removed, so the rest of the body is compared as it is.
 */
const withoutGeneratedIds = (given: ReadonlyArray<{ readonly _id?: string }>) => (list: ReadonlyArray<Recorded>) =>
  list.map((r) => {
    const body = r.body as { dataItems?: Array<{ id?: string; data: Record<string, unknown> }> }
    if (body.dataItems === undefined) return r
    const dataItems = body.dataItems.map((item, i) => {
      if (given[i]?._id !== undefined) return item
      assert.match(item.id ?? "", UUID, "a generated id")
      assert.strictEqual(item.data["_id"], item.id)
      const { _id: _, ...data } = item.data
      return { data }
    })
    return { ...r, body: { ...body, dataItems } }
  })

/** A single insert or save of an item without an `_id`: sitefx gives it one (so a retry cannot write it twice); the rest is the same. */
const withoutGeneratedId = (list: ReadonlyArray<Recorded>) =>
  list.map((r) => {
    const body = r.body as { dataItem?: { id?: string; data: Record<string, unknown> } }
    if (body.dataItem === undefined) return r
    assert.match(body.dataItem.id ?? "", UUID, "a generated id")
    assert.strictEqual(body.dataItem.data["_id"], body.dataItem.id)
    const { _id: _, ...data } = body.dataItem.data
    return { ...r, body: { ...body, dataItem: { data } } }
  })

describe("sitefx sends what the official items client sends", () => {
  it("query: filter (and, or, not, hasSome, between, dates), sort, limit, skip; the next and previous offset pages", async () => {
    const c = await seeded("WireQuery")
    const from = new Date(Date.UTC(2026, 0, 3))
    const until = new Date(Date.UTC(2026, 0, 20))
    const sent = await compare(
      "find, next, prev",
      async (data) => {
        const first = await data.query(c)
          .hasSome("tags", ["odd", "even"])
          .between("likes", 1, 9)
          .ge("published", from)
          .or(data.filter().lt("published", until).hasAll("tags", ["odd"]))
          .not(data.filter().eq("likes", 4))
          .ne("title", "Post 7")
          .descending("likes")
          .ascending("title", "_id")
          .limit(5)
          .skip(2)
          .find({ returnTotalCount: true })
        const second = await first.next()
        await second.prev()
      },
      (d) =>
        Effect.gen(function*() {
          const first = yield* d.query(c)
            .hasSome("tags", ["odd", "even"])
            .between("likes", 1, 9)
            .ge("published", from)
            .or(Filter.lt("published", until).hasAll("tags", ["odd"]))
            .not(Filter.eq("likes", 4))
            .ne("title", "Post 7")
            .descending("likes")
            .ascending("title", "_id")
            .limit(5)
            .skip(2)
            .withTotalCount()
            .find
          const second = yield* first.next
          yield* second.prev
        })
    )
    assert.deepStrictEqual(sent.map((r) => r.method), ["GET", "GET", "GET"])
    const query = (sent[0]!.body as any).query
    assert.deepStrictEqual(query.paging, { limit: 5, offset: 2 })
    assert.include(JSON.stringify(query.filter), JSON.stringify({ published: { $gte: { $date: from.toISOString() } } }), "dates travel as $date")

    await compare("fields, include and plain find", (data) => data.query(c).fields("title", "likes").include("tags").find(), (d) =>
      d.query(c).fields("title", "likes").include("tags").find)
    await compare("an empty query", (data) => data.query(c).find(), (d) => d.query(c).find)
    await compare(
      "startsWith, endsWith, contains, in, isEmpty, isNotEmpty, gt, le",
      (data) =>
        data.query(c).startsWith("title", "Post").endsWith("title", "1").contains("title", "o").isNotEmpty("likes").isEmpty("nothing").gt("likes", 0)
          .le("published", until).find(),
      (d) =>
        d.query(c).startsWith("title", "Post").endsWith("title", "1").contains("title", "o").isNotEmpty("likes").isEmpty("nothing").gt("likes", 0)
          .le("published", until).find
    )
    await compare("and of a filter", (data) => data.query(c).eq("likes", 1).and(data.filter().eq("title", "Post 1")).find(), (d) =>
      d.query(c).eq("likes", 1).and(Filter.eq("title", "Post 1")).find)
  })

  it("query: a cursor page and the next one", async () => {
    const c = await seeded("WireCursor", 30)
    // Neither client starts cursor paging by itself (the platform hands out cursors on cursor pages only),
    // so the first cursor comes from a raw call. The official builder's next() on a cursor page sends
    // `query{fields, cursorPaging}` and `includeReferences` (its projected fields and includes, empty
    // here); its direct query form sends exactly what it is given, so it is given the same.
    const first = await raw("/wix-data/v2/items/query", { dataCollectionId: c, query: { filter: { likes: { $gt: 2 } }, sort: [{ fieldName: "title" }], cursorPaging: { limit: 4 } } })
    const cursor = first.pagingMetadata.cursors.next as string
    assert.isString(cursor)
    await compare(
      "cursor page, then next",
      async (data) => {
        const page = await data.query(c, { fields: [], cursorPaging: { cursor, limit: 4 } }, { includeReferences: [] })
        await data.query(c, { fields: [], cursorPaging: { cursor: page.pagingMetadata!.cursors!.next!, limit: 4 } }, { includeReferences: [] })
      },
      (d) => Effect.flatMap(d.query(c).cursor(cursor).limit(4).find, (page) => page.next)
    )
  })

  it("count, distinct", async () => {
    const c = await seeded("WireCount", 20)
    await compare("count with a filter", (data) => data.query(c).hasSome("tags", ["odd"]).gt("likes", 2).count(), (d) =>
      d.query(c).hasSome("tags", ["odd"]).gt("likes", 2).count)
    await compare("count everything", (data) => data.query(c).count(), (d) => d.query(c).count)
    await compare("count(collection, filter)", (data) => data.count(c, { filter: { likes: { $lt: 3 } } }), (d) =>
      d.count(c, Filter.lt("likes", 3)))
    await compare("distinct with a filter and an order", (data) => data.query(c).gt("likes", 2).descending("likes").distinct("likes"), (d) =>
      d.query(c).gt("likes", 2).descending("likes").distinct("likes"))
    await compare("distinct with a limit", (data) => data.query(c).limit(3).distinct("tags"), (d) => d.query(c).limit(3).distinct("tags"))
  })

  it("single items: get, insert (with and without _id), update, save, remove, truncate, patch", async () => {
    const c = await seeded("WireSingle", 5)
    const published = new Date("2026-05-01T10:00:00.000Z")
    const drop = (id: string) => () => raw("/wix-data/v2/items/remove", { dataCollectionId: c, dataItemId: id }).catch(() => undefined)
    await compare("get", (data) => data.get(c, "p0001"), (d) => d.get(c, "p0001"))
    await compare("get a missing item", (data) => data.get(c, "nope"), (d) => d.get(c, "nope"))
    await compare(
      "insert without _id",
      (data) => data.insert(c, { title: "New", likes: 1, published, tags: ["a"], nested: { at: published, list: [published] } }),
      (d) => d.insert(c, { title: "New", likes: 1, published, tags: ["a"], nested: { at: published, list: [published] } }),
      { normalize: withoutGeneratedId }
    )
    await compare("insert with _id", (data) => data.insert(c, { _id: "given", title: "Given" }), (d) => d.insert(c, { _id: "given", title: "Given" }), {
      reset: drop("given")
    })
    await compare("update", (data) => data.update(c, { _id: "p0002", title: "Changed", published }), (d) =>
      d.update(c, { _id: "p0002", title: "Changed", published }))
    await compare("save a new item", (data) => data.save(c, { _id: "saved", title: "Saved" }), (d) => d.save(c, { _id: "saved", title: "Saved" }), {
      reset: drop("saved")
    })
    await compare("save without _id", (data) => data.save(c, { title: "Saved" }), (d) => d.save(c, { title: "Saved" }), { normalize: withoutGeneratedId })
    await compare("remove", (data) => data.remove(c, "p0003"), (d) => d.remove(c, "p0003"), {
      reset: () => raw("/wix-data/v2/items/save", { dataCollectionId: c, dataItem: { id: "p0003", data: { _id: "p0003", title: "back" } } })
    })
    await compare(
      "patch",
      (data) =>
        data.patch(c, "p0004").incrementField("likes", 2).setField("title", "Patched").setField("when", published).removeField("tags")
          .appendToArray("list", 1).removeFromArray("list", 2).run(),
      (d) =>
        d.patch(c, "p0004").incrementField("likes", 2).setField("title", "Patched").setField("when", published).removeField("tags")
          .appendToArray("list", 1).removeFromArray("list", 2).run.pipe(Effect.ignore)
    )
    await compare("truncate", (data) => data.truncate(c), (d) => d.truncate(c))
  })

  it("bulk writes: insert (with and without _id), save, update, remove, patch", async () => {
    const c = await seeded("WireBulk", 5)
    const drop = (ids: Array<string>) => () => raw("/wix-data/v2/bulk/items/remove", { dataCollectionId: c, dataItemIds: ids })
    const published = new Date("2026-05-01T10:00:00.000Z")
    const toInsert = [{ _id: "b1", n: 1, published }, { n: 2, tags: ["x"] }, { _id: "p0000", n: 3 }, { n: 4 }]
    await compare("bulkInsert", (data) => data.bulkInsert(c, toInsert), (d) => d.bulkInsert(c, toInsert), {
      reset: drop(["b1"]),
      normalize: withoutGeneratedIds(toInsert)
    })
    const toSave = [{ _id: "p0001", n: 10 }, { n: 11 }, { _id: "s1", n: 12, published }]
    await compare("bulkSave", (data) => data.bulkSave(c, toSave), (d) => d.bulkSave(c, toSave), {
      reset: drop(["s1"]),
      normalize: withoutGeneratedIds(toSave)
    })
    const toUpdate = [{ _id: "p0001", n: 20 }, { _id: "ghost", n: 21 }]
    await compare("bulkUpdate", (data) => data.bulkUpdate(c, toUpdate), (d) => d.bulkUpdate(c, toUpdate))
    await compare("bulkPatch", (data) => data.bulkPatch(c, ["p0001", "p0002", "ghost"]).incrementField("n", 1).setField("seen", true).run(), (d) =>
      d.bulkPatch(c, ["p0001", "p0002", "ghost"]).incrementField("n", 1).setField("seen", true).run)
    await compare("bulkRemove", (data) => data.bulkRemove(c, ["p0003", "ghost", "p0004"]), (d) => d.bulkRemove(c, ["p0003", "ghost", "p0004"]), {
      reset: () => raw("/wix-data/v2/bulk/items/save", { dataCollectionId: c, dataItems: [{ id: "p0003", data: { _id: "p0003" } }, { id: "p0004", data: { _id: "p0004" } }] })
    })
  })

  it("aggregate: filter, group, operations, having, sort, paging", async () => {
    const c = await seeded("WireAggregate", 40)
    await compare(
      "grouped",
      (data) =>
        data.aggregate(c).filter(data.filter().ge("likes", 2)).group("likes", "tags").count().sum("likes").avg("likes").min("likes").max("likes")
          .having(data.filter().gt("count", 1)).ascending("likes").descending("count").limit(5).skip(1).run(),
      (d) =>
        d.aggregate(c).filter(Filter.ge("likes", 2)).group("likes", "tags").count().sum("likes").avg("likes").min("likes").max("likes")
          .having(Filter.gt("count", 1)).ascending("likes").descending("count").limit(5).skip(1).run
    )
    await compare("whole collection", (data) => data.aggregate(c).count().run(), (d) => d.aggregate(c).count().run)
  })

  it("references: insert, remove, replace, is-referenced, query-referenced", async () => {
    const authors = await runtime.runPromise(freshCollection("WireAuthors"))
    const books = await runtime.runPromise(freshCollection("WireBooks", {
      fields: [{ key: "authors", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: authors } } }]
    }))
    await raw("/wix-data/v2/bulk/items/insert", { dataCollectionId: authors, dataItems: ["ann", "bob", "cy"].map((id) => ({ id, data: { _id: id } })) })
    await raw("/wix-data/v2/items", { dataCollectionId: books, dataItem: { id: "b1", data: { _id: "b1" } } })
    await compare("insertReference", (data) => data.insertReference(books, "authors", "b1", ["ann", "bob"]), (d) =>
      d.insertReference(books, "authors", "b1", ["ann", "bob"]))
    await compare("isReferenced", (data) => data.isReferenced(books, "authors", "b1", "ann"), (d) => d.isReferenced(books, "authors", "b1", "ann"))
    await compare("queryReferenced", (data) => data.queryReferenced(books, "b1", "authors"), (d) => d.queryReferenced(books, "b1", "authors"))
    await compare("queryReferenced with limit, skip, order", (data) => data.queryReferenced(books, "b1", "authors", { limit: 1, skip: 1, order: "desc" }), (d) =>
      d.queryReferenced(books, "b1", "authors", { limit: 1, skip: 1, order: "DESC" }))
    await compare("replaceReferences", (data) => data.replaceReferences(books, "authors", "b1", ["cy"]), (d) =>
      d.replaceReferences(books, "authors", "b1", ["cy"]))
    await compare("removeReference", (data) => data.removeReference(books, "authors", "b1", ["cy"]), (d) =>
      d.removeReference(books, "authors", "b1", ["cy"]))
  })

  it("a long query goes by POST with the same body", async () => {
    const c = await seeded("WireLong", 5)
    const many = Array.from({ length: 300 }, (_, i) => `p${String(i).padStart(4, "0")}`)
    const sent = await compare("long query", (data) => data.query(c).hasSome("_id", many).find(), (d) => d.query(c).hasSome("_id", many).find)
    assert.deepStrictEqual(sent.map((r) => `${r.method} ${r.path}`), ["POST /wix-data/v2/items/query"])
    // and just below the limit, both still use GET (the official client measures the whole URL on its host)
    const few = many.slice(0, 100)
    const short = await compare("short query", (data) => data.query(c).hasSome("_id", few).find(), (d) => d.query(c).hasSome("_id", few).find)
    assert.deepStrictEqual(short.map((r) => r.method), ["GET"])
  })

  it("a stream asks for the official first page, by cursor paging, then for the cursor pages the official next() sends", async () => {
    // Deliberately different: the official client has no streams, and its find() pages by offsets.
    // A sitefx stream asks for the same query with cursorPaging{limit} instead of paging{limit, offset}
    // (every page then costs the platform the same, and writes meanwhile do not shift the pages), and
    // follows the cursors with exactly the body the official next() sends for a cursor page.
    const c = await seeded("WireStream", 25)
    const officialFirst = await sent(() => official().query(c).gt("likes", 0).ascending("_id").limit(10).find())
    const streamed = await sent(() => sitefx((d) => Stream.runDrain(d.query(c).gt("likes", 0).ascending("_id").limit(10).pages)))
    assert.strictEqual(streamed.length, 3)
    const firstBody = officialFirst[0]!.body as { query: Record<string, unknown> }
    const { paging, ...rest } = firstBody.query
    assert.deepStrictEqual(paging, { limit: 10, offset: 0 })
    assert.deepStrictEqual(streamed[0], { ...officialFirst[0]!, body: { ...firstBody, query: { ...rest, cursorPaging: { limit: 10 } } } })
    const cursors: Array<string> = []
    for (const r of streamed.slice(1)) {
      const body = r.body as any
      cursors.push(JSON.stringify(body.query.cursorPaging.cursor))
      assert.deepStrictEqual(r, { ...officialFirst[0]!, body: { dataCollectionId: c, query: { fields: [], cursorPaging: { limit: 10, cursor: body.query.cursorPaging.cursor } }, includeReferences: [] } })
    }
    assert.strictEqual(new Set(cursors).size, 2)
})
})

describe("in a sandbox, sitefx sends what the official client's withEnvironment sends", () => {
  const sandboxed = async (prefix: string) => {
    const c = await seeded(prefix, 12)
    await runtime.runPromise(asAdmin(Sandbox.enable(c)))
    return c
  }

  it("single items, a query and its next page, a count and a bulk insert: each carries the environment", async () => {
    const c = await sandboxed("WireSandbox")
    const reset = () => raw(`/_sitefx/data/sandboxes/${c}/sync`, { direction: "LIVE_TO_SANDBOX" })
    const sent = await compare(
      "insert, get, query, next, count, bulkInsert, remove",
      async (data) => {
        const sandbox = data.withEnvironment("SANDBOX" as never)
        await sandbox.insert(c, { _id: "s1", title: "Draft" })
        await sandbox.get(c, "s1")
        const first = await sandbox.query(c).le("likes", 5).ascending("_id").limit(1).find()
        await first.next()
        await sandbox.count(c)
        await sandbox.bulkInsert(c, [{ _id: "s2", title: "Bulk" }])
        await sandbox.remove(c, "s1")
      },
      (d) =>
        Effect.gen(function*() {
          yield* d.insert(c, { _id: "s1", title: "Draft" })
          yield* d.get(c, "s1")
          const first = yield* d.query(c).le("likes", 5).ascending("_id").limit(1).find
          yield* first.next
          yield* d.count(c)
          yield* d.bulkInsert(c, [{ _id: "s2", title: "Bulk" }])
          yield* d.remove(c, "s1")
        }).pipe(DataEnvironment.provide("SANDBOX")),
      { reset }
    )
    assert.strictEqual(sent.length, 7)
    assert.isTrue(sent.every((r) => (r.body as { environment?: string }).environment === "SANDBOX"), "every call names the sandbox")
    // and the official client's writes stayed in the sandbox
    const live = await raw("/wix-data/v2/items/count", { dataCollectionId: c })
    assert.strictEqual(live.totalCount, 12)
  })
})

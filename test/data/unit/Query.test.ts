/**
 * Query builder: the request `find` sends (first page), option and paging shapes, argument validation
 * with WDE codes, and queries with a recorded error failing before the runner is called.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { DataError } from "../../../src/data/DataError.ts"
import { Filter } from "../../../src/data/Filter.ts"
import { Query, type QueryRunner } from "../../../src/data/Query.ts"
import type { CountDataItemsRequest, ItemData, QueryDataItemsRequest, QueryDistinctValuesRequest } from "../../../src/data/wire/index.ts"

/** A runner that records every call and answers an empty page, a count of 7 and two distinct values. */
const recording = () => {
  const calls = { fetch: [] as Array<QueryDataItemsRequest>, count: [] as Array<CountDataItemsRequest>, distinct: [] as Array<QueryDistinctValuesRequest>, decode: 0 }
  const runner: QueryRunner<ItemData, never> = {
    collection: "Posts",
    fetch: (request) =>
      Effect.sync(() => {
        calls.fetch.push(request)
        return { dataItems: [{ id: "p1", data: { _id: "p1", title: "one" } }], pagingMetadata: { count: 1, offset: 0, hasNext: false } }
      }),
    count: (request) => Effect.sync(() => (calls.count.push(request), 7)),
    distinct: (request) =>
      Effect.sync(() => {
        calls.distinct.push(request)
        return { distinctValues: ["a", "b"], pagingMetadata: { hasNext: true } }
      }),
    decode: (data) => Effect.sync(() => (calls.decode++, data))
  }
  return { runner, calls, query: new Query(runner) }
}

const errorOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined => Option.getOrUndefined(Exit.findErrorOption(exit))

describe("Query.request: the first page", () => {
  it("a bare query: fields, filter and sort, no paging, no options", () => {
    const { query } = recording()
    expect(query.request).toStrictEqual({
      dataCollectionId: "Posts",
      query: { fields: [], filter: {}, sort: [] },
      includeReferences: []
    })
  })

  it("filter conditions, where and sort", () => {
    const { query } = recording()
    const request = query
      .eq("status", "live")
      .where(Filter.gt("likes", 10).hasSome("tags", ["news"]))
      .ascending("title", "author")
      .descending("likes")
      .request
    expect(request).toStrictEqual({
      dataCollectionId: "Posts",
      query: {
        fields: [],
        filter: { status: "live", likes: { $gt: 10 }, tags: { $hasSome: ["news"] } },
        sort: [
          { fieldName: "title", order: "ASC" },
          { fieldName: "author", order: "ASC" },
          { fieldName: "likes", order: "DESC" }
        ]
      },
      includeReferences: []
    })
  })

  it("where with an or-filter keeps the platform's tree", () => {
    const { query } = recording()
    expect(query.eq("a", 1).where(Filter.eq("b", 2).or(Filter.eq("c", 3))).request.query?.filter).toStrictEqual({
      $and: [{ a: 1 }, { $or: [{ b: 2 }, { c: 3 }] }]
    })
  })

  it("paging only when limit or skip is set", () => {
    const { query } = recording()
    expect(query.limit(10).request.query).toStrictEqual({ fields: [], paging: { limit: 10, offset: 0 }, filter: {}, sort: [] })
    expect(query.limit(10).skip(20).request.query).toStrictEqual({ fields: [], paging: { limit: 10, offset: 20 }, filter: {}, sort: [] })
    expect(query.skip(20).request.query).toStrictEqual({ fields: [], paging: { offset: 20 }, filter: {}, sort: [] })
    expect(query.skip(0).request.query).toStrictEqual({ fields: [], filter: {}, sort: [] })
  })

  it("fields and includeReferences", () => {
    const { query } = recording()
    const request = query.fields("title", "likes").fields("author").include("author").include("tags", 5).request
    expect(request.query?.fields).toStrictEqual(["title", "likes", "author"])
    expect(request.includeReferences).toStrictEqual([{ field: "author" }, { field: "tags", limit: 5 }])
  })

  it("consistentRead, language and returnTotalCount at the top level", () => {
    const { query } = recording()
    expect(query.consistentRead().language("fr").withTotalCount().request).toStrictEqual({
      dataCollectionId: "Posts",
      query: { fields: [], filter: {}, sort: [] },
      includeReferences: [],
      consistentRead: true,
      language: "fr",
      returnTotalCount: true
    })
    expect(query.consistentRead(false).withTotalCount(false).request).toMatchObject({ consistentRead: false, returnTotalCount: false })
  })

  it("a cursor query sends only fields and cursorPaging (default limit 50)", () => {
    const { query } = recording()
    expect(query.eq("a", 1).ascending("a").fields("a").cursor("CUR").request).toStrictEqual({
      dataCollectionId: "Posts",
      query: { fields: ["a"], cursorPaging: { limit: 50, cursor: "CUR" } },
      includeReferences: []
    })
    expect(query.limit(7).cursor("CUR").request.query).toStrictEqual({ fields: [], cursorPaging: { limit: 7, cursor: "CUR" } })
  })

  it.effect("find sends exactly the request", () =>
    Effect.gen(function*() {
      const { query, calls } = recording()
      const q = query.eq("a", 1).descending("b").limit(3).skip(6).withTotalCount().include("ref")
      yield* q.find
      expect(calls.fetch).toStrictEqual([q.request])
    }))

  it.effect("find merges the item id into its data", () =>
    Effect.gen(function*() {
      const runner: QueryRunner<ItemData, never> = {
        ...recording().runner,
        fetch: () => Effect.succeed({ dataItems: [{ id: "x1", data: { title: "t" } }, { id: "x2", data: { _id: "kept", n: 1 } }, { id: "x3" }] })
      }
      const page = yield* new Query(runner).find
      expect(page.items).toStrictEqual([{ title: "t", _id: "x1" }, { _id: "kept", n: 1 }, { _id: "x3" }])
    }))

  it("builders are immutable", () => {
    const { query } = recording()
    const base = query.eq("a", 1).limit(5)
    base.skip(10)
    base.ascending("x")
    base.cursor("c")
    base.limit(0)
    base.fields("f")
    base.include("r")
    base.language("de")
    expect(base.request).toStrictEqual({
      dataCollectionId: "Posts",
      query: { fields: [], paging: { limit: 5, offset: 0 }, filter: { a: 1 }, sort: [] },
      includeReferences: []
    })
    assert.isUndefined(base.error)
  })
})

describe("Query: validation", () => {
  const { query } = recording()
  const code = (q: Query<ItemData>) => q.error?.code

  it("limit", () => {
    expect(code(query.limit("5" as never))).toBe("WDE0032")
    expect(code(query.limit(Number.NaN))).toBe("WDE0032")
    expect(code(query.limit(undefined as never))).toBe("WDE0032")
    expect(code(query.limit(0))).toBe("WDE0033")
    expect(code(query.limit(-3))).toBe("WDE0033")
    expect(code(query.limit(2.5))).toBe("WDE0035")
    expect(code(query.limit(1001))).toBe("WDE0036")
    expect(code(query.limit(Number.POSITIVE_INFINITY))).toBe("WDE0035")
    assert.isUndefined(query.limit(1).error)
    assert.isUndefined(query.limit(1000).error)
    assert.match(query.limit(0).error!.message, /^WDE0033: Invalid \.limit parameter \[0\]\. \.limit parameter must be a positive number\.$/)
    assert.match(query.limit(1001).error!.message, /^WDE0036: .*cannot exceed 1000\.$/)
  })

  it("skip", () => {
    expect(code(query.skip(-1))).toBe("WDE0034")
    expect(code(query.skip("x" as never))).toBe("WDE0032")
    expect(code(query.skip(1.5))).toBe("WDE0035")
    assert.isUndefined(query.skip(0).error)
    assert.isUndefined(query.skip(123456).error)
  })

  it("cursor with skip: WDE0080 either way round", () => {
    expect(code(query.skip(5).cursor("c"))).toBe("WDE0080")
    expect(code(query.cursor("c").skip(5))).toBe("WDE0080")
    assert.match(query.skip(5).cursor("c").error!.message, /^WDE0080: Skip is not supported in cursor paging\.$/)
  })

  it("empty strings: WDE0094", () => {
    expect(code(query.cursor(""))).toBe("WDE0094")
    expect(code(query.include(""))).toBe("WDE0094")
    expect(code(query.language(""))).toBe("WDE0094")
    expect(code(query.fields("a", ""))).toBe("WDE0094")
    expect(code(query.cursor(5 as never))).toBe("WDE0094")
  })

  it("include limit follows the limit rules", () => {
    expect(code(query.include("r", 0))).toBe("WDE0033")
    expect(code(query.include("r", 1001))).toBe("WDE0036")
  })

  it("sort with non-strings or nothing: WDE0051", () => {
    expect(code(query.ascending(5 as never))).toBe("WDE0051")
    expect(code(query.descending("a", null as never))).toBe("WDE0051")
    expect(code(query.ascending())).toBe("WDE0051")
    expect(code(query.descending())).toBe("WDE0051")
  })

  it("filter errors are the query's errors", () => {
    expect(code(query.gt("a", {} as never))).toBe("WDE0045")
    expect(code(query.eq(1 as never, 1))).toBe("WDE0048")
    expect(code(query.where({} as never))).toBe("WDE0011")
    expect(code(query.where(Filter.startsWith("a", 1 as never)))).toBe("WDE0044")
  })

  it("the first error is kept", () => {
    expect(code(query.limit(0).skip(-1).gt("a", null as never))).toBe("WDE0033")
    expect(code(query.gt("a", null as never).limit(0))).toBe("WDE0045")
    expect(code(query.ascending().cursor(""))).toBe("WDE0051")
  })

  it("a bad call leaves the rest of the state as it was", () => {
    expect(query.limit(5).limit(0).request.query?.paging).toStrictEqual({ limit: 5, offset: 0 })
    expect(query.ascending("a").ascending(1 as never).request.query?.sort).toStrictEqual([{ fieldName: "a", order: "ASC" }])
  })
})

describe("Query: a recorded error fails before the runner is called", () => {
  it.effect("find", () =>
    Effect.gen(function*() {
      const { query, calls } = recording()
      const exit = yield* Effect.exit(query.limit(0).eq("a", 1).find)
      const error = errorOf(exit)
      assert.instanceOf(error, DataError)
      assert.strictEqual((error as DataError).code, "WDE0033")
      assert.strictEqual(calls.fetch.length, 0)
      assert.strictEqual(calls.decode, 0)
    }))

  it.effect("count, distinct, pages and stream", () =>
    Effect.gen(function*() {
      const { query, calls } = recording()
      const bad = query.startsWith("a", 1 as never)
      expect((errorOf(yield* Effect.exit(bad.count)) as DataError).code).toBe("WDE0044")
      expect((errorOf(yield* Effect.exit(bad.distinct("a"))) as DataError).code).toBe("WDE0044")
      expect((errorOf(yield* Effect.exit(Stream.runCollect(bad.pages))) as DataError).code).toBe("WDE0044")
      expect((errorOf(yield* Effect.exit(Stream.runCollect(bad.stream))) as DataError).code).toBe("WDE0044")
      expect(calls).toStrictEqual({ fetch: [], count: [], distinct: [], decode: 0 })
    }))

  it.effect("a query without errors does call the runner", () =>
    Effect.gen(function*() {
      const { query, calls } = recording()
      const page = yield* query.find
      expect(page.items).toStrictEqual([{ _id: "p1", title: "one" }])
      assert.strictEqual(calls.fetch.length, 1)
    }))
})

describe("Query.count", () => {
  it.effect("sends the filter and read options only", () =>
    Effect.gen(function*() {
      const { query, calls } = recording()
      const n = yield* query.eq("a", 1).limit(5).skip(5).ascending("a").withTotalCount().consistentRead().language("en").count
      assert.strictEqual(n, 7)
      expect(calls.count).toStrictEqual([{ dataCollectionId: "Posts", filter: { a: 1 }, consistentRead: true, language: "en" }])
    }))
})

describe("Query.distinct", () => {
  it.effect("sends the field, filter, its sort order and paging", () =>
    Effect.gen(function*() {
      const { query, calls } = recording()
      const result = yield* query.gt("n", 1).descending("tag").limit(10).distinct("tag")
      expect(result).toStrictEqual({ values: ["a", "b"], hasNext: true })
      expect(calls.distinct).toStrictEqual([
        { dataCollectionId: "Posts", fieldName: "tag", filter: { n: { $gt: 1 } }, order: "DESC", paging: { limit: 10, offset: 0 } }
      ])
    }))

  it.effect("an empty field: WDE0094, no request", () =>
    Effect.gen(function*() {
      const { query, calls } = recording()
      expect((errorOf(yield* Effect.exit(query.distinct(""))) as DataError).code).toBe("WDE0094")
      assert.strictEqual(calls.distinct.length, 0)
    }))
})

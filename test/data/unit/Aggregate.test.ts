/**
 * Aggregate: the request shape (initialFilter, aggregation{groupingFields, operations}, finalFilter, sort,
 * paging, returnTotalCount), default result names, filter/having/group once each, argument errors failing
 * before the runner is called, and `_id` unwrapping of the results.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { Aggregate, type AggregateRunner } from "../../../src/data/Aggregate.ts"
import { DataError } from "../../../src/data/DataError.ts"
import { Filter } from "../../../src/data/Filter.ts"
import type { AggregateDataItemsRequest, ItemData, PagingMetadata } from "../../../src/data/wire/index.ts"

const recording = (results: ReadonlyArray<ItemData> = [], pagingMetadata?: PagingMetadata) => {
  const requests: Array<AggregateDataItemsRequest> = []
  const runner: AggregateRunner<never> = (request) =>
    Effect.sync(() => {
      requests.push(request)
      return { results: results.map((r) => ({ ...r })), ...(pagingMetadata === undefined ? {} : { pagingMetadata }) }
    })
  return { requests, aggregate: new Aggregate("Posts", runner) }
}

const errorOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined => Option.getOrUndefined(Exit.findErrorOption(exit))

describe("Aggregate.request", () => {
  it("a bare aggregation", () => {
    expect(recording().aggregate.request).toStrictEqual({
      dataCollectionId: "Posts",
      initialFilter: {},
      aggregation: { groupingFields: [], operations: [] },
      sort: []
    })
  })

  it("every part", () => {
    const request = recording().aggregate
      .filter(Filter.gt("likes", 1).eq("status", "live"))
      .group("author")
      .count()
      .sum("likes")
      .avg("likes")
      .min("likes")
      .max("likes")
      .having(Filter.gt("count", 2))
      .descending("likesSum")
      .ascending("author")
      .limit(10)
      .skip(5)
      .consistentRead()
      .withTotalCount()
      .request
    expect(request).toStrictEqual({
      dataCollectionId: "Posts",
      paging: { limit: 10, offset: 5 },
      consistentRead: true,
      initialFilter: { likes: { $gt: 1 }, status: "live" },
      aggregation: {
        groupingFields: ["author"],
        operations: [
          { resultFieldName: "count", itemCount: {} },
          { resultFieldName: "likesSum", sum: { itemFieldName: "likes" } },
          { resultFieldName: "likesAvg", average: { itemFieldName: "likes" } },
          { resultFieldName: "likesMin", min: { itemFieldName: "likes" } },
          { resultFieldName: "likesMax", max: { itemFieldName: "likes" } }
        ]
      },
      finalFilter: { count: { $gt: 2 } },
      sort: [{ fieldName: "likesSum", order: "DESC" }, { fieldName: "author", order: "ASC" }],
      returnTotalCount: true
    })
  })

  it("result names can be chosen", () => {
    expect(recording().aggregate.count("n").sum("likes", "total").avg("likes", "mean").min("a", "lo").max("a", "hi").request.aggregation?.operations).toStrictEqual([
      { resultFieldName: "n", itemCount: {} },
      { resultFieldName: "total", sum: { itemFieldName: "likes" } },
      { resultFieldName: "mean", average: { itemFieldName: "likes" } },
      { resultFieldName: "lo", min: { itemFieldName: "a" } },
      { resultFieldName: "hi", max: { itemFieldName: "a" } }
    ])
  })

  it("several grouping fields, in order", () => {
    expect(recording().aggregate.group("country", "city").request.aggregation?.groupingFields).toStrictEqual(["country", "city"])
  })

  it("paging only when limit or skip is set", () => {
    const { aggregate } = recording()
    expect(aggregate.limit(3).request.paging).toStrictEqual({ limit: 3, offset: 0 })
    expect(aggregate.skip(4).request.paging).toStrictEqual({ offset: 4 })
    assert.notProperty(aggregate.skip(0).request, "paging")
  })

  it("finalFilter only with having", () => {
    assert.notProperty(recording().aggregate.count().request, "finalFilter")
  })

  it("builders are immutable", () => {
    const base = recording().aggregate.group("a")
    base.count()
    base.filter(Filter.eq("x", 1))
    base.group("b")
    expect(base.request.aggregation).toStrictEqual({ groupingFields: ["a"], operations: [] })
    expect(base.request.initialFilter).toStrictEqual({})
    assert.isUndefined(base.state.error)
  })
})

describe("Aggregate: validation", () => {
  const code = (a: Aggregate) => a.state.error?.code
  const { aggregate } = recording()

  it("filter twice, having twice: WDE0012; group twice: WDE0013", () => {
    expect(code(aggregate.filter(Filter.eq("a", 1)).filter(Filter.eq("b", 1)))).toBe("WDE0012")
    expect(code(aggregate.having(Filter.eq("a", 1)).having(Filter.eq("b", 1)))).toBe("WDE0012")
    expect(code(aggregate.group("a").group("b"))).toBe("WDE0013")
    assert.match(aggregate.group("a").group("b").state.error!.message, /^WDE0013: Invalid \.group usage\. Group is already set\.$/)
    assert.match(aggregate.filter(Filter.empty).filter(Filter.empty).state.error!.message, /^WDE0012: Invalid \.filter usage\. Filter is already set\.$/)
  })

  it("the second filter is not applied", () => {
    expect(aggregate.filter(Filter.eq("a", 1)).filter(Filter.eq("b", 1)).request.initialFilter).toStrictEqual({ a: 1 })
  })

  it("filter and having with something that is not a Filter: WDE0011", () => {
    expect(code(aggregate.filter({} as never))).toBe("WDE0011")
    expect(code(aggregate.having(null as never))).toBe("WDE0011")
  })

  it("a Filter with an error brings it along", () => {
    expect(code(aggregate.filter(Filter.gt("a", {} as never)))).toBe("WDE0045")
    expect(code(aggregate.having(Filter.startsWith("a", 1 as never)))).toBe("WDE0044")
  })

  it("count with extra arguments: WDE0038", () => {
    expect(code(aggregate.count("n", "extra" as never))).toBe("WDE0038")
    assert.match(aggregate.count("n", 1 as never).state.error!.message, /^WDE0038: /)
    expect(code(aggregate.count(5 as never))).toBe("WDE0044")
  })

  it("group with nothing or non-strings", () => {
    expect(code(aggregate.group())).toBe("WDE0043")
    expect(code(aggregate.group("a", 1 as never))).toBe("WDE0044")
  })

  it("operations with a non-string field", () => {
    expect(code(aggregate.sum(1 as never))).toBe("WDE0044")
    expect(code(aggregate.avg("a", 2 as never))).toBe("WDE0044")
  })

  it("limit: WDE0032 not a number, WDE0033 not positive, WDE0035 not an integer", () => {
    expect(code(aggregate.limit("5" as never))).toBe("WDE0032")
    expect(code(aggregate.limit(Number.NaN))).toBe("WDE0032")
    expect(code(aggregate.limit(0))).toBe("WDE0033")
    expect(code(aggregate.limit(-2))).toBe("WDE0033")
    expect(code(aggregate.limit(1.5))).toBe("WDE0035")
    expect(code(aggregate.limit(Number.POSITIVE_INFINITY))).toBe("WDE0035")
    assert.isUndefined(aggregate.limit(1).state.error)
    assert.match(aggregate.limit(0).state.error!.message, /^WDE0033: Invalid \.limit parameter \[0\]\. \.limit parameter must be a positive number\.$/)
  })

  it("skip: WDE0032 not a number, WDE0034 negative, WDE0035 not an integer", () => {
    expect(code(aggregate.skip("x" as never))).toBe("WDE0032")
    expect(code(aggregate.skip(-1))).toBe("WDE0034")
    expect(code(aggregate.skip(0.5))).toBe("WDE0035")
    assert.isUndefined(aggregate.skip(0).state.error)
    assert.isUndefined(aggregate.skip(100000).state.error)
  })

  it("a bad limit or skip leaves paging as it was", () => {
    expect(aggregate.limit(5).limit(0).skip(2).skip(-1).request.paging).toStrictEqual({ limit: 5, offset: 2 })
  })

  it("the first error is kept", () => {
    expect(code(aggregate.group().group("a").group("b").filter({} as never))).toBe("WDE0043")
    expect(code(aggregate.filter(Filter.eq("a", 1)).filter(Filter.gt("b", {} as never)))).toBe("WDE0012")
  })
})

describe("Aggregate.run", () => {
  it.effect("an aggregation with an error fails without calling the runner", () =>
    Effect.gen(function*() {
      const { aggregate, requests } = recording([{ _id: { a: 1 } }])
      for (const bad of [aggregate.group("a").group("b"), aggregate.filter(Filter.eq("a", 1)).filter(Filter.eq("a", 2)), aggregate.count("c", 1 as never)]) {
        const error = errorOf(yield* Effect.exit(bad.run))
        assert.instanceOf(error, DataError)
      }
      assert.strictEqual(requests.length, 0)
    }))

  it.effect("sends the request and reads total and hasNext", () =>
    Effect.gen(function*() {
      const { aggregate, requests } = recording([{ _id: "x", count: 2 }], { total: 9, hasNext: true })
      const a = aggregate.group("a").count()
      const result = yield* a.run
      expect(requests).toStrictEqual([a.request])
      expect(result).toStrictEqual({ items: [{ _id: "x", count: 2 }], totalCount: 9, hasNext: true })
    }))

  it.effect("no pagingMetadata: no total, no next", () =>
    Effect.gen(function*() {
      const result = yield* recording([]).aggregate.count().run
      expect(result).toStrictEqual({ items: [], totalCount: undefined, hasNext: false })
    }))

  it.effect("_id {field: v} is unwrapped to v for a single grouping field", () =>
    Effect.gen(function*() {
      const date = new Date("2024-01-01T00:00:00.000Z")
      const { aggregate } = recording([
        { _id: { author: "ann" }, count: 2 },
        { _id: { author: null }, count: 1 },
        { _id: { author: date }, count: 1 },
        { _id: { author: { nested: true } }, count: 1 }
      ])
      const result = yield* aggregate.group("author").count().run
      expect(result.items).toStrictEqual([
        { _id: "ann", count: 2 },
        { _id: null, count: 1 },
        { _id: date, count: 1 },
        { _id: { nested: true }, count: 1 }
      ])
    }))

  it.effect("_id is kept for several grouping fields, and when it is not an object", () =>
    Effect.gen(function*() {
      const { aggregate } = recording([
        { _id: { country: "FR", city: "Paris" }, count: 2 },
        { _id: "plain", count: 1 },
        { _id: null, count: 1 },
        { count: 4 }
      ])
      const result = yield* aggregate.group("country", "city").count().run
      expect(result.items).toStrictEqual([
        { _id: { country: "FR", city: "Paris" }, count: 2 },
        { _id: "plain", count: 1 },
        { _id: null, count: 1 },
        { count: 4 }
      ])
    }))
})

import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { QueryDataItemsResponse } from "../../../src/data/wire/index.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { bulkInsert, codeOf, count, data, freshCollection, getQuery, ids, ok, query } from "./support.ts"

const people = [
  { _id: "p1", name: "Ada", city: "London", age: 36, tags: ["math", "code"], born: { $date: "1815-12-10T00:00:00.000Z" } },
  { _id: "p2", name: "Grace", city: "New York", age: 85, tags: ["code", "navy"], born: { $date: "1906-12-09T00:00:00.000Z" } },
  { _id: "p3", name: "Alan", city: "London", age: 41, tags: ["math"], born: { $date: "1912-06-23T00:00:00.000Z" } },
  { _id: "p4", name: "Edsger", city: "Nuenen", age: 72, tags: ["code"] },
  { _id: "p5", name: "Barbara", city: "New York", age: 93, tags: [], born: { $date: "1939-11-07T00:00:00.000Z" } },
  { _id: "p6", name: "Radia", city: "London", tags: ["net"], bio: "Spanning-tree protocol" }
]

const seeded = Effect.gen(function*() {
  const c = yield* freshCollection()
  yield* bulkInsert(c, people)
  return c
})

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("data queries", (it) => {
  it.effect("a page written from stored JSON is, to the byte, the shared schema's encoding of that page", () =>
    Effect.gen(function*() {
      const c = yield* seeded
      for (const paging of [{ paging: { limit: 4 } }, { cursorPaging: { limit: 4 } }]) {
        const answer = yield* data("POST", "/items/query", { dataCollectionId: c, query: { sort: [{ fieldName: "name", order: "ASC" }], ...paging }, returnTotalCount: true })
        assert.strictEqual(answer.status, 200)
        const page = Schema.decodeUnknownSync(QueryDataItemsResponse)(JSON.parse(answer.text))
        assert.strictEqual(answer.text, JSON.stringify(Schema.encodeSync(QueryDataItemsResponse)(page)))
        assert.strictEqual(page.dataItems.length, 4)
      }
    }))

  it.effect("query by POST and by GET .r: filter, sort, fields; hasNext always said; total only when asked", () =>
    Effect.gen(function*() {
      const c = yield* seeded
      const q = { filter: { city: "London", age: { $gte: 36 } }, sort: [{ fieldName: "age", order: "DESC" }], fields: ["name"] }
      const posted = yield* query(c, q)
      assert.deepStrictEqual(ids(posted), ["p3", "p1"])
      assert.deepStrictEqual(posted.dataItems[0].data, { _id: "p3", name: "Alan" })
      assert.deepStrictEqual(posted.pagingMetadata, { count: 2, offset: 0, hasNext: false })
      const got = yield* getQuery({ dataCollectionId: c, query: q, returnTotalCount: true })
      assert.strictEqual(got.status, 200)
      assert.deepStrictEqual(ids(got.body), ["p3", "p1"])
      assert.deepStrictEqual(got.body.pagingMetadata, { count: 2, offset: 0, total: 2, tooManyToCount: false, hasNext: false })
      // dates compare as dates; missing values sort first ascending
      const byBirth = yield* query(c, { filter: { born: { $lt: { $date: "1920-01-01T00:00:00Z" } } }, sort: [{ fieldName: "born" }] })
      assert.deepStrictEqual(ids(byBirth), ["p1", "p2", "p3"])
      const ages = yield* query(c, { sort: [{ fieldName: "age", order: "ASC" }] })
      assert.deepStrictEqual(ids(ages), ["p6", "p1", "p3", "p4", "p2", "p5"])
    }))

  it.effect("offset paging: default limit 50, limit and offset, hasNext; limits outside 1..1000 and bad skips are refused", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* bulkInsert(c, Array.from({ length: 120 }, (_, i) => ({ _id: `i${String(i).padStart(3, "0")}`, i })))
      const first = yield* query(c, {})
      assert.strictEqual(first.dataItems.length, 50)
      assert.isTrue(first.pagingMetadata.hasNext)
      const last = yield* query(c, { paging: { limit: 50, offset: 100 } }, { returnTotalCount: true })
      assert.strictEqual(last.dataItems.length, 20)
      assert.deepStrictEqual(last.pagingMetadata, { count: 20, offset: 100, total: 120, tooManyToCount: false, hasNext: false })
      const refusal = (paging: unknown) => Effect.map(data("POST", "/items/query", { dataCollectionId: c, query: { paging } }), (a) => [a.status, codeOf(a)])
      assert.deepStrictEqual(yield* refusal({ limit: 1001 }), [400, "WDE0036"])
      assert.deepStrictEqual(yield* refusal({ limit: 0 }), [400, "WDE0033"])
      assert.deepStrictEqual(yield* refusal({ limit: 2.5 }), [400, "WDE0035"])
      assert.deepStrictEqual(yield* refusal({ offset: -1 }), [400, "WDE0034"])
      const withBoth = yield* data("POST", "/items/query", { dataCollectionId: c, query: { paging: { offset: 10 }, cursorPaging: { limit: 5 } } })
      assert.strictEqual(withBoth.status, 400)
      assert.strictEqual(codeOf(withBoth), "WDE0080")
    }))

  it.effect("cursor paging: next and prev cursors; a cursor request carries only cursorPaging; foreign or broken cursors are 400", () =>
    Effect.gen(function*() {
      const c = yield* seeded
      const first = yield* query(c, { filter: { age: { $gt: 0 } }, sort: [{ fieldName: "name" }], cursorPaging: { limit: 2 } })
      assert.deepStrictEqual(ids(first), ["p1", "p3"])
      assert.isTrue(first.pagingMetadata.hasNext)
      assert.isUndefined(first.pagingMetadata.cursors.prev)
      const second = yield* query(c, { cursorPaging: { limit: 2, cursor: first.pagingMetadata.cursors.next } })
      assert.deepStrictEqual(ids(second), ["p5", "p4"])
      const third = yield* query(c, { cursorPaging: { limit: 2, cursor: second.pagingMetadata.cursors.next } })
      assert.deepStrictEqual(ids(third), ["p2"])
      assert.isFalse(third.pagingMetadata.hasNext)
      assert.isUndefined(third.pagingMetadata.cursors.next)
      const back = yield* query(c, { cursorPaging: { limit: 2, cursor: third.pagingMetadata.cursors.prev } })
      assert.deepStrictEqual(ids(back), ["p5", "p4"])
      const front = yield* query(c, { cursorPaging: { limit: 2, cursor: back.pagingMetadata.cursors.prev } })
      assert.deepStrictEqual(ids(front), ["p1", "p3"])
      assert.isUndefined(front.pagingMetadata.cursors.prev)
      const mixed = yield* data("POST", "/items/query", { dataCollectionId: c, query: { filter: { a: 1 }, cursorPaging: { cursor: first.pagingMetadata.cursors.next } } })
      assert.strictEqual(mixed.status, 400)
      const other = yield* freshCollection()
      const foreign = yield* data("POST", "/items/query", { dataCollectionId: other, query: { cursorPaging: { cursor: first.pagingMetadata.cursors.next } } })
      assert.strictEqual(foreign.status, 400)
      const broken = yield* data("POST", "/items/query", { dataCollectionId: c, query: { cursorPaging: { cursor: "not-a-cursor" } } })
      assert.strictEqual(broken.status, 400)
    }))

  it.effect("filter refusals carry the WDE code: $regex WDE0070, bad operands, unknown operators", () =>
    Effect.gen(function*() {
      const c = yield* seeded
      const refusal = (filter: unknown) => Effect.map(data("POST", "/items/query", { dataCollectionId: c, query: { filter } }), (a) => [a.status, codeOf(a)])
      assert.deepStrictEqual(yield* refusal({ name: { $regex: "^A" } }), [400, "WDE0070"])
      assert.deepStrictEqual(yield* refusal({ age: { $gt: [1] } }), [400, "WDE0058"])
      assert.deepStrictEqual(yield* refusal({ name: { $startsWith: 1 } }), [400, "WDE0059"])
      assert.deepStrictEqual(yield* refusal({ tags: { $hasSome: "code" } }), [400, "WDE0057"])
      assert.deepStrictEqual(yield* refusal({ tags: { $in: [{ a: 1 }] } }), [400, "WDE0060"])
      assert.deepStrictEqual(yield* refusal({ $not: [] }), [400, "WDE0057"])
      assert.deepStrictEqual(yield* refusal({ name: { $matches: { ignoreCase: false, spec: [] } } }), [400, "WDE0063"])
      assert.deepStrictEqual(yield* refusal({ name: { $like: "x" } }), [400, "WDE0056"])
      const countRefusal = yield* data("POST", "/items/count", { dataCollectionId: c, filter: { name: { $regex: "x" } } })
      assert.strictEqual(codeOf(countRefusal), "WDE0070")
    }))

  it.effect("operators: $ne, $in, $hasSome, $hasAll, case-insensitive text operators, $exists, $matches, $not, $or", () =>
    Effect.gen(function*() {
      const c = yield* seeded
      const match = (filter: unknown) => Effect.map(query(c, { filter }), ids)
      assert.deepStrictEqual(yield* match({ city: { $ne: "London" } }), ["p2", "p4", "p5"])
      assert.deepStrictEqual(yield* match({ _id: { $in: ["p2", "p9", "p4"] } }), ["p2", "p4"])
      assert.deepStrictEqual(yield* match({ tags: { $hasSome: ["net", "navy"] } }), ["p2", "p6"])
      assert.deepStrictEqual(yield* match({ tags: { $hasAll: ["code", "math"] } }), ["p1"])
      assert.deepStrictEqual(yield* match({ name: { $startsWith: "a" } }), ["p1", "p3"])
      assert.deepStrictEqual(yield* match({ city: { $endsWith: "YORK" } }), ["p2", "p5"])
      assert.deepStrictEqual(yield* match({ bio: { $contains: "TREE" } }), ["p6"])
      assert.deepStrictEqual(yield* match({ name: "ada" }), [])
      assert.deepStrictEqual(yield* match({ age: { $exists: false } }), ["p6"])
      assert.deepStrictEqual(yield* match({ born: null }), ["p4", "p6"])
      assert.deepStrictEqual(yield* match({ bio: { $matches: { ignoreCase: true, spec: [{ type: "literal", value: "spanning" }, { type: "anyOf", value: " \t\n-" }, { type: "literal", value: "TREE protocol" }] } } }), ["p6"])
      assert.deepStrictEqual(yield* match({ $or: [{ age: { $lt: 40 } }, { age: { $gt: 90 } }] }), ["p1", "p5"])
      assert.deepStrictEqual(yield* match({ $not: [{ city: "London" }], age: { $lt: 80 } }), ["p4"])
    }))

  it.effect("count, and distinct values (arrays unwound, ordered, paged by offset or cursor)", () =>
    Effect.gen(function*() {
      const c = yield* seeded
      assert.strictEqual(yield* count(c), 6)
      assert.strictEqual(yield* count(c, { city: "London" }), 3)
      const cities = yield* ok("POST", "/items/query-distinct-values", { dataCollectionId: c, fieldName: "city", returnTotalCount: true })
      assert.deepStrictEqual(cities.distinctValues, ["London", "New York", "Nuenen"])
      assert.deepStrictEqual(cities.pagingMetadata, { count: 3, offset: 0, total: 3, tooManyToCount: false, hasNext: false })
      const tags = yield* ok("POST", "/items/query-distinct-values", { dataCollectionId: c, fieldName: "tags", order: "DESC", filter: { city: { $ne: "Nuenen" } } })
      assert.deepStrictEqual(tags.distinctValues, ["net", "navy", "math", "code"])
      const firstPage = yield* ok("POST", "/items/query-distinct-values", { dataCollectionId: c, fieldName: "tags", cursorPaging: { limit: 3 } })
      assert.deepStrictEqual(firstPage.distinctValues, ["code", "math", "navy"])
      assert.isTrue(firstPage.pagingMetadata.hasNext)
      const nextPage = yield* ok("POST", "/items/query-distinct-values", { dataCollectionId: c, cursorPaging: { limit: 3, cursor: firstPage.pagingMetadata.cursors.next } })
      assert.deepStrictEqual(nextPage.distinctValues, ["net"])
      const dates = yield* ok("POST", "/items/query-distinct-values", { dataCollectionId: c, fieldName: "born", paging: { limit: 1 } })
      assert.deepStrictEqual(dates.distinctValues, [{ $date: "1815-12-10T00:00:00.000Z" }])
      assert.isTrue(dates.pagingMetadata.hasNext)
    }))

  it.effect("search: words, prefixes, OR and AND modes, fuzzy tolerance, with a filter and paging", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ fields: [{ key: "title", type: "TEXT" }, { key: "body", type: "TEXT" }] })
      yield* bulkInsert(c, [
        { _id: "s1", title: "Radio waves", body: "How antennas work", year: 2020 },
        { _id: "s2", title: "Solar panels", body: "Energy from the sun", year: 2021 },
        { _id: "s3", title: "Radar basics", body: "Waves that bounce", year: 2022 },
        { _id: "s4", title: "Notes", body: "nothing here", note: "radio in a field that is not TEXT", year: 2023 }
      ])
      const search = (s: Record<string, unknown>) =>
        Effect.map(ok("POST", "/items/search", { dataCollectionId: c, search: { sort: [{ fieldName: "year" }], ...s } }), ids)
      assert.deepStrictEqual(yield* search({ search: { expression: "radio" } }), ["s1"])
      assert.deepStrictEqual(yield* search({ search: { expression: "RAD" } }), ["s1", "s3"])
      assert.deepStrictEqual(yield* search({ search: { expression: "waves sun" } }), ["s1", "s2", "s3"])
      assert.deepStrictEqual(yield* search({ search: { expression: "waves radar", mode: "AND" } }), ["s3"])
      assert.deepStrictEqual(yield* search({ search: { expression: "raido" } }), [])
      assert.deepStrictEqual(yield* search({ search: { expression: "raido", fuzzy: true } }), ["s1"])
      assert.deepStrictEqual(yield* search({ search: { expression: "waves" }, filter: { year: { $gt: 2020 } } }), ["s3"])
      const paged = yield* ok("POST", "/items/search", { dataCollectionId: c, search: { search: { expression: "waves sun" }, cursorPaging: { limit: 2 } } })
      assert.strictEqual(paged.dataItems.length, 2)
      const rest = yield* ok("POST", "/items/search", { dataCollectionId: c, search: { cursorPaging: { limit: 2, cursor: paged.pagingMetadata.cursors.next } } })
      assert.deepStrictEqual(ids(rest), ["s3"])
      assert.deepStrictEqual(yield* search({}), ["s1", "s2", "s3", "s4"])
    }))

  it.effect("aggregate: group, count/sum/avg/min/max, finalFilter, sort, paging; the grouping value under _id and on top", () =>
    Effect.gen(function*() {
      const c = yield* seeded
      const result = yield* ok("POST", "/items/aggregate", {
        dataCollectionId: c,
        initialFilter: { age: { $exists: true } },
        aggregation: {
          groupingFields: ["city"],
          operations: [
            { resultFieldName: "people", itemCount: {} },
            { resultFieldName: "ageSum", sum: { itemFieldName: "age" } },
            { resultFieldName: "ageAvg", average: { itemFieldName: "age" } },
            { resultFieldName: "youngest", min: { itemFieldName: "age" } },
            { resultFieldName: "firstBorn", min: { itemFieldName: "born" } },
            { resultFieldName: "oldest", max: { itemFieldName: "age" } }
          ]
        },
        finalFilter: { people: { $gte: 1 } },
        sort: [{ fieldName: "ageSum", order: "DESC" }],
        returnTotalCount: true
      })
      assert.deepStrictEqual(result.results, [
        { _id: { city: "New York" }, city: "New York", people: 2, ageSum: 178, ageAvg: 89, youngest: 85, firstBorn: { $date: "1906-12-09T00:00:00.000Z" }, oldest: 93 },
        { _id: { city: "London" }, city: "London", people: 2, ageSum: 77, ageAvg: 38.5, youngest: 36, firstBorn: { $date: "1815-12-10T00:00:00.000Z" }, oldest: 41 },
        { _id: { city: "Nuenen" }, city: "Nuenen", people: 1, ageSum: 72, ageAvg: 72, youngest: 72, firstBorn: null, oldest: 72 }
      ])
      assert.deepStrictEqual(result.pagingMetadata, { count: 3, offset: 0, total: 3, tooManyToCount: false, hasNext: false })
      const having = yield* ok("POST", "/items/aggregate", {
        dataCollectionId: c,
        aggregation: { groupingFields: ["city"], operations: [{ resultFieldName: "n", itemCount: {} }] },
        finalFilter: { n: { $gt: 2 } }
      })
      assert.deepStrictEqual(having.results, [{ _id: { city: "London" }, city: "London", n: 3 }])
      const all = yield* ok("POST", "/items/aggregate", { dataCollectionId: c, aggregation: { operations: [{ resultFieldName: "n", itemCount: {} }] } })
      assert.deepStrictEqual(all.results, [{ _id: null, n: 6 }])
      const paged = yield* ok("POST", "/items/aggregate", { dataCollectionId: c, aggregation: { groupingFields: ["city"], operations: [] }, sort: [{ fieldName: "city" }], cursorPaging: { limit: 2 } })
      assert.deepStrictEqual(paged.results.map((r: any) => r.city), ["London", "New York"])
      const next = yield* ok("POST", "/items/aggregate", { dataCollectionId: c, cursorPaging: { limit: 2, cursor: paged.pagingMetadata.cursors.next } })
      assert.deepStrictEqual(next.results.map((r: any) => r.city), ["Nuenen"])
      assert.isFalse(next.pagingMetadata.hasNext)
    }))

  it.effect("aggregate pipeline: filter, group (avg/min/max/sum/first/last/push), projection, sort, skip, limit, unwind, objectToArray", () =>
    Effect.gen(function*() {
      const c = yield* seeded
      const run = (stages: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) =>
        Effect.map(ok("POST", "/items/aggregate-pipeline", { dataCollectionId: c, pipeline: { stages, ...extra } }), (r) => r.results)
      const byCity = yield* run([
        { filter: { age: { $exists: true } } },
        { sort: { values: [{ fieldName: "age" }] } },
        {
          group: {
            groupIds: [{ key: "city", expression: { fieldPath: "city" } }],
            accumulators: [
              { resultFieldName: "avg", avg: { expression: { fieldPath: "age" } } },
              { resultFieldName: "min", min: { expression: { fieldPath: "age" } } },
              { resultFieldName: "max", max: { expression: { fieldPath: "age" } } },
              { resultFieldName: "sum", sum: { expression: { fieldPath: "age" } } },
              { resultFieldName: "first", first: { expression: { fieldPath: "name" } } },
              { resultFieldName: "last", last: { expression: { fieldPath: "name" } } },
              { resultFieldName: "names", push: { expression: { fieldPath: "name" } } }
            ]
          }
        },
        { sort: { values: [{ fieldName: "sum", order: "DESC" }] } }
      ])
      assert.deepStrictEqual(byCity, [
        { _id: { city: "New York" }, avg: 89, min: 85, max: 93, sum: 178, first: "Grace", last: "Barbara", names: ["Grace", "Barbara"] },
        { _id: { city: "London" }, avg: 38.5, min: 36, max: 41, sum: 77, first: "Ada", last: "Alan", names: ["Ada", "Alan"] },
        { _id: { city: "Nuenen" }, avg: 72, min: 72, max: 72, sum: 72, first: "Edsger", last: "Edsger", names: ["Edsger"] }
      ])
      const shaped = yield* run([
        { filter: { _id: { $in: ["p1", "p2"] } } },
        {
          projection: {
            fields: [
              { include: { fieldName: "name" } },
              { exclude: { fieldName: "_id" } },
              {
                reshape: {
                  resultFieldName: "label",
                  expression: { concat: { expressions: [{ toUpper: { expression: { fieldPath: "name" } } }, { text: "@" }, { substring: { expression: { fieldPath: "city" }, startExpression: { numeric: 0 }, lengthExpression: { numeric: 3 } } }] } }
                }
              },
              {
                reshape: {
                  resultFieldName: "math",
                  expression: {
                    add: { expressions: [{ multiply: { expressions: [{ fieldPath: "age" }, { numeric: 2 }] } }, { mod: { firstExpression: { fieldPath: "age" }, secondExpression: { numeric: 5 } } }] }
                  }
                }
              },
              { reshape: { resultFieldName: "half", expression: { divide: { firstExpression: { fieldPath: "age" }, secondExpression: { numeric: 8 } } } } },
              { reshape: { resultFieldName: "down", expression: { floor: { expression: { divide: { firstExpression: { fieldPath: "age" }, secondExpression: { numeric: 8 } } } } } } },
              { reshape: { resultFieldName: "up", expression: { ceil: { expression: { divide: { firstExpression: { fieldPath: "age" }, secondExpression: { numeric: 8 } } } } } } },
              { reshape: { resultFieldName: "neg", expression: { abs: { expression: { subtract: { firstExpression: { numeric: 1 }, secondExpression: { fieldPath: "age" } } } } } } },
              { reshape: { resultFieldName: "len", expression: { length: { expression: { fieldPath: "tags" } } } } },
              { reshape: { resultFieldName: "str", expression: { stringify: { expression: { fieldPath: "age" } } } } },
              { reshape: { resultFieldName: "low", expression: { toLower: { expression: { fieldPath: "city" } } } } }
            ]
          }
        }
      ])
      assert.deepStrictEqual(shaped, [
        { name: "Ada", label: "ADA@Lon", math: 73, half: 4.5, down: 4, up: 5, neg: 35, len: 2, str: "36", low: "london" },
        { name: "Grace", label: "GRACE@New", math: 170, half: 10.625, down: 10, up: 11, neg: 84, len: 2, str: "85", low: "new york" }
      ])
      const unwound = yield* run([
        { unwindArray: { arrayFieldName: "tags" } },
        { group: { groupIds: [{ key: "tag", expression: { fieldPath: "tags" } }], accumulators: [{ resultFieldName: "n", sum: { expression: { numeric: 1 } } }] } },
        { sort: { values: [{ fieldName: "n", order: "DESC" }, { fieldName: "_id.tag" }] } },
        { skip: 1 },
        { limit: 2 }
      ])
      assert.deepStrictEqual(unwound, [{ _id: { tag: "math" }, n: 2 }, { _id: { tag: "navy" }, n: 1 }])
      const pairs = yield* run([
        { filter: { _id: "p1" } },
        { projection: { fields: [{ reshape: { resultFieldName: "o", expression: { fieldPath: "born" } } }, { include: { fieldName: "age" } }] } },
        { objectToArray: { objectFieldName: "o", destinationFieldName: "kv" } }
      ])
      assert.deepStrictEqual(pairs, [{ _id: "p1", age: 36, o: { $date: "1815-12-10T00:00:00.000Z" }, kv: [{ k: "$date", v: "1815-12-10T00:00:00.000Z" }] }])
      const paged = yield* ok("POST", "/items/aggregate-pipeline", { dataCollectionId: c, pipeline: { stages: [{ sort: { values: [{ fieldName: "_id" }] } }], paging: { limit: 4 } }, returnTotalCount: true })
      assert.deepStrictEqual(paged.results.map((r: any) => r._id), ["p1", "p2", "p3", "p4"])
      assert.deepStrictEqual(paged.pagingMetadata, { count: 4, offset: 0, total: 6, tooManyToCount: false, hasNext: true })
      const badStage = yield* data("POST", "/items/aggregate-pipeline", { dataCollectionId: c, pipeline: { stages: [{ skip: 1, limit: 2 }] } })
      assert.strictEqual(badStage.status, 400)
    }))
})

/**
 * Query pages and streams against a fake runner serving a fixed dataset, in offset mode (no cursors
 * in pagingMetadata) and cursor mode: page fields, next/prev requests, WDE0165/WDE0159, and streams
 * that yield every item once, in order, prefetching exactly one page ahead.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { badAnswer, DataError } from "../../../src/data/DataError.ts"
import { Filter } from "../../../src/data/Filter.ts"
import { type Page, Query, type QueryRunner } from "../../../src/data/Query.ts"
import type { ItemData, QueryDataItemsRequest, QueryDataItemsResponse } from "../../../src/data/wire/index.ts"

interface Row {
  readonly _id: string
  readonly n: number
}

const dataset = (size: number): ReadonlyArray<Row> => Array.from({ length: size }, (_, n) => ({ _id: `i${n}`, n }))

type Mode = "offset" | "cursor"

interface FakeOptions {
  readonly mode: Mode
  /** Real delay of every fetch, in ms (live tests only). */
  readonly delayMs?: number
  /** Called when a request starts (to take measurements). */
  readonly onRequest?: (request: QueryDataItemsRequest) => void
  /** Replaces the computed pagingMetadata. */
  readonly paging?: (computed: NonNullable<QueryDataItemsResponse["pagingMetadata"]>) => QueryDataItemsResponse["pagingMetadata"]
  /** Fails the request with this error when it matches. */
  readonly failWhen?: (request: QueryDataItemsRequest) => DataError | undefined
}

/** A runner serving `rows` the way the platform does: offset or cursor paging, default page size 50. */
const fakeRunner = (rows: ReadonlyArray<Row>, options: FakeOptions) => {
  const requests: Array<QueryDataItemsRequest> = []
  const runner: QueryRunner<Row, never> = {
    collection: "Posts",
    fetch: (request) =>
      Effect.suspend(() => {
        requests.push(request)
        options.onRequest?.(request)
        const failure = options.failWhen?.(request)
        if (failure !== undefined) return Effect.fail(failure)
        const q = request.query ?? {}
        const cursor = q.cursorPaging?.cursor ?? undefined
        const offset = cursor !== undefined ? Number(cursor.slice(2)) : q.paging?.offset ?? 0
        // cursor paging without a cursor is the first page
        const limit = (q.cursorPaging !== undefined ? q.cursorPaging.limit : q.paging?.limit) ?? 50
        const slice = rows.slice(offset, offset + limit)
        const hasNext = offset + limit < rows.length
        const computed = {
          count: slice.length,
          offset,
          ...(request.returnTotalCount === true ? { total: rows.length } : {}),
          ...(options.mode === "cursor"
            ? { cursors: { ...(hasNext ? { next: `c:${offset + limit}` } : {}), ...(offset > 0 ? { prev: `c:${Math.max(0, offset - limit)}` } : {}) } }
            : {}),
          hasNext
        }
        const pagingMetadata = options.paging === undefined ? computed : options.paging(computed)
        const response: QueryDataItemsResponse = {
          dataItems: slice.map((r) => ({ id: r._id, dataCollectionId: "Posts", data: { ...r } })),
          ...(pagingMetadata === undefined ? {} : { pagingMetadata })
        }
        const answer = Effect.succeed(response)
        return options.delayMs === undefined ? answer : Effect.delay(answer, `${options.delayMs} millis`)
      }),
    count: () => Effect.die("count is not used here"),
    distinct: () => Effect.die("distinct is not used here"),
    decode: (data: ItemData) => Effect.succeed(data as unknown as Row)
  }
  return { runner, requests }
}

const ids = (page: Page<Row>) => page.items.map((r) => r.n)
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i)

const failureCode = <A>(exit: Exit.Exit<A, unknown>): string | undefined => {
  const e = Option.getOrUndefined(Exit.findErrorOption(exit))
  return typeof e === "object" && e !== null && "code" in e ? String(e.code) : undefined
}


const base = (runner: QueryRunner<Row, never>) => new Query(runner).ge("n", 0).ascending("n")

describe("pages, offset mode (no cursors in pagingMetadata)", () => {
  it.effect("find: the first page", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(23), { mode: "offset" })
      const page = yield* base(runner).limit(5).find
      expect(ids(page)).toStrictEqual([0, 1, 2, 3, 4])
      expect({ ...page, items: undefined, next: undefined, prev: undefined }).toStrictEqual({
        items: undefined,
        totalCount: undefined,
        pageSize: 5,
        currentPage: 0,
        totalPages: undefined,
        hasNext: true,
        hasPrev: false,
        cursors: { next: undefined, prev: undefined },
        next: undefined,
        prev: undefined
      })
      expect(requests).toStrictEqual([{
        dataCollectionId: "Posts",
        query: { fields: [], paging: { limit: 5, offset: 0 }, filter: { n: { $gte: 0 } }, sort: [{ fieldName: "n", order: "ASC" }] },
        includeReferences: []
      }])
    }))

  it.effect("next sends paging{limit, offset: skip + pageSize} with the same filter and sort", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(23), { mode: "offset" })
      const first = yield* base(runner).limit(5).find
      const second = yield* first.next
      expect(requests[1]).toStrictEqual({
        dataCollectionId: "Posts",
        query: { fields: [], paging: { limit: 5, offset: 5 }, filter: { n: { $gte: 0 } }, sort: [{ fieldName: "n", order: "ASC" }] },
        includeReferences: []
      })
      expect(ids(second)).toStrictEqual([5, 6, 7, 8, 9])
      assert.strictEqual(second.currentPage, 1)
      assert.isTrue(second.hasPrev)
      assert.isTrue(second.hasNext)
      assert.strictEqual(second.pageSize, 5)
    }))

  it.effect("walking forward to the end, then next fails WDE0165 without a request", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(23), { mode: "offset" })
      let page = yield* base(runner).limit(5).find
      const seen = [...ids(page)]
      const pages = [page.currentPage]
      while (page.hasNext) {
        page = yield* page.next
        seen.push(...ids(page))
        pages.push(page.currentPage)
      }
      expect(seen).toStrictEqual(range(0, 23))
      expect(pages).toStrictEqual([0, 1, 2, 3, 4])
      expect(requests.map((r) => r.query?.paging?.offset)).toStrictEqual([0, 5, 10, 15, 20])
      const exit = yield* Effect.exit(page.next)
      expect(failureCode(exit)).toBe("WDE0165")
      const error = Option.getOrUndefined(Exit.findErrorOption(exit)) as DataError
      assert.strictEqual(error.message, "WDE0165: Invalid query on [Posts].\nThere is no next page.")
      assert.strictEqual(requests.length, 5)
    }))

  it.effect("prev steps back by pageSize; prev on page 0 fails WDE0159 without a request", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(23), { mode: "offset" })
      const p0 = yield* base(runner).limit(5).find
      const p1 = yield* p0.next
      const back = yield* p1.prev
      expect(requests[2]).toStrictEqual(requests[0])
      expect(ids(back)).toStrictEqual([0, 1, 2, 3, 4])
      assert.strictEqual(back.currentPage, 0)
      assert.isFalse(back.hasPrev)
      const exit = yield* Effect.exit(back.prev)
      expect(failureCode(exit)).toBe("WDE0159")
      assert.strictEqual((Option.getOrUndefined(Exit.findErrorOption(exit)) as DataError).message, "WDE0159: Invalid query on [Posts].\nThere is no prev page.")
      assert.strictEqual(requests.length, 3)
      expect(failureCode(yield* Effect.exit(p0.prev))).toBe("WDE0159")
    }))

  it.effect("a first page after skip: currentPage from skip, hasPrev, prev by offset", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(23), { mode: "offset" })
      const page = yield* base(runner).limit(5).skip(10).find
      expect(ids(page)).toStrictEqual([10, 11, 12, 13, 14])
      assert.strictEqual(page.currentPage, 2)
      assert.isTrue(page.hasPrev)
      const prev = yield* page.prev
      expect(requests[1]?.query?.paging).toStrictEqual({ limit: 5, offset: 5 })
      expect(ids(prev)).toStrictEqual([5, 6, 7, 8, 9])
      assert.strictEqual(prev.currentPage, 1)
      const next = yield* page.next
      expect(requests[2]?.query?.paging).toStrictEqual({ limit: 5, offset: 15 })
      assert.strictEqual(next.currentPage, 3)
    }))

  it.effect("totalCount only when returned; totalPages from it", () =>
    Effect.gen(function*() {
      const { runner } = fakeRunner(dataset(23), { mode: "offset" })
      const counted = yield* base(runner).limit(5).withTotalCount().find
      assert.strictEqual(counted.totalCount, 23)
      assert.strictEqual(counted.totalPages, 5)
      const next = yield* counted.next
      assert.strictEqual(next.totalCount, 23)
      assert.strictEqual(next.totalPages, 5)
      const plain = yield* base(runner).limit(5).find
      assert.isUndefined(plain.totalCount)
      assert.isUndefined(plain.totalPages)
      const exact = yield* base(runner).limit(23).withTotalCount().find
      assert.strictEqual(exact.totalPages, 1)
    }))

  it.effect("an empty result with a total of 0 has 0 pages", () =>
    Effect.gen(function*() {
      const { runner } = fakeRunner([], { mode: "offset" })
      const page = yield* base(runner).withTotalCount().find
      expect(page.items).toStrictEqual([])
      assert.strictEqual(page.totalCount, 0)
      assert.strictEqual(page.totalPages, 0)
      assert.isFalse(page.hasNext)
      assert.isFalse(page.hasPrev)
    }))

  it.effect("no limit: pageSize defaults to 50, the first request has no paging, next asks for offset 50", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(120), { mode: "offset" })
      const page = yield* new Query(runner).find
      assert.strictEqual(page.pageSize, 50)
      assert.strictEqual(page.items.length, 50)
      expect(requests[0]?.query).toStrictEqual({ fields: [], filter: {}, sort: [] })
      const next = yield* page.next
      expect(requests[1]?.query?.paging).toStrictEqual({ limit: 50, offset: 50 })
      expect(ids(next)).toStrictEqual(range(50, 100))
      assert.strictEqual(next.currentPage, 1)
    }))

  it.effect("hasNext comes from pagingMetadata.hasNext only", () =>
    Effect.gen(function*() {
      // a full page and a total saying there is more, but no hasNext
      const noFlag = fakeRunner(dataset(23), { mode: "offset", paging: ({ hasNext: _, ...rest }) => ({ ...rest, total: 23 }) })
      const page = yield* base(noFlag.runner).limit(5).find
      assert.isFalse(page.hasNext)
      expect(failureCode(yield* Effect.exit(page.next))).toBe("WDE0165")
      assert.strictEqual(noFlag.requests.length, 1)
      const nullFlag = fakeRunner(dataset(23), { mode: "offset", paging: (p) => ({ ...p, hasNext: null }) })
      assert.isFalse((yield* base(nullFlag.runner).limit(5).find).hasNext)
      const none = fakeRunner(dataset(23), { mode: "offset", paging: () => undefined })
      const bare = yield* base(none.runner).limit(5).find
      assert.isFalse(bare.hasNext)
      assert.isUndefined(bare.totalCount)
      expect(bare.cursors).toStrictEqual({ next: undefined, prev: undefined })
      // hasNext true on a short page is believed
      const lying = fakeRunner(dataset(3), { mode: "offset", paging: (p) => ({ ...p, hasNext: true }) })
      assert.isTrue((yield* base(lying.runner).limit(5).find).hasNext)
    }))
})

describe("pages, cursor mode", () => {
  it.effect("find: the first page carries the cursors", () =>
    Effect.gen(function*() {
      const { runner } = fakeRunner(dataset(23), { mode: "cursor" })
      const page = yield* base(runner).limit(5).find
      expect(page.cursors).toStrictEqual({ next: "c:5", prev: undefined })
      assert.isTrue(page.hasNext)
      assert.isFalse(page.hasPrev)
      expect(failureCode(yield* Effect.exit(page.prev))).toBe("WDE0159")
    }))

  it.effect("next sends only fields and cursorPaging{limit, cursor}", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(23), { mode: "cursor" })
      const first = yield* base(runner).limit(5).find
      const second = yield* first.next
      expect(requests[1]).toStrictEqual({
        dataCollectionId: "Posts",
        query: { fields: [], cursorPaging: { limit: 5, cursor: "c:5" } },
        includeReferences: []
      })
      expect(ids(second)).toStrictEqual([5, 6, 7, 8, 9])
      assert.strictEqual(second.currentPage, 1)
      assert.isTrue(second.hasPrev)
      expect(second.cursors).toStrictEqual({ next: "c:10", prev: "c:0" })
    }))

  it.effect("a cursor page keeps fields, references and read options, drops returnTotalCount, keeps the total", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(23), { mode: "cursor" })
      const first = yield* base(runner).fields("n").include("ref", 3).consistentRead().language("de").withTotalCount().limit(5).find
      assert.strictEqual(first.totalCount, 23)
      const second = yield* first.next
      expect(requests[1]).toStrictEqual({
        dataCollectionId: "Posts",
        query: { fields: ["n"], cursorPaging: { limit: 5, cursor: "c:5" } },
        includeReferences: [{ field: "ref", limit: 3 }],
        consistentRead: true,
        language: "de"
      })
      assert.strictEqual(second.totalCount, 23)
      assert.strictEqual(second.totalPages, 5)
    }))

  it.effect("prev uses the prev cursor", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(23), { mode: "cursor" })
      const p1 = yield* (yield* base(runner).limit(5).find).next
      const p2 = yield* p1.next
      const back = yield* p2.prev
      expect(requests[3]?.query).toStrictEqual({ fields: [], cursorPaging: { limit: 5, cursor: "c:5" } })
      expect(ids(back)).toStrictEqual([5, 6, 7, 8, 9])
      assert.strictEqual(back.currentPage, 1)
    }))

  it.effect("the last page has no next cursor and next fails WDE0165", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(12), { mode: "cursor" })
      const p0 = yield* base(runner).limit(5).find
      const p1 = yield* p0.next
      const p2 = yield* p1.next
      expect(ids(p2)).toStrictEqual([10, 11])
      assert.isFalse(p2.hasNext)
      assert.isUndefined(p2.cursors.next)
      expect(failureCode(yield* Effect.exit(p2.next))).toBe("WDE0165")
      assert.strictEqual(requests.length, 3)
    }))
})

describe("stream and pages", () => {
  for (const mode of ["offset", "cursor"] as const) {
    it.effect(`${mode}: every item exactly once, in order, in pages of 1000 when no limit was set`, () =>
      Effect.gen(function*() {
        const { runner, requests } = fakeRunner(dataset(2345), { mode })
        const items = yield* Stream.runCollect(base(runner).stream)
        expect(items.map((r) => r.n)).toStrictEqual(range(0, 2345))
        assert.strictEqual(requests.length, 3)
        // a stream asks for cursor paging from the first page, with the filter and sort
        expect(requests[0]?.query).toStrictEqual({ fields: [], cursorPaging: { limit: 1000 }, filter: { n: { $gte: 0 } }, sort: [{ fieldName: "n", order: "ASC" }] })
        if (mode === "offset") {
          // a platform that hands out no cursors is paged by offsets from there on
          expect(requests.slice(1).map((r) => r.query?.paging)).toStrictEqual([{ limit: 1000, offset: 1000 }, { limit: 1000, offset: 2000 }])
          for (const r of requests) expect(r.query?.filter).toStrictEqual({ n: { $gte: 0 } })
        } else {
          expect(requests.slice(1).map((r) => r.query)).toStrictEqual([
            { fields: [], cursorPaging: { limit: 1000, cursor: "c:1000" } },
            { fields: [], cursorPaging: { limit: 1000, cursor: "c:2000" } }
          ])
        }
      }))

    it.effect(`${mode}: a set limit is the page size`, () =>
      Effect.gen(function*() {
        const { runner, requests } = fakeRunner(dataset(50), { mode })
        const items = yield* Stream.runCollect(base(runner).limit(7).stream)
        expect(items.map((r) => r.n)).toStrictEqual(range(0, 50))
        assert.strictEqual(requests.length, 8)
        const pages = yield* Stream.runCollect(base(runner).limit(7).pages)
        expect(pages.map((p) => p.currentPage)).toStrictEqual([0, 1, 2, 3, 4, 5, 6, 7])
        expect(pages.map((p) => p.items.length)).toStrictEqual([7, 7, 7, 7, 7, 7, 7, 1])
      }))
  }

  it.effect("skip: the stream starts there, by offsets", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(30), { mode: "cursor" })
      const items = yield* Stream.runCollect(base(runner).limit(4).skip(21).stream)
      expect(items.map((r) => r.n)).toStrictEqual(range(21, 30))
      expect(requests[0]?.query?.paging).toStrictEqual({ limit: 4, offset: 21 })
    }))

  it.effect("a query with an error fails its stream without a request", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(3), { mode: "cursor" })
      const exit = yield* Effect.exit(Stream.runCollect(base(runner).limit(0).stream))
      expect(failureCode(exit)).toBe("WDE0033")
      assert.strictEqual(requests.length, 0)
    }))

  it.effect("an empty collection: no items, one request", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner([], { mode: "offset" })
      expect(yield* Stream.runCollect(base(runner).stream)).toStrictEqual([])
      assert.strictEqual(requests.length, 1)
    }))

  it.effect("a failing page fails the stream after the pages before it", () =>
    Effect.gen(function*() {
      const failure = badAnswer("WDE0055", "WDE0055: Failed to parse server response.")
      const { runner } = fakeRunner(dataset(40), { mode: "offset", failWhen: (r) => (r.query?.paging?.offset === 14 ? failure : undefined) })
      const seen: Array<number> = []
      const exit = yield* Effect.exit(base(runner).limit(7).stream.pipe(Stream.runForEach((r) => Effect.sync(() => seen.push(r.n)))))
      expect(failureCode(exit)).toBe("WDE0055")
      expect(seen).toStrictEqual(range(0, 14))
    }))
})

describe("stream prefetching (real time)", () => {
  const PAGE = 4
  const PAGES = 6

  it.live("while the consumer is slow on page k, page k+1 is already fetched, and never more than one page ahead", () =>
    Effect.gen(function*() {
      let started = 0
      let answered = 0
      const requestedAt: Array<{ page: number; started: number }> = []
      const answeredAtLastItem: Array<{ page: number; answered: number }> = []
      const { runner } = fakeRunner(dataset(PAGE * PAGES), {
        mode: "offset",
        delayMs: 2,
        onRequest: (r) => requestedAt.push({ page: (r.query?.paging?.offset ?? 0) / PAGE, started })
      })
      const counted: QueryRunner<Row, never> = { ...runner, fetch: (r) => runner.fetch(r).pipe(Effect.tap(() => Effect.sync(() => answered++))) }
      yield* new Query(counted).limit(PAGE).stream.pipe(
        Stream.runForEach((row) =>
          Effect.sync(() => {
            started++
            if (row.n % PAGE === PAGE - 1) answeredAtLastItem.push({ page: Math.floor(row.n / PAGE), answered })
          }).pipe(Effect.andThen(Effect.sleep("8 millis")))
        )
      )
      expect(requestedAt.map((r) => r.page)).toStrictEqual(range(0, PAGES))
      // bounded: page p is requested only once the consumer has finished page p - 2 (it is on page p - 1)
      for (const { page, started: s } of requestedAt) {
        assert.isAtLeast(s, (page - 1) * PAGE, `page ${page} requested when the consumer had started only ${s} items`)
      }
      // prefetch: by the last item of page k, page k + 1 has been fetched (k + 2 answers)
      for (const { page, answered: a } of answeredAtLastItem.slice(0, -1)) {
        assert.isAtLeast(a, page + 2, `page ${page + 1} not fetched while the consumer was on page ${page}`)
      }
    }))

  it.live("pages: one page ahead of a slow page consumer", () =>
    Effect.gen(function*() {
      let consumed = 0
      const requestedAt: Array<{ page: number; consumed: number }> = []
      const { runner } = fakeRunner(dataset(PAGE * PAGES), {
        mode: "cursor",
        delayMs: 2,
        onRequest: (r) => {
          const c = r.query?.cursorPaging?.cursor
          requestedAt.push({ page: (c === undefined || c === null ? 0 : Number(c.slice(2))) / PAGE, consumed })
        }
      })
      const pages = yield* new Query(runner).limit(PAGE).pages.pipe(
        Stream.mapEffect((p) => Effect.sleep("15 millis").pipe(Effect.andThen(Effect.sync(() => (consumed++, p.currentPage))))),
        Stream.runCollect
      )
      expect(pages).toStrictEqual(range(0, PAGES))
      for (const { page, consumed: c } of requestedAt) assert.isAtLeast(c, page - 1, `page ${page} requested after only ${c} pages were consumed`)
      // and the prefetch happened: some page was requested before the previous one was consumed
      assert.isTrue(requestedAt.some(({ page, consumed: c }) => page > 0 && c < page))
    }))

  it.live("a consumer that stops early leaves at most one page fetched ahead", () =>
    Effect.gen(function*() {
      const { runner, requests } = fakeRunner(dataset(PAGE * PAGES), { mode: "offset", delayMs: 1 })
      const first = yield* new Query(runner).limit(PAGE).stream.pipe(
        Stream.mapEffect((r) => Effect.sleep("30 millis").pipe(Effect.as(r.n))),
        Stream.take(1),
        Stream.runCollect
      )
      expect(first).toStrictEqual([0])
      yield* Effect.sleep("20 millis")
      assert.isAtMost(requests.length, 2)
    }))
})

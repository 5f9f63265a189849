/**
 * Streams read the next page's paging from the end of an answer's text and ask for that page while
 * the current one is still being decoded. Here: reading the paging from the text, the order of
 * fetching and decoding, and the client against a fake platform whose answers put the paging first
 * or hold an item field of the same name.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { PlatformFetch } from "../../../src/http/PlatformHttp.ts"
import * as DataItems from "../../../src/data/DataItems.ts"
import { Query, type QueryRunner } from "../../../src/data/Query.ts"
import { peekPagingMetadata, samePaging } from "../../../src/data/readAhead.ts"
import type { ItemData, QueryDataItemsResponse } from "../../../src/data/wire/index.ts"
import type { PlatformClient } from "../../../src/http/PlatformClient.ts"
import { fromBase64url } from "../../../src/http/codec.ts"
import { Site } from "../../../src/Site.ts"

describe("peekPagingMetadata", () => {
  it("reads the paging written last", () => {
    const paging = { count: 2, cursors: { next: "abc" }, hasNext: true }
    assert.deepStrictEqual(peekPagingMetadata(JSON.stringify({ dataItems: [{ id: "a", data: {} }], pagingMetadata: paging })), paging)
    assert.deepStrictEqual(peekPagingMetadata(`{ "dataItems": [],\n  "pagingMetadata" : {"hasNext": false} }\n`), { hasNext: false })
  })

  it("reads nothing when the paging is not last, is missing, or is not paging", () => {
    assert.isUndefined(peekPagingMetadata(JSON.stringify({ pagingMetadata: { hasNext: true }, dataItems: [] })))
    assert.isUndefined(peekPagingMetadata(JSON.stringify({ dataItems: [] })))
    assert.isUndefined(peekPagingMetadata(JSON.stringify({ dataItems: [], pagingMetadata: { hasNext: "yes" } })))
    assert.isUndefined(peekPagingMetadata(`{"dataItems":[],"pagingMetadata":{"hasNext":tru}}`))
  })

  it("an item field of the same name never reads as the paging", () => {
    const inItem = JSON.stringify({ pagingMetadata: { hasNext: false }, dataItems: [{ id: "a", data: { pagingMetadata: { hasNext: true } } }] })
    assert.isUndefined(peekPagingMetadata(inItem))
    const both = JSON.stringify({ dataItems: [{ id: "a", data: { pagingMetadata: { hasNext: true } } }], pagingMetadata: { hasNext: false } })
    assert.deepStrictEqual(peekPagingMetadata(both), { hasNext: false })
  })

  it("samePaging compares where the pagings lead", () => {
    assert.isTrue(samePaging({ hasNext: true, cursors: { next: "a" } }, { cursors: { next: "a" }, hasNext: true, tooManyToCount: null }))
    assert.isFalse(samePaging({ hasNext: true, cursors: { next: "a" } }, { hasNext: true, cursors: { next: "b" } }))
    assert.isFalse(samePaging({ hasNext: true }, { hasNext: false }))
  })
})

describe("streams with read-ahead", () => {
  it.live("the next page is asked for before the current one is decoded", () =>
    Effect.gen(function*() {
      const events: Array<string> = []
      const PAGES = 5
      const runner: QueryRunner<ItemData, never> = {
        collection: "Posts",
        fetch: () => Effect.die("not used"),
        count: () => Effect.die("not used"),
        distinct: () => Effect.die("not used"),
        decode: (data) => Effect.succeed(data),
        asIs: true,
        fetchPaged: (request) =>
          Effect.gen(function*() {
            const cursor = request.query?.cursorPaging?.cursor
            const page = cursor === undefined || cursor === null ? 0 : Number(cursor)
            // as an HTTP client does, the request goes out after a few asynchronous steps
            yield* Effect.promise(() => Promise.resolve())
            yield* Effect.promise(() => Promise.resolve())
            events.push(`fetch ${page}`)
            yield* Effect.sleep("3 millis")
            const paging = { count: 1, hasNext: page < PAGES - 1, cursors: page < PAGES - 1 ? { next: String(page + 1) } : {} }
            const response: QueryDataItemsResponse = { dataItems: [{ id: `i${page}`, data: { _id: `i${page}`, page } }], pagingMetadata: paging }
            return {
              paging,
              response: Effect.sync(() => events.push(`decode ${page}`)).pipe(
                Effect.andThen(Effect.sleep("15 millis")),
                Effect.andThen(Effect.sync(() => events.push(`decoded ${page}`))),
                Effect.as(response)
              )
            }
          })
      }
      const items = yield* Stream.runCollect(new Query(runner).stream)
      expect(items.map((i) => i["page"])).toStrictEqual([0, 1, 2, 3, 4])
      for (let page = 0; page < PAGES - 1; page++) {
        // page + 1 was asked for before page began to be decoded, and never more than one page ahead
        assert.isBelow(events.indexOf(`fetch ${page + 1}`), events.indexOf(`decode ${page}`), events.join(", "))
        if (page + 2 < PAGES) assert.isAbove(events.indexOf(`fetch ${page + 2}`), events.indexOf(`decode ${page}`), events.join(", "))
      }
    }))
})

describe("the client reads pages ahead from the platform's answers", () => {
  /** A fake platform: query answers written by `answer` from the decoded request. */
  const fake = (answer: (request: any) => string) => {
    const requests: Array<any> = []
    const fetch: typeof globalThis.fetch = async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      const request = JSON.parse(fromBase64url(url.searchParams.get(".r") ?? ""))
      requests.push(request)
      return new Response(answer(request), { status: 200, headers: { "content-type": "application/json" } })
    }
    return { fetch, requests }
  }
  const run = <A, E>(fetch: typeof globalThis.fetch, effect: Effect.Effect<A, E, PlatformClient>) =>
    effect.pipe(
      Effect.provide(Layer.fresh(Site.apiKey({ baseUrl: "http://platform.test", apiKey: "k", siteId: "s" })), { local: true }),
      Effect.provideService(PlatformFetch, fetch)
    )
  const page = (n: number, at: string) => [{ id: `i${n}`, data: { _id: `i${n}`, n, at: { $date: at } } }]
  const paging = (n: number) => ({ count: 1, hasNext: n < 2, cursors: n < 2 ? { next: `c${n + 1}` } : {} })
  const pageOf = (request: any) => Number(String(request.query?.cursorPaging?.cursor ?? "c0").slice(1))

  for (const [name, write] of [
    ["paging last (read ahead)", (n: number) => JSON.stringify({ dataItems: page(n, "2024-01-02T03:04:05.678Z"), pagingMetadata: paging(n) })],
    ["paging first (parsed at once)", (n: number) => JSON.stringify({ pagingMetadata: paging(n), dataItems: page(n, "2024-01-02T03:04:05.678Z") })],
    ["an item field named pagingMetadata", (n: number) => JSON.stringify({ dataItems: [{ id: `i${n}`, data: { _id: `i${n}`, n, at: { $date: "2024-01-02T03:04:05.678Z" }, pagingMetadata: { hasNext: false } } }], pagingMetadata: paging(n) })]
  ] as const) {
    it.effect(`${name}: every item once, dates revived, cursor requests`, () =>
      Effect.gen(function*() {
        const { fetch, requests } = fake((request) => write(pageOf(request)))
        const items = yield* run(fetch, Stream.runCollect(DataItems.query("Posts").eq("n", 1).stream))
        expect(items.map((i) => i["n"])).toStrictEqual([0, 1, 2])
        assert.instanceOf(items[2]!["at"], Date)
        assert.strictEqual((items[2]!["at"] as Date).toISOString(), "2024-01-02T03:04:05.678Z")
        expect(requests.map((r) => r.query.cursorPaging)).toStrictEqual([{ limit: 1000 }, { limit: 1000, cursor: "c1" }, { limit: 1000, cursor: "c2" }])
        expect(requests[0].query.filter).toStrictEqual({ n: 1 })
      }))
  }

  it.effect("an answer that is not a page fails the stream with the platform's error, after the pages before it", () =>
    Effect.gen(function*() {
      const { fetch } = fake((request) => (pageOf(request) === 1 ? JSON.stringify({ dataItems: "oops", pagingMetadata: paging(1) }) : JSON.stringify({ dataItems: page(pageOf(request), "2024-01-02T03:04:05.678Z"), pagingMetadata: paging(pageOf(request)) })))
      const seen: Array<unknown> = []
      const error = yield* run(fetch, DataItems.query("Posts").stream.pipe(Stream.runForEach((i) => Effect.sync(() => seen.push(i["n"]))), Effect.flip))
      expect(seen).toStrictEqual([0])
      assert.strictEqual(error._tag, "DataError")
    }))
})

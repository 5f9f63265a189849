/**
 * A query stream that ends or is interrupted while its next page is being fetched closes that page's
 * connection: a script that takes the first items of a big collection leaves no request hanging. A
 * scripted node:http server plays the platform: the first page comes at once, the second never does.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as DataItems from "../../src/data/DataItems.ts"
import { Site } from "../../src/Site.ts"
import { recordingServer } from "../support/recordingServer.ts"

const server = recordingServer()

const page = (from: number, n: number, next: string | undefined) => ({
  json: {
    dataItems: Array.from({ length: n }, (_, i) => ({ id: `i${from + i}`, dataCollectionId: "Big", data: { _id: `i${from + i}`, n: from + i } })),
    pagingMetadata: { count: n, cursors: next === undefined ? {} : { next }, hasNext: next !== undefined }
  }
})

const admin = () => Site.apiKey({ baseUrl: server.origin, apiKey: Redacted.make("key"), siteId: "site", retry: { times: 0 } })

describe("a query stream's connections", () => {
  it.live("taking the first page's items ends the stream and closes the connection of the page fetched ahead", () =>
    Effect.gen(function*() {
      server.script = [page(0, 5, "c1"), "stall"]
      const before = server.closed()
      const items = yield* DataItems.query("Big").limit(5).stream.pipe(
        // a consumer slow enough for the next page's request to go out while it works
        Stream.mapEffect((item) => Effect.as(Effect.sleep("40 millis"), item)),
        Stream.take(5),
        Stream.runCollect,
        Effect.provide(Layer.fresh(admin()))
      )
      assert.deepStrictEqual(items.map((i) => i["n"]), [0, 1, 2, 3, 4])
      assert.strictEqual(server.requests.length, 2, "the second page's request went out, ahead of the consumer")
      const deadline = Date.now() + 2000
      while (server.closed() === before && Date.now() < deadline) yield* Effect.sleep("10 millis")
      assert.isAbove(server.closed(), before, "the stalled page's connection was closed")
    }))

  it.live("interrupting a stream waiting on a page closes its connection", () =>
    Effect.gen(function*() {
      server.script = [page(0, 5, "c1"), "stall"]
      const before = server.closed()
      const seen: Array<unknown> = []
      const fiber = yield* DataItems.query("Big").limit(5).stream.pipe(
        Stream.runForEach((item) => Effect.sync(() => seen.push(item["n"]))),
        Effect.provide(Layer.fresh(admin())),
        Effect.forkChild
      )
      const deadline = Date.now() + 2000
      while ((server.requests.length < 2 || seen.length < 5) && Date.now() < deadline) yield* Effect.sleep("10 millis")
      assert.strictEqual(seen.length, 5)
      yield* Fiber.interrupt(fiber)
      while (server.closed() === before && Date.now() < deadline) yield* Effect.sleep("10 millis")
      assert.isAbove(server.closed(), before, "the stalled page's connection was closed")
    }))
})

/**
 * `Events.live` over a connection that goes silent: a network can drop a connection without either end
 * hearing of it, so a stream that brings nothing (not even the platform's keep-alive comment) for
 * `idleMillis` is replaced by a new one, resumed from the last event id, and the reconnection is told
 * as a retry on the span the stream runs in. A scripted node:http server plays the platform.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { live } from "../../src/events/Live.ts"
import { Site } from "../../src/Site.ts"

const frame = (id: string, type: string) =>
  `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ id, eventType: type, data: "{}", instanceId: "site", slug: "s", entityFqdn: "e", entityId: id })}\n\n`

describe("Events.live over a silent connection", () => {
  it.live("a connection that brings nothing for idleMillis is replaced, resuming after the last event", () =>
    Effect.gen(function*() {
      const seen: Array<IncomingHttpHeaders> = []
      const open: Array<ServerResponse> = []
      const server = createServer((req, res) => {
        seen.push(req.headers)
        open.push(res)
        res.writeHead(200, { "content-type": "text/event-stream" })
        // the first connection gives one event and then goes silent; the next gives the second event
        res.write(seen.length === 1 ? `: connected\n\n${frame("e1", "t")}` : frame("e2", "t"))
      })
      yield* Effect.acquireRelease(
        Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))),
        () =>
          Effect.promise(() =>
            new Promise<void>((resolve) => {
              for (const res of open) res.destroy()
              server.close(() => resolve())
            })
          )
      )
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const admin = Site.apiKey({ baseUrl: url, apiKey: Redacted.make("secret-api-key-value"), siteId: "site" })
      const started = Date.now()
      const { events, span } = yield* Effect.gen(function*() {
        const span = yield* Effect.currentSpan
        const events = yield* live({ idleMillis: 300, reconnect: { baseMillis: 10, maxMillis: 20 } }).pipe(Stream.take(2), Stream.runCollect)
        return { events, span }
      }).pipe(Effect.withSpan("listener"), Effect.provide(Layer.fresh(admin)))
      assert.deepStrictEqual(events.map((e) => e.id), ["e1", "e2"])
      assert.isAtLeast(Date.now() - started, 300, "the silent connection was given its idle time")
      assert.isBelow(Date.now() - started, 5000)
      assert.strictEqual(seen.length, 2)
      assert.strictEqual(seen[1]!["last-event-id"], "e1", "the new connection resumed after the last event")
      const retries = (span as unknown as { events: Array<[string, bigint, Record<string, unknown>]> }).events.filter(([name]) => name === "sitefx.retry")
      assert.lengthOf(retries, 1)
      assert.match(String(retries[0]![2]["sitefx.retry.cause"]), /nothing came for 300 ms/)
      assert.notInclude(JSON.stringify(retries, (_, v) => (typeof v === "bigint" ? String(v) : v)), "secret-api-key-value")
    }).pipe(Effect.scoped))
})

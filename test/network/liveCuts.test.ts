/**
 * `Events.live` through a network that keeps breaking, against the real local platform: a FaultProxy
 * between them cuts every connection every second for a minute while items are written, and the stream
 * delivers every item's event once, in order. And a stream cut before its first event resumes from where
 * it started, not from whatever is new when it comes back (the platform's first frame is its position).
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as DataItems from "../../src/data/DataItems.ts"
import { live, type LiveEvent } from "../../src/events/Live.ts"
import { DataEventTypes, type DomainEvent } from "../../src/events/protocol.ts"
import { Site } from "../../src/Site.ts"
import * as FaultProxy from "../../src/testing/FaultProxy.ts"
import { asAdmin, freshCollection } from "../data/support.ts"
import { LocalPlatform } from "../support/platform.ts"

const entityOf = (e: LiveEvent) => (JSON.parse(e.envelope.data) as DomainEvent).entityId

/** Follows item-created events through `url` in the background: what it has seen so far. */
const follow = (url: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const admin = Site.apiKey({ baseUrl: url, apiKey: platform.apiKey, siteId: platform.siteId })
    const seen: Array<string> = []
    const fiber = yield* live({ eventTypes: [DataEventTypes.itemCreated], reconnect: { attempts: 100, baseMillis: 20, maxMillis: 200 } }).pipe(
      Stream.runForEach((e) => Effect.sync(() => seen.push(entityOf(e)))),
      Effect.provide(admin),
      Effect.forkChild
    )
    const waitFor = (n: number, ms = 10_000) =>
      Effect.gen(function*() {
        const deadline = Date.now() + ms
        while (seen.length < n && Date.now() < deadline) yield* Effect.sleep("20 millis")
        return seen
      })
    return { seen, fiber, waitFor }
  })

it.layer(LocalPlatform.layer({ seed: "none" }), { excludeTestServices: true })("Events.live through a breaking network", (it) => {
  it.effect("connections cut every second for a minute: every event once, in order", () =>
    Effect.scoped(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const proxy = yield* FaultProxy.start({ target: platform.url })
      const c = yield* freshCollection("Cut")
      const { fiber, waitFor } = yield* follow(proxy.url)
      yield* Effect.sleep("300 millis")
      yield* proxy.set({ cutEveryMs: 1000 })
      const written: Array<string> = []
      const until = Date.now() + 60_000
      for (let i = 0; Date.now() < until; i++) {
        const id = `item-${String(i).padStart(5, "0")}`
        yield* asAdmin(DataItems.insert(c, { _id: id, i }))
        written.push(id)
        yield* Effect.sleep("25 millis")
      }
      yield* proxy.set({})
      const seen = yield* waitFor(written.length)
      yield* Effect.sleep("300 millis")
      yield* Fiber.interrupt(fiber)
      const stats = yield* proxy.stats
      assert.isAtLeast(stats.cuts, 55, "the stream's connection was cut about once a second")
      assert.isAbove(written.length, 500)
      assert.deepStrictEqual(seen, written, "every event once, in order")
    })), 120_000)

  it.effect("a stream cut before its first event resumes from where it started", () =>
    Effect.scoped(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const proxy = yield* FaultProxy.start({ target: platform.url })
      const c = yield* freshCollection("Gap")
      const { fiber, waitFor } = yield* follow(proxy.url)
      yield* Effect.sleep("300 millis")
      // the stream out of reach before it saw anything: every connection reset while an item is written
      yield* proxy.set({ resetRate: 1 })
      yield* proxy.cutAll
      yield* asAdmin(DataItems.insert(c, { _id: "gap" }))
      yield* Effect.sleep("200 millis")
      yield* proxy.set({})
      yield* asAdmin(DataItems.insert(c, { _id: "after" }))
      const seen = yield* waitFor(2)
      yield* Fiber.interrupt(fiber)
      assert.deepStrictEqual(seen, ["gap", "after"])
    })))
})

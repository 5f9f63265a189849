/**
 * `Events.live` against the local platform over real HTTP: writes made by visitors, members and API keys
 * arrive with their type, entity and identity; a connection cut mid-way (a TCP proxy in between drops
 * every socket) resumes from the last event id without loss or duplicate; the platform refuses what it
 * must (no key, a resume point it no longer keeps), and the stream says why.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { createServer, type Server, type Socket, connect } from "node:net"
import * as Collections from "../../src/catalog/Collections.ts"
import * as Products from "../../src/catalog/Products.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { live, LiveError, type LiveEvent } from "../../src/events/Live.ts"
import { CatalogV1EventTypes, DataEventTypes, type DomainEvent, EventPaths } from "../../src/events/protocol.ts"
import { Site } from "../../src/Site.ts"
import { asAdmin, asVisitor, freshCollection } from "../data/support.ts"
import { dev, LocalPlatform } from "../support/platform.ts"
import { asMember } from "../support/store.ts"

/** A TCP proxy to the platform whose connections can all be cut at once, and which can refuse new ones for a while. */
const proxy = (target: string) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ readonly url: string; readonly cut: () => number; readonly server: Server; readonly refuse: (on: boolean) => void }>((resolve) => {
        const { hostname, port } = new URL(target)
        const sockets = new Set<Socket>()
        let refusing = false
        const server = createServer((client) => {
          if (refusing) return void client.destroy()
          const upstream = connect(Number(port), hostname)
          for (const s of [client, upstream]) {
            sockets.add(s)
            s.on("close", () => sockets.delete(s))
            s.on("error", () => undefined)
          }
          client.pipe(upstream).pipe(client)
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address() as { port: number }
          resolve({
            url: `http://127.0.0.1:${address.port}`,
            server,
            refuse: (on) => {
              refusing = on
            },
            cut: () => {
              const n = sockets.size
              for (const s of sockets) s.destroy()
              return n
            }
          })
        })
      })
    ),
    (p) => Effect.promise(() => new Promise<void>((resolve) => p.server.close(() => resolve())))
  )

/** The admin's connection to a platform at `url` (the platform's own, or the proxy's). */
const adminAt = (url: string) =>
  Effect.map(LocalPlatform, (platform) => Site.apiKey({ baseUrl: url, apiKey: platform.apiKey, siteId: platform.siteId }))

const domain = (e: LiveEvent) => JSON.parse(e.envelope.data) as DomainEvent
const identity = (e: LiveEvent) => JSON.parse(e.envelope.identity!) as Record<string, string>

/** Starts a stream in the background; its events so far, and a way to wait for `n` of them. */
const listen = (stream: Stream.Stream<LiveEvent, LiveError>) =>
  Effect.gen(function*() {
    const seen: Array<LiveEvent> = []
    const fiber = yield* Effect.forkChild(Stream.runForEach(stream, (e) => Effect.sync(() => seen.push(e))))
    // the stream is connected once the platform counts its request: give it a moment
    yield* Effect.sleep("300 millis")
    const waitFor = (n: number) =>
      Effect.gen(function*() {
        for (let i = 0; i < 200 && seen.length < n; i++) yield* Effect.sleep("25 millis")
        return seen
      })
    return { seen, fiber, waitFor }
  })

describe("Events.live", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("data and catalog writes arrive with their type, entity and who made them", () =>
      Effect.scoped(Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const admin = yield* adminAt(platform.url)
        const stream = live({ eventTypes: [DataEventTypes.itemCreated, DataEventTypes.itemUpdated, CatalogV1EventTypes.productCreated] })
        const { fiber, waitFor } = yield* listen(Stream.provide(stream, admin))
        const c = yield* freshCollection("Live")
        const byVisitor = yield* asVisitor(DataItems.insert(c, { title: "from a visitor" }))
        const byMember = yield* asMember(DataItems.insert(c, { title: "from a member" }))
        yield* asAdmin(DataItems.update(c, { ...byVisitor, title: "edited" }))
        const product = yield* asAdmin(Products.create({ name: `Live ${Date.now()}`, priceData: { price: 4 } }))
        yield* asAdmin(Collections.create({ name: `Not asked for ${Date.now()}` }))
        const seen = yield* waitFor(4)
        yield* Fiber.interrupt(fiber)
        assert.deepStrictEqual(seen.map((e) => e.type), [DataEventTypes.itemCreated, DataEventTypes.itemCreated, DataEventTypes.itemUpdated, CatalogV1EventTypes.productCreated])
        assert.deepStrictEqual(seen.map((e) => domain(e).entityId).slice(0, 3), [byVisitor._id, byMember._id, byVisitor._id])
        assert.deepStrictEqual(seen.map((e) => identity(e).identityType), ["ANONYMOUS_VISITOR", "MEMBER", "WIX_USER", "WIX_USER"])
        assert.strictEqual(identity(seen[1]!).memberId !== undefined, true)
        const created = domain(seen[0]!).createdEvent!.entity as { dataCollectionId: string; data: { title: string } }
        assert.deepStrictEqual([created.dataCollectionId, created.data.title], [c, "from a visitor"])
        assert.deepStrictEqual(domain(seen[2]!).updatedEvent!.modifiedFields!["title"], "from a visitor")
        assert.strictEqual(JSON.parse(seen[3]!.envelope.data).productId, product.id)
        // each event also comes decoded
        const first = seen[0]!.event!
        assert.strictEqual(first._tag === "Domain" && first.change._tag === "Created" && first.entityId, byVisitor._id)
        const legacy = seen[3]!.event!
        assert.strictEqual(legacy._tag === "Legacy" && (legacy.data as { productId: string }).productId, product.id)
        assert.strictEqual(legacy.identity?.identityType, "WIX_USER")
        const ids = seen.map((e) => Number(e.id))
        assert.deepStrictEqual(ids, [...ids].sort((a, b) => a - b))
      })))

    it.effect("a connection cut mid-way resumes from the last event: nothing lost, nothing twice", () =>
      Effect.scoped(Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const between = yield* proxy(platform.url)
        const admin = yield* adminAt(between.url)
        const c = yield* freshCollection("Cut")
        const { fiber, waitFor } = yield* listen(Stream.provide(live({ eventTypes: [DataEventTypes.itemCreated], reconnect: { baseMillis: 50 } }), admin))
        const insert = (i: number) => asAdmin(DataItems.insert(c, { _id: `item-${i}`, i }))
        for (let i = 0; i < 3; i++) yield* insert(i)
        yield* waitFor(3)
        // the platform out of reach: the connection cut, and new ones refused while items are written
        between.refuse(true)
        assert.isAbove(between.cut(), 0, "the stream's connection was cut")
        for (let i = 3; i < 8; i++) yield* insert(i)
        yield* Effect.sleep("150 millis")
        between.refuse(false)
        const seen = yield* waitFor(8)
        between.cut()
        for (let i = 8; i < 10; i++) yield* insert(i)
        const all = yield* waitFor(10)
        yield* Effect.sleep("200 millis")
        yield* Fiber.interrupt(fiber)
        assert.deepStrictEqual(all.map((e) => domain(e).entityId), Array.from({ length: 10 }, (_, i) => `item-${i}`))
        assert.strictEqual(seen.length, all.length)
      })))

    it.effect("refusals: a visitor session is not enough, and a stream that cannot resume says so", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const visitor = Site.layer({ baseUrl: platform.url, clientId: platform.clientId })
        const refused = yield* Stream.runCollect(Stream.provide(live(), Layer.fresh(visitor))).pipe(Effect.flip)
        assert.instanceOf(refused, LiveError)
        assert.strictEqual(refused.reason._tag, "Unauthorized")
        const admin = yield* adminAt(platform.url)
        // events are kept by id: after a reset of the platform none before it is kept any more
        yield* asAdmin(DataItems.insert("Posts", { title: "before the reset" }))
        yield* dev("/reset", { method: "POST", body: {} })
        yield* dev("/seed", { method: "POST", body: { seed: "demo" } })
        const expired = yield* Stream.runCollect(Stream.provide(live({ lastEventId: "1" }), admin)).pipe(Effect.flip)
        assert.strictEqual(expired.reason._tag, "Expired")
        assert.strictEqual(expired.status, 410)
        // what a client that skips sitefx could send is refused before a stream starts
        const key = Redacted.value(platform.apiKey)
        const status = (query: string, headers: Record<string, string>) =>
          Effect.promise(async () => {
            const res = await fetch(`${platform.url}${EventPaths.stream}${query}`, { headers })
            await res.body?.cancel()
            return res.status
          })
        assert.strictEqual(yield* status("", {}), 401)
        for (const bad of ["abc", "-1", "1e5", "9".repeat(30), "1.5"]) {
          assert.strictEqual(yield* status("", { authorization: key, "last-event-id": bad }), 400, bad)
        }
        assert.strictEqual(yield* status(`?${Array.from({ length: 101 }, (_, i) => `eventType=t${i}`).join("&")}`, { authorization: key }), 400)
        assert.strictEqual(yield* status("?eventType=", { authorization: key }), 400)
      }))
  })
})

/**
 * The site's event log, over the live stream as a client reads it and in-process: a bulk write's
 * events come in order with ids that follow one another; a stream resumed from inside the kept window
 * misses nothing and repeats nothing, and from past it gets 410; ids keep growing across a restart on a
 * database file, and the events logged before it read back exactly as they were sent (items created
 * and later changed, removed, truncated or deleted with their collection included); an event of a
 * write that rolled back never appears; a database from the log's first version keeps its events.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { DataEventTypes, type DomainEvent, type EventEnvelope, EventPaths } from "../../../src/events/protocol.ts"
import { KEPT_EVENTS, SiteEvents } from "../../../src/server/store/SiteEvents.ts"
import { Database } from "../../../src/server/platform/Database.ts"
import { logMark } from "../../support/eventLog.ts"
import { LocalPlatform, onPlatform, tempDir } from "../../support/platform.ts"
import { data, freshCollection, ok } from "../data/support.ts"
import { layerWithCore } from "../../../src/server/LocalPlatform.ts"

interface Frame {
  readonly id: number
  readonly type: string
  readonly envelope: EventEnvelope
  readonly event: DomainEvent
}

/**
 * Reads the live stream (from `lastEventId` when given) until `n` event frames came or `millis` passed;
 * `during` runs once the stream is open. The status is the stream's answer (200, or a refusal).
 */
const readStream = <A = void, E = never, R = never>(options: { readonly n: number; readonly lastEventId?: number; readonly millis?: number; readonly during?: Effect.Effect<A, E, R> }) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const controller = new AbortController()
    const res = yield* Effect.promise(() =>
      fetch(`${platform.url}${EventPaths.stream}`, {
        headers: { authorization: Redacted.value(platform.apiKey), ...(options.lastEventId === undefined ? {} : { "last-event-id": String(options.lastEventId) }) },
        signal: controller.signal
      })
    )
    if (res.status !== 200) {
      return { status: res.status, body: yield* Effect.promise(() => res.json()), frames: [] as Array<Frame> }
    }
    const frames: Array<Frame> = []
    const reading = (async () => {
      const reader = res.body!.getReader()
      const decoder = new TextDecoder()
      let text = ""
      const deadline = setTimeout(() => controller.abort(), options.millis ?? 10_000)
      try {
        while (frames.length < options.n) {
          const { done, value } = await reader.read()
          if (done) break
          text += decoder.decode(value, { stream: true })
          let end: number
          while (frames.length < options.n && (end = text.indexOf("\n\n")) >= 0) {
            const block = text.slice(0, end)
            text = text.slice(end + 2)
            const fields = new Map(block.split("\n").filter((l) => !l.startsWith(":")).map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2)]))
            if (!fields.has("id") || !fields.has("data")) continue
            const envelope = JSON.parse(fields.get("data")!) as EventEnvelope
            frames.push({ id: Number(fields.get("id")), type: fields.get("event")!, envelope, event: JSON.parse(envelope.data) as DomainEvent })
          }
        }
      } catch {
        // aborted at the deadline: the frames so far are the answer
      } finally {
        clearTimeout(deadline)
        controller.abort()
      }
    })()
    if (options.during !== undefined) yield* options.during
    yield* Effect.promise(() => reading)
    return { status: 200, body: undefined, frames }
  })

const insertMany = (collection: string, items: ReadonlyArray<Record<string, unknown>>) =>
  ok("POST", "/bulk/items/insert", { dataCollectionId: collection, dataItems: items.map((item) => ({ data: item })) })

const newCollection = Effect.suspend(() => freshCollection({ prefix: "Log" }))

describe("the event log over the live stream", () => {
  it.layer(layerWithCore({ seed: "none" }), { excludeTestServices: true })((it) => {
    it.effect("a bulk write of 1000 items yields 1000 events, in order, with ids that follow one another", () =>
      Effect.gen(function*() {
        const c = yield* newCollection
        const items = Array.from({ length: 1000 }, (_, i) => ({ _id: `b-${i}`, i, title: `Item "${i}" é` }))
        const { frames } = yield* readStream({ n: 1000, during: Effect.andThen(Effect.sleep("100 millis"), insertMany(c, items)) })
        assert.strictEqual(frames.length, 1000)
        assert.deepStrictEqual(frames.map((f) => f.id - frames[0]!.id), items.map((_, i) => i))
        assert.isTrue(frames.every((f) => f.type === DataEventTypes.itemCreated && f.envelope.eventType === DataEventTypes.itemCreated))
        assert.deepStrictEqual(frames.map((f) => f.event.entityId), items.map((item) => item._id))
        const entity = frames[7]!.event.createdEvent!.entity as { id: string; dataCollectionId: string; data: Record<string, unknown> }
        assert.deepStrictEqual([entity.id, entity.dataCollectionId, entity.data["i"], entity.data["title"]], ["b-7", c, 7, "Item \"7\" é"])
        // the domain event's own id and sequence name this event, once
        assert.strictEqual(new Set(frames.map((f) => f.event.id)).size, 1000)
        assert.match(frames[0]!.event.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        assert.deepStrictEqual(frames.slice(0, 2).map((f) => f.event.entityEventSequence), [String(frames[0]!.id), String(frames[1]!.id)])
      }))

    it.effect("a stream resumed from inside the window misses nothing and repeats nothing, then goes on live", () =>
      Effect.gen(function*() {
        const c = yield* newCollection
        const mark = yield* logMark
        yield* insertMany(c, Array.from({ length: 20 }, (_, i) => ({ _id: `r-${i}` })))
        yield* ok("POST", "/items/update", { dataCollectionId: c, dataItem: { id: "r-3", data: { touched: true } } })
        yield* ok("POST", "/bulk/items/remove", { dataCollectionId: c, dataItemIds: ["r-4", "r-5"] })
        // 23 events after the mark; a client that saw the first three resumes (nobody read them as they were
        // written: they are read back from the items table, r-3 as it was created, before its update)
        const { frames } = yield* readStream({
          n: 21,
          lastEventId: mark + 3,
          during: Effect.andThen(Effect.sleep("100 millis"), ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "live", data: {} } }))
        })
        assert.deepStrictEqual(frames.map((f) => f.id), Array.from({ length: 21 }, (_, i) => mark + 4 + i))
        assert.deepStrictEqual(frames.map((f) => `${f.event.slug} ${f.event.entityId}`), [
          ...Array.from({ length: 17 }, (_, i) => `created r-${3 + i}`),
          "updated r-3",
          "deleted r-4",
          "deleted r-5",
          "created live"
        ])
        const created = frames[0]!.event.createdEvent!.entity as { data: Record<string, unknown> }
        assert.deepStrictEqual(Object.keys(created.data), ["_id", "_createdDate", "_updatedDate"])
        const updated = frames[17]!.event.updatedEvent!
        assert.strictEqual((updated.currentEntity as { data: Record<string, unknown> }).data["touched"], true)
        assert.strictEqual(updated.modifiedFields!["touched"], null)
      }))

    it.effect("past the kept window the stream answers 410 EVENTS_EXPIRED; at its edge it resumes", () =>
      Effect.gen(function*() {
        const c = yield* newCollection
        const mark = yield* logMark
        for (let i = 0; i < 12; i++) yield* insertMany(c, Array.from({ length: 1000 }, (_, j) => ({ n: i * 1000 + j })))
        const log = yield* SiteEvents
        assert.strictEqual(log.lastId(), mark + 12_000)
        const oldest = log.oldestKept()
        // at least the last KEPT_EVENTS are kept, and the window is trimmed by whole writes
        assert.isAtMost(oldest, log.lastId() - KEPT_EVENTS + 1)
        assert.isAbove(oldest, mark + 1)
        const expired = yield* readStream({ n: 1, lastEventId: oldest - 2 })
        assert.strictEqual(expired.status, 410)
        assert.strictEqual(expired.body.details.applicationError.code, "EVENTS_EXPIRED")
        const edge = yield* readStream({ n: 3, lastEventId: oldest - 1 })
        assert.deepStrictEqual(edge.frames.map((f) => f.id), [oldest, oldest + 1, oldest + 2])
      }))

    it.effect("an event of a write that rolled back never appears, and its ids go to the next write", () =>
      Effect.gen(function*() {
        const db = yield* Database
        const log = yield* SiteEvents
        const c = yield* newCollection
        const mark = yield* logMark
        const meta = JSON.stringify({ collection: c, identity: { identityType: "UNKNOWN" } })
        const rolledBack = yield* Effect.sync(() => {
          try {
            db.transaction(() => {
              log.append("data/1", 2, meta, "[\"ghost-1\",\"ghost-2\"]")
              throw new Error("the write fails after logging")
            })
          } catch (e) {
            return (e as Error).message
          }
        })
        assert.strictEqual(rolledBack, "the write fails after logging")
        assert.strictEqual(log.lastId(), mark)
        // a refused write logs nothing either
        const refused = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { id: "x", data: { _id: 5 } } })
        assert.strictEqual(refused.status, 400)
        yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "real", data: {} } })
        const { frames } = yield* readStream({ n: 1, lastEventId: mark, millis: 2000 })
        assert.deepStrictEqual(frames.map((f) => [f.id, f.event.entityId]), [[mark + 1, "real"]])
      }))
  })
})

/** Every kept event after `mark`, as the stream would send them. */
const keptAfter = (mark: number) =>
  Effect.gen(function*() {
    return ((yield* SiteEvents).after(mark) ?? []).map((e) => ({ id: e.id, type: e.type, json: e.json }))
  })

describe("the event log on a database file", () => {
  it.live("ids grow across a restart, and what was logged before it reads back exactly as it was sent", () =>
    Effect.scoped(Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-log-")
      const db = join(dir, "site.db")
      const before = yield* onPlatform({ db, seed: "none" }, Effect.gen(function*() {
        const mark = yield* logMark
        const kept = yield* newCollection
        const gone = yield* newCollection
        const truncated = yield* newCollection
        yield* insertMany(kept, [{ _id: "a", v: 1 }, { _id: "b", v: 1 }, { _id: "c", v: 1 }])
        yield* insertMany(gone, [{ _id: "g", v: 1 }])
        yield* insertMany(truncated, [{ _id: "t1", v: 1 }, { _id: "t2", v: 1 }])
        // every created item changes afterwards: their creation events must still show them as created
        yield* ok("POST", "/items/update", { dataCollectionId: kept, dataItem: { id: "a", data: { v: 2 } } })
        yield* ok("POST", "/items/update", { dataCollectionId: kept, dataItem: { id: "a", data: { v: 3 } } })
        yield* ok("POST", "/items/remove", { dataCollectionId: kept, dataItemId: "b" })
        yield* ok("POST", "/items/truncate", { dataCollectionId: truncated })
        const deleted = yield* data("DELETE", `/collections/${gone}`)
        assert.strictEqual(deleted.status, 200)
        yield* ok("POST", "/items", { dataCollectionId: kept, dataItem: { id: "d", data: { v: 1 } } })
        return { mark, events: yield* keptAfter(mark), last: (yield* SiteEvents).lastId(), kept }
      }))
      assert.deepStrictEqual(before.events.map((e) => JSON.parse(JSON.parse(e.json).data).slug), [
        "created", "created", "created", "created", "created", "created", "updated", "updated", "deleted", "created"
      ])
      const createdData = (json: string) => (JSON.parse(JSON.parse(json).data) as DomainEvent).createdEvent?.entity as { data: { v: number } } | undefined
      assert.deepStrictEqual(before.events.flatMap((e) => createdData(e.json)?.data.v ?? []), [1, 1, 1, 1, 1, 1, 1])
      yield* onPlatform({ db, seed: "none" }, Effect.gen(function*() {
        const log = yield* SiteEvents
        assert.strictEqual(log.lastId(), before.last)
        // read back from the database: the same envelopes, byte for byte
        assert.deepStrictEqual(yield* keptAfter(before.mark), before.events)
        yield* ok("POST", "/items", { dataCollectionId: before.kept, dataItem: { id: "e", data: {} } })
        assert.strictEqual(log.lastId(), before.last + 1)
        const { frames } = yield* readStream({ n: 2, lastEventId: before.last - 1, millis: 2000 })
        assert.deepStrictEqual(frames.map((f) => [f.id, f.event.entityId]), [[before.last, "d"], [before.last + 1, "e"]])
      }))
    })), 30_000)

  it.live("a database from the log's first version keeps its events and their ids", () =>
    Effect.scoped(Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-log-")
      const file = join(dir, "site.db")
      const old = new DatabaseSync(file)
      const envelope = (i: number) => JSON.stringify({ eventType: DataEventTypes.itemDeleted, instanceId: "s", data: JSON.stringify({ entityId: `old-${i}` }) })
      old.exec(`
        CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL);
        INSERT INTO _migrations VALUES ('events/log/1', 0);
        CREATE TABLE site_events (id INTEGER PRIMARY KEY, type TEXT NOT NULL, envelope TEXT NOT NULL);
      `)
      for (const id of [41, 42]) old.prepare("INSERT INTO site_events VALUES (?, ?, ?)").run(id, DataEventTypes.itemDeleted, envelope(id))
      old.close()
      yield* onPlatform({ db: file, seed: "none" }, Effect.gen(function*() {
        assert.deepStrictEqual(yield* keptAfter(40), [41, 42].map((id) => ({ id, type: DataEventTypes.itemDeleted, json: envelope(id) })))
        const c = yield* newCollection
        yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "new", data: {} } })
        assert.strictEqual((yield* SiteEvents).lastId(), 43)
      }))
    })), 30_000)
})

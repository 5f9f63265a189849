/**
 * runBulk with fake senders: chunking with original indices, bounded concurrency, per-item failures by
 * original index, the skip rules (WDE0074 on insert, WDE0073 on update/remove/patch), retries of transient
 * chunk failures, whole-request refusals failing the write, chunks split when too large, retry idempotency for client-generated ids, and random workloads
 * that always account for every item exactly once.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as fc from "fast-check"
import { type BulkKind, type BulkOptions, type BulkProgress, type BulkReport, type Indexed, runBulk, type SendChunk } from "../../../src/data/Bulk.ts"
import { newBulkKey } from "../../../src/data/ids.ts"
import { DataError, fromReason } from "../../../src/data/DataError.ts"
import type { RetryPolicy } from "../../../src/http/PlatformConfig.ts"
import { PlatformError } from "../../../src/http/PlatformError.ts"
import { ApplicationError, SystemError, TransportError } from "../../../src/http/reasons.ts"
import type { BulkItemResult } from "../../../src/data/wire/index.ts"

interface Doc {
  readonly _id: string
  readonly n: number
}

const idOf = (i: number) => `id-${i}`
const indexOfId = (id: string) => Number(id.slice(3))

const entries = (n: number, generatedId = true): Array<Indexed<Doc>> =>
  Array.from({ length: n }, (_, index) => ({ index, id: idOf(index), generatedId, value: { _id: idOf(index), n: index } }))

const noRetry: RetryPolicy = { times: 0, base: "1 millis", cap: "1 millis" }
const fastRetry = (times: number): RetryPolicy => ({ times, base: "1 millis", cap: "2 millis" })

const systemFailure = (status: number) =>
  new PlatformError({ method: "POST", path: "/wix-data/v2/bulk/items/insert", reason: new SystemError({ status, message: `HTTP ${status}`, description: `HTTP ${status}` }) })
const transportFailure = () =>
  new PlatformError({ method: "POST", path: "/wix-data/v2/bulk/items/insert", reason: new TransportError({ message: "socket hang up" }) })

const actionOf = { insert: "INSERT", update: "UPDATE", patch: "PATCH", remove: "DELETE", save: "UPDATE" } as const

/**
 * A platform's bulk endpoint over an in-memory store: insert refuses existing ids (WDE0074), update/patch/remove
 * refuse missing ones (WDE0073), save inserts or updates. `refuse` forces a per-item error.
 */
const platform = (kind: BulkKind, options: { readonly existing?: Iterable<string>; readonly refuse?: (index: number) => string | undefined } = {}) => {
  const store = new Set(options.existing ?? [])
  const written = new Set<string>()
  const apply = (chunk: ReadonlyArray<Indexed<Doc>>): Array<BulkItemResult> =>
    chunk.map((entry, originalIndex): BulkItemResult => {
      const id = entry.id!
      const fail = (code: string, description: string): BulkItemResult => ({
        action: actionOf[kind],
        itemMetadata: { id, originalIndex, success: false, error: { code, description } }
      })
      const refused = options.refuse?.(entry.index)
      if (refused !== undefined) return fail(refused, `refused ${entry.index}`)
      const exists = store.has(id)
      switch (kind) {
        case "insert":
          if (exists) return fail("WDE0074", `Item ${id} already exists`)
          store.add(id)
          written.add(id)
          return { action: "INSERT", itemMetadata: { id, originalIndex, success: true } }
        case "save":
          store.add(id)
          written.add(id)
          return { action: exists ? "UPDATE" : "INSERT", itemMetadata: { id, originalIndex, success: true } }
        case "remove":
          if (!exists) return fail("WDE0073", `Item ${id} does not exist`)
          store.delete(id)
          written.add(id)
          return { action: "DELETE", itemMetadata: { id, originalIndex, success: true } }
        default:
          if (!exists) return fail("WDE0073", `Item ${id} does not exist`)
          written.add(id)
          return { action: actionOf[kind], itemMetadata: { id, originalIndex, success: true } }
      }
    })
  return { store, written, apply }
}

interface Recorder {
  readonly sends: Array<ReadonlyArray<Indexed<Doc>>>
  inFlight: number
  maxInFlight: number
}

/** Wraps a chunk handler with a log of every attempt and an in-flight count. */
const sender = (
  handle: (chunk: ReadonlyArray<Indexed<Doc>>, attempt: number) => Effect.Effect<ReadonlyArray<BulkItemResult>, DataError | PlatformError>,
  delay?: (chunk: ReadonlyArray<Indexed<Doc>>) => number
): { send: SendChunk<Doc>; log: Recorder } => {
  const log: Recorder = { sends: [], inFlight: 0, maxInFlight: 0 }
  const attempts = new Map<number, number>()
  const send: SendChunk<Doc> = (chunk) =>
    Effect.suspend(() => {
      log.sends.push(chunk)
      const key = chunk[0]!.index
      const attempt = attempts.get(key) ?? 0
      attempts.set(key, attempt + 1)
      log.inFlight++
      log.maxInFlight = Math.max(log.maxInFlight, log.inFlight)
      const wait = delay?.(chunk) ?? 0
      return (wait > 0 ? Effect.sleep(`${wait} millis`) : Effect.void).pipe(
        Effect.andThen(handle(chunk, attempt)),
        Effect.ensuring(Effect.sync(() => log.inFlight--))
      )
    })
  return { send, log }
}

/** The entries as given, checking that runBulk counts each one at the position the entry was made for. */
const atPosition = (entry: Indexed<Doc>, index: number): Indexed<Doc> => {
  if (index !== entry.index) throw new Error(`entry ${entry.index} prepared at position ${index}`)
  return entry
}

const run = (kind: BulkKind, items: ReadonlyArray<Indexed<Doc>>, send: SendChunk<Doc>, retry: RetryPolicy = noRetry, options?: BulkOptions) =>
  runBulk(kind, Stream.fromIterable(items), atPosition, send, retry, options)

/** The invariant of every report: each input index is accounted for exactly once. */
const assertAccounted = (report: BulkReport, n: number) => {
  assert.strictEqual(report.inserted + report.updated + report.removed + report.skipped + report.errors.length, n, "counts add up")
  assert.strictEqual(report.insertedItemIds.length, report.inserted)
  assert.strictEqual(report.updatedItemIds.length, report.updated)
  assert.strictEqual(report.removedItemIds.length, report.removed)
  const indices = [
    ...report.insertedItemIds.map(indexOfId),
    ...report.updatedItemIds.map(indexOfId),
    ...report.removedItemIds.map(indexOfId),
    ...report.errors.map((e) => e.index)
  ]
  assert.strictEqual(new Set(indices).size, indices.length, "no index twice")
  for (const i of indices) assert.isTrue(Number.isInteger(i) && i >= 0 && i < n, `index ${i} in range`)
  assert.strictEqual(indices.length + report.skipped, n)
  const errorIndices = report.errors.map((e) => e.index)
  expect(errorIndices).toStrictEqual([...errorIndices].sort((a, b) => a - b))
}

describe("runBulk: chunking", () => {
  it.effect("2500 items go in 3 chunks of at most 1000, original indices preserved", () =>
    Effect.gen(function*() {
      const server = platform("insert")
      const { send, log } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
      const report = yield* run("insert", entries(2500), send)
      expect(log.sends.map((c) => c.length)).toStrictEqual([1000, 1000, 500])
      expect(log.sends.map((c) => [c[0]!.index, c[c.length - 1]!.index])).toStrictEqual([[0, 999], [1000, 1999], [2000, 2499]])
      for (const chunk of log.sends) chunk.forEach((e, i) => assert.strictEqual(e.index, chunk[0]!.index + i))
      assert.strictEqual(report.inserted, 2500)
      expect(report.insertedItemIds).toStrictEqual(entries(2500).map((e) => e.id))
      expect(report.errors).toStrictEqual([])
      assert.strictEqual(report.skipped, 0)
      assertAccounted(report, 2500)
    }))

  it.effect("chunkSize sets the size, capped at 1000 and at least 1", () =>
    Effect.gen(function*() {
      const sizes = (options: BulkOptions, n: number) =>
        Effect.gen(function*() {
          const server = platform("insert")
          const { send, log } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
          const report = yield* run("insert", entries(n), send, noRetry, options)
          assertAccounted(report, n)
          assert.strictEqual(report.inserted, n)
          return log.sends.map((c) => c.length)
        })
      expect(yield* sizes({ chunkSize: 300 }, 1000)).toStrictEqual([300, 300, 300, 100])
      expect(yield* sizes({ chunkSize: 5000 }, 2100)).toStrictEqual([1000, 1000, 100])
      expect(yield* sizes({ chunkSize: 0 }, 3)).toStrictEqual([1, 1, 1])
      expect(yield* sizes({ chunkSize: 1 }, 2)).toStrictEqual([1, 1])
    }))

  it.effect("no items: the empty report and no request", () =>
    Effect.gen(function*() {
      const { send, log } = sender(() => Effect.die("never sent"))
      const emptyReport: BulkReport = { inserted: 0, updated: 0, removed: 0, skipped: 0, errors: [], insertedItemIds: [], updatedItemIds: [], removedItemIds: [] }
      expect(yield* run("insert", [], send)).toStrictEqual(emptyReport)
      assert.strictEqual(log.sends.length, 0)
    }))

  it.effect("the input stream's own failure fails the run", () =>
    Effect.gen(function*() {
      const { send } = sender((chunk) => Effect.succeed(platform("insert").apply(chunk)))
      const exit = yield* Effect.exit(runBulk("insert", Stream.fromIterable(entries(3)).pipe(Stream.concat(Stream.fail("bad input" as const))), atPosition, send, noRetry))
      expect(Option.getOrUndefined(Exit.findErrorOption(exit))).toBe("bad input")
    }))
})

describe("runBulk: concurrency", () => {
  it.live("at most `concurrency` chunks in flight, and that many are used", () =>
    Effect.gen(function*() {
      const server = platform("insert")
      const { send, log } = sender((chunk) => Effect.sync(() => server.apply(chunk)), () => 10)
      const report = yield* run("insert", entries(120), send, noRetry, { chunkSize: 10, concurrency: 3 })
      assert.strictEqual(log.sends.length, 12)
      assert.strictEqual(log.maxInFlight, 3)
      assert.strictEqual(report.inserted, 120)
    }))

  it.live("default concurrency is 4", () =>
    Effect.gen(function*() {
      const server = platform("insert")
      const { send, log } = sender((chunk) => Effect.sync(() => server.apply(chunk)), () => 10)
      yield* run("insert", entries(100), send, noRetry, { chunkSize: 10 })
      assert.strictEqual(log.maxInFlight, 4)
    }))

  it.live("concurrency 1 sends one chunk at a time", () =>
    Effect.gen(function*() {
      const server = platform("insert")
      const { send, log } = sender((chunk) => Effect.sync(() => server.apply(chunk)), () => 3)
      yield* run("insert", entries(50), send, noRetry, { chunkSize: 10, concurrency: 1 })
      assert.strictEqual(log.maxInFlight, 1)
    }))

  it.live("chunks finishing out of order still give errors sorted by index and ids in input order", () =>
    Effect.gen(function*() {
      const server = platform("insert", { refuse: (i) => (i % 7 === 0 ? "WDE0007" : undefined) })
      // later chunks answer first
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)), (chunk) => 40 - chunk[0]!.index / 10)
      const report = yield* run("insert", entries(200), send, noRetry, { chunkSize: 20, concurrency: 10 })
      expect(report.errors.map((e) => e.index)).toStrictEqual(entries(200).map((e) => e.index).filter((i) => i % 7 === 0))
      expect(report.insertedItemIds).toStrictEqual(entries(200).filter((e) => e.index % 7 !== 0).map((e) => e.id))
      assertAccounted(report, 200)
    }))
})

describe("runBulk: per-item results", () => {
  it.effect("per-item failures carry their original index, code, message, id and item", () =>
    Effect.gen(function*() {
      const refused = new Set([5, 1500, 2499])
      const server = platform("insert", { refuse: (i) => (refused.has(i) ? "WDE0007" : undefined) })
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
      const report = yield* run("insert", entries(2500), send)
      expect(report.errors).toStrictEqual([5, 1500, 2499].map((i) => ({ index: i, code: "WDE0007", message: `refused ${i}`, id: idOf(i), item: { _id: idOf(i), n: i } })))
      assert.strictEqual(report.inserted, 2497)
      assertAccounted(report, 2500)
    }))

  it.effect("results are matched by originalIndex, whatever their order", () =>
    Effect.gen(function*() {
      const server = platform("insert", { refuse: (i) => (i === 3 ? "WDE0007" : undefined) })
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk).reverse()))
      const report = yield* run("insert", entries(10), send)
      expect(report.errors.map((e) => e.index)).toStrictEqual([3])
      expect([...report.insertedItemIds].sort()).toStrictEqual(entries(10).filter((e) => e.index !== 3).map((e) => e.id).sort())
    }))

  it.effect("an item the platform sent no result for is an error (WDE0055)", () =>
    Effect.gen(function*() {
      const server = platform("insert")
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk).filter((r) => r.itemMetadata.originalIndex !== 1)))
      const report = yield* run("insert", entries(3), send)
      expect(report.errors).toStrictEqual([{ index: 1, code: "WDE0055", message: "The platform sent no result for this item", id: idOf(1), item: { _id: idOf(1), n: 1 } }])
      assert.strictEqual(report.inserted, 2)
    }))

  it.effect("insert: existing ids (WDE0074) are skipped, not errors", () =>
    Effect.gen(function*() {
      const server = platform("insert", { existing: [idOf(1), idOf(4)] })
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
      const report = yield* run("insert", entries(6), send)
      assert.strictEqual(report.skipped, 2)
      assert.strictEqual(report.inserted, 4)
      expect(report.errors).toStrictEqual([])
      expect(report.insertedItemIds).toStrictEqual([0, 2, 3, 5].map(idOf))
      assertAccounted(report, 6)
    }))

  it.effect("insert with overrideExisting: existing ids are errors", () =>
    Effect.gen(function*() {
      const server = platform("insert", { existing: [idOf(1)] })
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
      const report = yield* run("insert", entries(3), send, noRetry, { overrideExisting: true })
      assert.strictEqual(report.skipped, 0)
      expect(report.errors.map((e) => [e.index, e.code])).toStrictEqual([[1, "WDE0074"]])
      assertAccounted(report, 3)
    }))

  for (const kind of ["update", "remove", "patch"] as const) {
    it.effect(`${kind}: missing ids (WDE0073) are skipped; other codes are errors`, () =>
      Effect.gen(function*() {
        const server = platform(kind, { existing: [0, 1, 2, 3].map(idOf), refuse: (i) => (i === 2 ? "WDE0007" : undefined) })
        const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
        const report = yield* run(kind, entries(6), send)
        assert.strictEqual(report.skipped, 2)
        expect(report.errors.map((e) => [e.index, e.code])).toStrictEqual([[2, "WDE0007"]])
        const done = kind === "remove" ? report.removedItemIds : report.updatedItemIds
        expect(done).toStrictEqual([0, 1, 3].map(idOf))
        assert.strictEqual(report.inserted, 0)
        assert.strictEqual(kind === "remove" ? report.updated : report.removed, 0)
        assertAccounted(report, 6)
      }))
  }

  it.effect("insert: WDE0073 is an error; update: WDE0074 is an error", () =>
    Effect.gen(function*() {
      const insert = yield* run("insert", entries(2), sender((chunk) => Effect.sync(() => platform("insert", { refuse: () => "WDE0073" }).apply(chunk))).send)
      assert.strictEqual(insert.errors.length, 2)
      const update = yield* run("update", entries(2), sender((chunk) => Effect.sync(() => platform("update", { refuse: () => "WDE0074" }).apply(chunk))).send)
      assert.strictEqual(update.errors.length, 2)
      assert.strictEqual(update.skipped, 0)
    }))

  it.effect("save: INSERT results count as inserted, UPDATE as updated", () =>
    Effect.gen(function*() {
      const server = platform("save", { existing: [idOf(0), idOf(2)] })
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
      const report = yield* run("save", entries(4), send)
      expect(report.insertedItemIds).toStrictEqual([idOf(1), idOf(3)])
      expect(report.updatedItemIds).toStrictEqual([idOf(0), idOf(2)])
      assertAccounted(report, 4)
    }))

  it.effect("a failure without code or description is UNKNOWN_ERROR / Unknown error", () =>
    Effect.gen(function*() {
      const { send } = sender((chunk) =>
        Effect.succeed(chunk.map((e, originalIndex) => ({ itemMetadata: { id: e.id!, originalIndex, success: false } })))
      )
      const report = yield* run("update", entries(1), send)
      expect(report.errors).toStrictEqual([{ index: 0, code: "UNKNOWN_ERROR", message: "Unknown error", id: idOf(0), item: { _id: idOf(0), n: 0 } }])
    }))
})

describe("runBulk: chunk failures", () => {
  /** The write's failure, or a test failure when it succeeded. */
  const refusal = <A, E>(effect: Effect.Effect<A, E>) =>
    Effect.flatMap(Effect.exit(effect), (exit) => {
      if (Exit.isSuccess(exit)) return Effect.die(new Error("the write succeeded"))
      const error = Cause.findErrorOption(exit.cause)
      return Option.isSome(error) ? Effect.succeed(error.value) : Effect.die(new Error("the write died"))
    })

  for (const [name, failure, code] of [
    ["503", () => systemFailure(503), "UNAVAILABLE"],
    ["429", () => systemFailure(429), "RESOURCE_EXHAUSTED"],
    ["a transport error", transportFailure, "TRANSPORT_ERROR"]
  ] as const) {
    it.live(`${name} is retried up to retry.times, then fails the write once the chunks before it are settled`, () =>
      Effect.gen(function*() {
        const server = platform("insert")
        const { send, log } = sender((chunk) => (chunk[0]!.index === 1000 ? Effect.fail(failure()) : Effect.sync(() => server.apply(chunk))))
        const seen: Array<BulkProgress> = []
        const error = yield* refusal(run("insert", entries(2500), send, fastRetry(2), { concurrency: 1, onProgress: (p) => Effect.sync(() => seen.push(p)) }))
        assert.strictEqual(log.sends.filter((c) => c[0]!.index === 1000).length, 3)
        // nothing after the refused chunk is sent: its items are neither written nor reported failed
        assert.strictEqual(log.sends.length, 4)
        assert.strictEqual((error as PlatformError).code, code)
        assert.strictEqual((error as PlatformError).message, failure().message)
        expect(seen.map((p) => [p.settled, p.inserted, p.errors])).toStrictEqual([[1000, 1000, 0]])
        assert.strictEqual(server.store.size, 1000)
      }))
  }

  it.live("a transient failure followed by success: everything lands, nothing twice", () =>
    Effect.gen(function*() {
      const server = platform("insert")
      const { send, log } = sender((chunk, attempt) => (attempt === 0 ? Effect.fail(systemFailure(502)) : Effect.sync(() => server.apply(chunk))))
      const report = yield* run("insert", entries(1500), send, fastRetry(3))
      assert.strictEqual(log.sends.length, 4)
      assert.strictEqual(report.inserted, 1500)
      assert.strictEqual(new Set(report.insertedItemIds).size, 1500)
      assertAccounted(report, 1500)
    }))

  it.effect("times 0: no retry, the write fails with the platform's error", () =>
    Effect.gen(function*() {
      const { send, log } = sender(() => Effect.fail(systemFailure(503)))
      const error = yield* refusal(run("insert", entries(5), send, noRetry))
      assert.strictEqual(log.sends.length, 1)
      assert.strictEqual((error as PlatformError).status, 503)
    }))

  it.effect("a request refused as a whole (401, 403, 404, 400) is not retried and fails the write, not its items", () =>
    Effect.gen(function*() {
      for (const status of [401, 403, 404, 400]) {
        const server = platform("insert")
        const { send, log } = sender((chunk) => (chunk[0]!.index === 1000 ? Effect.fail(systemFailure(status)) : Effect.sync(() => server.apply(chunk))))
        const seen: Array<number> = []
        const error = yield* refusal(run("insert", entries(2500), send, fastRetry(3), { concurrency: 1, onProgress: (p) => Effect.sync(() => seen.push(p.settled)) }))
        assert.strictEqual((error as PlatformError).status, status)
        expect(log.sends.map((c) => c[0]!.index)).toStrictEqual([0, 1000])
        expect(seen).toStrictEqual([1000])
      }
    }))

  it.effect("the refusal keeps its code, as an application error or as the module's error", () =>
    Effect.gen(function*() {
      const appFailure = new PlatformError({ method: "POST", path: "/p", reason: new ApplicationError({ status: 401, message: "m", code: "INVALID_TOKEN", description: "bad key" }) })
      const a = sender(() => Effect.fail(appFailure))
      const ea = yield* refusal(run("insert", entries(2), a.send, fastRetry(3)))
      assert.strictEqual(ea, appFailure)
      assert.strictEqual(a.log.sends.length, 1)
      const dataFailure = fromReason(new ApplicationError({ status: 404, message: "m", code: "WDE0025", description: "The collection does not exist" }), "Nope")
      const d = sender(() => Effect.fail(dataFailure))
      const ed = yield* refusal(run("insert", entries(2), d.send, fastRetry(3)))
      assert.strictEqual((ed as DataError).code, "WDE0025")
      assert.strictEqual(d.log.sends.length, 1)
    }))

  it.effect("a chunk refused for its size (WDE0109) goes again in halves: an item too large alone fails alone, the rest are written", () =>
    Effect.gen(function*() {
      const server = platform("insert")
      const big = new Set([3, 6])
      const tooLarge = fromReason(new SystemError({ status: 413, message: "Payload Too Large", description: "Payload Too Large" }))
      // the platform takes a request of at most 4 items, and never one holding item 3 or 6
      const { send, log } = sender((chunk) =>
        chunk.length > 4 || chunk.some((e) => big.has(e.index)) ? Effect.fail(tooLarge) : Effect.sync(() => server.apply(chunk))
      )
      const seen: Array<number> = []
      const report = yield* run("insert", entries(10), send, fastRetry(3), { onProgress: (p) => Effect.sync(() => seen.push(p.settled)) })
      expect(report.errors.map((e) => [e.index, e.code, e.message])).toStrictEqual([[3, "WDE0109", "WDE0109: Payload is too large."], [6, "WDE0109", "WDE0109: Payload is too large."]])
      assert.strictEqual(report.inserted, 8)
      assert.strictEqual(server.store.size, 8)
      assertAccounted(report, 10)
      expect(seen).toStrictEqual([10])
      // every request after the first is a part of the one before it: never more than 10 items sent for 10 items at one level
      assert.isBelow(log.sends.length, 20)
    }))
})

describe("runBulk: retry idempotency", () => {
  it.live("a chunk that landed but failed transiently, then answers WDE0074 for its generated ids, counts each item inserted once", () =>
    Effect.gen(function*() {
      const server = platform("insert")
      const { send, log } = sender((chunk, attempt) => {
        if (attempt === 0) {
          server.apply(chunk) // it landed...
          return Effect.fail(systemFailure(503)) // ...but the answer was lost
        }
        return Effect.sync(() => server.apply(chunk))
      })
      const report = yield* run("insert", entries(1200), send, fastRetry(2))
      assert.strictEqual(log.sends.length, 4)
      assert.strictEqual(report.inserted, 1200)
      expect(report.insertedItemIds).toStrictEqual(entries(1200).map((e) => e.id))
      assert.strictEqual(report.skipped, 0)
      expect(report.errors).toStrictEqual([])
      assert.strictEqual(server.store.size, 1200)
    }))

  it.live("partly landed: the landed half comes back WDE0074, the rest inserts; each counted once", () =>
    Effect.gen(function*() {
      const server = platform("insert")
      const { send } = sender((chunk, attempt) => {
        if (attempt === 0) {
          server.apply(chunk.slice(0, Math.floor(chunk.length / 2)))
          return Effect.fail(transportFailure())
        }
        return Effect.sync(() => server.apply(chunk))
      })
      const report = yield* run("insert", entries(30), send, fastRetry(1), { chunkSize: 10 })
      assert.strictEqual(report.inserted, 30)
      assert.strictEqual(new Set(report.insertedItemIds).size, 30)
      assertAccounted(report, 30)
    }))

  it.live("ids given by the caller are not assumed to be ours: WDE0074 on a retry is still a skip", () =>
    Effect.gen(function*() {
      const server = platform("insert", { existing: [idOf(0)] })
      const { send } = sender((chunk, attempt) => (attempt === 0 ? Effect.fail(systemFailure(503)) : Effect.sync(() => server.apply(chunk))))
      const report = yield* run("insert", entries(3, false), send, fastRetry(1))
      assert.strictEqual(report.skipped, 1)
      assert.strictEqual(report.inserted, 2)
      assertAccounted(report, 3)
    }))

  it.live("the first attempt's WDE0074 on a generated id is a skip, not an insert", () =>
    Effect.gen(function*() {
      const server = platform("insert", { existing: [idOf(1)] })
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
      const report = yield* run("insert", entries(3), send, fastRetry(1))
      assert.strictEqual(report.skipped, 1)
      expect(report.insertedItemIds).toStrictEqual([idOf(0), idOf(2)])
    }))

  it.live("remove: a landed attempt then WDE0073 on retry counts as removed once", () =>
    Effect.gen(function*() {
      const server = platform("remove", { existing: entries(5).map((e) => e.id!) })
      const { send } = sender((chunk, attempt) => {
        if (attempt === 0) {
          server.apply(chunk)
          return Effect.fail(systemFailure(504))
        }
        return Effect.sync(() => server.apply(chunk))
      })
      const report = yield* run("remove", entries(5, false), send, fastRetry(1))
      expect(report.removedItemIds).toStrictEqual(entries(5).map((e) => e.id))
      assertAccounted(report, 5)
    }))
})

describe("runBulk: progress and resuming", () => {
  /** `n` entries numbered from position `start` of a larger input. */
  const entriesFrom = (start: number, n: number, generatedId = true) =>
    entries(start + n, generatedId).slice(start)

  it.live("progress comes in input order, settled growing chunk by chunk, also when later chunks finish first", () =>
    Effect.gen(function*() {
      const server = platform("insert", { refuse: (i) => (i % 9 === 0 ? "WDE0007" : undefined) })
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)), (chunk) => 40 - chunk[0]!.index / 10)
      const seen: Array<BulkProgress> = []
      const report = yield* run("insert", entries(200), send, noRetry, {
        chunkSize: 20,
        concurrency: 10,
        onProgress: (p) => Effect.sync(() => seen.push(p))
      })
      expect(seen.map((p) => p.settled)).toStrictEqual(Array.from({ length: 10 }, (_, g) => (g + 1) * 20))
      // each report covers exactly the items before its position
      for (const p of seen) {
        const errors = Array.from({ length: p.settled }, (_, i) => i).filter((i) => i % 9 === 0).length
        assert.strictEqual(p.errors, errors)
        assert.strictEqual(p.inserted, p.settled - errors)
      }
      const last = seen[seen.length - 1]!
      assert.deepStrictEqual([last.inserted, last.updated, last.removed, last.skipped, last.errors], [report.inserted, 0, 0, 0, report.errors.length])
    }))

  it.effect("startAt numbers positions from it: items are prepared, reported and settled at their positions in the whole input", () =>
    Effect.gen(function*() {
      const server = platform("insert", { refuse: (i) => (i === 512 ? "WDE0007" : undefined) })
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
      const seen: Array<number> = []
      const report = yield* run("insert", entriesFrom(500, 30), send, noRetry, {
        chunkSize: 10,
        startAt: 500,
        onProgress: (p) => Effect.sync(() => seen.push(p.settled))
      })
      expect(report.errors.map((e) => e.index)).toStrictEqual([512])
      expect(report.insertedItemIds).toStrictEqual(entriesFrom(500, 30).filter((e) => e.index !== 512).map((e) => e.id))
      expect(seen).toStrictEqual([510, 520, 530])
    }))

  it.effect("with a resume key, a generated id already there counts as inserted (an earlier run wrote it); a given one is still skipped", () =>
    Effect.gen(function*() {
      const server = platform("insert", { existing: [idOf(1)] })
      const { send } = sender((chunk) => Effect.sync(() => server.apply(chunk)))
      const keyed = yield* run("insert", entries(3), send, noRetry, { resumeKey: newBulkKey() })
      assert.strictEqual(keyed.skipped, 0)
      expect(keyed.insertedItemIds).toStrictEqual([idOf(0), idOf(1), idOf(2)])
      const given = yield* run("insert", entries(3, false), send, noRetry, { resumeKey: newBulkKey() })
      assert.strictEqual(given.skipped, 3)
      assert.strictEqual(given.inserted, 0)
    }))
})

describe("runBulk: random workloads", () => {
  interface ItemPlan {
    readonly preExisting: boolean
    readonly refused: boolean
    readonly generatedId: boolean
  }
  interface ChunkPlan {
    /** Attempts that fail transiently before one succeeds (more than retry.times: the chunk is given up). */
    readonly transient: number
    /** Whether a failing attempt wrote before failing. */
    readonly landed: boolean
    readonly status: 429 | 502 | 503 | 504 | 0
  }
  const workload = fc.record({
    kind: fc.constantFrom<BulkKind>("insert", "update", "save", "remove", "patch"),
    chunkSize: fc.constantFrom(1000, 300, 7),
    // how the input stream arrives: chunks that match the bulk size or cut across it
    streamChunk: fc.constantFrom(4096, 1000, 333, 7, 1),
    concurrency: fc.integer({ min: 1, max: 5 }),
    overrideExisting: fc.boolean(),
    items: fc.array(fc.record({ preExisting: fc.boolean(), refused: fc.nat({ max: 9 }).map((x) => x === 0), generatedId: fc.boolean() }), { maxLength: 2200 }),
    chunks: fc.array(fc.record({ transient: fc.nat({ max: 3 }), landed: fc.boolean(), status: fc.constantFrom(429 as const, 502 as const, 503 as const, 504 as const, 0 as const) }), { minLength: 320, maxLength: 320 })
  })

  it.live("every index is accounted for exactly once, and generated ids land in the report exactly when they landed in the store", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(workload, async (w) => {
          const n = w.items.length
          const plans: ReadonlyArray<ItemPlan> = w.items
          const input = entries(n).map((e, i) => ({ ...e, generatedId: plans[i]!.generatedId }))
          const server = platform(w.kind, {
            // an id sitefx generated cannot exist before the write
            existing: input.filter((e, i) => plans[i]!.preExisting && !e.generatedId).map((e) => e.id!),
            refuse: (i) => (plans[i]!.refused ? "WDE0007" : undefined)
          })
          const given = new Set<number>()
          const retry: RetryPolicy = { times: 2, base: "0 millis", cap: "0 millis" }
          const { send } = sender((chunk, attempt) => {
            const c = Math.floor(chunk[0]!.index / Math.max(1, Math.min(w.chunkSize, 1000)))
            const plan: ChunkPlan = w.chunks[c % w.chunks.length]!
            if (attempt < plan.transient) {
              if (plan.landed) server.apply(chunk)
              if (attempt === retry.times) given.add(c)
              return Effect.fail(plan.status === 0 ? transportFailure() : systemFailure(plan.status))
            }
            return Effect.sync(() => server.apply(chunk))
          })
          let last: BulkProgress | undefined
          const exit = await Effect.runPromiseExit(
            runBulk(w.kind, Stream.fromIterable(input, { chunkSize: w.streamChunk }), atPosition, send, retry, {
              chunkSize: w.chunkSize,
              concurrency: w.concurrency,
              overrideExisting: w.overrideExisting,
              onProgress: (p) => Effect.sync(() => {
                last = { ...p, failures: [...p.failures] }
              })
            })
          )
          const size = Math.min(w.chunkSize, 1000)
          if (given.size > 0) {
            // a chunk given up fails the write, after every chunk before it has settled and been told
            assert.isTrue(Exit.isFailure(exit), "a given-up chunk fails the write")
            const firstGiven = Math.min(...given)
            assert.strictEqual(last?.settled ?? 0, firstGiven * size)
            return
          }
          assert.isTrue(Exit.isSuccess(exit))
          const report = (exit as Exit.Success<BulkReport, unknown>).value
          assertAccounted(report, n)
          if (w.kind === "insert") {
            const inserted = new Set(report.insertedItemIds)
            for (const e of input) {
              if (!e.generatedId) continue
              assert.strictEqual(inserted.has(e.id!), server.written.has(e.id!), `item ${e.index}: reported inserted iff written`)
            }
          }
        }),
        { numRuns: 40 }
      )
    ))
})

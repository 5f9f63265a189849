/**
 * `npm run soak`: sitefx and the local platform under a bounded mixed load with faults on, then a check
 * that nothing was lost and nothing doubled.
 *
 * The platform runs as its own process on loopback (`sitefx serve --port 0 --seed demo`, a database in a
 * temporary folder, removed afterwards), with seeded faults on its data, token and store routes: 503s,
 * 429s, connection resets before and after the route ran, truncated and slow answers, latency. For
 * SOAK_SECONDS (default 60, at most 240; the whole run stops by itself within five minutes) sitefx clients
 * run at once:
 *
 * - writers insert items one by one (ids made by sitefx, so retried inserts cannot double), each with an
 *   `op` of its own, and record each insert's fate: done, not done, or unknown (`mayHaveApplied`);
 * - a bulk writer inserts batches of 200 through `bulkInsert` with a resume key;
 * - an updater patches items that exist (set only: retried safely);
 * - readers query pages, count, and read products from the store;
 * - a session worker signs the demo member in, reads the member, and starts again;
 * - a listener follows the item-created events through `Events.live`.
 *
 * Then the faults are cleared, the listener is given time to catch up, and the platform's data is read:
 * every insert reported done is there once; none reported not done is there; no `op` is there twice; every
 * stored item has exactly one created event. It prints requests served, calls by outcome, errors by kind,
 * retries, each fault's hits, and the checks, each PASS or FAIL; it exits 1 when a check fails.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as Products from "../src/catalog/Products.ts"
import * as DataItems from "../src/data/DataItems.ts"
import { newBulkKey } from "../src/data/ids.ts"
import { live } from "../src/events/Live.ts"
import { DataEventTypes } from "../src/events/protocol.ts"
import { PlatformClient } from "../src/http/PlatformClient.ts"
import { MemberFlows } from "../src/session/MemberFlows.ts"
import { type FaultRequest, FaultsResponse } from "../src/dev/wire/platform.ts"
import { Site } from "../src/Site.ts"
import { type PlatformProcess, startPlatformProcess, stopPlatformProcess } from "./platformProcess.ts"

const SECONDS = Math.max(5, Math.min(240, Number(process.env["SOAK_SECONDS"] ?? 60)))
const SEED = Number(process.env["SOAK_SEED"] ?? 1)
const COLLECTION = "Soak"

// ---- the platform ---------------------------------------------------------------------------------------

type Platform = PlatformProcess

/** A call to the platform outside sitefx (setup, faults, stats, the final read), never faulted: dev routes are not, and these run with faults off. */
const raw = async <T = any>(platform: Platform, method: string, path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: platform.apiKey, "wix-site-id": platform.siteId, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return (text === "" ? {} : JSON.parse(text)) as T
}

/** The faults of the run: every one seeded, so a run with the same SOAK_SEED meets the same ones. */
const FAULTS = [
  { path: "/wix-data/", kind: "status", status: 503, rate: 0.03 },
  { path: "/wix-data/", kind: "status", status: 429, retryAfter: 0, rate: 0.02 },
  { path: "/wix-data/", kind: "status", status: 502, rate: 0.01 },
  { path: "/wix-data/", kind: "reset", when: "before", rate: 0.02 },
  { path: "/wix-data/", kind: "reset", when: "after", rate: 0.02 },
  { path: "/wix-data/", kind: "truncate", rate: 0.01 },
  { path: "/wix-data/", kind: "slow", ms: 150, rate: 0.01 },
  { path: "/wix-data/", kind: "latency", ms: 40, rate: 0.05 },
  { path: "/oauth2/token", kind: "status", status: 503, rate: 0.05 },
  { path: "/oauth2/token", kind: "reset", when: "after", rate: 0.03 },
  { path: "/stores", kind: "status", status: 504, rate: 0.03 },
  { path: "/stores", kind: "reset", when: "before", rate: 0.02 },
  { path: "/members/", kind: "status", status: 503, rate: 0.03 }
] as const satisfies ReadonlyArray<FaultRequest>

// ---- the ledger -----------------------------------------------------------------------------------------

type Fate = "done" | "not done" | "unknown"

const calls = new Map<string, number>()
const errors = new Map<string, number>()
let retries = 0
const inserts = new Map<string, Fate>()

const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)

/** An error's kind for the tally: its tag, code and, for no answer, how it got none. */
const kindOf = (error: unknown): string => {
  const e = error as { _tag?: string; code?: string; reason?: { _tag?: string; kind?: string } }
  const how = e.reason?._tag === "TransportError" ? ` (${e.reason.kind ?? "unknown"})` : ""
  return `${e._tag ?? "defect"} ${e.code ?? ""}${how}`.trim()
}

/** Runs one call of a worker: counts its outcome, and never fails (the load goes on). */
const tally = <A, E, R>(what: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A | undefined, never, R> =>
  effect.pipe(
    Effect.tap(() => Effect.sync(() => count(calls, `${what}: ok`))),
    Effect.catchCause((cause) =>
      Effect.sync(() => {
        const failure = cause.reasons.find((r) => r._tag === "Fail")
        const kind = failure === undefined ? `defect: ${String(cause)}`.slice(0, 120) : kindOf(failure.error)
        count(calls, `${what}: failed`)
        count(errors, `${what}: ${kind}`)
        return undefined
      })
    )
  )

// ---- the workers ----------------------------------------------------------------------------------------

const until = (deadline: number) => Effect.sync(() => Date.now() >= deadline)

const loop = <R>(deadline: number, step: (n: number) => Effect.Effect<unknown, never, R>) =>
  Effect.gen(function*() {
    for (let n = 0; !(yield* until(deadline)); n++) yield* step(n)
  })

const writer = (worker: number, deadline: number) =>
  loop(deadline, (n) => {
    const op = `w${worker}-${n}`
    return DataItems.insert(COLLECTION, { op, worker, n }).pipe(
      Effect.tap(() => Effect.sync(() => inserts.set(op, "done"))),
      Effect.tapError((error) => Effect.sync(() => inserts.set(op, error.mayHaveApplied ? "unknown" : "not done"))),
      (insert) => tally("insert", insert)
    )
  })

const bulkWriter = (deadline: number) =>
  loop(deadline, (n) => {
    const ops = Array.from({ length: 200 }, (_, i) => `b${n}-${i}`)
    return tally(
      "bulkInsert",
      DataItems.bulkInsert(COLLECTION, Stream.fromIterable(ops.map((op) => ({ op, batch: n }))), { resumeKey: newBulkKey(), chunkSize: 50, keepIds: false }).pipe(
        Effect.tap((report) =>
          Effect.sync(() => {
            const failed = new Set(report.errors.map((e) => e.index))
            // an item the report calls failed was refused or met faults through every retry: it may or may not be there
            ops.forEach((op, i) => inserts.set(op, failed.has(i) ? "unknown" : "done"))
          })
        )
      )
    )
  })

const updater = (deadline: number) =>
  loop(deadline, (n) =>
    Effect.gen(function*() {
      const page = yield* tally("query", DataItems.query(COLLECTION).descending("_createdDate").limit(5).find)
      const item = page?.items[n % Math.max(1, page.items.length)]
      if (item !== undefined) yield* tally("patch", DataItems.patch(COLLECTION, item._id).setField("touched", n).run)
      else yield* Effect.sleep("20 millis")
    }))

const reader = (deadline: number) =>
  loop(deadline, (n) =>
    Effect.gen(function*() {
      yield* tally("query", DataItems.query(COLLECTION).eq("worker", n % 3).limit(50).find)
      yield* tally("count", DataItems.query(COLLECTION).count)
      yield* tally("products", Products.query().limit(20).find)
    }))

const sessions = (platform: Platform, deadline: number) =>
  loop(deadline, () =>
    tally(
      "member session",
      Effect.gen(function*() {
        const members = yield* MemberFlows
        const result = yield* members.login({ email: "demo@sitefx.dev", password: Redacted.make("sitefx-demo") })
        if (result.loginState !== "SUCCESS") return yield* Effect.fail({ _tag: "LoginFailed", code: result.loginState })
        yield* members.completeDirectLogin(result.data.sessionToken)
        const client = yield* PlatformClient
        yield* client.request({ method: "GET", path: "/members/v1/members/my" })
      }).pipe(Effect.provide(Layer.fresh(Site.layer({ baseUrl: platform.url, clientId: platform.clientId }))))
    ))

// ---- the run --------------------------------------------------------------------------------------------

const main = async () => {
  const started = Date.now()
  const platform = await startPlatformProcess([], ["--seed", "demo"])
  console.log(`soak: local platform (pid ${platform.child.pid}) at ${platform.url}; load for ${SECONDS} s, seed ${SEED}`)
  try {
    await raw(platform, "POST", "/wix-data/v2/collections", {
      collection: { id: COLLECTION, displayName: COLLECTION, fields: [], permissions: { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" } }
    })
    const admin = Site.apiKey({ baseUrl: platform.url, apiKey: Redacted.make(platform.apiKey), siteId: platform.siteId })
    const createdEvents = new Map<string, number>()
    // each worker runs in a span of its own, on which sitefx tells every retry it makes
    const spans: Array<{ readonly events: ReadonlyArray<readonly [string, bigint, unknown]> }> = []
    const traced = <A, E, R>(name: string, effect: Effect.Effect<A, E, R>) =>
      Effect.gen(function*() {
        spans.push((yield* Effect.currentSpan) as unknown as (typeof spans)[number])
        return yield* effect
      }).pipe(Effect.withSpan(name))

    const program = Effect.gen(function*() {
      const listener = yield* live({ eventTypes: [DataEventTypes.itemCreated], reconnect: { attempts: 50, baseMillis: 50, maxMillis: 1000 } }).pipe(
        Stream.runForEach((e) => Effect.sync(() => createdEvents.set(JSON.parse(e.envelope.data).entityId, (createdEvents.get(JSON.parse(e.envelope.data).entityId) ?? 0) + 1))),
        Effect.provide(admin),
        Effect.forkChild
      )
      yield* Effect.sleep("300 millis")
      for (const [i, fault] of FAULTS.entries()) yield* Effect.promise(() => raw(platform, "POST", "/_sitefx/faults", { ...fault, seed: SEED * 100 + i }))
      const deadline = Date.now() + SECONDS * 1000
      const onSite = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, admin)
      const visitor = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, Layer.fresh(Site.layer({ baseUrl: platform.url, clientId: platform.clientId })))
      yield* Effect.all([
        traced("writer 0", onSite(writer(0, deadline))),
        traced("writer 1", onSite(writer(1, deadline))),
        traced("visitor writer", visitor(writer(2, deadline))),
        traced("bulk writer", onSite(bulkWriter(deadline))),
        traced("updater", onSite(updater(deadline))),
        traced("reader", onSite(reader(deadline))),
        traced("visitor reader", visitor(reader(deadline))),
        traced("sessions", sessions(platform, deadline))
      ], { concurrency: "unbounded", discard: true })
      retries = spans.reduce((n, span) => n + span.events.filter(([name]) => name === "sitefx.retry").length, 0)
      const faults = yield* Effect.promise(() => raw<typeof FaultsResponse.Type>(platform, "GET", "/_sitefx/faults"))
      yield* Effect.promise(() => raw(platform, "DELETE", "/_sitefx/faults"))
      // the listener catches up on what was written last
      const stored = yield* Effect.promise(() => readAll(platform))
      for (let i = 0; i < 100 && [...stored.keys()].some((id) => !createdEvents.has(id)); i++) yield* Effect.sleep("100 millis")
      yield* Fiber.interrupt(listener)
      return { faults: faults.faults, stored }
    })

    const { faults, stored } = await Effect.runPromise(program)
    const stats = await raw<{ requests: number }>(platform, "GET", "/_sitefx/stats")

    // ---- the report -----------------------------------------------------------------------------------
    const byOp = new Map<string, Array<string>>()
    for (const [id, op] of stored) byOp.set(op, [...(byOp.get(op) ?? []), id])
    const fates = { done: 0, "not done": 0, unknown: 0 }
    const lost: Array<string> = []
    const phantom: Array<string> = []
    let unknownThere = 0
    for (const [op, fate] of inserts) {
      fates[fate]++
      const there = byOp.has(op)
      if (fate === "done" && !there) lost.push(op)
      if (fate === "not done" && there) phantom.push(op)
      if (fate === "unknown" && there) unknownThere++
    }
    const doubled = [...byOp].filter(([, ids]) => ids.length > 1).map(([op]) => op)
    const strangers = [...byOp.keys()].filter((op) => !inserts.has(op))
    const missingEvents = [...stored.keys()].filter((id) => !createdEvents.has(id))
    const twiceEvents = [...createdEvents].filter(([id, n]) => n > 1 && stored.has(id)).map(([id]) => id)

    const lines: Array<string> = []
    lines.push(`soak: ${SECONDS} s of load, ${((Date.now() - started) / 1000).toFixed(0)} s in all, seed ${SEED}, Node ${process.version}`)
    lines.push(`requests served by the platform: ${stats.requests}`)
    lines.push(`calls by outcome:`)
    for (const [k, v] of [...calls].sort()) lines.push(`  ${k.padEnd(28)} ${v}`)
    lines.push(`errors by kind (after retries):`)
    for (const [k, v] of [...errors].sort()) lines.push(`  ${k.padEnd(60)} ${v}`)
    if (errors.size === 0) lines.push("  none")
    lines.push(`retries (sitefx.retry span events): ${retries}`)
    lines.push(`faults met:`)
    for (const f of faults) lines.push(`  ${f.path.padEnd(14)} ${(f.kind ?? "status").padEnd(9)} ${String(f.status ?? f.when ?? "").padEnd(7)} ${f.hits ?? "?"}`)
    lines.push(`inserts: ${fates.done} done, ${fates["not done"]} not done, ${fates.unknown} unknown (${unknownThere} of those there); ${stored.size} items stored`)
    const check = (name: string, bad: ReadonlyArray<string>) => {
      lines.push(`${bad.length === 0 ? "PASS" : "FAIL"} ${name}${bad.length === 0 ? "" : `: ${bad.length}, e.g. ${bad.slice(0, 5).join(", ")}`}`)
      return bad.length === 0
    }
    const ok = [
      check("nothing lost: every insert reported done is stored", lost),
      check("nothing doubled: no op stored twice", doubled),
      check("nothing written that was reported not done", phantom),
      check("nothing stored that no client wrote", strangers),
      check("every stored item has its created event", missingEvents),
      check("no created event twice", twiceEvents),
      check("calls were made and faults met", calls.size === 0 || faults.every((f) => (f.hits ?? 0) === 0) ? ["none"] : [])
    ].every(Boolean)
    console.log(lines.join("\n"))
    process.exitCode = ok ? 0 : 1
  } finally {
    await stopPlatformProcess(platform)
  }
}

/** The stored items of the soak collection, id to op, read with the faults off. */
const readAll = async (platform: Platform): Promise<Map<string, string>> => {
  const stored = new Map<string, string>()
  let cursor: string | undefined
  for (;;) {
    const page = await raw<{ dataItems: Array<{ id: string; data: { op: string } }>; pagingMetadata: { cursors?: { next?: string } } }>(
      platform,
      "POST",
      "/wix-data/v2/items/query",
      { dataCollectionId: COLLECTION, query: { cursorPaging: cursor === undefined ? { limit: 1000 } : { limit: 1000, cursor } } }
    )
    for (const item of page.dataItems) stored.set(item.id, item.data.op)
    cursor = page.pagingMetadata.cursors?.next
    if (cursor === undefined || page.dataItems.length === 0) return stored
  }
}

// stops by itself: the load's end, the check, and a guard far past both
const guard = setTimeout(() => {
  console.error("soak: still running after five minutes; stopping")
  process.exit(1)
}, 290_000)
guard.unref()
await main()

/**
 * The site's event log: every data and catalog event, with an id that only grows (across restarts and
 * resets), kept for the live stream, for webhook deliveries and for resuming either.
 *
 * A write pays almost nothing for it:
 * - The module that wrote appends all the events of one write as ONE row, in the write's own
 *   transaction, encoded as it chooses (the data engine names the items a write created by their
 *   place in its own table rather than copying them). An acknowledged write has its events in the
 *   log, a rolled-back one has none, and a crash between the two cannot happen.
 * - Envelopes are built only when somebody reads an event (a live stream, a webhook, a resume), once
 *   per event, by the decoder the writing module registered, from what the write handed over in memory
 *   (or, after a restart, from the stored row). With nobody listening none is built.
 * - The kept rows are also held in memory (the hot window), so readers never read the log's rows back,
 *   and the window is trimmed 2 500 events at a time, by whole rows.
 *
 * The log keeps at least the last {@link KEPT_EVENTS} events, so a live stream that lost its connection
 * resumes from its last event id without loss while that id is kept; from an older id it is told so.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import type { Scope } from "effect/Scope"
import { createHash } from "node:crypto"
import { Database } from "../platform/Database.ts"
import { isoDate, ServerClock } from "../platform/ServerClock.ts"
import { SiteRegistry } from "../platform/SiteRegistry.ts"
import { type EventStamp, NO_SITE_ID } from "./envelopes.ts"

/** How many events the log keeps at least, for resuming streams. */
export const KEPT_EVENTS = 10_000

/** Events past the kept window that may wait before their rows are deleted: the log trims this many at a time. */
const TRIM_EVERY = 2_500

/** One logged event. Its envelope's JSON text is built when first read. */
export interface SiteEvent {
  /** Grows by one per event. */
  readonly id: number
  readonly type: string
  /** The event's envelope as JSON text. */
  readonly json: string
}

/** The events of one write, as the log publishes them to its live readers. */
export interface LoggedBatch {
  /** Its first event's id; its events have the ids that follow, one each. */
  readonly first: number
  readonly last: number
  /** Decoded when first read, once for every reader. */
  readonly events: ReadonlyArray<SiteEvent>
}

/** One write's events as the log keeps them: what the writing module encoded, and what the log stamped. */
export interface StoredBatch {
  /** The decoder that reads it. */
  readonly codec: string
  readonly first: number
  readonly count: number
  /** When the write happened (server clock, ms). */
  readonly at: number
  readonly siteId: string
  /** The writer's encoding: something about all the events (who made them, where), and the events. */
  readonly meta: string
  readonly body: string
  /** What the writer handed over in memory with the row, for its decoder; absent for rows read back after a restart. */
  readonly memo?: unknown
}

/** Reads a module's stored batch back as events; `stamp(i)` is what the log says of the batch's i-th event. */
export type Decoder = (batch: StoredBatch, stamp: (i: number) => EventStamp) => ReadonlyArray<SiteEvent>

/** An event whose envelope text is built by `build` when first read (and kept). */
export const lazyEvent = (id: number, type: string, build: () => string): SiteEvent => new LazyEvent(id, type, build)

class LazyEvent implements SiteEvent {
  readonly id: number
  readonly type: string
  #json: string | undefined
  #build: (() => string) | undefined
  constructor(id: number, type: string, build: () => string) {
    this.id = id
    this.type = type
    this.#build = build
  }
  get json(): string {
    if (this.#json === undefined) {
      this.#json = this.#build!()
      this.#build = undefined
    }
    return this.#json
  }
}

class Batch implements LoggedBatch {
  readonly stored: StoredBatch
  readonly #decode: (stored: StoredBatch) => ReadonlyArray<SiteEvent>
  #events: ReadonlyArray<SiteEvent> | undefined
  constructor(stored: StoredBatch, decode: (stored: StoredBatch) => ReadonlyArray<SiteEvent>) {
    this.stored = stored
    this.#decode = decode
  }
  get first() {
    return this.stored.first
  }
  get last() {
    return this.stored.first + this.stored.count - 1
  }
  get events(): ReadonlyArray<SiteEvent> {
    return (this.#events ??= this.#decode(this.stored))
  }
}

export interface SiteEventsShape {
  /**
   * Logs the `count` events of one write, encoded by the module that made them (`codec` names the
   * decoder that reads them back, `memo` is handed to it while the process runs), in the caller's
   * transaction (or in one of its own): they are kept and published when it commits, and gone when it
   * rolls back. Returns the id of the first.
   */
  readonly append: (codec: string, count: number, meta: string, body: string, memo?: unknown) => number
  /** How the events a codec's writer appended are read back. */
  readonly decoder: (codec: string, decode: Decoder) => void
  /** A subscription for the current scope: the writes logged after it was taken, each with its events. */
  readonly subscribe: Effect.Effect<PubSub.Subscription<LoggedBatch>, never, Scope>
  /**
   * Calls `listener` with each write's events as the write commits, in order, before the write answers:
   * for a reader that hands events on at once (webhook queues) with no fiber woken per write. `active`
   * says whether it reads them at all (see {@link watched}).
   */
  readonly onLogged: (listener: (batch: LoggedBatch) => void, active: () => boolean) => void
  /**
   * Whether a write's events will be read soon (a live stream is open, or a listener is active). A
   * writer may hand the log what it has in memory only then: with nobody reading, keeping it would only
   * keep it from the garbage collector, and a later read decodes the stored row instead.
   */
  readonly watched: () => boolean
  /**
   * The kept events after `id`, oldest first, or `undefined` when events after `id` are no longer kept
   * (a stream resuming from there would miss some).
   */
  readonly after: (id: number) => ReadonlyArray<SiteEvent> | undefined
  /** The id of the newest event (0 before any). */
  readonly lastId: () => number
  /** The id of the oldest event kept (the one after {@link lastId} when none is). */
  readonly oldestKept: () => number
  /** The kept batches a codec wrote, oldest first (how its writer finds what the log still needs of it after a restart). */
  readonly stored: (codec: string) => ReadonlyArray<StoredBatch>
}

const COLUMNS = "last_id, first_id, codec, at, site_id, meta, body"

export class SiteEvents extends Context.Service<SiteEvents, SiteEventsShape>()("sitefx/server/events/SiteEvents") {
  static readonly layer: Layer.Layer<SiteEvents, never, Database | ServerClock | SiteRegistry> = Layer.effect(
    SiteEvents,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const site = yield* SiteRegistry
      db.migrate("events/log/1", "CREATE TABLE site_events (id INTEGER PRIMARY KEY, type TEXT NOT NULL, envelope TEXT NOT NULL)")
      // one row per write instead of one per event; the events kept before keep their ids and envelopes
      db.migrate(
        "events/log/2",
        `CREATE TABLE site_event_batches (
          last_id INTEGER PRIMARY KEY,
          first_id INTEGER NOT NULL,
          codec TEXT NOT NULL,
          at INTEGER NOT NULL,
          site_id TEXT NOT NULL,
          meta TEXT NOT NULL,
          body TEXT NOT NULL
        );
        INSERT INTO site_event_batches (${COLUMNS}) SELECT id, id, 'envelope', 0, '', type, envelope FROM site_events;
        DROP TABLE site_events;`
      )
      const hub = yield* Effect.acquireRelease(PubSub.unbounded<LoggedBatch>(), PubSub.shutdown)

      // a domain event's id: this database's own prefix, then the event id, so every read gives the same one
      const prefix = createHash("sha256").update(db.instance().seedSecret).update("sitefx event ids").digest("hex")
      const uuidPrefix = `${prefix.slice(0, 8)}-${prefix.slice(8, 12)}-4${prefix.slice(13, 16)}-${"89ab"[Number.parseInt(prefix[16]!, 16) & 3]}${prefix.slice(17, 20)}-`
      const uuidOf = (id: number) => uuidPrefix + id.toString(16).padStart(12, "0")

      const decoders = new Map<string, Decoder>([
        // events kept by the log's first version: their envelopes as they were sent
        ["envelope", (batch) => [lazyEvent(batch.first, batch.meta, () => batch.body)]],
        // what a reset leaves: the ids it had reached, and no events
        ["reset", () => []]
      ])
      const decode = (stored: StoredBatch): ReadonlyArray<SiteEvent> => {
        const decoder = decoders.get(stored.codec)
        // a codec nobody reads (a module gone since) has no events to give
        if (decoder === undefined) return []
        const eventTime = isoDate(stored.at)
        return decoder(stored, (i) => ({ id: stored.first + i, uuid: uuidOf(stored.first + i), eventTime, siteId: stored.siteId }))
      }
      const batchOf = (stored: StoredBatch) => new Batch(stored, decode)

      /** The kept batches, oldest first: the table's rows, in memory. */
      const readWindow = (): Array<Batch> => db.all(`SELECT ${COLUMNS} FROM site_event_batches ORDER BY last_id`).map((row) =>
        batchOf({
          first: Number(row["first_id"]),
          count: Number(row["last_id"]) - Number(row["first_id"]) + 1,
          codec: String(row["codec"]),
          at: Number(row["at"]),
          siteId: String(row["site_id"]),
          meta: String(row["meta"]),
          body: String(row["body"])
        })
      )
      let window = readWindow()
      /** The newest id handed out (in a transaction that may still roll back) and the newest committed. */
      let last = window.length === 0 ? 0 : window[window.length - 1]!.last
      let committed = last
      /** Events with ids up to this one may be deleted; the rows holding only such events are, TRIM_EVERY events at a time. */
      let trimmedThrough = window.length === 0 ? last : window[0]!.first - 1
      /** Appended in the transaction under way. */
      let pending: Array<Batch> = []
      let pendingTrim: number | undefined
      const listeners: Array<{ readonly listener: (batch: LoggedBatch) => void; readonly active: () => boolean }> = []
      let subscribers = 0

      const settle = (ok: boolean) => {
        const batches = pending
        pending = []
        const trim = pendingTrim
        pendingTrim = undefined
        if (!ok) {
          last = committed
          return
        }
        committed = last
        for (const batch of batches) {
          window.push(batch)
          PubSub.publishUnsafe(hub, batch)
          for (const { listener } of listeners) {
            try {
              listener(batch)
            } catch {
              // the write has committed: a reader's own failure (a full disk for a dead letter) does not
              // make it a failed one; the events stay in the log for the reader to read again
            }
          }
        }
        if (trim !== undefined) {
          trimmedThrough = trim
          let gone = 0
          while (gone < window.length && window[gone]!.last <= trim) gone++
          window = window.slice(gone)
        }
      }

      const write = (stored: StoredBatch) => {
        db.run(
          `INSERT INTO site_event_batches (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          stored.first + stored.count - 1,
          stored.first,
          stored.codec,
          stored.at,
          stored.siteId,
          stored.meta,
          stored.body
        )
      }

      db.onReset((reason) => {
        // a reset deleted every row, a restore put a snapshot's back; either way ids go on from where they
        // were (a follower's position stays meaningful), and the row left says so after a restart
        const restored = reason === "restore" ? readWindow() : []
        const reached = restored.length === 0 ? 0 : restored[restored.length - 1]!.last
        if (reached >= last && reached > 0) {
          // the snapshot's log reaches as far: its last row says where ids go on
          last = reached
          window = restored
        } else {
          const marker = { first: last + 1, count: 0, codec: "reset", at: clock.millis(), siteId: site.siteId() ?? NO_SITE_ID, meta: "", body: "" }
          write(marker)
          window = [...restored, batchOf(marker)]
        }
        committed = last
        trimmedThrough = window[0]!.first - 1
      })

      return SiteEvents.of({
        append: (codec, count, meta, body, memo) => {
          if (count === 0) return last + 1
          return db.transaction(() => {
            const stored = { first: last + 1, count, codec, at: clock.millis(), siteId: site.siteId() ?? NO_SITE_ID, meta, body, memo }
            write(stored)
            last += count
            if (pending.length === 0) db.onTransactionEnd(settle)
            pending.push(batchOf(stored))
            const cutoff = last - KEPT_EVENTS
            if (cutoff - (pendingTrim ?? trimmedThrough) >= TRIM_EVERY) {
              db.run("DELETE FROM site_event_batches WHERE last_id <= ?", cutoff)
              pendingTrim = cutoff
            }
            return stored.first
          })
        },
        decoder: (codec, decoder) => {
          decoders.set(codec, decoder)
        },
        subscribe: Effect.tap(PubSub.subscribe(hub), () =>
          Effect.acquireRelease(
            Effect.sync(() => subscribers++),
            () => Effect.sync(() => subscribers--)
          )),
        onLogged: (listener, active) => {
          listeners.push({ listener, active })
        },
        watched: () => subscribers > 0 || listeners.some((l) => l.active()),
        after: (id) => {
          if (id >= committed) return []
          // the oldest kept batch may begin before the trimmed id: what it holds is kept
          const gone = window.length === 0 ? committed : window[0]!.first - 1
          if (id < gone) return undefined
          let lo = 0
          let hi = window.length
          while (lo < hi) {
            const mid = (lo + hi) >> 1
            if (window[mid]!.last <= id) lo = mid + 1
            else hi = mid
          }
          const out: Array<SiteEvent> = []
          for (let b = lo; b < window.length; b++) for (const event of window[b]!.events) if (event.id > id) out.push(event)
          return out
        },
        lastId: () => committed,
        oldestKept: () => (window.length === 0 ? committed + 1 : window[0]!.first),
        stored: (codec) => window.flatMap((batch) => (batch.stored.codec === codec ? [batch.stored] : []))
      })
    })
  )
}

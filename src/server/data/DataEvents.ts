/**
 * Item changes into the site's event log: every committed insert, update and removal (single, bulk or
 * by an async job) is logged once, in the transaction that made it (see SiteEvents).
 *
 * A write's changes go in as one entry whose body is a JSON array with one element per change or run
 * of changes, its shape telling which: a pair of numbers is a run of items created, named by the `seq`s
 * their rows have in the items table (first and last); a pair of objects an item updated (as stored
 * now, and the fields it changed with their values before, as the write found them); a string the id
 * of an item removed. Items created are not copied: their rows are
 * the items as created until they change, and ItemStore keeps the original of a row that changes while
 * the log still names it ({@link ItemStoreShape.keepOriginals}). A bulk insert of a thousand items logs
 * two numbers.
 *
 * While somebody reads the log (a live stream, a webhook), it reads a write's events from what the
 * write handed over (its item texts); otherwise, and after a restart, from the entry and the items
 * table, when asked. Envelopes (`wix.data.v2.data_item` domain events) are built only when the events
 * are read.
 */
import { Database } from "../platform/Database.ts"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DataEventTypes } from "../../events/protocol.ts"
import { domainEventText, envelopeJson, type EventStamp, identityOf } from "../store/envelopes.ts"
import { lazyEvent, type SiteEvent, SiteEvents } from "../store/SiteEvents.ts"
import type { Caller } from "../platform/Caller.ts"
import { isSandboxKey } from "./environments.ts"
import { ItemStore, type ItemStoreShape } from "./ItemStore.ts"
import type { Json } from "../store/values.ts"

/** One change of an item in a write, with the JSON text the write stored. */
export type DataEvent =
  /** `seq`: the row's place in the items table. */
  | { readonly _tag: "ItemCreated"; readonly seq: number; readonly id: string; readonly text: string }
  /** `modified`: the top-level fields the update changed, with their values before. */
  | { readonly _tag: "ItemUpdated"; readonly id: string; readonly text: string; readonly modified: Json }
  | { readonly _tag: "ItemDeleted"; readonly itemId: string }

export interface DataEventsShape {
  /** Logs the changes one write made to one collection for one caller; call it in the write's transaction. */
  readonly record: (collectionId: string, actor: Caller, events: ReadonlyArray<DataEvent>) => void
}

const CODEC = "data/1"
const FQDN = "wix.data.v2.data_item"

/** What an entry says of all its events; `seq`: the first item created, when it created any. */
interface Meta {
  readonly collection: string
  readonly identity: unknown
  readonly seq?: number
}

type Change = readonly [number, number] | readonly [Json, Json] | string

/** The envelopes of one entry's events, each built when first read. */
const envelopes = (collection: string, who: string) => {
  const inCollection = `"dataCollectionId":${JSON.stringify(collection)}`
  return {
    created: (at: EventStamp, id: string, text: string): SiteEvent =>
      lazyEvent(at.id, DataEventTypes.itemCreated, () =>
        envelopeJson(
          at,
          who,
          DataEventTypes.itemCreated,
          domainEventText(at, FQDN, id, "created", "createdEvent", `{"entity":{"id":${JSON.stringify(id)},${inCollection},"data":${text}}}`)
        )),
    updated: (at: EventStamp, id: string, text: string, modified: string): SiteEvent =>
      lazyEvent(at.id, DataEventTypes.itemUpdated, () =>
        envelopeJson(
          at,
          who,
          DataEventTypes.itemUpdated,
          domainEventText(at, FQDN, id, "updated", "updatedEvent", `{"currentEntity":{"id":${JSON.stringify(id)},${inCollection},"data":${text}},"modifiedFields":${modified}}`)
        )),
    deleted: (at: EventStamp, id: string): SiteEvent =>
      lazyEvent(at.id, DataEventTypes.itemDeleted, () =>
        envelopeJson(at, who, DataEventTypes.itemDeleted, domainEventText(at, FQDN, id, "deleted", "deletedEvent", `{"deletedEntity":{"id":${JSON.stringify(id)},${inCollection}}}`)))
  }
}

/** An entry's body: created items as runs of `seq`s, the rest as they are. */
const encode = (events: ReadonlyArray<DataEvent>): string => {
  const parts: Array<string> = []
  let i = 0
  while (i < events.length) {
    const e = events[i]!
    if (e._tag === "ItemCreated") {
      let j = i + 1
      for (let next = events[j]; next !== undefined && next._tag === "ItemCreated" && next.seq === e.seq + (j - i); next = events[++j]);
      parts.push(`[${e.seq},${e.seq + (j - i) - 1}]`)
      i = j
      continue
    }
    parts.push(e._tag === "ItemUpdated" ? `[${e.text},${JSON.stringify(e.modified)}]` : JSON.stringify(e.itemId))
    i++
  }
  return `[${parts.join(",")}]`
}

/** An entry read back after a restart: created items come from the items table (or their kept originals). */
const decodeStored = (items: ItemStoreShape, meta: Meta, body: string, stamp: (i: number) => EventStamp, who: string): Array<SiteEvent> => {
  const make = envelopes(meta.collection, who)
  const out: Array<SiteEvent> = []
  let i = 0
  for (const change of JSON.parse(body) as ReadonlyArray<Change>) {
    if (typeof change === "string") out.push(make.deleted(stamp(i++), change))
    else if (typeof change[0] === "number") {
      const [from, to] = change as readonly [number, number]
      const created = items.created(meta.collection, from, to)
      for (let seq = from; seq <= to; seq++, i++) {
        // a row gone without its original kept (a power cut between the two writes): no event to give
        const item = created.get(seq)
        if (item !== undefined) out.push(make.created(stamp(i), item.id, item.text))
      }
    } else {
      const [item, modified] = change as readonly [Json, Json]
      out.push(make.updated(stamp(i++), String(item["_id"]), JSON.stringify(item), JSON.stringify(modified)))
    }
  }
  return out
}

export class DataEvents extends Context.Service<DataEvents, DataEventsShape>()("sitefx/server/data/DataEvents") {
  static readonly layer: Layer.Layer<DataEvents, never, SiteEvents | ItemStore | Database> = Layer.effect(
    DataEvents,
    Effect.gen(function*() {
      const log = yield* SiteEvents
      const items = yield* ItemStore
      const db = yield* Database

      /**
       * Where the log names created items: the last event id and first `seq` of each kept entry that
       * created some, oldest first. Rows from the oldest entry's `seq` on are kept as created before they change.
       */
      const marks: Array<{ readonly last: number; readonly seq: number }> = []
      let oldest = 0
      let forgotten = 0
      const readMarks = () => {
        marks.length = 0
        oldest = 0
        for (const batch of log.stored(CODEC)) {
          const seq = (JSON.parse(batch.meta) as Meta).seq
          if (seq !== undefined) marks.push({ last: batch.first + batch.count - 1, seq })
        }
      }
      readMarks()
      // after a reset or a restore the log holds other entries
      db.onReset(readMarks)
      const keepFrom = () => {
        const kept = log.oldestKept()
        while (oldest < marks.length && marks[oldest]!.last < kept) oldest++
        if (oldest > 1024) {
          marks.splice(0, oldest)
          oldest = 0
        }
        return oldest < marks.length ? marks[oldest]!.seq : Number.POSITIVE_INFINITY
      }
      items.keepOriginals(keepFrom)

      log.decoder(CODEC, (batch, stamp) => {
        const meta = JSON.parse(batch.meta) as Meta
        const who = JSON.stringify(meta.identity)
        if (batch.memo === undefined) return decodeStored(items, meta, batch.body, stamp, who)
        const make = envelopes(meta.collection, who)
        return (batch.memo as ReadonlyArray<DataEvent>).map((e, i) =>
          e._tag === "ItemCreated"
            ? make.created(stamp(i), e.id, e.text)
            : e._tag === "ItemUpdated"
            ? make.updated(stamp(i), e.id, e.text, JSON.stringify(e.modified))
            : make.deleted(stamp(i), e.itemId)
        )
      })

      return DataEvents.of({
        record: (collectionId, actor, events) => {
          // the site's events are its live data's: a sandbox's changes are nobody's business but its tests'
          if (events.length === 0 || isSandboxKey(collectionId)) return
          const first = events.find((e) => e._tag === "ItemCreated")
          const meta: Meta = { collection: collectionId, identity: identityOf(actor), ...(first === undefined ? {} : { seq: first.seq }) }
          // the write's own item texts go with it only when somebody reads the log now (see SiteEvents.watched)
          const id = log.append(CODEC, events.length, JSON.stringify(meta), encode(events), log.watched() ? events : undefined)
          if (first !== undefined) {
            marks.push({ last: id + events.length - 1, seq: first.seq })
            // originals the log no longer needs go when the oldest entry that names created items moves on
            // (this entry's mark was just taken, so there is one); after a reset, `seq`s start over
            const through = keepFrom()
            if (through - forgotten >= 1000 || through < forgotten) {
              items.forgetOriginals(through)
              forgotten = through
            }
          }
        }
      })
    })
  )
}

/**
 * Item changes into the site's event log: every committed insert, update and removal (single, bulk or
 * by an async job) is logged once, in the transaction that made it (see SiteEvents).
 *
 * A write's changes go in as one entry whose body is a JSON array with one element per change, the
 * element's shape telling which: an object is an item created (the item as stored), a pair of objects
 * an item updated (as stored now, and before), a string the id of an item removed. The objects are the
 * very JSON text the items were stored as, so logging a bulk insert joins texts the write made anyway.
 * Envelopes (`wix.data.v2.data_item` domain events) are built from them only when the events are read.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DataEventTypes } from "../../events/protocol.ts"
import { domainEvent, envelopeJson, identityOf } from "../events/envelopes.ts"
import { lazyEvent, type SiteEvent, SiteEvents } from "../events/SiteEvents.ts"
import type { Caller } from "../oauth/Callers.ts"
import type { Json } from "./values.ts"

/** One change of an item in a write, with the JSON text the write stored. */
export type DataEvent =
  | { readonly _tag: "ItemCreated"; readonly text: string }
  | { readonly _tag: "ItemUpdated"; readonly text: string; readonly previousText: string }
  | { readonly _tag: "ItemDeleted"; readonly itemId: string }

export interface DataEventsShape {
  /** Logs the changes one write made to one collection for one caller; call it in the write's transaction. */
  readonly record: (collectionId: string, actor: Caller, events: ReadonlyArray<DataEvent>) => void
}

const CODEC = "data/1"
const FQDN = "wix.data.v2.data_item"

/** Top-level fields whose value changed, with the value before. */
const modifiedFields = (before: Json, after: Json): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = before[key] ?? null
  }
  return out
}

export class DataEvents extends Context.Service<DataEvents, DataEventsShape>()("sitefx/server/data/DataEvents") {
  static readonly layer: Layer.Layer<DataEvents, never, SiteEvents> = Layer.effect(
    DataEvents,
    Effect.gen(function*() {
      const log = yield* SiteEvents

      log.decoder(CODEC, (batch, stamp) => {
        const { collection, identity } = JSON.parse(batch.meta) as { readonly collection: string; readonly identity: unknown }
        const who = JSON.stringify(identity)
        const changes = JSON.parse(batch.body) as ReadonlyArray<Json | readonly [Json, Json] | string>
        return changes.map((change, i): SiteEvent => {
          const at = stamp(i)
          if (typeof change === "string") {
            return lazyEvent(at.id, DataEventTypes.itemDeleted, () =>
              envelopeJson(at, who, DataEventTypes.itemDeleted, domainEvent(at, FQDN, change, "deleted", { deletedEvent: { deletedEntity: { id: change, dataCollectionId: collection } } })))
          }
          if (Array.isArray(change)) {
            const [item, previous] = change as readonly [Json, Json]
            const id = String(item["_id"])
            return lazyEvent(at.id, DataEventTypes.itemUpdated, () =>
              envelopeJson(
                at,
                who,
                DataEventTypes.itemUpdated,
                domainEvent(at, FQDN, id, "updated", {
                  updatedEvent: { currentEntity: { id, dataCollectionId: collection, data: item }, modifiedFields: modifiedFields(previous, item) }
                })
              ))
          }
          const item = change as Json
          const id = String(item["_id"])
          return lazyEvent(at.id, DataEventTypes.itemCreated, () =>
            envelopeJson(at, who, DataEventTypes.itemCreated, domainEvent(at, FQDN, id, "created", { createdEvent: { entity: { id, dataCollectionId: collection, data: item } } })))
        })
      })

      return DataEvents.of({
        record: (collectionId, actor, events) => {
          if (events.length === 0) return
          const parts = new Array<string>(events.length)
          for (let i = 0; i < events.length; i++) {
            const e = events[i]!
            parts[i] = e._tag === "ItemCreated" ? e.text : e._tag === "ItemUpdated" ? `[${e.text},${e.previousText}]` : JSON.stringify(e.itemId)
          }
          log.append(CODEC, events.length, JSON.stringify({ collection: collectionId, identity: identityOf(actor) }), `[${parts.join(",")}]`)
        }
      })
    })
  )
}

/**
 * The site's event log: every data and catalog event, in the platform's envelope, with an id that only
 * grows. A fiber takes the events the data engine and the store publish (after their writes commit)
 * and writes each down here, so writes never wait for delivery: the live stream and the webhook
 * deliveries read from this log and its hub.
 *
 * The log keeps the last {@link KEPT_EVENTS} events, so a live stream that lost its connection resumes
 * from its last event id without loss while that id is kept; from an older id it is told so.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import type { Scope } from "effect/Scope"
import { randomUUID } from "node:crypto"
import { CatalogV1EventTypes, DataEventTypes, type DomainEvent, type EventEnvelope, type Identity } from "../../events/protocol.ts"
import { type CatalogEvent, CatalogEvents } from "../catalog/CatalogEvents.ts"
import { type DataEvent, DataEvents } from "../data/DataEvents.ts"
import type { Json } from "../data/values.ts"
import type { Caller } from "../oauth/Callers.ts"
import { Database } from "../platform/Database.ts"
import { isoDate, ServerClock } from "../platform/ServerClock.ts"
import { Site } from "../platform/Site.ts"

/** How many events the log keeps for resuming streams. */
export const KEPT_EVENTS = 10_000

/** The local site's account, as the envelope names it. */
export const LOCAL_ACCOUNT_ID = "sitefx-local-account"

export interface SiteEvent {
  /** Grows by one per event. */
  readonly id: number
  readonly type: string
  readonly envelope: EventEnvelope
  /** The envelope as JSON text. */
  readonly json: string
}

export interface SiteEventsShape {
  /** A subscription for the current scope: the events logged after it was taken. */
  readonly subscribe: Effect.Effect<PubSub.Subscription<SiteEvent>, never, Scope>
  /**
   * The kept events after `id`, oldest first, or `undefined` when events after `id` are no longer kept
   * (a stream resuming from there would miss some).
   */
  readonly after: (id: number) => ReadonlyArray<SiteEvent> | undefined
  /** The id of the newest event (0 before any). */
  readonly lastId: () => number
}

/** Who caused an event, as receivers see it: a visitor, a member, the site's owner (an API key), or nobody known. */
export const identityOf = (actor: Caller): Identity => {
  switch (actor.kind) {
    case "visitor":
      return { identityType: "ANONYMOUS_VISITOR", anonymousVisitorId: actor.id }
    case "member":
      return { identityType: "MEMBER", memberId: actor.id }
    case "admin":
      return { identityType: "WIX_USER", wixUserId: actor.keyId }
    case "none":
      return { identityType: "UNKNOWN" }
  }
}

/** Top-level fields whose value changed, with the value before. */
const modifiedFields = (before: Json, after: Json): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = before[key] ?? null
  }
  return out
}

export class SiteEvents extends Context.Service<SiteEvents, SiteEventsShape>()("sitefx/server/events/SiteEvents") {
  static readonly layer: Layer.Layer<SiteEvents, never, Database | ServerClock | Site | DataEvents | CatalogEvents> = Layer.effect(
    SiteEvents,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const site = yield* Site
      db.migrate("events/log/1", "CREATE TABLE site_events (id INTEGER PRIMARY KEY, type TEXT NOT NULL, envelope TEXT NOT NULL)")
      const hub = yield* Effect.acquireRelease(PubSub.unbounded<SiteEvent>(), PubSub.shutdown)
      let last = Number(db.get("SELECT COALESCE(MAX(id), 0) AS n FROM site_events")!["n"])
      db.onReset(() => {
        // ids keep growing across a reset, so a stream never takes a new event for one it has seen
      })
      const sequence = new Map<string, number>()

      const envelopeOf = (type: string, payload: unknown, actor: Caller): EventEnvelope => {
        const siteId = site.siteId() ?? "sitefx-local-site"
        return {
          eventType: type,
          instanceId: siteId,
          data: JSON.stringify(payload),
          identity: JSON.stringify(identityOf(actor)),
          accountInfo: { accountId: LOCAL_ACCOUNT_ID, siteId }
        }
      }

      const domain = (entityFqdn: string, entityId: string, slug: string, change: Partial<DomainEvent>): DomainEvent => {
        const n = (sequence.get(entityId) ?? 0) + 1
        sequence.set(entityId, n)
        if (sequence.size > KEPT_EVENTS) sequence.delete(sequence.keys().next().value!)
        return {
          id: randomUUID(),
          entityFqdn,
          slug,
          entityId,
          eventTime: isoDate(clock.millis()),
          triggeredByAnonymizeRequest: false,
          entityEventSequence: String(n),
          ...change
        }
      }

      const fromData = (e: DataEvent): EventEnvelope => {
        const fqdn = "wix.data.v2.data_item"
        const entity = (data: Json) => ({ id: e.itemId, dataCollectionId: e.dataCollectionId, data })
        switch (e._tag) {
          case "ItemCreated":
            return envelopeOf(DataEventTypes.itemCreated, domain(fqdn, e.itemId, "created", { createdEvent: { entity: entity(e.item) } }), e.actor)
          case "ItemUpdated":
            return envelopeOf(
              DataEventTypes.itemUpdated,
              domain(fqdn, e.itemId, "updated", { updatedEvent: { currentEntity: entity(e.item), modifiedFields: modifiedFields(e.previous, e.item) } }),
              e.actor
            )
          case "ItemDeleted":
            return envelopeOf(
              DataEventTypes.itemDeleted,
              domain(fqdn, e.itemId, "deleted", { deletedEvent: { deletedEntity: { id: e.itemId, dataCollectionId: e.dataCollectionId } } }),
              e.actor
            )
        }
      }

      const fromCatalog = (e: CatalogEvent): EventEnvelope => {
        if (e._tag === "Legacy") return envelopeOf(e.type, e.body, e.actor)
        const c = e.change
        const change: Partial<DomainEvent> = c.kind === "created"
          ? { createdEvent: { entity: c.entity } }
          : c.kind === "updated"
          ? { updatedEvent: { currentEntity: c.entity, modifiedFields: Object.fromEntries(c.modifiedFields.map((f) => [f, null])) } }
          : c.kind === "deleted"
          ? { deletedEvent: { deletedEntity: c.entity } }
          : { actionEvent: { body: c.body } }
        return envelopeOf(e.type, domain(e.entityFqdn, e.entityId, c.kind === "action" ? e.type.split("_").pop()! : c.kind, change), e.actor)
      }

      const log = (envelopes: ReadonlyArray<EventEnvelope>) =>
        Effect.suspend(() => {
          const logged = db.transaction(() =>
            envelopes.map((envelope) => {
              const id = ++last
              const json = JSON.stringify(envelope)
              db.run("INSERT INTO site_events (id, type, envelope) VALUES (?, ?, ?)", id, envelope.eventType, json)
              return { id, type: envelope.eventType, envelope, json }
            })
          )
          if (last % 100 < envelopes.length || envelopes.length >= 100) db.run("DELETE FROM site_events WHERE id <= ?", last - KEPT_EVENTS)
          return PubSub.publishAll(hub, logged)
        })

      const data = yield* (yield* DataEvents).subscribe
      const catalog = yield* (yield* CatalogEvents).subscribe
      yield* Effect.forkScoped(Effect.forever(Effect.flatMap(PubSub.takeAll(data), (events) => log(events.map(fromData)))))
      yield* Effect.forkScoped(Effect.forever(Effect.flatMap(PubSub.takeAll(catalog), (events) => log(events.map(fromCatalog)))))

      return SiteEvents.of({
        subscribe: PubSub.subscribe(hub),
        after: (id) => {
          const first = db.get("SELECT MIN(id) AS n FROM site_events")!["n"]
          // events after `id` that are gone: the oldest kept is past the one after `id`
          if (id < last && (first === null || Number(first) > id + 1)) return undefined
          return db.all("SELECT id, type, envelope FROM site_events WHERE id > ? ORDER BY id", id).map((r) => {
            const json = String(r["envelope"])
            return { id: Number(r["id"]), type: String(r["type"]), envelope: JSON.parse(json) as EventEnvelope, json }
          })
        },
        lastId: () => last
      })
    })
  )
}

export { CatalogV1EventTypes }

/**
 * Domain events (and the catalog's v1 events) into the site's event log, for the modules whose writes
 * are few and whose events carry their entities whole (the catalog, the data engine's administration):
 * a write's events go in as one entry, a JSON array of the events with who made each, and envelopes are
 * built from it only when the events are read. Item writes, many and large, log themselves otherwise
 * (DataEvents).
 */
import type { DomainEvent } from "../../events/protocol.ts"
import type { Caller } from "../platform/Caller.ts"
import { domainEventText, envelopeJson, identityOf } from "./envelopes.ts"
import { lazyEvent, type SiteEventsShape } from "./SiteEvents.ts"

type Json = Record<string, unknown>

/** What a domain event says happened to its entity. */
export type DomainChange =
  | { readonly kind: "created"; readonly entity: Json }
  | { readonly kind: "updated"; readonly entity: Json; readonly modifiedFields: ReadonlyArray<string> }
  | { readonly kind: "deleted"; readonly entity: Json }
  | { readonly kind: "action"; readonly body: Json }

export type LoggedEvent =
  /** A v1 ("non-domain") event: its type and the body the platform sends for it. */
  | { readonly _tag: "Legacy"; readonly type: string; readonly entityId: string; readonly body: Json; readonly actor: Caller }
  /** A domain event on one entity. */
  | {
    readonly _tag: "Domain"
    readonly type: string
    readonly entityFqdn: string
    readonly entityId: string
    readonly change: DomainChange
    readonly actor: Caller
  }

type Stored =
  | { readonly _tag: "Legacy"; readonly type: string; readonly body: Json; readonly identity: unknown }
  | { readonly _tag: "Domain"; readonly type: string; readonly entityFqdn: string; readonly entityId: string; readonly change: DomainChange; readonly identity: unknown }

const changeOf = (c: DomainChange): readonly [keyof DomainEvent, unknown] => {
  switch (c.kind) {
    case "created":
      return ["createdEvent", { entity: c.entity }]
    case "updated":
      return ["updatedEvent", { currentEntity: c.entity, modifiedFields: Object.fromEntries(c.modifiedFields.map((f) => [f, null])) }]
    case "deleted":
      return ["deletedEvent", { deletedEntity: c.entity }]
    case "action":
      return ["actionEvent", { body: c.body }]
  }
}

/**
 * Registers the reader of `codec`'s entries with the log and returns the writer: it logs one write's
 * events as one entry, in the caller's transaction.
 */
export const domainEventLog = (log: SiteEventsShape, codec: string): (events: ReadonlyArray<LoggedEvent>) => void => {
  log.decoder(codec, (batch, stamp) =>
    (JSON.parse(batch.body) as ReadonlyArray<Stored>).map((e, i) => {
      const at = stamp(i)
      return lazyEvent(at.id, e.type, () => {
        const who = JSON.stringify(e.identity)
        if (e._tag === "Legacy") return envelopeJson(at, who, e.type, JSON.stringify(e.body))
        // an action's slug is what its type adds to its entity (`wix.ecom.v1.order_payment_status_updated`: `payment_status_updated`)
        const slug = e.change.kind !== "action" ? e.change.kind : e.type.startsWith(`${e.entityFqdn}_`) ? e.type.slice(e.entityFqdn.length + 1) : e.type.split("_").pop()!
        const [key, value] = changeOf(e.change)
        return envelopeJson(at, who, e.type, domainEventText(at, e.entityFqdn, e.entityId, slug, key, JSON.stringify(value)))
      })
    }))
  return (events) => {
    if (events.length === 0) return
    const stored = events.map((e): Stored =>
      e._tag === "Legacy"
        ? { _tag: "Legacy", type: e.type, body: e.body, identity: identityOf(e.actor) }
        : { _tag: "Domain", type: e.type, entityFqdn: e.entityFqdn, entityId: e.entityId, change: e.change, identity: identityOf(e.actor) }
    )
    log.append(codec, events.length, "", JSON.stringify(stored))
  }
}

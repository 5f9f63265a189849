/**
 * Catalog changes into the site's event log: every committed catalog write logs its events once, in
 * its own transaction (see SiteEvents), under the event type the platform uses for each (v1 names such
 * as `com.wix.ecommerce.catalog.api.v1.ProductCreated`, v3 domain events such as
 * `wix.stores.catalog.v3.brand_created`).
 *
 * A write's events go in as one entry: a JSON array of the events with who made each. Envelopes are
 * built from it only when the events are read.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { DomainEvent } from "../../events/protocol.ts"
import { domainEventText, envelopeJson, identityOf } from "../events/envelopes.ts"
import { lazyEvent, SiteEvents } from "../events/SiteEvents.ts"
import type { Caller } from "../oauth/Callers.ts"
import { Database } from "../platform/Database.ts"

type Json = Record<string, unknown>

type Change =
  | { readonly kind: "created"; readonly entity: Json }
  | { readonly kind: "updated"; readonly entity: Json; readonly modifiedFields: ReadonlyArray<string> }
  | { readonly kind: "deleted"; readonly entity: Json }
  | { readonly kind: "action"; readonly body: Json }

export type CatalogEvent =
  /** A v1 ("non-domain") event: its type and the body the platform sends for it. */
  | { readonly _tag: "Legacy"; readonly type: string; readonly entityId: string; readonly body: Json; readonly actor: Caller }
  /** A v3 domain event on one entity. */
  | {
    readonly _tag: "Domain"
    readonly type: string
    readonly entityFqdn: string
    readonly entityId: string
    readonly change: Change
    readonly actor: Caller
  }

/** A catalog event as the log keeps it: who made it as the envelope names them. */
type Logged =
  | { readonly _tag: "Legacy"; readonly type: string; readonly body: Json; readonly identity: unknown }
  | { readonly _tag: "Domain"; readonly type: string; readonly entityFqdn: string; readonly entityId: string; readonly change: Change; readonly identity: unknown }

/** How a store write hands over its events. */
export type Emit = (event: CatalogEvent) => void

export interface CatalogEventsShape {
  /** Runs a store write in one transaction, with the events it emits logged in it. */
  readonly transaction: <A>(write: (emit: Emit) => A) => A
}

const CODEC = "catalog/1"

/** A domain event's change: its key in the payload (`createdEvent`, ...) and its value. */
const changeOf = (c: Change): readonly [keyof DomainEvent, unknown] => {
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

export class CatalogEvents extends Context.Service<CatalogEvents, CatalogEventsShape>()("sitefx/server/catalog/CatalogEvents") {
  static readonly layer: Layer.Layer<CatalogEvents, never, SiteEvents | Database> = Layer.effect(
    CatalogEvents,
    Effect.gen(function*() {
      const log = yield* SiteEvents
      const db = yield* Database

      log.decoder(CODEC, (batch, stamp) =>
        (JSON.parse(batch.body) as ReadonlyArray<Logged>).map((e, i) => {
          const at = stamp(i)
          return lazyEvent(at.id, e.type, () => {
            const who = JSON.stringify(e.identity)
            if (e._tag === "Legacy") return envelopeJson(at, who, e.type, JSON.stringify(e.body))
            const slug = e.change.kind === "action" ? e.type.split("_").pop()! : e.change.kind
            const [key, value] = changeOf(e.change)
            return envelopeJson(at, who, e.type, domainEventText(at, e.entityFqdn, e.entityId, slug, key, JSON.stringify(value)))
          })
        }))

      const record = (events: ReadonlyArray<CatalogEvent>) => {
        if (events.length === 0) return
        const logged = events.map((e): Logged =>
          e._tag === "Legacy"
            ? { _tag: "Legacy", type: e.type, body: e.body, identity: identityOf(e.actor) }
            : { _tag: "Domain", type: e.type, entityFqdn: e.entityFqdn, entityId: e.entityId, change: e.change, identity: identityOf(e.actor) }
        )
        log.append(CODEC, events.length, "", JSON.stringify(logged))
      }

      return CatalogEvents.of({
        transaction: (write) =>
          db.transaction(() => {
            const emitted: Array<CatalogEvent> = []
            const result = write((e) => emitted.push(e))
            record(emitted)
            return result
          })
      })
    })
  )
}

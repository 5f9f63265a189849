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
import { domainEventLog, type LoggedEvent } from "../store/domainLog.ts"
import { SiteEvents } from "../store/SiteEvents.ts"
import { Database } from "../platform/Database.ts"

/** A catalog event: a v1 event with its body, or a v3 domain event on one entity. */
export type CatalogEvent = LoggedEvent

export type Emit = (event: CatalogEvent) => void

export interface CatalogEventsShape {
  /** Runs a store write in one transaction, with the events it emits logged in it. */
  readonly transaction: <A>(write: (emit: Emit) => A) => A
}

const CODEC = "catalog/1"

export class CatalogEvents extends Context.Service<CatalogEvents, CatalogEventsShape>()("sitefx/server/catalog/CatalogEvents") {
  static readonly layer: Layer.Layer<CatalogEvents, never, SiteEvents | Database> = Layer.effect(
    CatalogEvents,
    Effect.gen(function*() {
      const log = yield* SiteEvents
      const db = yield* Database

      const record = domainEventLog(log, CODEC)

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

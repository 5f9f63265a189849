/**
 * Ecom changes into the site's event log, as the catalog logs its own (see CatalogEvents): a write and
 * the events it emits commit in one transaction, so webhooks and the live stream deliver exactly the
 * changes that happened.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../platform/Database.ts"
import { domainEventLog, type LoggedEvent } from "../store/domainLog.ts"
import { SiteEvents } from "../store/SiteEvents.ts"

export type Emit = (event: LoggedEvent) => void

export interface EcomEventsShape {
  /** Runs a write in one transaction, with the events it emits logged in it. */
  readonly transaction: <A>(write: (emit: Emit) => A) => A
}

export class EcomEvents extends Context.Service<EcomEvents, EcomEventsShape>()("sitefx/server/ecom/EcomEvents") {
  static readonly layer: Layer.Layer<EcomEvents, never, SiteEvents | Database> = Layer.effect(
    EcomEvents,
    Effect.gen(function*() {
      const log = yield* SiteEvents
      const db = yield* Database
      const record = domainEventLog(log, "ecom/1")
      return EcomEvents.of({
        transaction: (write) =>
          db.transaction(() => {
            const emitted: Array<LoggedEvent> = []
            const result = write((e) => emitted.push(e))
            record(emitted)
            return result
          })
      })
    })
  )
}

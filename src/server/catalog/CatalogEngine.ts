/**
 * The catalog's store engine (store/engine.ts): every catalog write (v1 products, collections and
 * inventory, v3 entities, abandoned carts, subscription options) runs through its `commit`, in one
 * transaction with the events it logs, under the event type the platform uses for each (v1 names such
 * as `com.wix.ecommerce.catalog.api.v1.ProductCreated`, v3 domain events such as
 * `wix.stores.catalog.v3.brand_created`); reads run through its `read`. Both answer an EngineFailure
 * as the platform's refusal.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { LoggedEvent } from "../store/domainLog.ts"
import { type Engine, eventLog, makeEngine } from "../store/engine.ts"
import { SiteEvents } from "../store/SiteEvents.ts"
import { Database } from "../platform/Database.ts"
import { ServerClock } from "../platform/ServerClock.ts"

/** A catalog event: a v1 event with its body, or a v3 domain event on one entity. */
export type CatalogEvent = LoggedEvent

export type { Emit } from "../store/engine.ts"

/** The codec of the catalog's entries in the site's event log. */
const CODEC = "catalog/1"

export class CatalogEngine extends Context.Service<CatalogEngine, Engine>()("sitefx/server/catalog/CatalogEngine") {
  static readonly layer: Layer.Layer<CatalogEngine, never, SiteEvents | Database | ServerClock> = Layer.effect(
    CatalogEngine,
    Effect.gen(function*() {
      const db = yield* Database
      return CatalogEngine.of(makeEngine(db, yield* ServerClock, eventLog(db, yield* SiteEvents, CODEC)))
    })
  )
}

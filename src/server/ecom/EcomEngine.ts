/**
 * The ecom module's store engine (store/engine.ts), as the catalog has its own (CatalogEngine): every
 * current-cart and order write runs through its `commit`, in one transaction with the events it logs
 * (`wix.ecom.v1.cart_*`, `wix.ecom.v2.cart_*`, `wix.ecom.v1.order_*`, and the catalog's abandoned-cart
 * events when a cart is abandoned or recovered); reads run through its `read`. Both answer an
 * EngineFailure as the platform's refusal. `write` is `commit` for storage code that must stay
 * synchronous (an order placed inside a checkout's own transaction): it throws the EngineFailure.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../platform/Database.ts"
import { ServerClock } from "../platform/ServerClock.ts"
import { domainEventLog } from "../store/domainLog.ts"
import { type Engine, type EventLog, eventLog, makeEngine } from "../store/engine.ts"
import { SiteEvents } from "../store/SiteEvents.ts"

export type { Emit } from "../store/engine.ts"

/** The codec of the ecom module's entries in the site's event log. */
const CODEC = "ecom/1"
/** The codec the orders' entries had before they shared the module's: still read. */
const FORMER_ORDERS_CODEC = "ecom-orders/1"

export interface EcomEngineShape extends Engine {
  /** Runs storage code in one transaction (the caller's when there is one) with its events logged in it. */
  readonly write: EventLog["transaction"]
}

export class EcomEngine extends Context.Service<EcomEngine, EcomEngineShape>()("sitefx/server/ecom/EcomEngine") {
  static readonly layer: Layer.Layer<EcomEngine, never, SiteEvents | Database | ServerClock> = Layer.effect(
    EcomEngine,
    Effect.gen(function*() {
      const db = yield* Database
      const log = yield* SiteEvents
      const events = eventLog(db, log, CODEC)
      domainEventLog(log, FORMER_ORDERS_CODEC)
      return EcomEngine.of({ ...makeEngine(db, yield* ServerClock, events), write: events.transaction })
    })
  )
}

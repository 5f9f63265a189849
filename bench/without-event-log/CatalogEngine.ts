/** No event log (see register.ts): the catalog's engine commits its writes and logs nothing. */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type Engine, makeEngine } from "../../src/server/store/engine.ts"
import { Database } from "../../src/server/platform/Database.ts"
import { ServerClock } from "../../src/server/platform/ServerClock.ts"

export type { CatalogEvent, Emit } from "../../src/server/catalog/CatalogEngine.ts"

export class CatalogEngine extends Context.Service<CatalogEngine, Engine>()("sitefx/server/catalog/CatalogEngine") {
  static readonly layer = Layer.effect(
    CatalogEngine,
    Effect.gen(function*() {
      const db = yield* Database
      return CatalogEngine.of(makeEngine(db, yield* ServerClock, { transaction: (write) => db.transaction(() => write(() => undefined)) }))
    })
  )
}

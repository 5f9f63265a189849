/** No event log (see register.ts): the store's writes log nothing. */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import type { CatalogEventsShape } from "../../src/server/catalog/CatalogEvents.ts"

export type { CatalogEvent, CatalogEventsShape } from "../../src/server/catalog/CatalogEvents.ts"

export class CatalogEvents extends Context.Service<CatalogEvents, CatalogEventsShape>()("sitefx/server/catalog/CatalogEvents") {
  static readonly layer = Layer.succeed(CatalogEvents)({ record: () => undefined })
}

/** No event log (see register.ts): the data engine's writes log nothing. */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import type { DataEventsShape } from "../../src/server/data/DataEvents.ts"

export type { DataEvent, DataEventsShape } from "../../src/server/data/DataEvents.ts"

export class DataEvents extends Context.Service<DataEvents, DataEventsShape>()("sitefx/server/data/DataEvents") {
  static readonly layer = Layer.succeed(DataEvents)({ record: () => undefined })
}

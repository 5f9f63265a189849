/** No event log (see register.ts): ids are counted, nothing is kept or published. */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import type { LoggedBatch, SiteEvent, SiteEventsShape } from "../../src/server/store/SiteEvents.ts"

export type { Decoder, LoggedBatch, SiteEvent, SiteEventsShape, StoredBatch } from "../../src/server/store/SiteEvents.ts"

export const KEPT_EVENTS = 10_000

export const lazyEvent = (id: number, type: string, build: () => string): SiteEvent => ({ id, type, json: build() })

export class SiteEvents extends Context.Service<SiteEvents, SiteEventsShape>()("sitefx/server/events/SiteEvents") {
  static readonly layer = Layer.effect(
    SiteEvents,
    Effect.gen(function*() {
      const hub = yield* Effect.acquireRelease(PubSub.unbounded<LoggedBatch>(), PubSub.shutdown)
      let last = 0
      return SiteEvents.of({
        append: (_codec, count) => {
          const first = last + 1
          last += count
          return first
        },
        decoder: () => undefined,
        subscribe: PubSub.subscribe(hub),
        onLogged: () => undefined,
        watched: () => false,
        after: () => [],
        lastId: () => last,
        oldestKept: () => last + 1,
        stored: () => []
      })
    })
  )
}

/**
 * Item changes as they happen: every committed insert, update and removal (single, bulk or by an
 * async job) is published here once, after its transaction commits. The events module turns these
 * into webhooks and live streams; tests subscribe directly.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import type { Scope } from "effect/Scope"
import type { Caller } from "../oauth/Callers.ts"
import type { Json } from "./values.ts"

/** One committed change of an item, with who made it (the caller of the write, or of the job that made it). */
export type DataEvent =
  | { readonly _tag: "ItemCreated"; readonly dataCollectionId: string; readonly itemId: string; readonly item: Json; readonly actor: Caller }
  | {
    readonly _tag: "ItemUpdated"
    readonly dataCollectionId: string
    readonly itemId: string
    readonly item: Json
    readonly previous: Json
    readonly actor: Caller
  }
  | { readonly _tag: "ItemDeleted"; readonly dataCollectionId: string; readonly itemId: string; readonly previous: Json; readonly actor: Caller }

export interface DataEventsShape {
  readonly publish: (events: ReadonlyArray<DataEvent>) => Effect.Effect<void>
  /** A subscription for the current scope; it sees the events published after it was taken. */
  readonly subscribe: Effect.Effect<PubSub.Subscription<DataEvent>, never, Scope>
}

export class DataEvents extends Context.Service<DataEvents, DataEventsShape>()("sitefx/server/data/DataEvents") {
  static readonly layer: Layer.Layer<DataEvents> = Layer.effect(
    DataEvents,
    Effect.gen(function*() {
      const hub = yield* Effect.acquireRelease(PubSub.unbounded<DataEvent>(), PubSub.shutdown)
      return DataEvents.of({
        publish: (events) => (events.length === 0 ? Effect.void : Effect.asVoid(PubSub.publishAll(hub, events))),
        subscribe: PubSub.subscribe(hub)
      })
    })
  )
}

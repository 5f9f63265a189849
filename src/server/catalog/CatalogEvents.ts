/**
 * Catalog changes as they happen: every committed catalog write publishes its event here once, after
 * its transaction commits, under the event type the platform uses for it (v1 names such as
 * `com.wix.ecommerce.catalog.api.v1.ProductCreated`, v3 domain events such as
 * `wix.stores.catalog.v3.brand_created`). The events module turns these into webhooks and live streams;
 * tests subscribe directly.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import type { Scope } from "effect/Scope"
import type { Caller } from "../oauth/Callers.ts"

type Json = Record<string, unknown>

export type CatalogEvent =
  /** A v1 ("non-domain") event: its type and the body the platform sends for it. */
  | { readonly _tag: "Legacy"; readonly type: string; readonly entityId: string; readonly body: Json; readonly actor: Caller }
  /** A v3 domain event on one entity. */
  | {
    readonly _tag: "Domain"
    readonly type: string
    readonly entityFqdn: string
    readonly entityId: string
    readonly change:
      | { readonly kind: "created"; readonly entity: Json }
      | { readonly kind: "updated"; readonly entity: Json; readonly modifiedFields: ReadonlyArray<string> }
      | { readonly kind: "deleted"; readonly entity: Json }
      | { readonly kind: "action"; readonly body: Json }
    readonly actor: Caller
  }

export interface CatalogEventsShape {
  readonly publish: (events: ReadonlyArray<CatalogEvent>) => Effect.Effect<void>
  /** A subscription for the current scope; it sees the events published after it was taken. */
  readonly subscribe: Effect.Effect<PubSub.Subscription<CatalogEvent>, never, Scope>
}

export class CatalogEvents extends Context.Service<CatalogEvents, CatalogEventsShape>()("sitefx/server/catalog/CatalogEvents") {
  static readonly layer: Layer.Layer<CatalogEvents> = Layer.effect(
    CatalogEvents,
    Effect.gen(function*() {
      const hub = yield* Effect.acquireRelease(PubSub.unbounded<CatalogEvent>(), PubSub.shutdown)
      return CatalogEvents.of({
        publish: (events) => (events.length === 0 ? Effect.void : Effect.asVoid(PubSub.publishAll(hub, events))),
        subscribe: PubSub.subscribe(hub)
      })
    })
  )
}

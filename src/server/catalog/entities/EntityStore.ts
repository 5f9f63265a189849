/**
 * The store's catalog v3 entities on node:sqlite: a table per entity (brands, ribbons, info sections,
 * customizations, inventory items) and the write engine they share (transactions, revisions, domain
 * events on {@link CatalogEvents} after each commit). Other parts of the store read these tables (a
 * product's brand, a variant's stock) through this service.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../../platform/Database.ts"
import { ServerClock } from "../../platform/ServerClock.ts"
import { CatalogEvents } from "../CatalogEvents.ts"
import { type Engine, makeEngine } from "./engine.ts"
import { entityTableSql, type EntityTableShape, makeEntityTable } from "./entityTables.ts"

export interface EntityStoreShape {
  readonly engine: Engine
  readonly brands: EntityTableShape
  readonly ribbons: EntityTableShape
  readonly infoSections: EntityTableShape
  readonly customizations: EntityTableShape
  readonly inventoryItems: EntityTableShape
}

const TABLES = ["brands", "ribbons", "info_sections", "customizations", "inventory_items"] as const

export class EntityStore extends Context.Service<EntityStore, EntityStoreShape>()("sitefx/server/catalog/EntityStore") {
  static readonly layer: Layer.Layer<EntityStore, never, Database | ServerClock | CatalogEvents> = Layer.effect(
    EntityStore,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const events = yield* CatalogEvents
      db.migrate("catalog-entities/1", TABLES.map(entityTableSql).join("\n"))
      return EntityStore.of({
        engine: makeEngine(db, clock, events),
        brands: makeEntityTable(db, "brands"),
        ribbons: makeEntityTable(db, "ribbons"),
        infoSections: makeEntityTable(db, "info_sections"),
        customizations: makeEntityTable(db, "customizations"),
        inventoryItems: makeEntityTable(db, "inventory_items")
      })
    })
  )
}

/**
 * The store's catalog v3 entities on node:sqlite: a table per entity (brands, ribbons, info sections,
 * customizations, inventory items) and the catalog's engine ({@link CatalogEngine}: transactions
 * that log their domain events as they commit). Other parts of the store read these tables (a
 * product's brand, a variant's stock) through this service.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../../platform/Database.ts"
import { CatalogEngine } from "../CatalogEngine.ts"
import type { Engine } from "./engine.ts"
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
  static readonly layer: Layer.Layer<EntityStore, never, Database | CatalogEngine> = Layer.effect(
    EntityStore,
    Effect.gen(function*() {
      const db = yield* Database
      const engine = yield* CatalogEngine
      db.migrate("catalog/entities/1", TABLES.map(entityTableSql).join("\n"), ["catalog-entities/1"])
      return EntityStore.of({
        engine,
        brands: makeEntityTable(db, "brands"),
        ribbons: makeEntityTable(db, "ribbons"),
        infoSections: makeEntityTable(db, "info_sections"),
        customizations: makeEntityTable(db, "customizations"),
        inventoryItems: makeEntityTable(db, "inventory_items")
      })
    })
  )
}

/**
 * The store's products and collections on node:sqlite. A product row holds its spec (what writers
 * said), its doc (the wire product an API key reads), its public doc (what visitors and members read:
 * no costs), its v2 inventory item, and one row per variant in `catalog_variants` for the store-wide
 * variant query. Filters and sorts run on the docs with the data engine's SQL translation, so product
 * queries speak the same filter language, with the same checks, as data queries.
 *
 * All methods are synchronous and throw an EngineFailure; routes run them on the catalog's engine
 * (`read`, or `commit`: one transaction with the events the write emits).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import type { Sorting } from "../../../catalog/wire/common.ts"
import type { Collection, Product } from "../../../catalog/wire/products.ts"
import { failure } from "../../store/engine.ts"
import { atMost } from "../../store/engineFailures.ts"
import { compileFilter, filterBudget } from "../../store/filters.ts"
import type { OffsetPaging, PageRequest as StorePageRequest } from "../../store/paging.ts"
import { concat, keyOf, orderBy, rankOf, registerFunctions, type Source, sortTerms, sql } from "../../store/sql.ts"
import { Database } from "../../platform/Database.ts"
import { MAX_SORT_FIELDS } from "../../platform/limits.ts"
import { CatalogEngine } from "../CatalogEngine.ts"
import { invalid, productNotFound } from "./changes.ts"
import {
  ALL_PRODUCTS_ID,
  ALL_PRODUCTS_SLUG,
  type CollectionSpec,
  derive,
  forVisitors,
  inventoryItemOf,
  type ProductSpec,
  wireCollection
} from "./model.ts"

/** A v1 query: offset paging. */
export type PageRequest = StorePageRequest<OffsetPaging>

/** A page of stored JSON documents (already in wire shape) and the number of all that match. */
export interface JsonPage {
  readonly docs: ReadonlyArray<string>
  readonly total: number
}

export interface ProductStoreShape {
  readonly now: () => string
  readonly newIds: () => { readonly id: string; readonly numericId: string; readonly inventoryItemId: string }
  readonly find: (id: string) => ProductSpec | undefined
  readonly require: (id: string) => ProductSpec
  readonly findByInventoryId: (inventoryId: string) => ProductSpec | undefined
  readonly slugTaken: (slug: string, exceptId?: string) => boolean
  /** Stores a product (new or changed); returns its doc. */
  readonly store: (spec: ProductSpec) => Product
  readonly remove: (id: string) => boolean
  readonly doc: (id: string, admin: boolean) => string | undefined
  readonly query: (request: PageRequest, admin: boolean, includeVariants: boolean) => JsonPage
  readonly queryVariants: (request: PageRequest) => JsonPage
  readonly queryInventory: (request: PageRequest) => JsonPage
  readonly variantDoc: (id: string) => string | undefined
  // collections
  readonly collection: (id: string) => CollectionSpec | undefined
  readonly collectionBySlug: (slug: string) => CollectionSpec | undefined
  readonly storeCollection: (spec: CollectionSpec) => void
  readonly removeCollection: (id: string) => ReadonlyArray<string>
  readonly wireCollection: (spec: CollectionSpec) => Collection
  readonly queryCollections: (request: PageRequest, admin: boolean) => { readonly collections: ReadonlyArray<Collection>; readonly total: number }
}

/**
 * Queries filter and sort on `keys`: the product's fields without its big parts (variants, media,
 * options; the description stays, for text searches) and without costs (which visitors must not probe with filters), as JSONB, so a
 * query over 10 000 products reads a few hundred bytes per product and parses none of them.
 */
/**
 * The fields product queries filter and sort on most, kept beside the JSON as rank and key columns (see
 * `Source.columns`): a query on them over 10 000 products reads columns, not JSON.
 */
const HOT_FIELDS: ReadonlyArray<readonly [field: string, column: string]> = [
  ["id", "f_id"],
  ["name", "f_name"],
  ["slug", "f_slug"],
  ["sku", "f_sku"],
  ["brand", "f_brand"],
  ["ribbon", "f_ribbon"],
  ["numericId", "f_numeric"],
  ["productType", "f_type"],
  ["priceData.price", "f_price"],
  ["priceData.discountedPrice", "f_discounted"],
  ["stock.quantity", "f_quantity"],
  ["stock.inventoryStatus", "f_status"],
  ["lastUpdated", "f_updated"],
  ["createdDate", "f_created"]
]
const KEYS: Source = { column: "keys", columns: Object.fromEntries(HOT_FIELDS), lists: { collectionIds: "f_collections" } }
const HOT_COLUMNS = HOT_FIELDS.map(([, c]) => `${c}_r, ${c}_k`).join(", ")
const HOT_UPDATES = HOT_FIELDS.map(([, c]) => `${c}_r = excluded.${c}_r, ${c}_k = excluded.${c}_k`).join(", ")
const hotValue = (doc: Product, field: string): unknown => field.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], doc)
const LEFT_OUT_OF_KEYS = [
  "variants", "media", "productOptions", "additionalInfoSections", "customTextFields", "seoData",
  "costAndProfitData", "costRange", "convertedPriceData", "price"
] as const
const keysOf = (doc: Product): string => {
  const keys: Record<string, unknown> = { ...doc }
  for (const k of LEFT_OUT_OF_KEYS) delete keys[k]
  return JSON.stringify(keys)
}
const VARIANTS: Source = { column: "doc" }
const INVENTORY: Source = { column: "inventory" }
const COLLECTIONS: Source = { column: "doc" }

/** Field names the platform accepts besides the document's own paths. */
const ALIASES: Record<string, string> = {
  price: "priceData.price",
  "collections.id": "collectionIds",
  "collection.id": "collectionIds",
  _id: "id",
  _createdDate: "createdDate",
  _updatedDate: "lastUpdated"
}

/** A filter with the platform's alternative field names rewritten to the document's. */
export const aliasFilter = (filter: unknown): unknown => {
  if (Array.isArray(filter)) return filter.map(aliasFilter)
  if (typeof filter !== "object" || filter === null) return filter
  return Object.fromEntries(Object.entries(filter).map(([k, v]) => [ALIASES[k] ?? k, k.startsWith("$") ? aliasFilter(v) : v]))
}

const aliasSort = (sort: ReadonlyArray<Sorting>): ReadonlyArray<Sorting> => sort.map((s) => ({ ...s, fieldName: ALIASES[s.fieldName] ?? s.fieldName }))

export class ProductStore extends Context.Service<ProductStore, ProductStoreShape>()("sitefx/server/catalog/ProductStore") {
  static readonly layer: Layer.Layer<ProductStore, never, Database | CatalogEngine> = Layer.effect(
    ProductStore,
    Effect.gen(function*() {
      const db = yield* Database
      const engine = yield* CatalogEngine
      db.migrate(
        "catalog/products/1",
        `CREATE TABLE store_products (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          slug TEXT NOT NULL UNIQUE,
          inventory_id TEXT NOT NULL UNIQUE,
          visible INTEGER NOT NULL,
          -- small columns first: SQLite reads a row up to the column it needs, so the hot fields come
          -- before the documents (which spill into overflow pages) and a scan never reads those
          ${HOT_FIELDS.map(([, c]) => `${c}_r INTEGER NOT NULL, ${c}_k ANY NOT NULL`).join(",\n          ")},
          f_collections TEXT NOT NULL,
          keys BLOB NOT NULL,
          spec TEXT NOT NULL,
          doc TEXT NOT NULL,
          pub TEXT NOT NULL,
          inventory TEXT NOT NULL
        );
        CREATE INDEX store_products_hot ON store_products (visible, ${HOT_FIELDS.map(([, c]) => `${c}_r, ${c}_k`).join(", ")}, f_collections);
        CREATE TABLE store_variants (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          product_id TEXT NOT NULL,
          doc TEXT NOT NULL
        );
        CREATE INDEX store_variants_product ON store_variants (product_id);
        CREATE TABLE store_collections (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          slug TEXT NOT NULL UNIQUE,
          visible INTEGER NOT NULL,
          spec TEXT NOT NULL,
          doc TEXT NOT NULL
        );
        CREATE TABLE store_memberships (
          collection_id TEXT NOT NULL,
          product_id TEXT NOT NULL,
          PRIMARY KEY (collection_id, product_id)
        ) WITHOUT ROWID;
        CREATE INDEX store_memberships_product ON store_memberships (product_id);
        CREATE TABLE store_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;`
      )
      // products stored before descriptions were searchable get theirs in the filter keys
      db.migrate(
        "catalog/products/2",
        `UPDATE store_products SET keys = jsonb_set(keys, '$.description', json_extract(doc, '$.description'))
         WHERE json_type(doc, '$.description') = 'text'`
      )
      // the tables' first names were `store_*`; the catalog's tables are `catalog_*` (rows, sequences and
      // indexes kept: SQLite renames a table in place, and an index is made again under its new name)
      db.migrate(
        "catalog/products/3",
        `ALTER TABLE store_products RENAME TO catalog_products;
        ALTER TABLE store_variants RENAME TO catalog_variants;
        ALTER TABLE store_collections RENAME TO catalog_collections;
        ALTER TABLE store_memberships RENAME TO catalog_memberships;
        ALTER TABLE store_counters RENAME TO catalog_counters;
        DROP INDEX store_products_hot;
        CREATE INDEX catalog_products_hot ON catalog_products (visible, ${HOT_FIELDS.map(([, c]) => `${c}_r, ${c}_k`).join(", ")}, f_collections);
        DROP INDEX store_variants_product;
        CREATE INDEX catalog_variants_product ON catalog_variants (product_id);
        DROP INDEX store_memberships_product;
        CREATE INDEX catalog_memberships_product ON catalog_memberships (product_id);`
      )
      registerFunctions(db)

      const allProducts: CollectionSpec = { id: ALL_PRODUCTS_ID, name: "All Products", slug: ALL_PRODUCTS_SLUG, description: "", visible: true }
      const storeCollection = (spec: CollectionSpec) => {
        const doc = JSON.stringify(wireCollection(spec, 0))
        db.run(
          `INSERT INTO catalog_collections (id, slug, visible, spec, doc) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, visible = excluded.visible, spec = excluded.spec, doc = excluded.doc`,
          spec.id,
          spec.slug,
          spec.visible ? 1 : 0,
          JSON.stringify(spec),
          doc
        )
      }
      const builtIns = () => {
        if (db.get("SELECT 1 AS x FROM catalog_collections WHERE id = ?", ALL_PRODUCTS_ID) === undefined) storeCollection(allProducts)
      }
      builtIns()
      db.onReset(builtIns)

      const next = (name: string): number =>
        Number(db.get("INSERT INTO catalog_counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value", name)!["value"])

      const find = (id: string): ProductSpec | undefined => {
        const row = db.get("SELECT spec FROM catalog_products WHERE id = ?", id)
        return row === undefined ? undefined : (JSON.parse(row["spec"] as string) as ProductSpec)
      }

      /** `index`: an index holding every small column, read instead of the rows when the query needs no JSON. */
      const page = (table: string, source: Source, column: string, request: PageRequest, extra: ReturnType<typeof sql> | undefined, index?: string): JsonPage => {
        atMost(request.sort.length, MAX_SORT_FIELDS, "query.sort", "A query sorts by")
        const condition = compileFilter(aliasFilter(request.filter), source, "query.filter", filterBudget())
        const where = extra === undefined ? condition : concat(extra, " AND ", condition)
        const terms = sortTerms(source, aliasSort(request.sort))
        const order = terms.length === 0 ? "seq" : `${orderBy(terms)}, seq`
        // one pass over the rows for the order of all that match (their number is the total), reading
        // only the small columns (a covering index when the filter and sort are on hot fields); then the
        // page's documents by row
        const small = index !== undefined && !`${where.sql} ${order}`.includes(`${source.column}`) ? ` INDEXED BY ${index}` : ""
        const matching = db.all(`SELECT seq FROM ${table}${small} WHERE ${where.sql} ORDER BY ${order}`, ...where.params)
        const total = matching.length
        const { limit, offset } = request.paging
        const seqs = limit === 0 ? [] : matching.slice(offset, offset + limit).map((r) => r["seq"] as number)
        const bySeq = new Map<number, string>()
        if (seqs.length > 0) {
          for (const r of db.all(`SELECT seq, ${column} AS doc FROM ${table} WHERE seq IN (${seqs.map(() => "?").join(", ")})`, ...seqs)) {
            bySeq.set(r["seq"] as number, r["doc"] as string)
          }
        }
        const rows = seqs.map((seq) => ({ doc: bySeq.get(seq)! }))
        return { docs: rows.map((r) => r["doc"] as string), total }
      }

      const counts = (ids: ReadonlyArray<string>): Map<string, number> => {
        const out = new Map<string, number>()
        if (ids.length === 0) return out
        const rows = db.all(
          `SELECT collection_id AS id, COUNT(*) AS n FROM catalog_memberships WHERE collection_id IN (${ids.map(() => "?").join(", ")}) GROUP BY collection_id`,
          ...ids
        )
        for (const r of rows) out.set(r["id"] as string, Number(r["n"]))
        if (ids.includes(ALL_PRODUCTS_ID)) out.set(ALL_PRODUCTS_ID, Number(db.get("SELECT COUNT(*) AS n FROM catalog_products")!["n"]))
        return out
      }

      const toWire = (spec: CollectionSpec) => wireCollection(spec, counts([spec.id]).get(spec.id) ?? 0)

      return ProductStore.of({
        now: engine.now,
        newIds: () => ({ id: randomUUID(), numericId: String(1_000_000 + next("numericId")), inventoryItemId: randomUUID() }),
        find,
        require: (id) => {
          const spec = find(id)
          if (spec === undefined) throw productNotFound(id)
          return spec
        },
        findByInventoryId: (inventoryId) => {
          const row = db.get("SELECT spec FROM catalog_products WHERE inventory_id = ?", inventoryId)
          return row === undefined ? undefined : (JSON.parse(row["spec"] as string) as ProductSpec)
        },
        slugTaken: (slug, exceptId) => db.get("SELECT 1 AS x FROM catalog_products WHERE slug = ? AND id IS NOT ?", slug, exceptId ?? null) !== undefined,
        store: (spec) => {
          for (const id of spec.collectionIds) {
            if (db.get("SELECT 1 AS x FROM catalog_collections WHERE id = ?", id) === undefined) {
              throw invalid("product.collectionIds", `Collection ${id} does not exist`)
            }
          }
          const doc = derive(spec)
          db.run(
            `INSERT INTO catalog_products (id, slug, inventory_id, visible, spec, doc, pub, keys, inventory, f_collections, ${HOT_COLUMNS})
             VALUES (?, ?, ?, ?, ?, ?, ?, jsonb(?), ?, ?, ${HOT_FIELDS.map(() => "?, ?").join(", ")})
             ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, visible = excluded.visible, spec = excluded.spec, doc = excluded.doc,
               pub = excluded.pub, keys = excluded.keys, inventory = excluded.inventory,
               f_collections = excluded.f_collections, ${HOT_UPDATES}`,
            spec.id,
            spec.slug,
            spec.inventoryItemId,
            spec.visible ? 1 : 0,
            JSON.stringify(spec),
            JSON.stringify(doc),
            JSON.stringify(forVisitors(doc)),
            keysOf(doc),
            JSON.stringify(inventoryItemOf(spec)),
            `|${(doc.collectionIds ?? []).join("|")}|`,
            ...HOT_FIELDS.flatMap(([field]) => {
              const value = hotValue(doc, field)
              return [rankOf(value), keyOf(value)]
            })
          )
          db.run("DELETE FROM catalog_memberships WHERE product_id = ?", spec.id)
          for (const c of spec.collectionIds) db.run("INSERT OR IGNORE INTO catalog_memberships (collection_id, product_id) VALUES (?, ?)", c, spec.id)
          db.run("DELETE FROM catalog_variants WHERE product_id = ?", spec.id)
          const mainMedia = doc.media?.mainMedia
          for (const v of doc.variants ?? []) {
            const variantName = Object.values(v.choices ?? {}).join(" | ")
            const storeVariant = {
              id: `${spec.id}-${v.id}`,
              variantId: v.id,
              productId: spec.id,
              variantName,
              productName: spec.name,
              managedVariant: spec.manageVariants,
              ...(v.variant?.sku === undefined ? {} : { sku: v.variant.sku }),
              stock: v.stock,
              choices: v.choices,
              collectionIds: doc.collectionIds,
              ...(mainMedia === undefined ? {} : { media: mainMedia })
            }
            db.run("INSERT INTO catalog_variants (id, product_id, doc) VALUES (?, ?, ?)", storeVariant.id, spec.id, JSON.stringify(storeVariant))
          }
          return doc
        },
        remove: (id) => {
          db.run("DELETE FROM catalog_variants WHERE product_id = ?", id)
          db.run("DELETE FROM catalog_memberships WHERE product_id = ?", id)
          return db.run("DELETE FROM catalog_products WHERE id = ?", id) > 0
        },
        doc: (id, admin) => {
          const row = db.get(`SELECT ${admin ? "doc" : "pub"} AS doc FROM catalog_products WHERE id = ?${admin ? "" : " AND visible = 1"}`, id)
          return row === undefined ? undefined : (row["doc"] as string)
        },
        query: (request, admin, includeVariants) => {
          const col = admin ? "doc" : "pub"
          return page(
            "catalog_products",
            KEYS,
            includeVariants ? col : `json_remove(${col}, '$.variants')`,
            request,
            admin ? undefined : sql("visible = 1"),
            "catalog_products_hot"
          )
        },
        queryVariants: (request) => page("catalog_variants", VARIANTS, "doc", request, undefined),
        queryInventory: (request) => page("catalog_products", INVENTORY, "inventory", request, undefined),
        variantDoc: (id) => db.get("SELECT doc FROM catalog_variants WHERE id = ?", id)?.["doc"] as string | undefined,
        collection: (id) => {
          const row = db.get("SELECT spec FROM catalog_collections WHERE id = ?", id)
          return row === undefined ? undefined : (JSON.parse(row["spec"] as string) as CollectionSpec)
        },
        collectionBySlug: (slug) => {
          const row = db.get("SELECT spec FROM catalog_collections WHERE slug = ?", slug)
          return row === undefined ? undefined : (JSON.parse(row["spec"] as string) as CollectionSpec)
        },
        storeCollection: (spec) => {
          if (db.get("SELECT 1 AS x FROM catalog_collections WHERE slug = ? AND id <> ?", spec.slug, spec.id) !== undefined) {
            throw failure(409, "SLUG_ALREADY_EXISTS", `A collection with slug ${spec.slug} exists`)
          }
          storeCollection(spec)
        },
        removeCollection: (id) => {
          const members = db.all("SELECT product_id AS id FROM catalog_memberships WHERE collection_id = ?", id).map((r) => r["id"] as string)
          db.run("DELETE FROM catalog_collections WHERE id = ?", id)
          return members
        },
        wireCollection: toWire,
        queryCollections: (request, admin) => {
          const result = page("catalog_collections", COLLECTIONS, "spec", request, admin ? undefined : sql("visible = 1"))
          const specs = result.docs.map((d) => JSON.parse(d) as CollectionSpec)
          const n = counts(specs.map((s) => s.id))
          return { collections: specs.map((s) => wireCollection(s, n.get(s.id) ?? 0)), total: result.total }
        }
      })
    })
  )
}


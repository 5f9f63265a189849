/**
 * A database of the catalog's storage as sitefx laid it out before its tables and migrations took one
 * naming convention (test/fixtures/catalog-v0: `store_products`, `catalog-entities/1`, ...) opens with
 * today's code: the tables are renamed in place and every product, collection, cart, subscription option,
 * v3 entity and event reads back as the file held it, over the platform's own routes.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { copyFileSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { Snapshots } from "../../src/server/index.ts"
import { ALL_PRODUCTS_ID } from "../../src/server/catalog/products/model.ts"
import { loggedSince } from "../support/eventLog.ts"
import { onPlatform, tempDir } from "../support/platform.ts"
import { raw } from "../support/store.ts"

const FIXTURE = new URL("../fixtures/catalog-v0/catalog-v0.sqlite", import.meta.url).pathname
const MEDIA_HOST = "https://static.wixstatic.com/media/"

type Rows = ReadonlyArray<Record<string, any>>

/** What the fixture holds, read with plain node:sqlite from its old tables. */
const readFixture = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    const all = (sql: string): Rows => db.prepare(sql).all()
    return {
      products: all("SELECT id, doc FROM store_products ORDER BY seq"),
      variants: all("SELECT id FROM store_variants ORDER BY id").map((r) => r.id as string),
      collections: all("SELECT id, spec FROM store_collections ORDER BY seq"),
      memberships: all("SELECT collection_id, product_id FROM store_memberships ORDER BY collection_id, product_id"),
      carts: all("SELECT id, doc FROM catalog_abandoned_carts ORDER BY seq"),
      options: all("SELECT id, doc FROM catalog_subscription_options ORDER BY seq"),
      assignments: all("SELECT product_id, option_id, hidden FROM catalog_subscription_assignments"),
      oneTime: all("SELECT product_id, one_time_allowed FROM catalog_subscription_products"),
      brands: all("SELECT id, doc FROM catalog_brands ORDER BY seq"),
      ribbons: all("SELECT id, doc FROM catalog_ribbons ORDER BY seq"),
      batches: all("SELECT body FROM site_event_batches ORDER BY first_id"),
      productSequence: Number(all("SELECT seq FROM sqlite_sequence WHERE name = 'store_products'")[0]!.seq),
      migrations: all("SELECT name FROM _migrations ORDER BY rowid").map((r) => r.name as string)
    }
  } finally {
    db.close()
  }
}

describe("the catalog's storage of an earlier layout", () => {
  it.live("opens with today's code, every row and event read back as the file held it", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-catalog-migration-")
      const file = join(dir, "platform.sqlite")
      copyFileSync(FIXTURE, file)
      const before = readFixture(file)
      // the fixture is what this test says it is: old names, and something of every kind
      assert.includeMembers(before.migrations, ["catalog/products/1", "catalog-entities/1", "catalog-carts/1", "catalog-subscriptions/1"])
      for (const part of [before.products, before.collections, before.memberships, before.carts, before.options, before.assignments, before.brands]) {
        assert.isAbove(part.length, 0)
      }
      const expectedEvents = before.batches.flatMap((b) => JSON.parse(b.body as string) as ReadonlyArray<Record<string, any>>)
      assert.includeMembers(expectedEvents.map((e) => e.type), [
        "com.wix.ecommerce.catalog.api.v1.ProductCreated",
        "com.wix.ecommerce.catalog.api.v1.ProductChanged",
        "com.wix.ecommerce.catalog.api.v1.ProductDeleted",
        "com.wix.ecommerce.catalog.api.v1.CollectionCreated",
        "com.wix.ecommerce.cart.abandonment.api.v1.CartAbandonedEvent",
        "com.wix.ecommerce.cart.abandonment.api.v1.CartRecoveredEvent"
      ])

      yield* onPlatform({ db: file, seed: "none" }, Effect.gen(function*() {
        // products: every one, each document as stored (media URLs point at this platform)
        const products = yield* raw("POST", "/stores-reader/v1/products/query-platformized", { query: { paging: { limit: 100 } }, includeVariants: true })
        assert.strictEqual(products.status, 200)
        assert.deepStrictEqual(products.body.products.map((p: any) => p.id), before.products.map((p) => p.id))
        assert.strictEqual(products.body.totalResults, before.products.length)
        for (const row of before.products) {
          const got = yield* raw("GET", `/stores-reader/v1/products/${row.id}`)
          assert.strictEqual(got.status, 200)
          assert.deepStrictEqual(unhosted(got.body.product), JSON.parse(row.doc as string))
        }
        const variants = yield* raw("POST", "/stores-reader/v1/variants/query", { query: { paging: { limit: 100 } } })
        assert.deepStrictEqual(variants.body.variants.map((v: any) => v.id).sort(), before.variants)

        // collections, with the products each holds
        const collections = yield* raw("POST", "/v2/collections/query", { query: { paging: { limit: 100 } } })
        assert.strictEqual(collections.status, 200)
        assert.deepStrictEqual(collections.body.collections.map((c: any) => c.id), before.collections.map((c) => c.id))
        for (const row of before.collections) {
          const spec = JSON.parse(row.spec as string)
          const got = collections.body.collections.find((c: any) => c.id === row.id)
          assert.strictEqual(got.name, spec.name)
          assert.strictEqual(got.slug, spec.slug)
          const members = before.memberships.filter((m) => m.collection_id === row.id).map((m) => m.product_id as string)
          if (row.id === ALL_PRODUCTS_ID) continue // counted from the products, not from memberships
          assert.strictEqual(got.numberOfProducts, members.length)
          if (members.length === 0) continue
          const inIt = yield* raw("POST", "/stores-reader/v1/products/query-platformized", {
            query: { filter: JSON.stringify({ "collections.id": { $hasSome: [row.id] } }), paging: { limit: 100 } }
          })
          assert.deepStrictEqual(inIt.body.products.map((p: any) => p.id).sort(), [...members].sort())
        }

        // abandoned carts
        const carts = yield* raw("POST", "/v1/abandonedCarts/query", { query: { paging: { limit: 100 } } })
        assert.strictEqual(carts.status, 200)
        assert.deepStrictEqual(carts.body.abandonedCarts, before.carts.map((c) => JSON.parse(c.doc as string)))
        assert.strictEqual(carts.body.totalResults, before.carts.length)

        // subscription options, their products and the one-time purchase settings
        for (const row of before.options) {
          const got = yield* raw("GET", `/_api/subscription-options-reader-server/v1/subscription-options/${row.id}`)
          assert.deepStrictEqual(got.body.subscriptionOption, JSON.parse(row.doc as string))
        }
        for (const a of before.assignments) {
          const got = yield* raw("GET", `/_api/subscription-options-reader-server/v1/subscription-options/byProduct/${a.product_id}?includeHiddenSubscriptionOptions=true`)
          assert.include(got.body.subscriptionOptions.map((o: any) => o.id), a.option_id)
        }
        for (const p of before.oneTime) {
          const got = yield* raw("GET", `/_api/subscription-options-reader-server/v1/subscription-options/product/${p.product_id}/oneTimePurchasesStatus`)
          assert.strictEqual(got.body.allowed, p.one_time_allowed === 1)
        }

        // every event, in order, as a receiver reads it
        const events = yield* loggedSince(0)
        assert.deepStrictEqual(events.map((e) => e.type), expectedEvents.map((e) => e.type))
        for (const [i, e] of expectedEvents.entries()) {
          if (e._tag === "Legacy") assert.deepStrictEqual(events[i]!.payload, e.body)
          else assert.strictEqual(events[i]!.payload.entityId, e.entityId)
        }

        // new writes go on from the old rows: numbering, slugs, events
        const created = yield* raw("POST", "/stores/v1/products", { product: { name: "After the move", productType: "physical", priceData: { price: 5 } } })
        assert.strictEqual(created.status, 200)
        const taken = yield* raw("POST", "/stores/v1/products", { product: { name: "Again", slug: before.products.map((p) => JSON.parse(p.doc as string).slug)[0], productType: "physical", priceData: { price: 5 } } })
        assert.strictEqual(taken.status, 409)
        const recovered = yield* raw("POST", `/_sitefx/store/abandoned-carts/fixture-cart/recover`, {})
        assert.strictEqual(recovered.status, 409)
        assert.strictEqual(recovered.body.details.applicationError.code, "ABANDONED_CART_ALREADY_RECOVERED")
        const after = yield* loggedSince(0)
        assert.strictEqual(after.length, events.length + 1)
        assert.strictEqual(after[after.length - 1]!.type, "com.wix.ecommerce.catalog.api.v1.ProductCreated")
      }))

      // the tables' new names hold the old rows; the migrations are recorded under their new names, in their places
      const db = new DatabaseSync(file, { readOnly: true })
      try {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name as string)
        assert.notInclude(tables.join(" "), "store_")
        assert.includeMembers(tables, ["catalog_products", "catalog_variants", "catalog_collections", "catalog_memberships", "catalog_counters"])
        const count = (t: string) => Number(db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get()!.n)
        assert.strictEqual(count("catalog_products"), before.products.length + 1)
        assert.strictEqual(count("catalog_variants"), before.variants.length + 1)
        assert.strictEqual(count("catalog_collections"), before.collections.length)
        assert.strictEqual(count("catalog_memberships"), before.memberships.length)
        assert.strictEqual(count("catalog_brands"), before.brands.length)
        assert.strictEqual(count("catalog_ribbons"), before.ribbons.length)
        assert.deepStrictEqual(
          db.prepare("SELECT id, doc FROM catalog_brands ORDER BY seq").all().map((r) => ({ ...r })),
          before.brands.map((r) => ({ ...r }))
        )
        // AUTOINCREMENT carried on under the new name: the new product's row comes after every old one
        assert.strictEqual(Number(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'catalog_products'").get()!.seq), before.productSequence + 1)
        const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all().map((r) => r.name as string)
        assert.includeMembers(indexes, ["catalog_products_hot", "catalog_variants_product", "catalog_memberships_product"])
        const migrations = db.prepare("SELECT name FROM _migrations ORDER BY rowid").all().map((r) => r.name as string)
        const renamed = before.migrations.map((m) => m.replace(/^catalog-(\w+)\/1$/, "catalog/$1/1"))
        assert.deepStrictEqual(migrations.slice(0, renamed.length), renamed)
        // the catalog's one new migration; the others are of modules the fixture's platform did not have
        assert.deepStrictEqual(migrations.slice(renamed.length).filter((m) => m.startsWith("catalog")), ["catalog/products/3"])
      } finally {
        db.close()
      }
    }).pipe(Effect.scoped))
})

describe("a snapshot saved by the platform of that layout", () => {
  it.live("restores into today's running platform, brought up to its migrations on a copy", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-catalog-snapshot-")
      const file = join(dir, "snapshot.sqlite")
      copyFileSync(FIXTURE, file)
      const before = readFixture(file)
      // the fixture as that platform would have saved it: its manifest inside, no instance secrets
      const db = new DatabaseSync(file)
      db.exec("DROP TABLE IF EXISTS _instance; CREATE TABLE _snapshot (id INTEGER PRIMARY KEY CHECK (id = 1), manifest TEXT NOT NULL)")
      const manifest = { format: "sitefx-snapshot", formatVersion: 1, sitefxVersion: "0.1.0", createdDate: "2026-11-01T00:00:00.000Z", migrations: before.migrations, counts: {} }
      db.prepare("INSERT INTO _snapshot (id, manifest) VALUES (1, ?)").run(JSON.stringify(manifest))
      db.close()
      const untouched = readFileSync(file)

      yield* onPlatform({ seed: "demo" }, Effect.gen(function*() {
        const restored = yield* Effect.flatMap(Snapshots, (s) => s.importFrom(dir))
        assert.strictEqual(restored.snapshot.sitefxVersion, "0.1.0")
        const products = yield* raw("POST", "/stores-reader/v1/products/query-platformized", { query: { paging: { limit: 100 } } })
        assert.strictEqual(products.status, 200)
        assert.deepStrictEqual(products.body.products.map((p: any) => p.id), before.products.map((p) => p.id))
        const carts = yield* raw("POST", "/v1/abandonedCarts/query", { query: { paging: { limit: 100 } } })
        assert.strictEqual(carts.status, 200, JSON.stringify(carts.body))
        assert.sameMembers(carts.body.abandonedCarts.map((c: any) => c.id), before.carts.map((c) => c.id))
      }))
      // the snapshot itself is left as it was: the upgrade ran on a copy
      assert.isTrue(readFileSync(file).equals(untouched))
    }).pipe(Effect.scoped))
})

/** A product as stored: media URLs on the platform's media host, not this platform's. */
const unhosted = (product: unknown): unknown => JSON.parse(JSON.stringify(product).replace(/http:\/\/127\.0\.0\.1:\d+\/media\//g, MEDIA_HOST))

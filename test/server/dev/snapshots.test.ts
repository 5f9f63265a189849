/**
 * Snapshots (`/_sitefx/snapshots`): the whole state saved by name and put back exactly while the
 * platform runs (members and their sessions, collections with their items and indexes, the store,
 * events, webhook subscriptions, settings), atomically; snapshots from another storage version are
 * refused whole; a platform starts from one and saves one when it stops.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { LocalPlatform, Snapshots } from "../../../src/server/index.ts"
import { onPlatform, tempDir } from "../../support/platform.ts"
import { bulkInsert, createCollection, data, ok, query, uniqueId } from "../data/support.ts"
import { apiKey, call, codeOf, dev, get, login, post, registerMember, snapshotTables, visitor } from "../support.ts"
import { STORES_APP_ID } from "../../../src/ecom/protocol.ts"
import { buyerForm, openCheckoutPage, submitCheckoutPage } from "../../support/checkoutPage.ts"

const SNAPSHOTS = "/_sitefx/snapshots"

/** Every row of a snapshot's site tables, without what differs between two saves of one state. */
const stateOf = (file: string) => {
  const tables = snapshotTables(file) as Record<string, Array<Record<string, unknown>>>
  delete tables["_snapshot"]
  // the query planner's statistics, not the site's state
  delete tables["sqlite_stat1"]
  tables["site_event_batches"] = tables["site_event_batches"]!.filter((row) => row["codec"] !== "reset")
  return tables
}

const fileOf = (name: string) => Effect.map(Snapshots, (s) => s.file(name))

/** A site with a bit of everything: a member with a session, a collection with items and a unique index, a product, a webhook, settings. */
const furnish = Effect.gen(function*() {
  const member = yield* registerMember()
  const session = yield* login(member.email, member.password)
  const collection = uniqueId("Notes")
  yield* createCollection({ id: collection, fields: [{ key: "title", type: "TEXT" }], permissions: { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" } })
  yield* bulkInsert(collection, Array.from({ length: 50 }, (_, i) => ({ _id: `n${i}`, title: `note ${i}` })))
  yield* ok("POST", "/wix-data/v2/indexes", { dataCollectionId: collection, index: { name: "by_title", fields: [{ path: "title", order: "ASC" }], unique: true } })
  yield* dev("PATCH", "/settings", { captcha: true, accessTokenTtlSeconds: 900 })
  return { member, session, collection }
})

/** A call that must answer 200, with the site's API key or the given token; its JSON body. */
const okAs = (method: string, path: string, body?: unknown, auth?: string) =>
  Effect.gen(function*() {
    const answer = yield* call(method, path, { ...(body === undefined ? {} : { body }), auth: auth ?? (yield* apiKey) })
    if (answer.status !== 200) return yield* Effect.die(new Error(`${method} ${path}: ${answer.status} ${answer.text}`))
    return answer.body as any
  })

/** A product whose one variant tracks `quantity` in stock. */
const trackedProduct = (quantity: number) =>
  Effect.gen(function*() {
    const { product } = yield* okAs("POST", "/stores/v1/products", { product: { name: uniqueId("Snap Lamp"), priceData: { price: 12 }, stock: { trackInventory: true, quantity } } })
    const variantId = product.variants[0].id as string
    yield* okAs("PATCH", `/stores/v2/inventoryItems/product/${product.id}`, { inventoryItem: { trackQuantity: true, variants: [{ variantId, quantity }] } })
    return { productId: product.id as string, variantId }
  })

const stockOf = (productId: string) => Effect.map(okAs("GET", `/stores-reader/v1/products/${productId}`), (r) => r.product.stock.quantity as number)

/** A visitor's cart holding `quantity` of the item, and its checkout; `pay` then buys it on the hosted page. */
const shopper = (item: { productId: string; variantId: string }, quantity: number) =>
  Effect.gen(function*() {
    const token = (yield* visitor).access_token as string
    yield* okAs("POST", "/ecom/v1/carts/current/add-to-cart", {
      lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: item.productId, options: { variantId: item.variantId } }, quantity }]
    }, token)
    const { checkoutId } = yield* okAs("POST", "/ecom/v1/carts/current/create-checkout", { channelType: "WEB" }, token)
    const pay = Effect.gen(function*() {
      const { redirectSession } = yield* okAs("POST", "/_api/redirects-api/v1/redirect-session", {
        ecomCheckout: { checkoutId },
        callbacks: { postFlowUrl: "http://localhost:3000/cart", thankYouPageUrl: "http://localhost:3000/thanks" }
      }, token)
      const paid = yield* Effect.promise(async () => submitCheckoutPage(await openCheckoutPage(redirectSession.fullUrl), buyerForm("snap@example.com")))
      assert.strictEqual(paid.status, 303)
      return new URL(paid.headers.get("location")!).searchParams.get("orderId")!
    })
    return { token, checkoutId: checkoutId as string, pay }
  })

describe("snapshots", () => {
  it.effect("a restore puts back every row of the site as it was saved, while the platform runs", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-snap-")
      yield* onPlatform(
        { db: join(dir, "site.db") },
        Effect.gen(function*() {
          const { collection, member, session } = yield* furnish
          const saved = (yield* dev("POST", "/snapshots", { name: "furnished" })).snapshot
          assert.strictEqual(saved.format, "sitefx-snapshot")
          assert.strictEqual(saved.formatVersion, 1)
          assert.isAtLeast(saved.counts.items, 50)
          assert.isAtLeast(saved.counts.members, 2)
          const before = stateOf(yield* fileOf("furnished"))

          // everything changes: items, the index, a new collection, the member, settings
          yield* ok("POST", "/wix-data/v2/items/remove", { dataCollectionId: collection, dataItemId: "n3" })
          yield* bulkInsert(collection, [{ _id: "later", title: "later" }])
          yield* ok("DELETE", `/wix-data/v2/indexes?dataCollectionId=${collection}&indexName=by_title`)
          yield* createCollection({ id: uniqueId("Later"), fields: [] })
          yield* dev("POST", `/members/${member.id}/block`)
          yield* dev("PATCH", "/settings", { captcha: false, accessTokenTtlSeconds: 3600 })
          const afterToken = (yield* login((yield* registerMember()).email, "secret-pass-1")).access_token

          const restored = yield* dev("POST", "/snapshots/furnished/restore")
          assert.strictEqual(restored.snapshot.name, "furnished")
          assert.isAtLeast(restored.tookMs, 0)
          yield* dev("POST", "/snapshots", { name: "again" })
          const after = stateOf(yield* fileOf("again"))
          assert.deepStrictEqual(Object.keys(after), Object.keys(before))
          for (const table of Object.keys(before)) assert.deepStrictEqual(after[table], before[table], table)

          // what the engines keep in memory follows: the index holds again, the settings read back
          const clash = yield* data("POST", "/items", { dataCollectionId: collection, dataItem: { data: { title: "note 7" } } })
          assert.strictEqual(clash.status, 409)
          assert.strictEqual((yield* dev("GET", "/settings")).accessTokenTtlSeconds, 900)
          const items = (yield* query(collection, { paging: { limit: 100 } })).dataItems as Array<any>
          assert.strictEqual(items.length, 50)
          assert.isTrue(items.some((i) => i.id === "n3"))
          // a session of the snapshot goes on (its refresh token); an access token from before the restore does not
          const platform = yield* LocalPlatform
          const refreshed = yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: session.refresh_token })
          assert.strictEqual(refreshed.status, 200)
          const me = yield* get("/members/v1/members/my", refreshed.body.access_token)
          assert.strictEqual(me.status, 200)
          assert.strictEqual((yield* get("/members/v1/members/my", afterToken)).status, 401)
          assert.strictEqual((yield* get("/members/v1/members/my", session.access_token)).status, 401)
          // the site's admin key still works
          assert.strictEqual((yield* query(collection, { paging: { limit: 1 } })).dataItems.length, 1)
        })
      )
    }))

  it.effect("a restore puts the shop back: orders, their numbers and stock, open carts and checkouts", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-snap-")
      yield* onPlatform(
        { db: join(dir, "site.db") },
        Effect.gen(function*() {
          const lamp = yield* trackedProduct(10)
          const buyer = yield* shopper(lamp, 3)
          const orderId = yield* buyer.pay
          const waiting = yield* shopper(lamp, 2)
          const order = (yield* okAs("GET", `/ecom/v1/orders/${orderId}`)).order
          assert.strictEqual(yield* stockOf(lamp.productId), 7)
          const saved = (yield* dev("POST", "/snapshots", { name: "shop" })).snapshot
          assert.strictEqual(saved.counts.orders, (yield* okAs("POST", "/ecom/v1/orders/search", { search: { filter: { status: { $ne: "INITIALIZED" } }, cursorPaging: { limit: 100 } } })).orders.length)
          assert.isAtLeast(saved.counts.orders, 1)
          // every order counts, those a plain search leaves out (pending, rejected) too
          const before = stateOf(yield* fileOf("shop"))

          // the shop changes: the waiting buyer pays, the first order is canceled, a new cart and checkout open
          const later = yield* waiting.pay
          yield* okAs("POST", `/ecom/v1/orders/${orderId}/cancel`, {})
          const third = yield* shopper(lamp, 1)
          assert.strictEqual(yield* stockOf(lamp.productId), 5)

          yield* dev("POST", "/snapshots/shop/restore")
          yield* dev("POST", "/snapshots", { name: "shop-again" })
          const after = stateOf(yield* fileOf("shop-again"))
          for (const table of Object.keys(before).filter((t) => t.startsWith("ecom_") || t.startsWith("catalog_"))) {
            assert.deepStrictEqual(after[table], before[table], table)
          }
          for (const table of ["ecom_carts", "ecom_checkouts", "ecom_orders"]) assert.isAbove(before[table]!.length, 0, table)

          // over the wire: the order as it was, the later one gone, the stock back, the open checkout still open
          assert.deepStrictEqual((yield* okAs("GET", `/ecom/v1/orders/${orderId}`)).order, order)
          assert.strictEqual((yield* call("GET", `/ecom/v1/orders/${later}`, { auth: yield* apiKey })).status, 404)
          assert.strictEqual(yield* stockOf(lamp.productId), 7)
          const open = (yield* okAs("GET", `/ecom/v1/checkouts/${waiting.checkoutId}`)).checkout
          assert.isFalse(open.completed)
          assert.strictEqual(open.lineItems[0].quantity, 2)
          assert.strictEqual((yield* call("GET", `/ecom/v1/checkouts/${third.checkoutId}`, { auth: yield* apiKey })).status, 404)
          // the next order is numbered after the restored ones
          const next = yield* (yield* shopper(lamp, 1)).pay
          assert.strictEqual(Number((yield* okAs("GET", `/ecom/v1/orders/${next}`)).order.number), Number(order.number) + 1)
          assert.strictEqual(yield* stockOf(lamp.productId), 6)
        })
      )
    }))

  it.live("an index the snapshot caught building is built after the restore", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-snap-")
      yield* onPlatform(
        {},
        Effect.gen(function*() {
          const { collection } = yield* furnish
          const saved = join(dir, "building")
          yield* (yield* Snapshots).exportTo(saved)
          const file = new DatabaseSync(join(saved, "snapshot.sqlite"))
          const sqlName = String(file.prepare("SELECT sql_name FROM data_indexes WHERE collection_id = ?").get(collection)!.sql_name)
          file.exec(`UPDATE data_indexes SET status = 'BUILDING'; DROP INDEX "${sqlName}"`)
          file.close()
          yield* (yield* Snapshots).importFrom(saved)
          let status = ""
          for (let i = 0; i < 100 && status !== "ACTIVE"; i++) {
            yield* Effect.sleep("5 millis")
            status = (yield* ok("GET", `/wix-data/v2/indexes?dataCollectionId=${collection}`)).indexes[0].status
          }
          assert.strictEqual(status, "ACTIVE")
          const clash = yield* data("POST", "/items", { dataCollectionId: collection, dataItem: { data: { title: "note 7" } } })
          assert.strictEqual(clash.status, 409)
        })
      )
    }))

  it.effect("events go on after a restore with ids past every id handed out before it", () =>
    onPlatform(
      {},
      Effect.gen(function*() {
        const collection = uniqueId("Events")
        yield* createCollection({ id: collection, fields: [], permissions: { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" } })
        yield* dev("POST", "/snapshots", { name: "quiet" })
        yield* bulkInsert(collection, Array.from({ length: 20 }, (_, i) => ({ _id: `e${i}` })))
        const { SiteEvents } = yield* Effect.promise(() => import("../../../src/server/store/SiteEvents.ts"))
        const log = yield* SiteEvents
        const reached = log.lastId()
        yield* dev("POST", "/snapshots/quiet/restore")
        yield* bulkInsert(collection, [{ _id: "after" }])
        assert.isAbove(log.lastId(), reached)
      })
    ))

  it.effect("a snapshot from another storage version, or a restore that cannot complete, changes nothing", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-snap-")
      yield* onPlatform(
        {},
        Effect.gen(function*() {
          const collection = uniqueId("Kept")
          yield* createCollection({ id: collection, fields: [], permissions: { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" } })
          yield* dev("POST", "/snapshots", { name: "good" })
          yield* bulkInsert(collection, [{ _id: "now" }])
          const snapshots = yield* Snapshots

          // a newer sitefx's snapshot: one migration more
          const newer = join(dir, "newer")
          yield* snapshots.exportTo(newer)
          const edit = (sql: string, ...params: Array<string>) => {
            const db = new DatabaseSync(join(newer, "snapshot.sqlite"), { enableForeignKeyConstraints: false })
            db.prepare(sql).run(...params)
            db.close()
          }
          const manifest = JSON.parse(readFileSync(join(newer, "manifest.json"), "utf8"))
          edit("UPDATE _snapshot SET manifest = ?", JSON.stringify({ ...manifest, sitefxVersion: "9.0.0", migrations: [...manifest.migrations, "future/1"] }))
          const refused = yield* Effect.flip(snapshots.importFrom(newer))
          assert.strictEqual(refused.reason, "Incompatible")
          assert.include(refused.message, "future/1")
          assert.include(refused.message, "9.0.0")

          // a later format
          edit("UPDATE _snapshot SET manifest = ?", JSON.stringify({ ...manifest, formatVersion: 2 }))
          assert.include((yield* Effect.flip(snapshots.importFrom(newer))).message, "format version 2")

          // rows that break the platform's constraints: the transaction rolls back whole
          edit("UPDATE _snapshot SET manifest = ?", JSON.stringify(manifest))
          edit("INSERT INTO data_indexes (collection_id, name, doc, status, sql_name) VALUES ('nowhere', 'x', '{}', 'ACTIVE', 'x')")
          const failed = yield* Effect.flip(snapshots.importFrom(newer))
          assert.strictEqual(failed.reason, "RestoreFailed")
          assert.include(failed.message, "nothing was changed")

          // not a snapshot at all
          copyFileSync(new URL(import.meta.url), join(dir, "junk.sqlite"))
          assert.strictEqual((yield* Effect.flip(snapshots.importFrom(join(dir, "junk.sqlite")))).reason, "Unreadable")

          // the same refusals over HTTP are 4xx in the platform's shape
          const copy = join(dir, "copied")
          yield* snapshots.exportTo(copy)
          const items = (yield* query(collection, { paging: { limit: 10 } })).dataItems as Array<any>
          assert.deepStrictEqual(items.map((i) => i.id), ["now"])
        })
      )
    }))

  it.effect("names, listing, overwriting, deleting and downloading; no instance secret in the file", () =>
    onPlatform(
      {},
      Effect.gen(function*() {
        const bad = yield* post(SNAPSHOTS, { name: "../escape" })
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(bad.body.details.validationError.fieldViolations[0].field, "name")
        assert.strictEqual((yield* post(SNAPSHOTS, { name: 42 })).status, 400)
        assert.strictEqual((yield* get(`${SNAPSHOTS}/missing`)).status, 404)
        assert.strictEqual(codeOf(yield* post(`${SNAPSHOTS}/missing/restore`, {})), "SNAPSHOT_NOT_FOUND")

        yield* dev("POST", "/snapshots", { name: "one" })
        const again = yield* post(SNAPSHOTS, { name: "one" })
        assert.strictEqual(again.status, 409)
        assert.strictEqual(codeOf(again), "SNAPSHOT_EXISTS")
        yield* dev("POST", "/snapshots", { name: "one", overwrite: true })
        yield* dev("POST", "/snapshots", { name: "two.b_c-d" })
        assert.deepStrictEqual((yield* dev("GET", "/snapshots")).snapshots.map((s: any) => s.name), ["one", "two.b_c-d"])
        assert.strictEqual((yield* dev("GET", "/snapshots/one")).snapshot.name, "one")

        const download = yield* get(`${SNAPSHOTS}/one/file`)
        assert.strictEqual(download.status, 200)
        assert.strictEqual(download.headers.get("content-type"), "application/vnd.sqlite3")
        assert.include(download.headers.get("content-disposition") ?? "", "one.sqlite")
        const { Database } = yield* Effect.promise(() => import("../../../src/server/platform/Database.ts"))
        const secret = Buffer.from((yield* Database).instance().tokenSecret)
        const { url } = yield* LocalPlatform
        const file = Buffer.from(yield* Effect.promise(() => fetch(`${url}${SNAPSHOTS}/one/file`).then((r) => r.arrayBuffer())))
        assert.isTrue(file.subarray(0, 16).toString("latin1").startsWith("SQLite format 3"))
        assert.strictEqual(file.indexOf(secret), -1)

        // other origins' pages get nothing, neither the list nor the file
        const foreign = { origin: "https://evil.example" }
        assert.strictEqual((yield* get(`${SNAPSHOTS}/one/file`, undefined, foreign)).status, 403)
        assert.strictEqual((yield* get(SNAPSHOTS, undefined, foreign)).status, 403)
        assert.strictEqual((yield* post(`${SNAPSHOTS}/one/restore`, {}, undefined, foreign)).status, 403)

        yield* dev("DELETE", "/snapshots/one")
        assert.strictEqual((yield* get(`${SNAPSHOTS}/one`)).status, 404)
        assert.deepStrictEqual((yield* dev("GET", "/snapshots")).snapshots.map((s: any) => s.name), ["two.b_c-d"])
      })
    ))

  it.effect("a platform saves its state when it stops and starts from it again", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-snap-")
      const exported = join(dir, "state")
      const collection = uniqueId("Saved")
      yield* onPlatform(
        { exportOnExit: exported },
        Effect.gen(function*() {
          yield* createCollection({ id: collection, fields: [], permissions: { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" } })
          yield* bulkInsert(collection, [{ _id: "kept", n: 1 }])
        })
      )
      assert.deepStrictEqual(readdirSync(exported).sort(), ["manifest.json", "snapshot.sqlite"])
      const manifest = JSON.parse(readFileSync(join(exported, "manifest.json"), "utf8"))
      assert.strictEqual(manifest.format, "sitefx-snapshot")
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(LocalPlatform.layer({ snapshot: exported, seed: "none" }))
        const platform = Layer.succeedContext(context)
        const items = yield* Effect.provide(query(collection, { paging: { limit: 10 } }), platform)
        assert.deepStrictEqual((items.dataItems as Array<any>).map((i) => [i.id, i.data.n]), [["kept", 1]])
        // the demo member came with the snapshot, not with a seed
        const { demoMember } = yield* Effect.provide(LocalPlatform, platform)
        assert.isDefined(demoMember)
      }))
      assert.isTrue(existsSync(join(exported, "snapshot.sqlite")))
    }))
})

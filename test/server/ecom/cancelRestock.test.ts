/**
 * Canceling an order gives its stock back when asked: a visitor buys on the hosted checkout page (the
 * stock taken), the owner cancels with `restockAllItems` and the quantities return to the catalog, with
 * the catalog's inventory event logged in the cancel's transaction; a cancel without it leaves the stock
 * as the sale left it; a refused cancel restocks nothing, and a refused restock cancels nothing.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { STORES_APP_ID } from "../../../src/ecom/protocol.ts"
import { OrderCodes, OrderEventTypes } from "../../../src/ecom/orderProtocol.ts"
import { decodedSince } from "../../support/eventLog.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { SiteEvents } from "../../../src/server/store/SiteEvents.ts"
import { buyerForm, openCheckoutPage, submitCheckoutPage } from "../../support/checkoutPage.ts"
import { onPlatform } from "../../support/platform.ts"

const INVENTORY_CHANGED = "com.wix.ecommerce.inventory.api.v1.InventoryVariantsChanged"

const eventsAfter = decodedSince

describe("canceling an order with its items restocked", () => {
  it.live("a restocked cancel gives each line's quantity back with the catalog's inventory event; a plain one leaves the stock", () =>
    onPlatform({}, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const log = yield* SiteEvents
      const key = Redacted.value(platform.apiKey)
      const call = (method: string, path: string, auth: string, payload?: unknown) =>
        Effect.promise(async () => {
          const res = await fetch(`${platform.url}${path}`, {
            method,
            headers: { authorization: auth, "content-type": "application/json" },
            ...(payload === undefined ? {} : { body: JSON.stringify(payload) })
          })
          return { status: res.status, json: await res.json() as any }
        })
      const ok = (method: string, path: string, auth: string, payload?: unknown) =>
        Effect.map(call(method, path, auth, payload), (r) => {
          assert.strictEqual(r.status, 200, `${path}: ${JSON.stringify(r.json)}`)
          return r.json
        })
      const stockOf = (productId: string) => Effect.map(ok("GET", `/stores-reader/v1/products/${productId}`, key), (r) => r.product.stock.quantity as number)

      const { product } = yield* ok("POST", "/stores/v1/products", key, { product: { name: "Restock Lamp", priceData: { price: 9 }, stock: { trackInventory: true, quantity: 10 } } })
      const variantId = product.variants[0].id as string
      /** A visitor buys `quantity` lamps on the hosted page; the order's id. */
      const buy = (quantity: number) =>
        Effect.gen(function*() {
          const visitor = (yield* ok("POST", "/oauth2/token", "", { clientId: platform.clientId, grantType: "anonymous" })).access_token as string
          yield* ok("POST", "/ecom/v1/carts/current/add-to-cart", visitor, {
            lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product.id, options: { variantId } }, quantity }]
          })
          const { checkoutId } = yield* ok("POST", "/ecom/v1/carts/current/create-checkout", visitor, {})
          const { redirectSession } = yield* ok("POST", "/_api/redirects-api/v1/redirect-session", visitor, {
            ecomCheckout: { checkoutId },
            callbacks: { postFlowUrl: "http://localhost:3000/cart", thankYouPageUrl: "http://localhost:3000/thanks" }
          })
          const res = yield* Effect.promise(async () => submitCheckoutPage(await openCheckoutPage(redirectSession.fullUrl), buyerForm("ada@example.com")))
          assert.strictEqual(res.status, 303)
          return new URL(res.headers.get("location")!).searchParams.get("orderId")!
        })

      const restocked = yield* buy(3)
      const kept = yield* buy(2)
      assert.strictEqual(yield* stockOf(product.id), 5)

      // canceled with its items restocked: the 3 come back, in the cancel's transaction with its events
      const from = log.lastId()
      const canceled = yield* ok("POST", `/ecom/v1/orders/${restocked}/cancel`, key, { restockAllItems: true })
      assert.strictEqual(canceled.order.status, "CANCELED")
      assert.strictEqual(yield* stockOf(product.id), 8)
      const events = yield* eventsAfter(from)
      assert.deepStrictEqual(events.map((e) => e.type), [OrderEventTypes.updated, OrderEventTypes.canceled, INVENTORY_CHANGED])
      const inventory = events[2]!
      assert.isTrue(inventory._tag === "Legacy")
      assert.deepStrictEqual(inventory._tag === "Legacy" ? inventory.data : undefined, {
        inventoryItemId: product.inventoryItemId ?? product.id,
        productId: product.id,
        variants: [{ id: variantId, oldValue: { quantity: 5, inStock: true }, newValue: { quantity: 8, inStock: true } }],
        updatedDate: (inventory._tag === "Legacy" ? (inventory.data as { updatedDate: string }).updatedDate : "")
      } as never)

      // canceled again (refused): nothing given back twice, nothing logged
      const before = log.lastId()
      const twice = yield* call("POST", `/ecom/v1/orders/${restocked}/cancel`, key, { restockAllItems: true })
      assert.strictEqual(twice.status, 400)
      assert.strictEqual(twice.json.details?.applicationError?.code, OrderCodes.alreadyCanceled)
      assert.strictEqual(yield* stockOf(product.id), 8)
      assert.strictEqual(log.lastId(), before)

      // a restock the catalog refuses (the count would pass the largest whole number it keeps) refuses the
      // cancel too: the order stays as it was, nothing logged
      yield* ok("PATCH", `/stores/v2/inventoryItems/product/${product.id}`, key, { inventoryItem: { variants: [{ variantId, quantity: Number.MAX_SAFE_INTEGER }] } })
      const full = log.lastId()
      const overflow = yield* call("POST", `/ecom/v1/orders/${kept}/cancel`, key, { restockAllItems: true })
      assert.strictEqual(overflow.status, 400)
      assert.strictEqual(log.lastId(), full)
      assert.strictEqual(yield* stockOf(product.id), Number.MAX_SAFE_INTEGER)
      assert.strictEqual((yield* ok("GET", `/ecom/v1/orders/${kept}`, key)).order.status, "APPROVED")
      yield* ok("PATCH", `/stores/v2/inventoryItems/product/${product.id}`, key, { inventoryItem: { variants: [{ variantId, quantity: 8 }] } })

      // canceled without restocking: the stock stays as the sale left it, no inventory event
      const plainFrom = log.lastId()
      yield* ok("POST", `/ecom/v1/orders/${kept}/cancel`, key, { restockAllItems: false })
      assert.strictEqual(yield* stockOf(product.id), 8)
      assert.deepStrictEqual((yield* eventsAfter(plainFrom)).map((e) => e.type), [OrderEventTypes.updated, OrderEventTypes.canceled])
    })))
})

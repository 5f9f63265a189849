/**
 * An abandoned cart's checkout link (CartAbandonedEvent's `checkoutUrl`, `/checkout?cartId=`) opens the
 * hosted checkout page with the cart's checkout: the one the shopper made from it while its lines are
 * unchanged, or one made then, the cart owner's, with the buyer's email the cart carries; however often
 * the link is opened, one checkout. Paying on it places the order and recovers the abandoned cart, with
 * CartRecoveredEvent. A link whose cart was ordered, is gone, holds nothing or is out of stock, or no cart id at all,
 * answers a page that says so (4xx), never a 5xx.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { CartEventTypes } from "../../../src/catalog/protocol.ts"
import { Cart, Checkout, STORES_APP_ID } from "../../../src/ecom/index.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { AbandonedCartStore } from "../../../src/server/catalog/carts/AbandonedCartStore.ts"
import { ABANDONED_AFTER_SECONDS } from "../../../src/server/ecom/carts/CartStore.ts"
import { CheckoutStore } from "../../../src/server/ecom/checkout/CheckoutStore.ts"
import { OrderStore } from "../../../src/server/ecom/orders/index.ts"
import { Database } from "../../../src/server/platform/Database.ts"
import { buyerForm, openCheckoutPage, submitCheckoutPage } from "../../support/checkoutPage.ts"
import { logMark, loggedSince } from "../../support/eventLog.ts"
import { dev, onPlatform, withSite } from "../../support/platform.ts"
import { asMember, newProduct, raw } from "../../support/store.ts"

const line = (catalogItemId: string, quantity = 1) => ({ catalogReference: { appId: STORES_APP_ID, catalogItemId }, quantity })

/** Moves the platform's clock past the delay, which abandons the due carts before it answers. */
const pastTheHour = dev("/clock", { body: { skewSeconds: ABANDONED_AFTER_SECONDS + 60 } })

/** The checkout link of the cart's CartAbandonedEvent logged after `mark`. */
const linkOf = (mark: number, cartId: string) =>
  Effect.map(loggedSince(mark), (events) => {
    const event = events.find((e) => e.type === CartEventTypes.abandoned && e.payload.cartId === cartId)
    assert.isDefined(event, `CartAbandonedEvent for ${cartId}`)
    return String(event!.payload.checkoutUrl)
  })

/** The checkouts made from the cart. */
const checkoutsOf = (cartId: string) =>
  Effect.gen(function*() {
    const db = yield* Database
    return db.all("SELECT id FROM ecom_checkouts WHERE cart_id = ?", cartId).map((r) => String(r.id))
  })

/** A page's status and text, redirects not followed. */
const answer = (url: string, method = "GET") =>
  Effect.promise(async () => {
    const res = await fetch(url, { method, redirect: "manual" })
    return { status: res.status, text: await res.text() }
  })

const open = (url: string) => Effect.promise(() => openCheckoutPage(url))

describe("an abandoned cart's checkout link", () => {
  it.live("opens the cart's checkout, once however often it is opened; paying places the order and recovers the cart", () =>
    onPlatform({}, Effect.gen(function*() {
      const stored = yield* AbandonedCartStore
      const orders = yield* OrderStore
      const hat = yield* newProduct()
      // a visitor fills a cart, starts a checkout, gives their email, and leaves
      const { cartId, checkoutId } = yield* withSite(Effect.gen(function*() {
        const cart = yield* Cart.add([line(hat, 2)])
        const checkoutId = yield* Checkout.createFromCurrentCart()
        yield* Checkout.update(checkoutId, { buyerInfo: { email: "ada@example.com" } })
        return { cartId: cart.id!, checkoutId }
      }))
      const mark = yield* logMark
      yield* pastTheHour
      const link = yield* linkOf(mark, cartId)

      const page = yield* open(link)
      // the cart's lines, and the checkout the visitor made from it, their email filled in
      assert.include(page.html, "2 ×")
      assert.include(page.html, "$24.00")
      assert.include(page.html, `value="ada@example.com"`)
      assert.strictEqual(new URL(page.action).searchParams.get("checkoutId"), checkoutId)
      const again = yield* open(link)
      assert.strictEqual(again.action, page.action)
      assert.deepStrictEqual(yield* checkoutsOf(cartId), [checkoutId])

      const paid = yield* logMark
      const res = yield* Effect.promise(() => submitCheckoutPage(page, buyerForm("ada@example.com")))
      const thanks = yield* Effect.promise(() => res.text())
      assert.strictEqual(res.status, 200, thanks)
      assert.include(thanks, "Thank you for your order")
      const orderId = (yield* CheckoutStore).find(checkoutId)?.orderId
      assert.isDefined(orderId)
      const order = orders.get(orderId!)!
      assert.include(thanks, String(order.number))
      assert.strictEqual(order.buyerInfo?.email, "ada@example.com")
      assert.strictEqual(order.lineItems?.[0]?.quantity, 2)

      // the abandoned cart is recovered, with its event
      assert.strictEqual(stored.get(cartId)?.cart.status, "RECOVERED")
      const recovered = (yield* loggedSince(paid)).filter((e) => e.type === CartEventTypes.recovered)
      assert.deepStrictEqual(recovered.map((e) => e.payload.cartId), [cartId])

      // the link of an ordered cart says so, and opens nothing more
      const ordered = yield* answer(link)
      assert.strictEqual(ordered.status, 400)
      assert.include(ordered.text, "Order placed")
      assert.include(ordered.text, String(order.number))
      assert.deepStrictEqual(yield* checkoutsOf(cartId), [checkoutId])
    })))

  it.live("a member's cart with no checkout gets one, the member's, with their email; opened twice, one checkout", () =>
    onPlatform({}, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const checkouts = yield* CheckoutStore
      const hat = yield* newProduct()
      const cart = yield* asMember(Cart.add([line(hat)]))
      const memberId = cart.buyerInfo?.memberId
      assert.isDefined(memberId)
      const mark = yield* logMark
      yield* pastTheHour
      const link = yield* linkOf(mark, cart.id!)
      assert.deepStrictEqual(yield* checkoutsOf(cart.id!), [])

      const page = yield* open(link)
      assert.include(page.html, "$12.00")
      const made = yield* checkoutsOf(cart.id!)
      assert.strictEqual(made.length, 1)
      const checkout = checkouts.find(made[0]!)!
      assert.strictEqual(checkout.owner.kind, "member")
      assert.strictEqual(checkout.owner.id, memberId)
      assert.strictEqual(checkout.details.email, platform.demoMember!.email)
      assert.isFalse(checkout.completed)
      assert.include(page.html, `value="${platform.demoMember!.email}"`)
      assert.strictEqual(new URL(page.action).searchParams.get("checkoutId"), checkout.id)

      yield* open(link)
      assert.deepStrictEqual(yield* checkoutsOf(cart.id!), made)
      // the member's own session sees the checkout as theirs
      const seen = yield* asMember(Checkout.get(checkout.id))
      assert.strictEqual(seen.buyerInfo?.memberId, memberId)
      assert.strictEqual(seen.cartId, cart.id)
    })))

  it.live("a link whose cart is gone, empty or no cart id at all answers a page that says so", () =>
    onPlatform({}, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const hat = yield* newProduct()
      const emptied = yield* withSite(Effect.flatMap(Cart.add([line(hat)]), (c) => Cart.removeLineItems([c.lineItems![0]!.id!])))
      const deleted = yield* withSite(Effect.flatMap(Cart.add([line(hat)]), (c) => Effect.as(Cart.deleteCurrent(), c)))
      const at = (search: string) => `${platform.url}/checkout?${search}`

      const empty = yield* answer(at(`cartId=${emptied.id!}`))
      assert.strictEqual(empty.status, 400)
      assert.include(empty.text, "Cart is empty")
      for (const gone of [deleted.id!, "0b7e6f0c-3c4d-4a1e-9f00-5a0c1d2e3f40"]) {
        const res = yield* answer(at(`cartId=${gone}`))
        assert.strictEqual(res.status, 404)
        assert.include(res.text, "Cart not found")
      }
      for (const search of ["cartId=", "cartId=not-a-cart", `cartId=${emptied.id!}x`, "cartId=../checkout"]) {
        const res = yield* answer(at(search))
        assert.strictEqual(res.status, 400, search)
        assert.include(res.text, "Checkout link not valid", search)
      }
      // a query that is not UTF-8 is refused before any page, as for every other link
      assert.strictEqual((yield* answer(at("cartId=%ff"))).status, 400)
      // none of them made a checkout
      assert.deepStrictEqual(yield* checkoutsOf(emptied.id!), [])
      assert.deepStrictEqual(yield* checkoutsOf(deleted.id!), [])
    })))

  it.live("a cart whose stock ran out answers a page naming what is short, and makes no checkout", () =>
    onPlatform({}, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const { body: { product } } = yield* raw("POST", "/stores/v1/products", { product: { name: "Last Lamp", priceData: { price: 9 }, stock: { trackInventory: true, quantity: 1 } } })
      const variantId = product.variants[0].id
      const track = (quantity: number) =>
        raw("PATCH", `/stores/v2/inventoryItems/product/${product.id}`, { inventoryItem: { trackQuantity: true, variants: [{ variantId, quantity }] } })
      assert.strictEqual((yield* track(1)).status, 200)
      const cart = yield* withSite(Cart.add([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product.id, options: { variantId } }, quantity: 1 }]))
      assert.strictEqual((yield* track(0)).status, 200)
      const res = yield* answer(`${platform.url}/checkout?cartId=${cart.id!}`)
      assert.strictEqual(res.status, 428, res.text)
      assert.include(res.text, "This cart cannot be checked out")
      assert.include(res.text, "Sold out")
      assert.deepStrictEqual(yield* checkoutsOf(cart.id!), [])
    })))
})

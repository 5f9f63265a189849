/**
 * The official `currentCart`, `checkout` and `redirects` modules drive a purchase on the local platform
 * to a placed order: a visitor's cart, its checkout, the buyer's email, a redirect session to the hosted
 * checkout page, the page's form posted by hand (its token included), and the thank-you redirect with
 * the order's id; the stock is taken and the cart is gone. Then 50 buyers pay at once for a variant
 * holding 10: exactly 10 orders, none left, 40 refused with INSUFFICIENT_INVENTORY.
 */
import { assert, describe, it } from "@effect/vitest"
import { checkout, currentCart } from "@wix/ecom"
import { redirects } from "@wix/redirects"
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk"
import { inventory, products } from "@wix/stores"
import * as Redacted from "effect/Redacted"
import { STORES_APP_ID } from "../../src/ecom/protocol.ts"
import { buyerForm, openCheckoutPage, submitCheckoutPage } from "../support/checkoutPage.ts"
import { officialClientsOnLocalPlatform } from "../support/official.ts"
import { rawResponse, rejection, unique } from "../support/store.ts"

const onLocal = officialClientsOnLocalPlatform()
const THANKS = "http://localhost:3000/thanks"
const BACK = "http://localhost:3000/cart"

const admin = () =>
  createClient({
    modules: { products, inventory },
    auth: ApiKeyStrategy({ apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId })
  })
const buyer = () => createClient({ modules: { currentCart, checkout, redirects }, auth: OAuthStrategy({ clientId: onLocal.platform.clientId }) })

/** A product at `price` whose one variant tracks `quantity` in stock. */
const tracked = async (price: number, quantity: number) => {
  const client = admin()
  const { product } = await client.products.createProduct({ name: unique("Checkout Lamp"), priceData: { price }, stock: { trackInventory: true, quantity } })
  const variants = (await client.products.getProduct(product!._id!)).product!.variants!
  await client.inventory.updateInventoryVariants(product!._id!, { trackQuantity: true, variants: variants.map((v) => ({ variantId: v._id!, quantity })) })
  return { id: product!._id!, variantId: variants[0]!._id!, name: product!.name! }
}

const stockOf = async (productId: string): Promise<number | undefined> =>
  (await admin().products.getProduct(productId)).product!.stock!.quantity ?? undefined

const order = async (id: string) => {
  const res = await rawResponse(onLocal.platform, "GET", `/ecom/v1/orders/${id}`, undefined, "admin", onLocal.fetch)
  assert.strictEqual(res.status, 200)
  return ((await res.json()) as { order: Record<string, any> }).order
}

/** A buyer with `quantity` of the variant in a checkout, their email on it, and the hosted page's URL. */
const readyToPay = async (item: { id: string; variantId: string }, quantity: number, email: string) => {
  const shopper = buyer()
  await shopper.currentCart.addToCurrentCart({
    lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: item.id, options: { variantId: item.variantId } }, quantity }]
  })
  const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB })
  await shopper.checkout.updateCheckout(checkoutId!, { buyerInfo: { email } })
  const { redirectSession } = await shopper.redirects.createRedirectSession({
    ecomCheckout: { checkoutId: checkoutId! },
    callbacks: { postFlowUrl: BACK, thankYouPageUrl: THANKS }
  })
  return { shopper, checkoutId: checkoutId!, url: redirectSession!.fullUrl! }
}

describe("a purchase through the official modules and the hosted checkout page", () => {
  it("cart, checkout, buyer's email, redirect session, the page's form: an order, the stock taken, the cart gone", async () => {
    const lamp = await tracked(40, 3)
    const { shopper, checkoutId, url } = await readyToPay(lamp, 2, "ada@example.com")

    const before = await shopper.checkout.getCheckout(checkoutId)
    assert.strictEqual(before.lineItems?.[0]?.quantity, 2)
    assert.strictEqual(before.buyerInfo?.email, "ada@example.com")
    assert.strictEqual(before.priceSummary?.subtotal?.amount, "80")
    assert.strictEqual(before.priceSummary?.shipping?.amount, "5")
    assert.strictEqual(before.priceSummary?.total?.amount, "85")
    assert.isFalse(before.completed)
    assert.strictEqual(new URL(url).pathname, "/checkout")

    const page = await openCheckoutPage(url, onLocal.fetch)
    assert.include(page.html, lamp.name)
    assert.include(page.html, "Pay (test)")
    assert.include(page.html, "flat rate $5.00")

    // a wrong form shows the page again with what is wrong, and places nothing
    const bad = await submitCheckoutPage(page, { ...buyerForm("not-an-email") }, onLocal.fetch)
    assert.strictEqual(bad.status, 400)
    assert.include(await bad.text(), "The email is not an email address")
    const forged = await submitCheckoutPage({ ...page, token: "forged" }, buyerForm("ada@example.com"), onLocal.fetch)
    assert.strictEqual(forged.status, 403)
    const elsewhere = await onLocal.fetch(page.action, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
      body: new URLSearchParams({ token: page.token, ...buyerForm("ada@example.com") }).toString()
    })
    assert.strictEqual(elsewhere.status, 403)
    assert.strictEqual(await stockOf(lamp.id), 3)

    const paid = await submitCheckoutPage(page, buyerForm("ada@example.com"), onLocal.fetch)
    assert.strictEqual(paid.status, 303)
    const thanks = new URL(paid.headers.get("location")!)
    assert.strictEqual(`${thanks.origin}${thanks.pathname}`, THANKS)
    const orderId = thanks.searchParams.get("orderId")!
    assert.strictEqual(thanks.searchParams.get("wixMemberLoggedIn"), "false")

    const placed = await order(orderId)
    assert.strictEqual(placed.checkoutId, checkoutId)
    assert.strictEqual(placed.paymentStatus, "PAID")
    assert.strictEqual(placed.lineItems[0].quantity, 2)
    assert.strictEqual(placed.priceSummary.total.amount, "85")
    assert.strictEqual(placed.buyerInfo.email, "ada@example.com")
    assert.strictEqual(placed.billingInfo.address.city, "London")
    assert.strictEqual(await stockOf(lamp.id), 1)
    assert.isTrue((await shopper.checkout.getCheckout(checkoutId)).completed)
    const gone = await rejection(shopper.currentCart.getCurrentCart())
    assert.strictEqual(gone.details?.applicationError?.code, "OWNED_CART_NOT_FOUND")

    // paying again (a reload, a second click) places no second order
    const again = await submitCheckoutPage(page, buyerForm("ada@example.com"), onLocal.fetch)
    assert.strictEqual(new URL(again.headers.get("location")!).searchParams.get("orderId"), orderId)
    assert.strictEqual(await stockOf(lamp.id), 1)
  })

  it("a checkout of more than is left is refused on the page, naming the rule, and changes nothing", async () => {
    const lamp = await tracked(10, 2)
    const first = await readyToPay(lamp, 2, "first@example.com")
    const second = await readyToPay(lamp, 1, "second@example.com")
    assert.strictEqual((await submitCheckoutPage(await openCheckoutPage(first.url, onLocal.fetch), buyerForm("first@example.com"), onLocal.fetch)).status, 303)
    const refused = await submitCheckoutPage(await openCheckoutPage(second.url, onLocal.fetch), buyerForm("second@example.com"), onLocal.fetch)
    assert.strictEqual(refused.status, 428)
    const text = await refused.text()
    assert.include(text, `data-code="INSUFFICIENT_INVENTORY"`)
    assert.include(text, `data-rule="ecom.checkout.inventory"`)
    assert.include(text, "asks for 1, 0 left")
    assert.isFalse((await second.shopper.checkout.getCheckout(second.checkoutId)).completed)
    assert.strictEqual(await stockOf(lamp.id), 0)
  })

  it("50 buyers pay at once for a variant holding 10: 10 orders, none left, 40 refused for the stock", async () => {
    const lamp = await tracked(25, 10)
    const buyers = await Promise.all(Array.from({ length: 50 }, (_, i) => readyToPay(lamp, 1, `buyer${i}@example.com`)))
    const pages = await Promise.all(buyers.map((b) => openCheckoutPage(b.url, onLocal.fetch)))
    const answers = await Promise.all(pages.map((p, i) => submitCheckoutPage(p, buyerForm(`buyer${i}@example.com`), onLocal.fetch)))
    const paid = answers.filter((a) => a.status === 303)
    const refused = answers.filter((a) => a.status !== 303)
    assert.strictEqual(paid.length, 10)
    assert.strictEqual(refused.length, 40)
    for (const r of refused) {
      assert.strictEqual(r.status, 428)
      assert.include(await r.text(), `data-code="INSUFFICIENT_INVENTORY"`)
    }
    const orderIds = new Set(paid.map((a) => new URL(a.headers.get("location")!).searchParams.get("orderId")!))
    assert.strictEqual(orderIds.size, 10)
    for (const id of orderIds) assert.strictEqual((await order(id)).lineItems[0].quantity, 1)
    assert.strictEqual(await stockOf(lamp.id), 0)
  })
})

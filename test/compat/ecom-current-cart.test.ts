/**
 * The official `currentCart` (Cart V1) and `currentCartV2` modules drive a visitor's cart on the local
 * platform unchanged: two products added (one by its variant), a quantity raised, a line removed, the
 * totals estimated; a sold-out product and a quantity past the stock are refused with
 * INSUFFICIENT_INVENTORY, and the cart is the same cart whichever generation asks.
 */
import { assert, describe, it } from "@effect/vitest"
import { currentCart, currentCartV2 } from "@wix/ecom"
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk"
import { inventory, products } from "@wix/stores"
import * as Redacted from "effect/Redacted"
import { STORES_APP_ID } from "../../src/ecom/protocol.ts"
import { officialClientsOnLocalPlatform } from "../support/official.ts"
import { rejection, unique } from "../support/store.ts"

const onLocal = officialClientsOnLocalPlatform()

const admin = () =>
  createClient({
    modules: { products, inventory },
    auth: ApiKeyStrategy({ apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId })
  })
const visitor = () => createClient({ modules: { currentCart, currentCartV2 }, auth: OAuthStrategy({ clientId: onLocal.platform.clientId }) })

/** A jacket in two sizes (M costs 150), 25% off, 3 of each in stock; a mug at 12 that is sold out; a cap at 20. */
const stock = async () => {
  const client = admin()
  const { product: jacket } = await client.products.createProduct({
    name: unique("Cart Jacket"),
    priceData: { price: 120 },
    discount: { type: products.DiscountType.PERCENT, value: 25 },
    productOptions: [{ name: "Size", choices: [{ value: "S", description: "S" }, { value: "M", description: "M" }] }],
    manageVariants: true,
    stock: { trackInventory: true, quantity: 3 }
  })
  await client.products.updateProductVariants(jacket!._id!, [{ choices: { Size: "M" }, price: 150 }])
  const variants = (await client.products.getProduct(jacket!._id!)).product!.variants!
  const medium = variants.find((v) => v.choices!["Size"] === "M")!._id!
  await client.inventory.updateInventoryVariants(jacket!._id!, { trackQuantity: true, variants: variants.map((v) => ({ variantId: v._id!, quantity: 3 })) })
  const { product: cap } = await client.products.createProduct({ name: unique("Cart Cap"), priceData: { price: 20 } })
  const { product: mug } = await client.products.createProduct({ name: unique("Cart Mug"), priceData: { price: 12 }, stock: { trackInventory: false, inStock: false } })
  return { jacket: jacket!._id!, medium, cap: cap!._id!, mug: mug!._id! }
}

const ref = (catalogItemId: string, options?: Record<string, unknown>) => ({
  appId: STORES_APP_ID,
  catalogItemId,
  ...(options === undefined ? {} : { options })
})

describe("the official current-cart modules on the local platform", () => {
  it("Cart V1: add two products (one by variant), raise a quantity, remove a line, estimate; sold out refused", async () => {
    const items = await stock()
    const shopper = visitor()
    const none = await rejection(shopper.currentCart.getCurrentCart())
    assert.strictEqual(none.details?.applicationError?.code, "OWNED_CART_NOT_FOUND")

    const { cart } = await shopper.currentCart.addToCurrentCart({
      lineItems: [
        { catalogReference: ref(items.jacket, { variantId: items.medium }), quantity: 1 },
        { catalogReference: ref(items.cap), quantity: 2 }
      ]
    })
    assert.strictEqual(cart!.lineItems!.length, 2)
    const [jacketLine, capLine] = cart!.lineItems!
    assert.strictEqual(jacketLine!.price!.amount, "112.5")
    assert.strictEqual(jacketLine!.fullPrice!.amount, "150")
    assert.deepStrictEqual(jacketLine!.descriptionLines!.map((d) => d.plainText?.original), ["M"])
    assert.strictEqual(capLine!.lineItemPrice!.amount, "40")
    assert.isString(cart!.buyerInfo!.visitorId)
    assert.strictEqual(cart!.currency, "USD")

    const raised = await shopper.currentCart.updateCurrentCartLineItemQuantity([{ _id: jacketLine!._id!, quantity: 3 }])
    assert.strictEqual(raised.cart!.lineItems![0]!.quantity, 3)
    const tooMany = await rejection(shopper.currentCart.updateCurrentCartLineItemQuantity([{ _id: jacketLine!._id!, quantity: 4 }]))
    assert.strictEqual(tooMany.details?.applicationError?.code, "INSUFFICIENT_INVENTORY")
    assert.deepStrictEqual(tooMany.details?.applicationError?.data?.invalidItems?.[0]?.availableQuantity, 3)

    const soldOut = await rejection(shopper.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: ref(items.mug), quantity: 1 }] }))
    assert.strictEqual(soldOut.details?.applicationError?.code, "INSUFFICIENT_INVENTORY")
    assert.match(soldOut.message, /Sold out/)
    const unknown = await rejection(shopper.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: ref(items.jacket, { options: { Size: "XL" } }) }] }))
    assert.strictEqual(unknown.details?.applicationError?.code, "ITEM_NOT_FOUND_IN_CATALOG")

    const removed = await shopper.currentCart.removeLineItemsFromCurrentCart([capLine!._id!])
    assert.deepStrictEqual(removed.cart!.lineItems!.map((l) => l._id), [jacketLine!._id])

    const byChoice = await shopper.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: ref(items.jacket, { options: { Size: "S" } }), quantity: 1 }] })
    assert.strictEqual(byChoice.cart!.lineItems!.length, 2)

    const totals = await shopper.currentCart.estimateCurrentCartTotals({})
    // M: 3 × 150 full, 3 × 112.5 after 25% off; S: 120 full, 90 after
    assert.strictEqual(totals.priceSummary!.subtotal!.amount, "570")
    assert.strictEqual(totals.priceSummary!.discount!.amount, "142.5")
    assert.strictEqual(totals.priceSummary!.shipping!.amount, "0")
    assert.strictEqual(totals.priceSummary!.tax!.amount, "0")
    assert.strictEqual(totals.priceSummary!.total!.amount, "427.5")
    assert.strictEqual(totals.priceSummary!.total!.formattedAmount, "$427.50")

    const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB })
    assert.isString(checkoutId)
    assert.strictEqual((await shopper.currentCart.getCurrentCart()).checkoutId, checkoutId)

    await shopper.currentCart.deleteCurrentCart()
    const gone = await rejection(shopper.currentCart.getCurrentCart())
    assert.strictEqual(gone.details?.applicationError?.code, "OWNED_CART_NOT_FOUND")
  })

  it("Cart V2: create, add, update, remove, estimate; the same cart Cart V1 shows", async () => {
    const items = await stock()
    const shopper = visitor()
    const { cart } = await shopper.currentCartV2.createCurrentCart({ catalogItems: [{ catalogReference: ref(items.cap), quantity: 1 }] })
    assert.strictEqual(cart!.lineItems!.length, 1)
    assert.strictEqual(cart!.lineItems![0]!.pricing!.unitPrice!.amount, "20")
    const again = await rejection(shopper.currentCartV2.createCurrentCart({ catalogItems: [{ catalogReference: ref(items.cap) }] }))
    assert.strictEqual(again.details?.applicationError?.code, "CART_ALREADY_EXISTS")

    const added = await shopper.currentCartV2.addLineItemsToCurrentCart({
      catalogItems: [{ catalogReference: ref(items.jacket, { variantId: items.medium }), quantity: 2 }]
    })
    const jacketLine = added.cart!.lineItems!.find((l) => l.source!.catalogReference!.catalogItemId === items.jacket)!
    assert.strictEqual(jacketLine.pricing!.totalPrice!.amount, "225")
    assert.strictEqual(jacketLine.status, "IN_STOCK")

    const updated = await shopper.currentCartV2.updateLineItemsInCurrentCart({ lineItems: [{ lineItemId: jacketLine._id!, quantity: { newQuantity: 1 } }] })
    assert.strictEqual(updated.cart!.lineItems!.find((l) => l._id === jacketLine._id)!.quantityInfo!.requestedQuantity, 1)
    const short = await rejection(shopper.currentCartV2.updateLineItemsInCurrentCart({ lineItems: [{ lineItemId: jacketLine._id!, quantity: { newQuantity: 9 } }] }))
    assert.strictEqual(short.details?.applicationError?.code, "INSUFFICIENT_INVENTORY")
    const soldOut = await rejection(shopper.currentCartV2.addLineItemsToCurrentCart({ catalogItems: [{ catalogReference: ref(items.mug), quantity: 1 }] }))
    assert.strictEqual(soldOut.details?.applicationError?.code, "INSUFFICIENT_INVENTORY")

    const { summary } = await shopper.currentCartV2.estimateCurrentCart({})
    assert.strictEqual(summary!.priceSummary!.subtotal!.amount, "170")
    assert.strictEqual(summary!.priceSummary!.discount!.amount, "37.5")
    assert.strictEqual(summary!.priceSummary!.total!.amount, "132.5")

    // one cart, two views
    const v1 = await shopper.currentCart.getCurrentCart()
    assert.strictEqual(v1._id, cart!._id)
    assert.strictEqual(v1.lineItems!.length, 2)

    const capLine = added.cart!.lineItems!.find((l) => l.source!.catalogReference!.catalogItemId === items.cap)!
    const removed = await shopper.currentCartV2.removeLineItemsFromCurrentCart([capLine._id!])
    assert.deepStrictEqual(removed.cart!.lineItems!.map((l) => l._id), [jacketLine._id])
    await shopper.currentCartV2.deleteCurrentCart()
    const gone = await rejection(shopper.currentCartV2.getCurrentCart())
    assert.strictEqual(gone.details?.applicationError?.code, "OWNED_CART_NOT_FOUND")
  })

  it("a call without a session has no current cart", async () => {
    const res = await onLocal.fetch(`${onLocal.platform.url}/ecom/v1/carts/current`)
    assert.strictEqual(res.status, 401)
  })
})

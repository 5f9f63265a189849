/** The cart's arithmetic, without a platform: which variant a reference selects, its prices and stock, and the totals. */
import { assert, describe, it } from "@effect/vitest"
import type { Product } from "../../src/catalog/wire/products.ts"
import { STORES_APP_ID } from "../../src/ecom/protocol.ts"
import { cartTotals, priceItem, type PricedItem } from "../../src/server/ecom/carts/pricing.ts"

const product: Product = {
  id: "p1",
  name: "Jacket",
  productType: "physical",
  priceData: { currency: "USD", price: 100, discountedPrice: 80 },
  discount: { type: "PERCENT", value: 20 },
  productOptions: [
    { name: "Size", optionType: "drop_down", choices: [{ value: "S", description: "Small" }, { value: "L", description: "Large" }] },
    { name: "Color", optionType: "color", choices: [{ value: "#000", description: "Black" }] }
  ],
  variants: [
    { id: "v-s", choices: { Size: "Small", Color: "Black" }, variant: { priceData: { currency: "USD", price: 100, discountedPrice: 80 } }, stock: { trackQuantity: true, quantity: 2, inStock: true } },
    { id: "v-l", choices: { Size: "Large", Color: "Black" }, variant: { priceData: { currency: "USD", price: 130, discountedPrice: 104 } }, stock: { trackQuantity: true, quantity: 0, inStock: false } }
  ]
}

const ref = (options?: Record<string, unknown>) => ({ appId: STORES_APP_ID, catalogItemId: "p1", ...(options === undefined ? {} : { options }) })
const found = (item: ReturnType<typeof priceItem>): PricedItem => {
  assert.isTrue(item.found, item.found ? "" : item.reason)
  return item as PricedItem
}

describe("cart pricing", () => {
  it("a variant by id: its own price after the product's discount, and its stock", () => {
    const large = found(priceItem(product, ref({ variantId: "v-l" })))
    assert.deepStrictEqual([large.fullPrice, large.price, large.available], [130, 104, 0])
    assert.deepStrictEqual(large.options, [{ name: "Size", choice: "Large", color: undefined }, { name: "Color", choice: "Black", color: "#000" }])
  })

  it("a variant by its choices, named by description or value; a missing or unknown choice selects nothing", () => {
    assert.strictEqual(found(priceItem(product, ref({ options: { Size: "Small", Color: "Black" } }))).variantId, "v-s")
    assert.strictEqual(found(priceItem(product, ref({ options: { Size: "L", Color: "#000" } }))).variantId, "v-l")
    assert.isFalse(priceItem(product, ref({ options: { Size: "Small" } })).found)
    assert.isFalse(priceItem(product, ref({ options: { Size: "XL", Color: "Black" } })).found)
    assert.isFalse(priceItem(product, ref()).found)
    assert.isFalse(priceItem(product, ref({ variantId: "nope" })).found)
    assert.isFalse(priceItem(undefined, ref()).found)
  })

  it("a product without options: its own price; untracked stock is unlimited unless out of stock", () => {
    const plain: Product = { id: "p2", name: "Cap", priceData: { currency: "EUR", price: 20 }, stock: { trackInventory: false, inStock: true } }
    const cap = found(priceItem(plain, { appId: STORES_APP_ID, catalogItemId: "p2" }))
    assert.deepStrictEqual([cap.fullPrice, cap.price, cap.available, cap.currency], [20, 20, undefined, "EUR"])
    const soldOut = found(priceItem({ ...plain, stock: { trackInventory: false, inStock: false } }, { appId: STORES_APP_ID, catalogItemId: "p2" }))
    assert.strictEqual(soldOut.available, 0)
  })

  it("totals: subtotal at full prices, the discounts, no shipping, no tax, the total; missing items count nothing", () => {
    const small = priceItem(product, ref({ variantId: "v-s" }))
    const large = priceItem(product, ref({ variantId: "v-l" }))
    const totals = cartTotals([
      { id: "a", quantity: 3, item: small },
      { id: "b", quantity: 1, item: large },
      { id: "c", quantity: 5, item: priceItem(undefined, ref()) }
    ])
    assert.deepStrictEqual(totals, { subtotal: 430, discount: 86, shipping: 0, tax: 0, total: 344 })
    assert.deepStrictEqual(cartTotals([{ id: "a", quantity: 1, item: small }], 0.1), { subtotal: 100, discount: 20, shipping: 0, tax: 8, total: 88 })
  })
})

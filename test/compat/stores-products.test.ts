/**
 * The platform's official store client (`@wix/stores` → `products`, `collections`, `inventory`,
 * `catalogVersioning`, on `@wix/sdk` with an API key), unchanged, against the local platform's store.
 * Every test asserts what the official client returns; writes are read back through the same client.
 */
import { assert, describe, it } from "@effect/vitest"
import { ApiKeyStrategy, createClient } from "@wix/sdk"
import { catalogVersioning, collections, inventory, products } from "@wix/stores"
import * as Redacted from "effect/Redacted"
import { officialClientsOnLocalPlatform } from "../support/official.ts"

const onLocal = officialClientsOnLocalPlatform({ seed: "demo" })

const official = () =>
  createClient({
    modules: { products, collections, inventory, catalogVersioning },
    auth: ApiKeyStrategy({ apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId })
  })

const rejection = async (promise: Promise<unknown>): Promise<any> =>
  promise.then((value) => assert.fail(`expected a rejection, got ${JSON.stringify(value)}`), (e: unknown) => e)

let counter = 0
const unique = (name: string) => `${name} ${Date.now().toString(36)}${counter++}`

describe("official @wix/stores against the local platform", () => {
  it("catalogVersioning.getCatalogVersion", async () => {
    const { catalogVersion } = await official().catalogVersioning.getCatalogVersion()
    assert.strictEqual(catalogVersion, "V1_CATALOG")
  })

  it("queryProducts: filter, sort, limit, paging with next(), totals", async () => {
    const client = official()
    const first = await client.products.queryProducts().gt("priceData.price", 50).descending("priceData.price").limit(10).find()
    assert.strictEqual(first.items.length, 10)
    const prices = first.items.map((p) => p.priceData!.price!)
    assert.deepStrictEqual(prices, [...prices].sort((a, b) => b - a))
    assert.isTrue(prices.every((p) => p > 50))
    assert.isAbove(first.totalCount!, 10)
    assert.isTrue(first.hasNext())
    const second = await first.next()
    assert.strictEqual(second.items.length, Math.min(10, first.totalCount! - 10))
    assert.isBelow(second.items[0]!.priceData!.price!, prices[9]! + 0.001)
    assert.notInclude(second.items.map((p) => p._id), first.items[0]!._id)
    // every page until the end, and nothing twice
    const seen = new Set([...first.items, ...second.items].map((p) => p._id))
    let page = second
    while (page.hasNext()) {
      page = await page.next()
      for (const p of page.items) {
        assert.isFalse(seen.has(p._id))
        seen.add(p._id)
      }
    }
    assert.strictEqual(seen.size, first.totalCount)
  })

  it("queryProducts: startsWith, in, hasSome on collections, _id", async () => {
    const client = official()
    const tees = (await client.collections.getCollectionBySlug("tees")).collection!
    const inTees = await client.products.queryProducts().hasSome("collectionIds", [tees._id!]).limit(100).find()
    assert.strictEqual(inTees.items.length, tees.numberOfProducts)
    const named = await client.products.queryProducts().startsWith("name", "Kids").find()
    assert.isTrue(named.items.length > 0 && named.items.every((p) => p.name!.startsWith("Kids")))
    const one = named.items[0]!
    const byId = await client.products.queryProducts().eq("_id", one._id!).find()
    assert.deepStrictEqual(byId.items.map((p) => p._id), [one._id])
    const byIn = await client.products.queryProducts().in("slug", [one.slug, "no-such-slug"]).find()
    assert.deepStrictEqual(byIn.items.map((p) => p.name), [one.name])
  })

  it("getProduct, getProductOptionsAvailability, queryProductVariants", async () => {
    const client = official()
    const { items } = await client.products.queryProducts().eq("name", "Everyday Tee").find()
    const id = items[0]!._id!
    const { product } = await client.products.getProduct(id)
    assert.strictEqual(product!.name, "Everyday Tee")
    const sizes = product!.productOptions!.find((o) => o.name === "Size")!
    const colors = product!.productOptions!.find((o) => o.name === "Color")!
    assert.strictEqual(product!.variants!.length, sizes.choices!.length * colors.choices!.length)
    const choice = { Size: sizes.choices![0]!.description!, Color: colors.choices![0]!.description! }
    const availability = await client.products.getProductOptionsAvailability(id, choice)
    const variant = product!.variants!.find((v) => v.choices!["Size"] === choice.Size && v.choices!["Color"] === choice.Color)!
    assert.strictEqual(availability.availableForPurchase, variant.stock!.inStock)
    assert.strictEqual(availability.selectedVariant!.price!.price, variant.variant!.priceData!.price)
    const partial = await client.products.getProductOptionsAvailability(id, { Size: choice.Size })
    assert.isNull(partial.selectedVariant ?? null)
    assert.isFalse(partial.availableForPurchase)
    const variants = await client.products.queryProductVariants(id, { choices: { Size: choice.Size } })
    assert.strictEqual(variants.totalResults, colors.choices!.length)
    assert.isTrue(variants.variants!.every((v) => v.choices!["Size"] === choice.Size))
  })

  it("queryStoreVariants and getStoreVariant", async () => {
    const client = official()
    const { items } = await client.products.queryProducts().eq("name", "Trail Runner").find()
    const productId = items[0]!._id!
    const { variants } = await client.products.queryStoreVariants({ filter: { productId }, paging: { limit: 100 } } as any)
    assert.strictEqual(variants!.length, 5)
    assert.isTrue(variants!.every((v) => v.productId === productId && v.productName === "Trail Runner"))
    const { variant } = await client.products.getStoreVariant(variants![0]!._id!)
    assert.strictEqual(variant!.variantId, variants![0]!.variantId)
  })

  it("create, update, delete a product; variants; reset; options", async () => {
    const client = official()
    const name = unique("Compat Jacket")
    const { product } = await client.products.createProduct({
      name,
      productType: products.ProductType.physical,
      priceData: { price: 120 },
      costAndProfitData: { itemCost: 50 },
      discount: { type: products.DiscountType.PERCENT, value: 25 },
      productOptions: [
        { name: "Size", choices: [{ value: "S", description: "S" }, { value: "M", description: "M" }] },
        { name: "Color", optionType: products.OptionType.color, choices: [{ value: "#000", description: "Black" }, { value: "#fff", description: "White" }] }
      ],
      stock: { trackInventory: true, quantity: 3 }
    })
    assert.strictEqual(product!.priceData!.discountedPrice, 90)
    assert.strictEqual(product!.priceData!.formatted!.discountedPrice, "$90.00")
    assert.strictEqual(product!.costAndProfitData!.profit, 40)
    assert.strictEqual(product!.variants!.length, 4)
    assert.strictEqual(product!.stock!.inventoryStatus, "IN_STOCK")
    const id = product!._id!

    const { product: updated } = await client.products.updateProduct(id, { name: `${name} II`, ribbon: "New", brand: "Kestrel" })
    assert.strictEqual(updated!.name, `${name} II`)
    assert.strictEqual(updated!.ribbon, "New")

    const { variants } = await client.products.updateProductVariants(id, [{ choices: { Size: "M" }, price: 150 }])
    const m = variants!.filter((v) => v.choices!["Size"] === "M")
    assert.strictEqual(m.length, 2)
    assert.isTrue(m.every((v) => v.variant!.priceData!.price === 150 && v.variant!.priceData!.discountedPrice === 112.5))
    await client.products.resetAllProductVariantData(id)
    const reset = (await client.products.getProduct(id)).product!
    assert.isTrue(reset.variants!.every((v) => v.variant!.priceData!.price === 120))

    await client.products.removeBrand(id)
    await client.products.removeRibbon(id)
    const plain = (await client.products.getProduct(id)).product!
    assert.isUndefined(plain.brand ?? undefined)
    assert.isUndefined(plain.ribbon ?? undefined)

    await client.products.deleteProductOptions(id)
    const noOptions = (await client.products.getProduct(id)).product!
    assert.deepStrictEqual(noOptions.productOptions, [])
    assert.strictEqual(noOptions.variants!.length, 1)

    await client.products.deleteProduct(id)
    const gone = await rejection(client.products.getProduct(id))
    assert.strictEqual(gone.details?.applicationError?.code ?? gone.details?.applicationError?.code, "PRODUCT_NOT_FOUND")
  })

  it("media and choice media", async () => {
    const client = official()
    const { product } = await client.products.createProduct({
      name: unique("Compat Mug"),
      priceData: { price: 12 },
      productOptions: [{ name: "Color", optionType: products.OptionType.color, choices: [{ value: "#f00", description: "Red" }] }]
    })
    const id = product!._id!
    await client.products.addProductMedia(id, [{ mediaId: "compat-mug.svg" }, { mediaId: "compat-mug-red.svg" }])
    await client.products.addProductMediaToChoices(id, [{ option: "Color", choice: "Red", mediaIds: ["compat-mug-red.svg"] }])
    const withMedia = (await client.products.getProduct(id)).product!
    assert.deepStrictEqual(withMedia.media!.items!.map((m) => m._id), ["compat-mug.svg", "compat-mug-red.svg"])
    const red = withMedia.productOptions![0]!.choices![0]!
    assert.strictEqual(red.media!.mainMedia!._id, "compat-mug-red.svg")
    // the platform serves the image at the URL it gives
    const res = await onLocal.fetch(withMedia.media!.mainMedia!.image!.url!)
    assert.strictEqual(res.status, 200)
    assert.strictEqual(res.headers.get("content-type"), "image/svg+xml")
    await client.products.removeProductMediaFromChoices(id, [{ option: "Color", choice: "Red", mediaIds: ["compat-mug-red.svg"] }])
    await client.products.removeProductMedia(id, ["compat-mug.svg"])
    const after = (await client.products.getProduct(id)).product!
    assert.deepStrictEqual(after.media!.items!.map((m) => m._id), ["compat-mug-red.svg"])
    assert.isUndefined(after.productOptions![0]!.choices![0]!.media)
  })

  it("collections: create, update, membership, v2 readers, delete", async () => {
    const client = official()
    const name = unique("Compat Picks")
    const { collection } = await client.products.createCollection({ name })
    const id = collection!._id!
    const { items } = await client.products.queryProducts().limit(3).find()
    await client.products.addProductsToCollection(id, items.map((p) => p._id!))
    const read = await client.collections.getCollection(id)
    assert.strictEqual(read.numberOfProducts, 3)
    const bySlug = (await client.collections.getCollectionBySlug(collection!.slug!)).collection!
    assert.strictEqual(bySlug._id, id)
    await client.products.removeProductsFromCollection(id, [items[0]!._id!])
    assert.strictEqual((await client.collections.getCollection(id)).numberOfProducts, 2)
    const { collection: renamed } = await client.products.updateCollection(id, { name: `${name} 2` })
    assert.strictEqual(renamed!.name, `${name} 2`)
    const queried = await client.collections.queryCollections().eq("name", `${name} 2`).find()
    assert.deepStrictEqual(queried.items.map((c) => c._id), [id])
    const v1 = await client.products.getCollectionBySlug(collection!.slug!)
    assert.strictEqual(v1.collection!._id, id)
    await client.products.deleteCollection(id)
    const gone = await rejection(client.collections.getCollection(id))
    assert.strictEqual(gone.details?.applicationError?.code, "COLLECTION_NOT_FOUND")
    const still = (await client.products.getProduct(items[1]!._id!)).product!
    assert.notInclude(still.collectionIds!, id)
  })

  it("bulk update and bulk adjust report every product", async () => {
    const client = official()
    const created = await Promise.all([1, 2].map((n) => client.products.createProduct({ name: unique(`Compat Bulk ${n}`), priceData: { price: 20 }, weight: 1 })))
    const ids = created.map((c) => c.product!._id!)
    const set = await client.products.bulkUpdateProductsProperty([...ids, "no-such-product"], { price: 30 })
    assert.strictEqual(set.bulkActionMetadata!.totalSuccesses, 2)
    assert.strictEqual(set.bulkActionMetadata!.totalFailures, 1)
    assert.deepStrictEqual(set.results!.map((r) => r.itemMetadata!.success), [true, true, false])
    assert.strictEqual(set.results![2]!.itemMetadata!.error!.code, "PRODUCT_NOT_FOUND")
    await client.products.bulkUpdateProductsProperty(ids, { ribbon: "Sale" })
    const adjust = await client.products.bulkAdjustProductProperty({ price: { percentage: { rate: 10 } } }, ids)
    assert.strictEqual(adjust.bulkActionMetadata!.totalSuccesses, 2)
    await client.products.bulkAdjustProductProperty({ weight: { amount: 0.5 } }, ids)
    // one property per call, as the platform takes it
    const two = await rejection(client.products.bulkUpdateProductsProperty(ids, { price: 1, cost: 1 } as any))
    assert.strictEqual(two.details?.validationError?.fieldViolations?.[0]?.field, "set")
    const after = (await client.products.getProduct(ids[0]!)).product!
    assert.strictEqual(after.priceData!.price, 33)
    assert.strictEqual(after.weight, 1.5)
    assert.strictEqual(after.ribbon, "Sale")
  })

  it("inventory: update variants, decrement, increment, getInventoryVariants, queryInventory", async () => {
    const client = official()
    const { product } = await client.products.createProduct({
      name: unique("Compat Socks"),
      priceData: { price: 9 },
      productOptions: [{ name: "Size", choices: [{ value: "S", description: "S" }, { value: "L", description: "L" }] }]
    })
    const id = product!._id!
    const [s, l] = product!.variants!.map((v) => v._id!)
    await client.inventory.updateInventoryVariants(id, { trackQuantity: true, variants: [{ variantId: s!, quantity: 5 }, { variantId: l!, quantity: 0 }] })
    const partly = (await client.products.getProduct(id)).product!
    assert.strictEqual(partly.stock!.inventoryStatus, "PARTIALLY_OUT_OF_STOCK")
    assert.strictEqual(partly.stock!.quantity, 5)
    await client.inventory.decrementInventory([{ productId: id, variantId: s!, decrementBy: 2 }])
    await client.inventory.incrementInventory([{ productId: id, variantId: l!, incrementBy: 4 }])
    const { inventoryItem } = await client.inventory.getInventoryVariants(product!.inventoryItemId!)
    const quantities = Object.fromEntries(inventoryItem!.variants!.map((v) => [v.variantId, v.quantity]))
    assert.deepStrictEqual(quantities, { [s!]: 3, [l!]: 4 })
    const tooMany = await rejection(client.inventory.decrementInventory([{ productId: id, variantId: s!, decrementBy: 99 }]))
    assert.strictEqual(tooMany.details?.applicationError?.code, "INSUFFICIENT_INVENTORY")
    const queried = await client.inventory.queryInventory({ query: { filter: JSON.stringify({ productId: id }) } } as any)
    assert.strictEqual(queried.inventoryItems!.length, 1)
    assert.strictEqual(queried.inventoryItems![0]!.trackQuantity, true)
  })
})

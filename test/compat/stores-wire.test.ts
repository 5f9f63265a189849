/**
 * sitefx's catalog v1 client must send what the platform's official store client sends. Both clients
 * make the same calls against a recording server (its answers are scripted, so both meet the same
 * state); method, path, query parameters and JSON body must match, a GET's `.r` compared as the JSON it
 * holds, key order aside.
 */
import { assert, describe, it } from "@effect/vitest"
import { collections, inventory, products } from "@wix/stores"
import * as Collections from "../../src/catalog/Collections.ts"
import * as Inventory from "../../src/catalog/Inventory.ts"
import * as Products from "../../src/catalog/Products.ts"
import { wireOnRecordingServer } from "../support/wire.ts"

const { server, compare } = wireOnRecordingServer({ products, collections, inventory }, {
  catalogVersion: "V1_CATALOG",
  // answers every call as the platform would answer it enough for both clients to go on
  answer: { product: {}, products: [], metadata: { total: 0 }, totalResults: 0, collection: {}, collections: [], variants: [], variant: {}, inventoryItem: {}, inventoryItems: [] }
})

describe("sitefx sends what the official store client sends", () => {
  it("product readers", async () => {
    await compare("getProduct", (c) => c.products.getProduct("p1"), Products.get("p1"))
    await compare("getProduct merchant", (c) => c.products.getProduct("p1", { includeMerchantSpecificData: true }), Products.get("p1", { includeMerchantSpecificData: true }))
    await compare(
      "queryProducts",
      (c) => c.products.queryProducts().eq("name", "x").gt("priceData.price", 5).ascending("priceData.price").descending("name").limit(5).skip(10).find(),
      Products.query().eq("name", "x").gt("priceData.price", 5).ascending("priceData.price").descending("name").limit(5).skip(10).find
    )
    await compare("queryProducts default", (c) => c.products.queryProducts().find(), Products.query().find)
    await compare(
      "queryProducts hasSome, startsWith, in",
      (c) => c.products.queryProducts().hasSome("collectionIds", ["c1", "c2"]).startsWith("name", "Tr").in("sku", ["a", "b"]).find(),
      Products.query().hasSome("collectionIds", ["c1", "c2"]).startsWith("name", "Tr").in("sku", ["a", "b"]).find
    )
    const many = Array.from({ length: 400 }, (_, i) => `product-name-${i}`)
    await compare("queryProducts past 4000 characters: POST", (c) => c.products.queryProducts().in("name", many).find(), Products.query().in("name", many).find)
    assert.strictEqual(server.requests.at(-1)!.method, "POST")
    await compare("getProductOptionsAvailability", (c) => c.products.getProductOptionsAvailability("p1", { Size: "L" }), Products.optionsAvailability("p1", { Size: "L" }))
    await compare(
      "queryProductVariants",
      (c) => c.products.queryProductVariants("p1", { choices: { Size: "L" }, variantIds: ["v1"], paging: { limit: 5, offset: 2 } }),
      Products.variants("p1", { choices: { Size: "L" }, variantIds: ["v1"], limit: 5, offset: 2 })
    )
    await compare("getStoreVariant", (c) => c.products.getStoreVariant("v1"), Products.storeVariant("v1"))
    await compare(
      "queryStoreVariants",
      (c) => c.products.queryStoreVariants({ filter: { productId: "p1" }, paging: { offset: 0, limit: 50 } } as any),
      Products.storeVariants().eq("productId", "p1").find
    )
  })

  it("product writers", async () => {
    const product = { name: "n", priceData: { price: 1 }, productOptions: [{ name: "Size", choices: [{ value: "S", description: "S" }] }] }
    await compare("createProduct", (c) => c.products.createProduct(product), Products.create(product))
    await compare("updateProduct", (c) => c.products.updateProduct("p1", { name: "n" }), Products.update("p1", { name: "n" }))
    await compare("deleteProduct", (c) => c.products.deleteProduct("p1"), Products.remove("p1"))
    await compare(
      "updateProductVariants",
      (c) => c.products.updateProductVariants("p1", [{ choices: { Size: "L" }, price: 2, visible: false }]),
      Products.updateVariants("p1", [{ choices: { Size: "L" }, price: 2, visible: false }])
    )
    await compare("resetAllProductVariantData", (c) => c.products.resetAllProductVariantData("p1"), Products.resetVariants("p1"))
    await compare("addProductMedia", (c) => c.products.addProductMedia("p1", [{ mediaId: "m" }, { url: "https://x/y.jpg" }]), Products.addMedia("p1", [{ mediaId: "m" }, { url: "https://x/y.jpg" }]))
    await compare("removeProductMedia", (c) => c.products.removeProductMedia("p1", ["m"]), Products.removeMedia("p1", ["m"]))
    const choiceMedia = [{ option: "Color", choice: "Red", mediaIds: ["m"] }]
    await compare("addProductMediaToChoices", (c) => c.products.addProductMediaToChoices("p1", choiceMedia), Products.addMediaToChoices("p1", choiceMedia))
    await compare("removeProductMediaFromChoices", (c) => c.products.removeProductMediaFromChoices("p1", choiceMedia), Products.removeMediaFromChoices("p1", choiceMedia))
    await compare("deleteProductOptions", (c) => c.products.deleteProductOptions("p1"), Products.removeOptions("p1"))
    await compare("removeBrand", (c) => c.products.removeBrand("p1"), Products.removeBrand("p1"))
    await compare("removeRibbon", (c) => c.products.removeRibbon("p1"), Products.removeRibbon("p1"))
    await compare("bulkUpdateProductsProperty", (c) => c.products.bulkUpdateProductsProperty(["p1", "p2"], { price: 3 }), Products.bulkUpdate(["p1", "p2"], { price: 3 }))
    await compare(
      "bulkAdjustProductProperty",
      (c) => c.products.bulkAdjustProductProperty({ price: { percentage: { rate: 10, roundToInt: true } } }, ["p1"]),
      Products.bulkAdjust(["p1"], { price: { percentage: { rate: 10, roundToInt: true } } })
    )
  })

  it("collections", async () => {
    await compare("getCollection", (c) => c.collections.getCollection("c1"), Collections.get("c1"))
    await compare("getCollectionBySlug (v2)", (c) => c.collections.getCollectionBySlug("tees"), Collections.bySlug("tees"))
    await compare("getCollectionBySlug (v1)", (c) => c.products.getCollectionBySlug("tees"), Collections.bySlugV1("tees"))
    await compare("queryCollections", (c) => c.collections.queryCollections().eq("name", "x").limit(5).find(), Collections.query().eq("name", "x").limit(5).find)
    await compare("createCollection", (c) => c.products.createCollection({ name: "c", description: "d" }), Collections.create({ name: "c", description: "d" }))
    await compare("updateCollection", (c) => c.products.updateCollection("c1", { name: "c" }), Collections.update("c1", { name: "c" }))
    await compare("deleteCollection", (c) => c.products.deleteCollection("c1"), Collections.remove("c1"))
    await compare("addProductsToCollection", (c) => c.products.addProductsToCollection("c1", ["p1"]), Collections.addProducts("c1", ["p1"]))
    await compare("removeProductsFromCollection", (c) => c.products.removeProductsFromCollection("c1", ["p1"]), Collections.removeProducts("c1", ["p1"]))
  })

  it("inventory", async () => {
    const item = { trackQuantity: true, variants: [{ variantId: "v", quantity: 2 }] }
    await compare("updateInventoryVariants", (c) => c.inventory.updateInventoryVariants("p1", item), Inventory.update("p1", item))
    await compare(
      "decrementInventory",
      (c) => c.inventory.decrementInventory([{ productId: "p1", variantId: "v", decrementBy: 1 }]),
      Inventory.decrement([{ productId: "p1", variantId: "v", decrementBy: 1 }])
    )
    await compare(
      "incrementInventory",
      (c) => c.inventory.incrementInventory([{ inventoryId: "i1", variantId: "v", incrementBy: 1 }]),
      Inventory.increment([{ inventoryId: "i1", variantId: "v", incrementBy: 1 }])
    )
    await compare("getInventoryVariants", (c) => c.inventory.getInventoryVariants("i1", { variantIds: ["v"] }), Inventory.get("i1", { variantIds: ["v"] }))
    await compare(
      "queryInventory",
      (c) => c.inventory.queryInventory({ query: { filter: JSON.stringify({ productId: "p1" }), paging: { offset: 0, limit: 50 } } }),
      Inventory.query().eq("productId", "p1").find
    )
  })
})

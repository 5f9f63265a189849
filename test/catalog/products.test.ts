/**
 * sitefx's catalog v1 client (Products, Collections, Inventory) against the local platform's demo
 * store over real HTTP: every call, what visitors and members may see and may not do, the platform's
 * validation errors as typed CatalogErrors, queries as pages and Streams, the long-query POST fallback,
 * and the catalog events every write publishes.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { CatalogError } from "../../src/catalog/CatalogError.ts"
import * as Collections from "../../src/catalog/Collections.ts"
import * as Inventory from "../../src/catalog/Inventory.ts"
import * as Products from "../../src/catalog/Products.ts"
import { Filter } from "../../src/data/Filter.ts"
import { Session } from "../../src/session/Session.ts"
import { asAdmin } from "../data/support.ts"
import { loggedSince, logMark } from "../support/eventLog.ts"
import { LocalPlatform, settings, stats, withSite } from "../support/platform.ts"
import { layerWithCore } from "../../src/server/LocalPlatform.ts"

const failure = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect) as Effect.Effect<CatalogError, A, R>

let counter = 0
const unique = (name: string) => `${name} ${Date.now().toString(36)}${counter++}`

const asMember = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const member = (yield* LocalPlatform).demoMember!
    return yield* withSite(Effect.gen(function*() {
      const session = yield* Session
      const result = yield* session.login({ email: member.email, password: member.password })
      if (result.loginState !== "SUCCESS") return yield* Effect.die(`the demo member could not log in: ${result.loginState}`)
      yield* session.completeDirectLogin(result.data.sessionToken)
      // from here on the session is the member's
      if (!(yield* session.loggedIn)) return yield* Effect.die("the demo member is not logged in")
      return yield* effect
    }))
  })

const newProduct = (overrides: Products.ProductInput = {}) =>
  asAdmin(Products.create({
    name: unique("Test Shirt"),
    priceData: { price: 40 },
    costAndProfitData: { itemCost: 15 },
    productOptions: [
      { name: "Size", choices: [{ value: "S", description: "S" }, { value: "M", description: "M" }, { value: "L", description: "L" }] },
      { name: "Color", optionType: "color", choices: [{ value: "#000", description: "Black" }, { value: "#fff", description: "White" }] }
    ],
    stock: { trackInventory: true, quantity: 5 },
    ...overrides
  }))

describe("catalog v1 client", () => {
  it.layer(layerWithCore({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("a visitor queries the demo store: filter, sort, paging, totals, no costs, no hidden products", () =>
      Effect.gen(function*() {
        const page = yield* withSite(Products.query().gt("priceData.price", 20).descending("priceData.price").limit(7).find)
        assert.strictEqual(page.items.length, 7)
        assert.isAbove(page.totalCount!, 7)
        assert.isTrue(page.hasNext)
        const prices = page.items.map((p) => p.priceData!.price!)
        assert.deepStrictEqual(prices, [...prices].sort((a, b) => b - a))
        assert.isTrue(page.items.every((p) => p.costAndProfitData === undefined && p.variants === undefined && p.visible === true))
        const second = yield* withSite(page.next)
        assert.strictEqual(second.offset, 7)
        assert.isAtMost(second.items[0]!.priceData!.price!, prices[6]!)
        // everything, as a Stream in pages of 100, equals the total the platform counted
        const all = yield* withSite(Products.query().stream.pipe(Stream.runCollect))
        const visible = yield* withSite(Products.query().find)
        assert.strictEqual(all.length, visible.totalCount)
        const admin = yield* asAdmin(Products.query().find)
        assert.isAbove(admin.totalCount!, visible.totalCount!, "an API key sees hidden products too")
        assert.isDefined(admin.items[0]!.costAndProfitData)
      }))

    it.effect("filters by collection, brand, stock status; variants on request; the Filter builder", () =>
      Effect.gen(function*() {
        const tees = yield* withSite(Collections.bySlug("tees"))
        const inTees = yield* withSite(Products.query().hasSome("collectionIds", [tees.id!]).limit(100).find)
        assert.strictEqual(inTees.totalCount, tees.numberOfProducts)
        const partly = yield* withSite(Products.query().eq("stock.inventoryStatus", "PARTIALLY_OUT_OF_STOCK").find)
        assert.isAbove(partly.items.length, 0)
        assert.isTrue(partly.items.every((p) => p.stock?.inventoryStatus === "PARTIALLY_OUT_OF_STOCK"))
        const withVariants = yield* withSite(Products.query({ includeVariants: true }).where(Filter.eq("brand", "Kestrel").or(Filter.eq("brand", "Lumen"))).find)
        assert.isTrue(withVariants.items.every((p) => (p.brand === "Kestrel" || p.brand === "Lumen") && p.variants!.length > 0))
      }))

    it.effect("a long query goes as POST, with the same answer", () =>
      Effect.gen(function*() {
        const names = Array.from({ length: 300 }, (_, i) => `No Such Product ${i}`)
        const before = (yield* stats).requests
        const page = yield* withSite(Products.query().in("name", [...names, "Everyday Tee"]).find)
        assert.deepStrictEqual(page.items.map((p) => p.name), ["Everyday Tee"])
        assert.isAbove((yield* stats).requests, before)
      }))

    it.effect("get, options availability, variants, store variants", () =>
      Effect.gen(function*() {
        const { items } = yield* withSite(Products.query().eq("name", "Everyday Tee").find)
        const tee = yield* withSite(Products.get(items[0]!.id!))
        const size = tee.productOptions!.find((o) => o.name === "Size")!
        const color = tee.productOptions!.find((o) => o.name === "Color")!
        assert.strictEqual(tee.variants!.length, size.choices!.length * color.choices!.length)
        const choice = { Size: size.choices![1]!.description!, Color: color.choices![0]!.description! }
        const availability = yield* withSite(Products.optionsAvailability(tee.id!, choice))
        const variant = tee.variants!.find((v) => v.choices!["Size"] === choice.Size && v.choices!["Color"] === choice.Color)!
        assert.strictEqual(availability.availableForPurchase, variant.stock!.inStock)
        assert.strictEqual(availability.selectedVariant!.price!.price, variant.variant!.priceData!.price)
        const bySize = yield* withSite(Products.variants(tee.id!, { choices: { Size: choice.Size } }))
        assert.strictEqual(bySize.total, color.choices!.length)
        const storePage = yield* withSite(Products.storeVariants().eq("productId", tee.id!).find)
        assert.strictEqual(storePage.items.length, tee.variants!.length)
        const one = yield* withSite(Products.storeVariant(storePage.items[0]!.id!))
        assert.strictEqual(one.productName, "Everyday Tee")
        const unknownChoice = yield* failure(withSite(Products.optionsAvailability(tee.id!, { Size: "XXXL" })))
        assert.strictEqual(unknownChoice.code, "VALIDATION_ERROR")
        assert.strictEqual(unknownChoice.fieldViolations![0]!.field, "options.Size")
      }))

    it.effect("not found, hidden from visitors, and arguments refused before sending", () =>
      Effect.gen(function*() {
        const missing = yield* failure(withSite(Products.get("no-such-product")))
        assert.instanceOf(missing, CatalogError)
        assert.strictEqual(missing.code, "PRODUCT_NOT_FOUND")
        const hidden = yield* newProduct({ visible: false })
        assert.strictEqual((yield* failure(withSite(Products.get(hidden.id!)))).code, "PRODUCT_NOT_FOUND")
        assert.strictEqual((yield* asAdmin(Products.get(hidden.id!))).visible, false)
        const before = (yield* stats).requests
        const empty = yield* failure(withSite(Products.get("")))
        assert.strictEqual(empty.code, "INVALID_ARGUMENT")
        const limit = yield* failure(withSite(Products.query().limit(101).find))
        assert.strictEqual(limit.code, "INVALID_ARGUMENT")
        const bulk = yield* failure(asAdmin(Products.bulkUpdate([], { price: 1 })))
        assert.strictEqual(bulk.code, "INVALID_ARGUMENT")
        // the version check happened once, on the first call; the refused calls sent nothing
        assert.strictEqual((yield* stats).requests - before, 1, "the stats call only")
      }))

    it.effect("visitors and members cannot write", () =>
      Effect.gen(function*() {
        const product = yield* newProduct()
        const visitor = yield* failure(withSite(Products.update(product.id!, { name: "Renamed" })))
        assert.strictEqual(visitor.status, 403)
        const member = yield* failure(asMember(Products.remove(product.id!)))
        assert.strictEqual(member.status, 403)
        const memberCollection = yield* failure(asMember(Collections.create({ name: "Mine" })))
        assert.strictEqual(memberCollection.status, 403)
        const memberStock = yield* failure(asMember(Inventory.update(product.id!, { trackQuantity: false })))
        assert.strictEqual(memberStock.status, 403)
        assert.strictEqual((yield* asAdmin(Products.get(product.id!))).name, product.name)
      }))

    it.effect("writers: validation errors name the field", () =>
      Effect.gen(function*() {
        const noPrice = yield* failure(asAdmin(Products.create({ name: unique("No Price") })))
        assert.strictEqual(noPrice.code, "VALIDATION_ERROR")
        assert.strictEqual(noPrice.fieldViolations![0]!.field, "product.priceData.price")
        const negative = yield* failure(asAdmin(Products.create({ name: unique("Negative"), priceData: { price: -1 } })))
        assert.strictEqual(negative.fieldViolations![0]!.field, "product.priceData.price")
        const discount = yield* failure(asAdmin(Products.create({ name: unique("Big Discount"), priceData: { price: 10 }, discount: { type: "PERCENT", value: 150 } })))
        assert.strictEqual(discount.fieldViolations![0]!.field, "product.discount.value")
        const tooMany = yield* failure(asAdmin(Products.create({
          name: unique("Many Variants"),
          priceData: { price: 10 },
          productOptions: ["A", "B", "C"].map((name) => ({ name, choices: Array.from({ length: 7 }, (_, i) => ({ value: `${name}${i}` })) }))
        })))
        assert.strictEqual(tooMany.fieldViolations![0]!.field, "product.productOptions")
        const wrongType = yield* failure(asAdmin(Products.create({ name: unique("Typed"), priceData: { price: "ten" as unknown as number } })))
        assert.strictEqual(wrongType.code, "VALIDATION_ERROR")
        const product = yield* newProduct()
        const taken = yield* failure(asAdmin(Products.create({ name: unique("Copy"), slug: product.slug!, priceData: { price: 1 } })))
        assert.strictEqual(taken.code, "SLUG_ALREADY_EXISTS")
      }))

    it.effect("create derives prices, variants and stock; update, variants, media, options, brand and ribbon", () =>
      Effect.gen(function*() {
        const product = yield* newProduct({ discount: { type: "AMOUNT", value: 4 }, brand: "Fjord Supply", ribbon: "New" })
        assert.strictEqual(product.priceData!.discountedPrice, 36)
        assert.strictEqual(product.priceData!.formatted!.price, "$40.00")
        assert.strictEqual(product.costAndProfitData!.profit, 21)
        assert.strictEqual(product.variants!.length, 6)
        assert.strictEqual(product.stock!.quantity, 30)
        assert.strictEqual(product.stock!.inventoryStatus, "IN_STOCK")
        const id = product.id!
        const renamed = yield* asAdmin(Products.update(id, { name: `${product.name} II`, discount: { type: "NONE" } }))
        assert.strictEqual(renamed.priceData!.discountedPrice, 40)
        const variants = yield* asAdmin(Products.updateVariants(id, [{ choices: { Color: "White" }, price: 45, sku: "W" }]))
        assert.deepStrictEqual(
          variants.filter((v) => v.choices!["Color"] === "White").map((v) => [v.variant!.priceData!.price, v.variant!.sku]),
          [[45, "W"], [45, "W"], [45, "W"]]
        )
        const range = yield* asAdmin(Products.get(id))
        assert.deepStrictEqual(range.priceRange, { minValue: 40, maxValue: 45 })
        yield* asAdmin(Products.resetVariants(id))
        assert.isTrue((yield* asAdmin(Products.get(id))).variants!.every((v) => v.variant!.priceData!.price === 40))
        yield* asAdmin(Products.addMedia(id, [{ mediaId: "test-shirt.svg" }, { mediaId: "test-shirt-black.svg", choice: { option: "Color", choice: "Black" } }]))
        const withMedia = yield* withSite(Products.get(id))
        assert.strictEqual(withMedia.media!.mainMedia!.id, "test-shirt.svg")
        const black = withMedia.productOptions!.find((o) => o.name === "Color")!.choices!.find((c) => c.description === "Black")!
        assert.strictEqual(black.media!.mainMedia!.id, "test-shirt-black.svg")
        yield* asAdmin(Products.addMediaToChoices(id, [{ option: "Color", choice: "White", mediaIds: ["test-shirt.svg"] }]))
        yield* asAdmin(Products.removeMediaFromChoices(id, [{ option: "Color", choice: "Black", mediaIds: ["test-shirt-black.svg"] }]))
        yield* asAdmin(Products.removeMedia(id, ["test-shirt-black.svg"]))
        const after = yield* asAdmin(Products.get(id))
        assert.deepStrictEqual(after.media!.items!.map((m) => m.id), ["test-shirt.svg"])
        assert.strictEqual(after.productOptions![1]!.choices![1]!.media!.mainMedia!.id, "test-shirt.svg")
        yield* asAdmin(Products.removeBrand(id))
        yield* asAdmin(Products.removeRibbon(id))
        yield* asAdmin(Products.removeOptions(id))
        const plain = yield* asAdmin(Products.get(id))
        assert.isUndefined(plain.brand)
        assert.isUndefined(plain.ribbon)
        assert.strictEqual(plain.variants!.length, 1)
        assert.strictEqual(plain.stock!.quantity, 30, "the stock of the variants is kept on the one left")
        yield* asAdmin(Products.remove(id))
        assert.strictEqual((yield* failure(asAdmin(Products.get(id)))).code, "PRODUCT_NOT_FOUND")
      }))

    it.effect("bulk update and adjust report every product's fate", () =>
      Effect.gen(function*() {
        const a = yield* newProduct({ weight: 2 })
        const b = yield* newProduct({ weight: 1, discount: { type: "AMOUNT", value: 30 } })
        const set = yield* asAdmin(Products.bulkUpdate([a.id!, "missing", b.id!], { price: 20 }))
        assert.deepStrictEqual(set.results!.map((r) => [r.itemMetadata!.id, r.itemMetadata!.success, r.itemMetadata!.error?.code]), [
          [a.id, true, undefined],
          ["missing", false, "PRODUCT_NOT_FOUND"],
          [b.id, false, "INVALID_ARGUMENT"]
        ])
        assert.deepStrictEqual(set.bulkActionMetadata, { totalSuccesses: 1, totalFailures: 2, undetailedFailures: 0 })
        yield* asAdmin(Products.bulkAdjust([a.id!], { price: { percentage: { rate: 12.5, roundToInt: true } } }))
        yield* asAdmin(Products.bulkAdjust([a.id!, b.id!], { weight: { amount: -0.5 } }))
        const [a2, b2] = yield* asAdmin(Effect.all([Products.get(a.id!), Products.get(b.id!)]))
        assert.strictEqual(a2!.priceData!.price, 23)
        assert.deepStrictEqual([a2!.weight, b2!.weight, b2!.priceData!.price], [1.5, 0.5, 40])
      }))

    it.effect("collections: create, update, membership, query, All Products, remove", () =>
      Effect.gen(function*() {
        const name = unique("Gifts")
        const created = yield* asAdmin(Collections.create({ name, description: "For friends" }))
        const id = created.id!
        const some = yield* withSite(Products.query().limit(4).find)
        yield* asAdmin(Collections.addProducts(id, some.items.map((p) => p.id!)))
        assert.strictEqual((yield* withSite(Collections.get(id))).numberOfProducts, 4)
        yield* asAdmin(Collections.removeProducts(id, [some.items[0]!.id!]))
        const inIt = yield* withSite(Products.query().hasSome("collectionIds", [id]).find)
        assert.strictEqual(inIt.totalCount, 3)
        const renamed = yield* asAdmin(Collections.update(id, { name: `${name} 2`, visible: false }))
        assert.strictEqual(renamed.name, `${name} 2`)
        assert.strictEqual((yield* failure(withSite(Collections.get(id)))).code, "COLLECTION_NOT_FOUND", "hidden from visitors")
        assert.strictEqual((yield* asAdmin(Collections.bySlugV1(created.slug!))).id, id)
        const all = yield* withSite(Collections.get(Collections.ALL_PRODUCTS_COLLECTION_ID))
        assert.strictEqual(all.numberOfProducts, (yield* asAdmin(Products.query().find)).totalCount)
        const builtIn = yield* failure(asAdmin(Collections.remove(Collections.ALL_PRODUCTS_COLLECTION_ID)))
        assert.strictEqual(builtIn.code, "VALIDATION_ERROR")
        const listed = yield* withSite(Collections.query().ascending("name").stream.pipe(Stream.map((c) => c.name), Stream.runCollect))
        assert.isAtLeast(listed.length, 9)
        yield* asAdmin(Collections.remove(id))
        assert.notInclude((yield* asAdmin(Products.get(some.items[1]!.id!))).collectionIds!, id)
      }))

    it.effect("inventory: set, decrement, increment, get and query; refused decrements change nothing", () =>
      Effect.gen(function*() {
        const product = yield* newProduct()
        const [v1, v2] = product.variants!.map((v) => v.id!)
        yield* asAdmin(Inventory.update(product.id!, { variants: [{ variantId: v1!, quantity: 0 }, { variantId: v2!, quantity: 9 }] }))
        assert.strictEqual((yield* withSite(Products.get(product.id!))).stock!.inventoryStatus, "PARTIALLY_OUT_OF_STOCK")
        yield* asAdmin(Inventory.decrement([{ productId: product.id!, variantId: v2!, decrementBy: 4 }]))
        yield* asAdmin(Inventory.increment([{ inventoryId: product.inventoryItemId!, variantId: v1!, incrementBy: 2 }]))
        const item = yield* withSite(Inventory.get(product.inventoryItemId!, { variantIds: [v1!, v2!] }))
        assert.deepStrictEqual(item.variants!.map((v) => v.quantity), [2, 5])
        const refused = yield* failure(asAdmin(Inventory.decrement([
          { productId: product.id!, variantId: v1!, decrementBy: 1 },
          { productId: product.id!, variantId: v2!, decrementBy: 6 }
        ])))
        assert.strictEqual(refused.code, "INSUFFICIENT_INVENTORY")
        assert.deepStrictEqual((yield* withSite(Inventory.get(product.inventoryItemId!, { variantIds: [v1!, v2!] }))).variants!.map((v) => v.quantity), [2, 5])
        const queried = yield* asAdmin(Inventory.query().eq("productId", product.id!).find)
        assert.deepStrictEqual(queried.items.map((i) => i.productId), [product.id])
        assert.strictEqual((yield* failure(withSite(Inventory.query().find))).status, 403)
      }))

    it.effect("every write logs its catalog event as it commits; refused writes log none", () =>
      Effect.gen(function*() {
        const mark = yield* logMark
        const product = yield* newProduct()
        yield* asAdmin(Products.update(product.id!, { name: unique("Evented") }))
        yield* failure(asAdmin(Products.update(product.id!, { priceData: { price: -5 } })))
        yield* asAdmin(Products.updateVariants(product.id!, [{ choices: { Size: "S" }, visible: false }]))
        yield* asAdmin(Inventory.decrement([{ productId: product.id!, variantId: product.variants![0]!.id!, decrementBy: 1 }]))
        const collection = yield* asAdmin(Collections.create({ name: unique("Evented") }))
        yield* asAdmin(Collections.remove(collection.id!))
        yield* asAdmin(Products.remove(product.id!))
        const seen = yield* loggedSince(mark)
        assert.deepStrictEqual(seen.map((e) => e.type.split(".").pop()), [
          "ProductCreated",
          "ProductChanged",
          "VariantsChanged",
          "InventoryVariantsChanged",
          "CollectionCreated",
          "CollectionDeleted",
          "ProductDeleted"
        ])
        assert.isTrue(seen.every((e) => e.identity.identityType === "WIX_USER"))
        assert.strictEqual(seen[0]!.payload.productId, product.id)
        assert.strictEqual((seen[2]!.payload.variants as Array<unknown>).length, 2)
      }))

    it.effect("a V3 catalog site refuses v1 calls, on the client and on the platform", () =>
      Effect.gen(function*() {
        yield* settings({ catalogVersion: "V3_CATALOG" })
        const error = yield* failure(withSite(Products.query().find))
        assert.strictEqual(error.code, "CATALOG_VERSION_MISMATCH")
        const platform = yield* LocalPlatform
        const res = yield* Effect.promise(() =>
          fetch(`${platform.url}/stores-reader/v1/products/query-platformized`, { method: "POST", headers: { authorization: "x" }, body: "{}" })
        )
        assert.include([401, 428], res.status)
        yield* settings({ catalogVersion: "V1_CATALOG" })
      }))
  })
})

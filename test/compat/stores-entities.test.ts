/**
 * The platform's official catalog v3 entity modules of `@wix/stores` (`brandsV3`, `ribbonsV3`,
 * `infoSectionsV3`, `customizationsV3`, `inventoryItemsV3`), unchanged, on `@wix/sdk` with an API key,
 * against the local platform (their fixed host rewritten to it for this file). Every test asserts what
 * the official functions return, and reads writes back through sitefx's own client where that proves
 * they landed.
 */
import { assert, describe, it } from "@effect/vitest"
import { brandsV3, customizationsV3, infoSectionsV3, inventoryItemsV3, ribbonsV3 } from "@wix/stores"
import * as Brands from "../../src/catalog/entities/Brands.ts"
import * as Customizations from "../../src/catalog/entities/Customizations.ts"
import * as InventoryItems from "../../src/catalog/entities/InventoryItems.ts"
import * as Ribbons from "../../src/catalog/entities/Ribbons.ts"
import { seedId } from "../../src/server/catalog/entities/index.ts"
import { officialStoreOnLocalPlatform, rejection, unique } from "../support/store.ts"

const { called, official, sitefx, visitor } = officialStoreOnLocalPlatform({ brandsV3, ribbonsV3, infoSectionsV3, customizationsV3, inventoryItemsV3 })

describe("official @wix/stores brandsV3 against the local platform", () => {
  it("createBrand, getBrand, updateBrand (revision), deleteBrand: _id, revision text, dates as Dates", async () => {
    const brands = official().brandsV3
    const name = unique("Official brand")
    const created = await brands.createBrand({ name })
    assert.isString(created._id)
    assert.strictEqual(created.name, name)
    assert.strictEqual(created.revision, "1")
    assert.instanceOf(created._createdDate, Date)
    assert.instanceOf(created._updatedDate, Date)

    const got = await brands.getBrand(created._id!, { fields: ["ASSIGNED_PRODUCTS_COUNT"] })
    assert.strictEqual(got.name, name)
    assert.strictEqual(got.assignedProductsCount, 0)
    assert.include(called, `GET /stores/v3/brands/${created._id}`)

    const renamed = await brands.updateBrand(created._id!, { name: `${name} II`, revision: created.revision! })
    assert.strictEqual(renamed.name, `${name} II`)
    assert.strictEqual(renamed.revision, "2")
    assert.strictEqual(renamed._createdDate?.toISOString(), created._createdDate?.toISOString())

    const stale = await rejection(brands.updateBrand(created._id!, { name: "Stale", revision: "1" }))
    assert.strictEqual(stale.details?.applicationError?.code, "REVISION_MISMATCH")
    // sitefx reads what the official client wrote
    assert.strictEqual((await visitor(Brands.get(created._id!))).name, `${name} II`)

    await brands.deleteBrand(created._id!)
    const gone = await rejection(brands.getBrand(created._id!))
    assert.strictEqual(gone.details?.applicationError?.code, "BRAND_NOT_FOUND")
  })

  it("queryBrands builder: filter, sort, limit, find and next page; countBrands", async () => {
    const brands = official().brandsV3
    const prefix = unique("Query brand")
    for (const n of ["c", "a", "d", "b", "e"]) await sitefx(Brands.create({ name: `${prefix} ${n}` }))

    const first = await brands.queryBrands().startsWith("name", prefix).ascending("name").limit(2).find()
    assert.deepStrictEqual(first.items.map((b) => b.name), [`${prefix} a`, `${prefix} b`])
    assert.isTrue(first.hasNext())
    assert.isFalse(first.hasPrev())
    assert.instanceOf(first.items[0]?._createdDate, Date)
    const second = await first.next()
    assert.deepStrictEqual(second.items.map((b) => b.name), [`${prefix} c`, `${prefix} d`])
    assert.isTrue(second.hasPrev())
    const third = await second.next()
    assert.deepStrictEqual(third.items.map((b) => b.name), [`${prefix} e`])
    assert.isFalse(third.hasNext())
    const back = await second.prev()
    assert.deepStrictEqual(back.items.map((b) => b.name), [`${prefix} a`, `${prefix} b`])

    const byId = await brands.queryBrands().eq("_id", seedId(1, 1)).find()
    assert.deepStrictEqual(byId.items.map((b) => b.name), ["Northwind"])

    const counted = await brands.countBrands({ filter: { name: { $startsWith: prefix } } })
    assert.strictEqual(counted.count, 5)
  })

  it("getOrCreateBrand, bulkCreateBrands, bulkGetOrCreateBrands, bulkDeleteBrands: every item's fate", async () => {
    const brands = official().brandsV3
    const existing = await brands.getOrCreateBrand("Kestrel")
    assert.strictEqual(existing.brand?._id, seedId(1, 4))
    const name = unique("Made on the fly")
    const made = await brands.getOrCreateBrand(name)
    assert.strictEqual(made.brand?.name, name)

    const bulk = await brands.bulkCreateBrands([{ name: unique("Bulk one") }, { name: "Lumen" }], { returnEntity: true })
    assert.deepStrictEqual(bulk.bulkActionMetadata, { totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 })
    assert.isTrue(bulk.results![0]?.itemMetadata?.success)
    assert.isString(bulk.results![0]?.item?._id)
    assert.isFalse(bulk.results![1]?.itemMetadata?.success)
    assert.strictEqual(bulk.results![1]?.itemMetadata?.error?.code, "ALREADY_EXISTS")

    const both = await brands.bulkGetOrCreateBrands(["Northwind", name])
    assert.deepStrictEqual(both.results!.map((r) => r.item?._id), [seedId(1, 1), made.brand?._id])

    const removed = await brands.bulkDeleteBrands([made.brand!._id!, "no-such-brand"])
    assert.deepStrictEqual(removed.results!.map((r) => r.itemMetadata?.success), [true, false])
    assert.strictEqual(removed.results![1]?.itemMetadata?.error?.code, "BRAND_NOT_FOUND")
  })
})

describe("official @wix/stores ribbonsV3 against the local platform", () => {
  it("createRibbon, getRibbon, queryRibbons (POST) with next, updateRibbon, deleteRibbon", async () => {
    const ribbons = official().ribbonsV3
    const prefix = unique("Rb")
    const created = await ribbons.createRibbon({ name: `${prefix} 1` })
    assert.strictEqual(created.revision, "1")
    await ribbons.createRibbon({ name: `${prefix} 2` })
    await ribbons.createRibbon({ name: `${prefix} 3` })
    const got = await ribbons.getRibbon(created._id!, { fields: ["ASSIGNED_PRODUCT_COUNT"] })
    assert.strictEqual(got.assignedProductCount, 0)

    const page = await ribbons.queryRibbons().startsWith("name", prefix).descending("name").limit(2).find()
    assert.deepStrictEqual(page.items.map((r) => r.name), [`${prefix} 3`, `${prefix} 2`])
    const rest = await page.next()
    assert.deepStrictEqual(rest.items.map((r) => r.name), [`${prefix} 1`])
    assert.include(called, "POST /stores/v3/ribbons/query")

    const seeded = await ribbons.queryRibbons().in("name", ["Sale", "New"]).ascending("name").find()
    assert.deepStrictEqual(seeded.items.map((r) => r.name), ["New", "Sale"])

    const updated = await ribbons.updateRibbon(created._id!, { name: `${prefix} one`, revision: "1" })
    assert.strictEqual(updated.revision, "2")
    const taken = await rejection(ribbons.updateRibbon(created._id!, { name: "Sale", revision: "2" }))
    assert.strictEqual(taken.details?.applicationError?.code, "ALREADY_EXISTS")
    assert.strictEqual((await ribbons.getOrCreateRibbon("sale")).ribbon?._id, seedId(2, 2))
    await ribbons.deleteRibbon(created._id!)
    assert.strictEqual((await rejection(ribbons.getRibbon(created._id!))).details?.applicationError?.code, "RIBBON_NOT_FOUND")
    assert.strictEqual(await sitefx(Ribbons.count({ name: { $startsWith: prefix } })), 2)
  })
})

describe("official @wix/stores infoSectionsV3 against the local platform", () => {
  it("createInfoSection (HTML to rich content), getInfoSection, queryInfoSections, updateInfoSection, deleteInfoSection", async () => {
    const sections = official().infoSectionsV3
    const uniqueName = unique("sizing")
    const created = await sections.createInfoSection({ uniqueName, title: "Sizing", plainDescription: "<p>Runs small.</p><p>Size up.</p>" })
    assert.strictEqual(created.uniqueName, uniqueName)
    assert.strictEqual(created.title, "Sizing")
    assert.strictEqual(created.plainDescription, "<p>Runs small.</p><p>Size up.</p>")
    assert.strictEqual(created.description?.nodes?.length, 2)
    assert.strictEqual(created.description?.nodes?.[0]?.nodes?.[0]?.textData?.text, "Runs small.")

    const got = await sections.getInfoSection(created._id!)
    assert.strictEqual(got.title, "Sizing")
    const page = await sections.queryInfoSections().eq("uniqueName", uniqueName).find()
    assert.deepStrictEqual(page.items.map((s) => s._id), [created._id])
    const seeded = await sections.queryInfoSections().ascending("title").find()
    assert.includeMembers(seeded.items.map((s) => s.title), ["Care instructions", "Shipping & returns"])

    const updated = await sections.updateInfoSection(created._id!, { title: "Fit", revision: created.revision! })
    assert.strictEqual(updated.title, "Fit")
    assert.strictEqual(updated.revision, "2")
    const same = await sections.getOrCreateInfoSection({ infoSection: { uniqueName } })
    assert.strictEqual(same.infoSection?._id, created._id)
    await sections.deleteInfoSection(created._id!)
    const gone = await rejection(sections.getInfoSection(created._id!))
    assert.strictEqual(gone.details?.applicationError?.code, "INFO_SECTION_NOT_FOUND")
  })
})

describe("official @wix/stores customizationsV3 against the local platform", () => {
  it("createCustomization, getCustomization, queryCustomizations, updateCustomization, choices, deleteCustomization", async () => {
    const customizations = official().customizationsV3
    const name = unique("Size")
    const created = await customizations.createCustomization({
      name,
      customizationType: "PRODUCT_OPTION",
      customizationRenderType: "TEXT_CHOICES",
      choicesSettings: { choices: [{ choiceType: "CHOICE_TEXT", name: "S" }, { choiceType: "CHOICE_TEXT", name: "M" }] }
    })
    assert.strictEqual(created.name, name)
    assert.strictEqual(created.revision, "1")
    assert.strictEqual(created.customizationType, "PRODUCT_OPTION")
    assert.deepStrictEqual(created.choicesSettings?.choices?.map((c) => c.name), ["S", "M"])
    assert.isString(created.choicesSettings?.choices?.[0]?._id)

    const got = await customizations.getCustomization(created._id!)
    assert.strictEqual(got.customizationRenderType, "TEXT_CHOICES")
    const page = await customizations.queryCustomizations().eq("name", name).find()
    assert.deepStrictEqual(page.items.map((c) => c._id), [created._id])
    const wrap = await customizations.queryCustomizations().eq("customizationType", "MODIFIER").find()
    assert.include(wrap.items.map((c) => c.name), "Gift wrap")

    const renamed = await customizations.updateCustomization(created._id!, { name: `${name}s`, revision: "1" })
    assert.strictEqual(renamed.name, `${name}s`)
    const added = await customizations.addCustomizationChoices(created._id!, [{ choiceType: "CHOICE_TEXT", name: "L" }])
    assert.deepStrictEqual(added.customization?.choicesSettings?.choices?.map((c) => c.name), ["S", "M", "L"])
    const small = added.customization!.choicesSettings!.choices![0]!._id!
    const removed = await customizations.removeCustomizationChoices(created._id!, [small])
    assert.deepStrictEqual(removed.customization?.choicesSettings?.choices?.map((c) => c.name), ["M", "L"])
    const duplicate = await rejection(customizations.addCustomizationChoices(created._id!, [{ choiceType: "CHOICE_TEXT", name: "m" }]))
    assert.strictEqual(duplicate.details?.validationError?.fieldViolations?.[0]?.ruleName, "DUPLICATE_CHOICE_NAME")
    assert.strictEqual((await visitor(Customizations.get(created._id!))).revision, "4")

    await customizations.deleteCustomization(created._id!)
    const gone = await rejection(customizations.getCustomization(created._id!))
    assert.strictEqual(gone.details?.applicationError?.code, "CUSTOMIZATION_NOT_FOUND")
  })
})

describe("official @wix/stores inventoryItemsV3 against the local platform", () => {
  it("createInventoryItem, getInventoryItem, queryInventoryItems with next, updateInventoryItem, deleteInventoryItem", async () => {
    const inventory = official().inventoryItemsV3
    const productId = unique("product").slice(0, 36)
    const created = await inventory.createInventoryItem({ variantId: "variant-a", productId, quantity: 4 })
    assert.strictEqual(created.quantity, 4)
    assert.isTrue(created.trackQuantity)
    assert.strictEqual(created.availabilityStatus, "IN_STOCK")
    assert.isString(created.locationId)
    for (const v of ["variant-b", "variant-c"]) await sitefx(InventoryItems.create({ variantId: v, productId, inStock: false }))

    const got = await inventory.getInventoryItem(created._id!)
    assert.strictEqual(got.variantId, "variant-a")
    const first = await inventory.queryInventoryItems().eq("productId", productId).limit(2).find()
    assert.deepStrictEqual(first.items.map((i) => i.variantId), ["variant-a", "variant-b"])
    assert.isTrue(first.hasNext())
    const second = await first.next()
    assert.deepStrictEqual(second.items.map((i) => i.variantId), ["variant-c"])
    assert.strictEqual(second.items[0]?.availabilityStatus, "OUT_OF_STOCK")
    assert.isFalse(second.hasNext())

    const updated = await inventory.updateInventoryItem(created._id!, { quantity: 0, revision: "1" }, { reason: "MANUAL" })
    assert.strictEqual(updated.quantity, 0)
    assert.strictEqual(updated.availabilityStatus, "OUT_OF_STOCK")
    const stale = await rejection(inventory.updateInventoryItem(created._id!, { quantity: 9, revision: "1" }))
    assert.strictEqual(stale.details?.applicationError?.code, "REVISION_MISMATCH")

    const incremented = await inventory.bulkIncrementInventoryItemsByVariantAndLocation([{ variantId: "variant-a", incrementBy: 5 }], { returnEntity: true })
    assert.strictEqual(incremented.results![0]?.item?.quantity, 5)
    assert.strictEqual((await visitor(InventoryItems.get(created._id!))).quantity, 5)

    await inventory.deleteInventoryItem(created._id!)
    const gone = await rejection(inventory.getInventoryItem(created._id!))
    assert.strictEqual(gone.details?.applicationError?.code, "INVENTORY_ITEM_NOT_FOUND")
  })
})

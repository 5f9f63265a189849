/**
 * sitefx's catalog v3 entity modules (brands, ribbons, info sections, customizations, v3 inventory
 * items) must send what the platform's official modules send. Both clients make the same calls against
 * a recording server whose scripted answers let both go on (every query answer hands out a next
 * cursor, so both can ask for the second page); method, path, query parameters and JSON body must
 * match, a GET's `.r` compared as the JSON it holds, key order aside.
 */
import { assert, describe, it } from "@effect/vitest"
import { brandsV3, customizationsV3, infoSectionsV3, inventoryItemsV3, ribbonsV3 } from "@wix/stores"
import * as Effect from "effect/Effect"
import { Filter } from "../../src/data/Filter.ts"
import * as Brands from "../../src/catalog/entities/Brands.ts"
import * as Customizations from "../../src/catalog/entities/Customizations.ts"
import * as InfoSections from "../../src/catalog/entities/InfoSections.ts"
import * as InventoryItems from "../../src/catalog/entities/InventoryItems.ts"
import * as Ribbons from "../../src/catalog/entities/Ribbons.ts"
import type { OfficialClient } from "../support/store.ts"
import { wireOnRecordingServer } from "../support/wire.ts"

const modules = { brandsV3, ribbonsV3, infoSectionsV3, customizationsV3, inventoryItemsV3 }
type Official = OfficialClient<typeof modules>

const { server, compare } = wireOnRecordingServer(modules, {
  catalogVersion: "V3_CATALOG",
  // an answer every entity call can read: an empty entity, empty pages with a next cursor, no bulk results
  answer: {
    brand: {},
    ribbon: {},
    infoSection: {},
    customization: {},
    inventoryItem: {},
    brands: [{}],
    ribbons: [{}],
    infoSections: [{}],
    customizations: [{}],
    inventoryItems: [{}],
    pagingMetadata: { count: 1, cursors: { next: "CURSOR-2" }, hasNext: true },
    results: [],
    bulkActionMetadata: {},
    count: 0
  }
})

const since = new Date("2026-02-03T04:05:06.000Z")

describe("sitefx sends what the official catalog v3 entity modules send", () => {
  it("brands", async () => {
    await compare("createBrand", (c) => c.brandsV3.createBrand({ name: "Acme" }), Brands.create({ name: "Acme" }))
    await compare("getBrand", (c) => c.brandsV3.getBrand("b1"), Brands.get("b1"))
    await compare(
      "getBrand fields",
      (c) => c.brandsV3.getBrand("b1", { fields: ["ASSIGNED_PRODUCTS_COUNT"] }),
      Brands.get("b1", { fields: ["ASSIGNED_PRODUCTS_COUNT"] })
    )
    await compare("updateBrand", (c) => c.brandsV3.updateBrand("b1", { name: "Acme", revision: "3" }), Brands.update({ id: "b1", name: "Acme", revision: "3" }))
    await compare(
      "updateBrand fields",
      (c) => c.brandsV3.updateBrand("b1", { revision: "3" }, { fields: ["ASSIGNED_PRODUCTS_COUNT"] }),
      Brands.update({ id: "b1", revision: "3" }, { fields: ["ASSIGNED_PRODUCTS_COUNT"] })
    )
    await compare("deleteBrand", (c) => c.brandsV3.deleteBrand("b1"), Brands.remove("b1"))
    await compare("queryBrands default", (c) => c.brandsV3.queryBrands().find(), Brands.query().find)
    await compare(
      "queryBrands filters, sort, limit",
      (c) => c.brandsV3.queryBrands().startsWith("name", "A").ne("name", "Apex").in("_id", ["b1", "b2"]).gt("_createdDate", since).ascending("name").descending("_updatedDate").limit(7).find(),
      Brands.query().startsWith("name", "A").ne("name", "Apex").in("id", ["b1", "b2"]).gt("createdDate", since).ascending("name").descending("updatedDate").limit(7).find
    )
    await compare(
      "queryBrands fields, second page",
      (c) => c.brandsV3.queryBrands({ fields: ["ASSIGNED_PRODUCTS_COUNT"] }).eq("name", "Acme").limit(3).find().then((p) => p.next()),
      Effect.flatMap(Brands.query({ fields: ["ASSIGNED_PRODUCTS_COUNT"] }).eq("name", "Acme").limit(3).find, (p) => p.next)
    )
    const many = Array.from({ length: 300 }, (_, i) => `brand-name-${i}`)
    await compare("queryBrands past 4000 characters: POST", (c) => c.brandsV3.queryBrands().in("name", many).find(), Brands.query().in("name", many).find)
    assert.strictEqual(server.requests.at(-1)!.method, "POST")
    await compare("countBrands", (c) => c.brandsV3.countBrands(), Brands.count())
    await compare("countBrands filter", (c) => c.brandsV3.countBrands({ filter: { name: { $startsWith: "A" } } }), Brands.count({ name: { $startsWith: "A" } }))
    await compare("countBrands Filter", (c) => c.brandsV3.countBrands({ filter: { $and: [{ name: "A" }, { _id: { $ne: "b1" } }] } }), Brands.count(Filter.eq("name", "A").ne("_id", "b1")))
    await compare("getOrCreateBrand", (c) => c.brandsV3.getOrCreateBrand("Acme"), Brands.getOrCreate("Acme"))
    await compare(
      "getOrCreateBrand fields",
      (c) => c.brandsV3.getOrCreateBrand("Acme", { fields: ["ASSIGNED_PRODUCTS_COUNT"] }),
      Brands.getOrCreate("Acme", { fields: ["ASSIGNED_PRODUCTS_COUNT"] })
    )
    await compare("bulkGetOrCreateBrands", (c) => c.brandsV3.bulkGetOrCreateBrands(["A", "B"]), Brands.bulkGetOrCreate(["A", "B"]))
    await compare("bulkCreateBrands", (c) => c.brandsV3.bulkCreateBrands([{ name: "A" }, { name: "B" }]), Brands.bulkCreate([{ name: "A" }, { name: "B" }]))
    await compare(
      "bulkCreateBrands returnEntity",
      (c) => c.brandsV3.bulkCreateBrands([{ name: "A" }], { returnEntity: true }),
      Brands.bulkCreate([{ name: "A" }], { returnEntity: true })
    )
    await compare(
      "bulkUpdateBrands",
      (c) => c.brandsV3.bulkUpdateBrands([{ brand: { _id: "b1", revision: "2", name: "A" }, fieldMask: ["name"] }, { brand: { _id: "b2", revision: "1", name: "B" } }], { returnEntity: true }),
      Brands.bulkUpdate([{ brand: { id: "b1", revision: "2", name: "A" }, fieldMask: ["name"] }, { brand: { id: "b2", revision: "1", name: "B" } }], { returnEntity: true })
    )
    await compare("bulkDeleteBrands", (c) => c.brandsV3.bulkDeleteBrands(["b1", "b2"]), Brands.bulkRemove(["b1", "b2"]))
  })

  it("ribbons (queries travel as POST)", async () => {
    await compare("createRibbon", (c) => c.ribbonsV3.createRibbon({ name: "Sale" }), Ribbons.create({ name: "Sale" }))
    await compare("getRibbon", (c) => c.ribbonsV3.getRibbon("r1", { fields: ["ASSIGNED_PRODUCT_COUNT"] }), Ribbons.get("r1", { fields: ["ASSIGNED_PRODUCT_COUNT"] }))
    await compare("updateRibbon", (c) => c.ribbonsV3.updateRibbon("r1", { name: "New", revision: "1" }), Ribbons.update({ id: "r1", name: "New", revision: "1" }))
    await compare("deleteRibbon", (c) => c.ribbonsV3.deleteRibbon("r1"), Ribbons.remove("r1"))
    await compare(
      "queryRibbons and next",
      (c) => c.ribbonsV3.queryRibbons().eq("name", "Sale").descending("name").limit(4).find().then((p) => p.next()),
      Effect.flatMap(Ribbons.query().eq("name", "Sale").descending("name").limit(4).find, (p) => p.next)
    )
    await compare("countRibbons", (c) => c.ribbonsV3.countRibbons({ filter: { name: "Sale" } }), Ribbons.count({ name: "Sale" }))
    await compare("getOrCreateRibbon", (c) => c.ribbonsV3.getOrCreateRibbon("Sale"), Ribbons.getOrCreate("Sale"))
    await compare("bulkGetOrCreateRibbons", (c) => c.ribbonsV3.bulkGetOrCreateRibbons(["Sale", "New"]), Ribbons.bulkGetOrCreate(["Sale", "New"]))
    await compare("bulkCreateRibbons", (c) => c.ribbonsV3.bulkCreateRibbons([{ name: "Sale" }]), Ribbons.bulkCreate([{ name: "Sale" }]))
    await compare(
      "bulkUpdateRibbons",
      (c) => c.ribbonsV3.bulkUpdateRibbons([{ ribbon: { _id: "r1", revision: "1", name: "Hot" } }]),
      Ribbons.bulkUpdate([{ ribbon: { id: "r1", revision: "1", name: "Hot" } }])
    )
    await compare("bulkDeleteRibbons", (c) => c.ribbonsV3.bulkDeleteRibbons(["r1"]), Ribbons.bulkRemove(["r1"]))
  })

  it("info sections", async () => {
    const section = { uniqueName: "care", title: "Care", plainDescription: "<p>Wash cold.</p>" }
    await compare("createInfoSection", (c) => c.infoSectionsV3.createInfoSection(section), InfoSections.create(section))
    await compare("getInfoSection", (c) => c.infoSectionsV3.getInfoSection("i1"), InfoSections.get("i1"))
    await compare(
      "updateInfoSection",
      (c) => c.infoSectionsV3.updateInfoSection("i1", { title: "Care", revision: "2" }, { fields: ["ASSIGNED_PRODUCTS_COUNT"] }),
      InfoSections.update({ id: "i1", title: "Care", revision: "2" }, { fields: ["ASSIGNED_PRODUCTS_COUNT"] })
    )
    await compare("deleteInfoSection", (c) => c.infoSectionsV3.deleteInfoSection("i1"), InfoSections.remove("i1"))
    await compare(
      "queryInfoSections and next",
      (c) => c.infoSectionsV3.queryInfoSections().startsWith("uniqueName", "c").ascending("title").find().then((p) => p.next()),
      Effect.flatMap(InfoSections.query().startsWith("uniqueName", "c").ascending("title").find, (p) => p.next)
    )
    await compare("countInfoSections", (c) => c.infoSectionsV3.countInfoSections(), InfoSections.count())
    await compare(
      "getOrCreateInfoSection",
      (c) => c.infoSectionsV3.getOrCreateInfoSection({ infoSection: { uniqueName: "care", title: "Care" } }),
      InfoSections.getOrCreate({ uniqueName: "care", title: "Care" })
    )
    await compare(
      "bulkGetOrCreateInfoSections",
      (c) => c.infoSectionsV3.bulkGetOrCreateInfoSections({ infoSections: [{ uniqueName: "a" }, { _id: "i2" }] }),
      InfoSections.bulkGetOrCreate([{ uniqueName: "a" }, { id: "i2" }])
    )
    await compare("bulkCreateInfoSections", (c) => c.infoSectionsV3.bulkCreateInfoSections([section], { returnEntity: true }), InfoSections.bulkCreate([section], { returnEntity: true }))
    await compare(
      "bulkUpdateInfoSections",
      (c) => c.infoSectionsV3.bulkUpdateInfoSections([{ infoSection: { _id: "i1", revision: "1", title: "T" }, fieldMask: ["title"] }]),
      InfoSections.bulkUpdate([{ infoSection: { id: "i1", revision: "1", title: "T" }, fieldMask: ["title"] }])
    )
    await compare("bulkDeleteInfoSections", (c) => c.infoSectionsV3.bulkDeleteInfoSections(["i1", "i2"]), InfoSections.bulkRemove(["i1", "i2"]))
  })

  it("customizations", async () => {
    const size = {
      name: "Size",
      customizationType: "PRODUCT_OPTION" as const,
      customizationRenderType: "TEXT_CHOICES" as const,
      choicesSettings: { choices: [{ choiceType: "CHOICE_TEXT" as const, name: "S" }, { choiceType: "CHOICE_TEXT" as const, name: "M" }] }
    }
    const engraving = {
      name: "Engraving",
      customizationType: "MODIFIER" as const,
      customizationRenderType: "FREE_TEXT" as const,
      freeTextInput: { title: "Your text", maxCharCount: 20, defaultAddedPrice: "5" }
    }
    await compare("createCustomization", (c) => c.customizationsV3.createCustomization(size), Customizations.create(size))
    await compare("createCustomization free text", (c) => c.customizationsV3.createCustomization(engraving), Customizations.create(engraving))
    await compare("getCustomization", (c) => c.customizationsV3.getCustomization("c1"), Customizations.get("c1"))
    await compare(
      "updateCustomization",
      (c) => c.customizationsV3.updateCustomization("c1", { name: "Sizes", revision: "1" }),
      Customizations.update({ id: "c1", name: "Sizes", revision: "1" })
    )
    await compare("deleteCustomization", (c) => c.customizationsV3.deleteCustomization("c1"), Customizations.remove("c1"))
    await compare(
      "queryCustomizations and next",
      (c) => c.customizationsV3.queryCustomizations().eq("customizationType", "MODIFIER").limit(10).find().then((p) => p.next()),
      Effect.flatMap(Customizations.query().eq("customizationType", "MODIFIER").limit(10).find, (p) => p.next)
    )
    await compare("countCustomizations", (c) => c.customizationsV3.countCustomizations({ filter: { name: "Size" } }), Customizations.count({ name: "Size" }))
    await compare("bulkCreateCustomizations", (c) => c.customizationsV3.bulkCreateCustomizations([size, engraving]), Customizations.bulkCreate([size, engraving]))
    const choices = [{ choiceType: "CHOICE_TEXT" as const, name: "L", defaultAddedPrice: "2" }]
    await compare("addCustomizationChoices", (c) => c.customizationsV3.addCustomizationChoices("c1", choices), Customizations.addChoices("c1", choices))
    await compare("setCustomizationChoices", (c) => c.customizationsV3.setCustomizationChoices("c1", choices), Customizations.setChoices("c1", choices))
    await compare(
      "removeCustomizationChoices",
      (c) => c.customizationsV3.removeCustomizationChoices("c1", ["ch1"], { revision: "4" }),
      Customizations.removeChoices("c1", ["ch1"], { revision: "4" })
    )
    await compare(
      "updateCustomizationChoices",
      (c) => c.customizationsV3.updateCustomizationChoices("c1", "4", { choices: [{ choice: { _id: "ch1", name: "XL" } }] }),
      Customizations.updateChoices("c1", "4", [{ choice: { id: "ch1", name: "XL" } }])
    )
    await compare(
      "reorderCustomizationChoices",
      (c) => c.customizationsV3.reorderCustomizationChoices("c1", "4", { choiceIds: ["ch2", "ch1"] }),
      Customizations.reorderChoices("c1", "4", ["ch2", "ch1"])
    )
    await compare(
      "bulkAddCustomizationChoices",
      (c) => c.customizationsV3.bulkAddCustomizationChoices([{ customizationId: "c1", choices }], { returnEntity: true }),
      Customizations.bulkAddChoices([{ customizationId: "c1", choices }], { returnEntity: true })
    )
    await compare(
      "bulkUpdateCustomizations",
      (c) => c.customizationsV3.bulkUpdateCustomizations([{ customization: { _id: "c1", revision: "2", name: "Fit" } }]),
      Customizations.bulkUpdate([{ customization: { id: "c1", revision: "2", name: "Fit" } }])
    )
  })

  it("inventory items", async () => {
    await compare(
      "createInventoryItem",
      (c) => c.inventoryItemsV3.createInventoryItem({ variantId: "v1", productId: "p1", quantity: 3 }),
      InventoryItems.create({ variantId: "v1", productId: "p1", quantity: 3 })
    )
    await compare("getInventoryItem", (c) => c.inventoryItemsV3.getInventoryItem("ii1"), InventoryItems.get("ii1"))
    await compare(
      "updateInventoryItem",
      (c) => c.inventoryItemsV3.updateInventoryItem("ii1", { quantity: 5, revision: "2" }, { reason: "MANUAL" }),
      InventoryItems.update({ id: "ii1", quantity: 5, revision: "2" }, { reason: "MANUAL" })
    )
    await compare("deleteInventoryItem", (c) => c.inventoryItemsV3.deleteInventoryItem("ii1"), InventoryItems.remove("ii1"))
    await compare(
      "queryInventoryItems and next",
      (c) => c.inventoryItemsV3.queryInventoryItems().eq("productId", "p1").lt("quantity", 5).ascending("quantity").find().then((p) => p.next()),
      Effect.flatMap(InventoryItems.query().eq("productId", "p1").lt("quantity", 5).ascending("quantity").find, (p) => p.next)
    )
    // countInventoryItems exists at run time but is typed only in the package's internal typings
    const count = (c: Official) => (c.inventoryItemsV3 as unknown as { countInventoryItems: (o: { filter: object }) => Promise<unknown> }).countInventoryItems
    await compare("countInventoryItems", (c) => count(c)({ filter: { productId: "p1" } }), InventoryItems.count({ productId: "p1" }))
    await compare(
      "bulkCreateInventoryItems",
      (c) => c.inventoryItemsV3.bulkCreateInventoryItems([{ variantId: "v1", productId: "p1", inStock: true }], { returnEntity: true }),
      InventoryItems.bulkCreate([{ variantId: "v1", productId: "p1", inStock: true }], { returnEntity: true })
    )
    await compare(
      "bulkUpdateInventoryItems",
      (c) => c.inventoryItemsV3.bulkUpdateInventoryItems([{ inventoryItem: { _id: "ii1", revision: "1", quantity: 2 } }], { reason: "ORDER" }),
      InventoryItems.bulkUpdate([{ inventoryItem: { id: "ii1", revision: "1", quantity: 2 } }], { reason: "ORDER" })
    )
    await compare("bulkDeleteInventoryItems", (c) => c.inventoryItemsV3.bulkDeleteInventoryItems(["ii1"]), InventoryItems.bulkRemove(["ii1"]))
    await compare(
      "bulkIncrementInventoryItems",
      (c) => c.inventoryItemsV3.bulkIncrementInventoryItems([{ inventoryItemId: "ii1", incrementBy: 2 }], { returnEntity: true }),
      InventoryItems.bulkIncrement([{ inventoryItemId: "ii1", incrementBy: 2 }], { returnEntity: true })
    )
    await compare(
      "bulkDecrementInventoryItems",
      (c) => c.inventoryItemsV3.bulkDecrementInventoryItems([{ inventoryItemId: "ii1", decrementBy: 1, preorderRequest: true }], { restrictInventory: false }),
      InventoryItems.bulkDecrement([{ inventoryItemId: "ii1", decrementBy: 1, preorderRequest: true }], { restrictInventory: false })
    )
    await compare(
      "bulkIncrementInventoryItemsByVariantAndLocation",
      (c) => c.inventoryItemsV3.bulkIncrementInventoryItemsByVariantAndLocation([{ variantId: "v1", locationId: "l1", incrementBy: 4 }], { reason: "MANUAL" }),
      InventoryItems.bulkIncrementByVariant([{ variantId: "v1", locationId: "l1", incrementBy: 4 }], { reason: "MANUAL" })
    )
    await compare(
      "bulkDecrementInventoryItemsByVariantAndLocation",
      (c) => c.inventoryItemsV3.bulkDecrementInventoryItemsByVariantAndLocation([{ variantId: "v1", decrementBy: 1 }], { returnEntity: true }),
      InventoryItems.bulkDecrementByVariant([{ variantId: "v1", decrementBy: 1 }], { returnEntity: true })
    )
  })
})

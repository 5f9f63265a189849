/**
 * The catalog v3 entity services' protocol facts as plain values: paths, enumerations, limits and the
 * application codes the local platform answers with. The wire Schemas (`wire/`) and the
 * client's guards read these, so a page that only queries brands carries the lists without Schema.
 */

/** `ANY_STORE` services: answered on any installed store, v1 or v3 catalog. */
const v3 = "/stores/v3"
const enc = encodeURIComponent

export const EntityPaths = {
  brands: `${v3}/brands`,
  brand: (id: string) => `${v3}/brands/${enc(id)}`,
  brandsQuery: `${v3}/brands/query`,
  brandsCount: `${v3}/brands/count`,
  brandGetOrCreate: `${v3}/brands/get-or-create`,
  brandsBulkCreate: `${v3}/bulk/brands/create`,
  brandsBulkUpdate: `${v3}/bulk/brands/update`,
  brandsBulkGetOrCreate: `${v3}/bulk/brands/get-or-create`,
  brandsBulkDelete: `${v3}/bulk/brands/delete`,

  ribbons: `${v3}/ribbons`,
  ribbon: (id: string) => `${v3}/ribbons/${enc(id)}`,
  ribbonsQuery: `${v3}/ribbons/query`,
  ribbonsCount: `${v3}/ribbons/count`,
  ribbonGetOrCreate: `${v3}/ribbons/get-or-create`,
  ribbonsBulkCreate: `${v3}/bulk/ribbons/create`,
  ribbonsBulkUpdate: `${v3}/bulk/ribbons/update`,
  ribbonsBulkGetOrCreate: `${v3}/bulk/ribbons/get-or-create`,
  ribbonsBulkDelete: `${v3}/bulk/ribbons/delete`,

  infoSections: `${v3}/info-sections`,
  infoSection: (id: string) => `${v3}/info-sections/${enc(id)}`,
  infoSectionsQuery: `${v3}/info-sections/query`,
  infoSectionsCount: `${v3}/info-sections/count`,
  infoSectionGetOrCreate: `${v3}/info-sections/get-or-create`,
  infoSectionsBulkCreate: `${v3}/bulk/info-sections/create`,
  infoSectionsBulkUpdate: `${v3}/bulk/info-sections/update`,
  infoSectionsBulkGetOrCreate: `${v3}/bulk/info-sections/get-or-create`,
  infoSectionsBulkDelete: `${v3}/bulk/info-sections/delete`,

  customizations: `${v3}/customizations`,
  customization: (id: string) => `${v3}/customizations/${enc(id)}`,
  customizationsQuery: `${v3}/customizations/query`,
  customizationsCount: `${v3}/customizations/count`,
  customizationsBulkCreate: `${v3}/bulk/customizations/create`,
  customizationsBulkUpdate: `${v3}/bulk/customizations/update`,
  customizationsBulkAddChoices: `${v3}/bulk/customizations/add-choices`,
  addChoices: (id: string) => `${v3}/customizations/${enc(id)}/add-choices`,
  setChoices: (id: string) => `${v3}/customizations/${enc(id)}/set-choices`,
  removeChoices: (id: string) => `${v3}/customizations/${enc(id)}/remove-choices`,
  updateChoices: (id: string) => `${v3}/customizations/${enc(id)}/update-choices`,
  reorderChoices: (id: string) => `${v3}/customizations/${enc(id)}/reorder-choices`,

  inventoryItems: `${v3}/inventory-items`,
  inventoryItem: (id: string) => `${v3}/inventory-items/${enc(id)}`,
  inventoryItemsQuery: `${v3}/inventory-items/query`,
  inventoryItemsCount: `${v3}/inventory-items/count`,
  inventoryBulkCreate: `${v3}/bulk/inventory-items/create`,
  inventoryBulkUpdate: `${v3}/bulk/inventory-items/update`,
  inventoryBulkDelete: `${v3}/bulk/inventory-items/delete`,
  inventoryBulkIncrement: `${v3}/bulk/inventory-items/increment`,
  inventoryBulkDecrement: `${v3}/bulk/inventory-items/decrement`,
  inventoryBulkIncrementByVariant: `${v3}/bulk/inventory-items/increment-by-variant-and-location`,
  inventoryBulkDecrementByVariant: `${v3}/bulk/inventory-items/decrement-by-variant-and-location`
} as const

export const CUSTOMIZATION_TYPES = ["PRODUCT_OPTION", "MODIFIER"] as const
/** A product option (it makes variants) or a modifier (chosen at purchase). */
export type CustomizationType = typeof CUSTOMIZATION_TYPES[number]
export const CUSTOMIZATION_RENDER_TYPES = ["FREE_TEXT", "TEXT_CHOICES", "SWATCH_CHOICES"] as const
/** How a customization is shown: free text, text choices, or swatches. */
export type CustomizationRenderType = typeof CUSTOMIZATION_RENDER_TYPES[number]
export const CHOICE_TYPES = ["CHOICE_TEXT", "ONE_COLOR"] as const
/** A text choice or a color swatch. */
export type ChoiceType = typeof CHOICE_TYPES[number]
export const AVAILABILITY_STATUSES = ["OUT_OF_STOCK", "IN_STOCK", "PREORDER"] as const
/** Whether a v3 inventory item's variant is in stock, out of it, or open for preorder. */
export type AvailabilityStatus = typeof AVAILABILITY_STATUSES[number]
/** Why an inventory quantity changed. */
export const INVENTORY_REASONS = ["ORDER", "MANUAL", "REVERT_INVENTORY_CHANGE"] as const
/** Why a quantity moves, kept with the change: an `ORDER`, a `MANUAL` change, or `REVERT_INVENTORY_CHANGE`. */
export type InventoryReason = typeof INVENTORY_REASONS[number]

/** What `fields` may ask for: brands, customizations and info sections count their products. */
export const BRAND_FIELDS = ["ASSIGNED_PRODUCTS_COUNT"] as const
export const RIBBON_FIELDS = ["ASSIGNED_PRODUCT_COUNT"] as const
export const INFO_SECTION_FIELDS = ["ASSIGNED_PRODUCTS_COUNT"] as const
export const CUSTOMIZATION_FIELDS = ["ASSIGNED_PRODUCTS_COUNT", "CHOICE_DISPLAY_IMAGE"] as const

/** A page of a v3 query holds 50 entities unless the query says otherwise. */
export const DEFAULT_ENTITY_PAGE = 50
/** The largest page each service hands out. */
export const MAX_ENTITY_PAGE = {
  brands: 300,
  ribbons: 100,
  infoSections: 100,
  customizations: 100,
  inventoryItems: 1000
} as const
/** At most this many sort fields in one query. */
export const MAX_ENTITY_SORT = 10
/** Bulk calls of brands, ribbons, info sections and customizations take at most 100 entities. */
export const MAX_ENTITY_BULK = 100
/** Inventory bulk create, update and delete take at most 1000 items; increments and decrements 300. */
export const MAX_INVENTORY_BULK = 1000
export const MAX_INVENTORY_ADJUST = 300
/** Choices of one customization. */
export const MAX_CHOICES = 1000
/** Inventory quantities and adjustments stay within ±99 999. */
export const MAX_QUANTITY = 99_999
/** A v3 query goes as GET `.r` while its query string is at most this long, else as POST. */
export const ENTITY_QUERY_MAX_QUERY = 4000

/** Name lengths the platform enforces. */
export const NAME_LIMITS = {
  brand: 50,
  ribbon: 30,
  infoSectionTitle: 50,
  infoSectionUniqueName: 100,
  customization: 50,
  choice: 50,
  freeTextTitle: 100
} as const

/** Application codes of the entity services' refusals. */
export const EntityCodes = {
  brandNotFound: "BRAND_NOT_FOUND",
  ribbonNotFound: "RIBBON_NOT_FOUND",
  infoSectionNotFound: "INFO_SECTION_NOT_FOUND",
  customizationNotFound: "CUSTOMIZATION_NOT_FOUND",
  inventoryItemNotFound: "INVENTORY_ITEM_NOT_FOUND",
  /** An update named a revision the entity has moved past (someone else wrote in between). */
  revisionMismatch: "REVISION_MISMATCH",
  /** The name (or info section unique name, or variant and location) is taken. */
  alreadyExists: "ALREADY_EXISTS",
  /** A decrement with `restrictInventory` would take a quantity below zero. */
  insufficientInventory: "INSUFFICIENT_INVENTORY",
  /** A choice id a call names is not among the customization's choices. */
  choiceNotFound: "CHOICE_NOT_FOUND",
  /** A reorder must name exactly the customization's choices. */
  choiceIdsMismatch: "CHOICE_IDS_MISMATCH"
} as const

/**
 * The catalog v3 entity services on the wire: brands, ribbons, info sections, customizations and v3
 * inventory items, with every request and answer of their calls. Field names are the wire's (`id`,
 * `createdDate`, `updatedDate` as ISO text, `revision` as the text of an integer). The local platform
 * decodes requests with these (the checks below are the platform's own limits, so a refused field is
 * named in a 400) and writes its answers with them; the client checks answers with the guards of
 * `../entities/guards.ts`, whose types equal these Schemas' types.
 */
import * as Schema from "effect/Schema"
import {
  AVAILABILITY_STATUSES,
  BRAND_FIELDS,
  CHOICE_TYPES,
  CUSTOMIZATION_FIELDS,
  CUSTOMIZATION_RENDER_TYPES,
  CUSTOMIZATION_TYPES,
  INFO_SECTION_FIELDS,
  INVENTORY_REASONS,
  MAX_CHOICES,
  MAX_ENTITY_BULK,
  MAX_ENTITY_SORT,
  MAX_INVENTORY_ADJUST,
  MAX_INVENTORY_BULK,
  MAX_QUANTITY,
  NAME_LIMITS,
  RIBBON_FIELDS
} from "../entities/protocol.ts"
import { BulkActionMetadata, CursorPagingMetadata, Filter, ItemMetadata, SortOrder } from "./common.ts"

const opt = Schema.optionalKey
const nullable = <S extends Schema.Top>(s: S) => Schema.optionalKey(Schema.NullOr(s))

const text = (max: number, min = 0) => Schema.String.check(Schema.isBetweenLength(min, max))
const list = <S extends Schema.Top>(item: S, max: number, min = 0) => Schema.Array(item).check(Schema.isBetweenLength(min, max))
/** An integer within ±`max`. */
const int = (min: number, max: number) => Schema.Int.check(Schema.isBetween({ minimum: min, maximum: max }))
/** A decimal amount as text, as the platform writes prices: `12.5`, at most 3 decimals. */
const Decimal = Schema.String.check(Schema.isPattern(/^\d{1,9}(\.\d{1,3})?$/))

/** Ids are at most 36 characters (GUIDs, or the ids a client chose). */
const Id = text(36, 1)
const Ids = (max: number) => list(Id, max, 1)

export const CustomizationType = Schema.Literals(CUSTOMIZATION_TYPES)
export const CustomizationRenderType = Schema.Literals(CUSTOMIZATION_RENDER_TYPES)
export const ChoiceType = Schema.Literals(CHOICE_TYPES)
export const AvailabilityStatus = Schema.Literals(AVAILABILITY_STATUSES)
export const InventoryReason = Schema.Literals(INVENTORY_REASONS)
export const BrandField = Schema.Literals(BRAND_FIELDS)
export const RibbonField = Schema.Literals(RIBBON_FIELDS)
export const InfoSectionField = Schema.Literals(INFO_SECTION_FIELDS)
export const CustomizationField = Schema.Literals(CUSTOMIZATION_FIELDS)

/** The system fields every v3 entity carries (read-only: ignored when a client sends them). */
const system = {
  id: nullable(Schema.String),
  revision: nullable(Schema.String),
  createdDate: nullable(Schema.String),
  updatedDate: nullable(Schema.String)
}

/** A v3 query: filter, sort (at most 10 fields) and cursor paging. */
export const EntityQuery = Schema.Struct({
  filter: nullable(Filter),
  sort: opt(list(Schema.Struct({ fieldName: text(512, 1), order: opt(SortOrder) }), MAX_ENTITY_SORT)),
  cursorPaging: opt(Schema.Struct({
    limit: nullable(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1000 }))),
    cursor: nullable(text(16000))
  }))
})
export type EntityQuery = typeof EntityQuery.Type

export const CountRequest = Schema.Struct({ filter: nullable(Filter) })
export const CountResponse = Schema.Struct({ count: Schema.Number })
export type CountResponse = typeof CountResponse.Type

/** Results of a bulk call that hands back no entity (deletes). */
export const BulkDeleteResponse = Schema.Struct({
  results: Schema.Array(Schema.Struct({ itemMetadata: ItemMetadata })),
  bulkActionMetadata: BulkActionMetadata
})
export type BulkDeleteResponse = typeof BulkDeleteResponse.Type

/** `{results[]{itemMetadata, item?}, bulkActionMetadata}`, every item's fate in request order. */
const bulkResults = <S extends Schema.Top>(entity: S) =>
  Schema.Struct({
    results: Schema.Array(Schema.Struct({ itemMetadata: ItemMetadata, item: opt(entity) })),
    bulkActionMetadata: BulkActionMetadata
  })

/** A query answer: the entities of one page under their service's key, and the cursors. */
const page = <K extends string, S extends Schema.Top>(key: K, entity: S) =>
  Schema.Struct({ [key]: Schema.Array(entity), pagingMetadata: CursorPagingMetadata } as { [P in K]: Schema.$Array<S> } & {
    pagingMetadata: typeof CursorPagingMetadata
  })

// brands

/** A brand: a name shown with products (unique in the store). */
export const Brand = Schema.Struct({
  ...system,
  name: opt(text(NAME_LIMITS.brand, 1)),
  assignedProductsCount: nullable(Schema.Number)
})
export type Brand = typeof Brand.Type

export const BrandFields = opt(list(BrandField, 100))
export const BrandRequest = Schema.Struct({ brand: Brand })
export const BrandUpdateRequest = Schema.Struct({ brand: Brand, fields: BrandFields })
export const BrandResponse = Schema.Struct({ brand: Brand })
export type BrandResponse = typeof BrandResponse.Type
export const GetBrandRequest = Schema.Struct({ brandId: Schema.String, fields: BrandFields })
export const DeleteBrandRequest = Schema.Struct({ brandId: Schema.String })
export const QueryBrandsRequest = Schema.Struct({ query: opt(EntityQuery), fields: BrandFields })
export const QueryBrandsResponse = page("brands", Brand)
export type QueryBrandsResponse = typeof QueryBrandsResponse.Type
export const GetOrCreateBrandRequest = Schema.Struct({ brandName: text(NAME_LIMITS.brand, 1), fields: BrandFields })
export const BulkCreateBrandsRequest = Schema.Struct({ brands: list(Brand, MAX_ENTITY_BULK, 1), returnEntity: opt(Schema.Boolean) })
export const MaskedBrand = Schema.Struct({ brand: opt(Brand), fieldMask: opt(Schema.String) })
export const BulkUpdateBrandsRequest = Schema.Struct({
  brands: list(MaskedBrand, MAX_ENTITY_BULK, 1),
  returnEntity: opt(Schema.Boolean),
  fields: BrandFields
})
export const BulkGetOrCreateBrandsRequest = Schema.Struct({
  brandNames: list(text(NAME_LIMITS.brand, 1), MAX_ENTITY_BULK, 1),
  fields: BrandFields
})
export const BulkDeleteBrandsRequest = Schema.Struct({ brandIds: Ids(MAX_ENTITY_BULK) })
export const BulkBrandsResponse = bulkResults(Brand)
export type BulkBrandsResponse = typeof BulkBrandsResponse.Type

// ribbons

/** A ribbon: a short label shown over products ("Sale", "New"), unique in the store. */
export const RibbonV3 = Schema.Struct({
  ...system,
  name: opt(text(NAME_LIMITS.ribbon, 1)),
  assignedProductCount: nullable(Schema.Number)
})
export type RibbonV3 = typeof RibbonV3.Type

export const RibbonFields = opt(list(RibbonField, 100))
export const RibbonRequest = Schema.Struct({ ribbon: RibbonV3 })
export const RibbonUpdateRequest = Schema.Struct({ ribbon: RibbonV3, fields: RibbonFields })
export const RibbonResponse = Schema.Struct({ ribbon: RibbonV3 })
export type RibbonResponse = typeof RibbonResponse.Type
export const GetRibbonRequest = Schema.Struct({ ribbonId: Schema.String, fields: RibbonFields })
export const DeleteRibbonRequest = Schema.Struct({ ribbonId: Schema.String })
export const QueryRibbonsRequest = Schema.Struct({ query: opt(EntityQuery), fields: RibbonFields })
export const QueryRibbonsResponse = page("ribbons", RibbonV3)
export type QueryRibbonsResponse = typeof QueryRibbonsResponse.Type
export const GetOrCreateRibbonRequest = Schema.Struct({ ribbonName: text(NAME_LIMITS.ribbon, 1), fields: RibbonFields })
export const BulkCreateRibbonsRequest = Schema.Struct({ ribbons: list(RibbonV3, MAX_ENTITY_BULK, 1), returnEntity: opt(Schema.Boolean) })
export const MaskedRibbon = Schema.Struct({ ribbon: opt(RibbonV3), fieldMask: opt(Schema.String) })
export const BulkUpdateRibbonsRequest = Schema.Struct({
  ribbons: list(MaskedRibbon, MAX_ENTITY_BULK, 1),
  returnEntity: opt(Schema.Boolean),
  fields: RibbonFields
})
export const BulkGetOrCreateRibbonsRequest = Schema.Struct({
  ribbonNames: list(text(NAME_LIMITS.ribbon, 1), MAX_ENTITY_BULK, 1),
  fields: RibbonFields
})
export const BulkDeleteRibbonsRequest = Schema.Struct({ ribbonIds: Ids(MAX_ENTITY_BULK) })
export const BulkRibbonsResponse = bulkResults(RibbonV3)
export type BulkRibbonsResponse = typeof BulkRibbonsResponse.Type

// info sections

/** Rich content (a document of nodes), kept as the client sends it. */
export const RichContent = Schema.Struct({
  nodes: opt(Schema.Array(Schema.Record(Schema.String, Schema.Unknown))),
  metadata: opt(Schema.Record(Schema.String, Schema.Unknown)),
  documentStyle: opt(Schema.Record(Schema.String, Schema.Unknown))
})
export type RichContent = typeof RichContent.Type

/** An info section: a titled text ("Care instructions") products show, found by its unique name. */
export const InfoSection = Schema.Struct({
  ...system,
  uniqueName: opt(text(NAME_LIMITS.infoSectionUniqueName)),
  title: opt(text(NAME_LIMITS.infoSectionTitle, 1)),
  description: opt(RichContent),
  plainDescription: nullable(text(16000)),
  assignedProductsCount: nullable(Schema.Number)
})
export type InfoSection = typeof InfoSection.Type

/** What get-or-create takes: an id or unique name to find, and what to create when there is none. */
export const InfoSectionForGetOrCreate = Schema.Struct({
  id: nullable(Schema.String),
  uniqueName: nullable(text(NAME_LIMITS.infoSectionUniqueName)),
  title: nullable(text(NAME_LIMITS.infoSectionTitle, 1)),
  description: opt(RichContent),
  plainDescription: nullable(text(16000))
})
export type InfoSectionForGetOrCreate = typeof InfoSectionForGetOrCreate.Type

export const InfoSectionFields = opt(list(InfoSectionField, 100))
export const InfoSectionRequest = Schema.Struct({ infoSection: InfoSection })
export const InfoSectionUpdateRequest = Schema.Struct({ infoSection: InfoSection, fields: InfoSectionFields })
export const InfoSectionResponse = Schema.Struct({ infoSection: InfoSection })
export type InfoSectionResponse = typeof InfoSectionResponse.Type
export const GetInfoSectionRequest = Schema.Struct({ infoSectionId: Schema.String, fields: InfoSectionFields })
export const DeleteInfoSectionRequest = Schema.Struct({ infoSectionId: Schema.String })
export const QueryInfoSectionsRequest = Schema.Struct({ query: opt(EntityQuery), fields: InfoSectionFields })
export const QueryInfoSectionsResponse = page("infoSections", InfoSection)
export type QueryInfoSectionsResponse = typeof QueryInfoSectionsResponse.Type
export const GetOrCreateInfoSectionRequest = Schema.Struct({ infoSection: opt(InfoSectionForGetOrCreate), fields: InfoSectionFields })
export const BulkCreateInfoSectionsRequest = Schema.Struct({
  infoSections: list(InfoSection, MAX_ENTITY_BULK, 1),
  returnEntity: opt(Schema.Boolean)
})
export const MaskedInfoSection = Schema.Struct({ infoSection: opt(InfoSection), fieldMask: opt(Schema.String) })
export const BulkUpdateInfoSectionsRequest = Schema.Struct({
  infoSections: list(MaskedInfoSection, MAX_ENTITY_BULK, 1),
  returnEntity: opt(Schema.Boolean),
  fields: InfoSectionFields
})
export const BulkGetOrCreateInfoSectionsRequest = Schema.Struct({
  infoSections: list(InfoSectionForGetOrCreate, MAX_ENTITY_BULK, 1),
  fields: InfoSectionFields
})
export const BulkDeleteInfoSectionsRequest = Schema.Struct({ infoSectionIds: Ids(MAX_ENTITY_BULK) })
export const BulkInfoSectionsResponse = bulkResults(InfoSection)
export type BulkInfoSectionsResponse = typeof BulkInfoSectionsResponse.Type

// customizations

/** An image as the platform describes it (id, url, size, alt text). */
export const EntityImage = Schema.Record(Schema.String, Schema.Unknown)

/** One choice of a customization: a text, or a color swatch. */
export const CustomizationChoice = Schema.Struct({
  id: opt(Schema.String),
  choiceType: opt(ChoiceType),
  key: nullable(Schema.String),
  name: opt(text(NAME_LIMITS.choice, 1)),
  colorCode: opt(text(20, 3)),
  colorCodes: opt(list(text(20, 3), 2)),
  image: opt(EntityImage),
  defaultAddedPrice: nullable(Decimal),
  displayImage: opt(EntityImage),
  primaryChoiceIds: opt(list(Schema.String, 4))
})
export type CustomizationChoice = typeof CustomizationChoice.Type

export const FreeTextSettings = Schema.Struct({
  minCharCount: opt(int(0, 500)),
  maxCharCount: opt(int(0, 500)),
  defaultAddedPrice: nullable(Decimal),
  title: opt(text(NAME_LIMITS.freeTextTitle, 1)),
  key: nullable(Schema.String)
})
export type FreeTextSettings = typeof FreeTextSettings.Type

export const ChoicesSettings = Schema.Struct({ choices: opt(list(CustomizationChoice, MAX_CHOICES)) })
export type ChoicesSettings = typeof ChoicesSettings.Type

/**
 * A customization: a product option (size, color: it makes variants) or a modifier (gift wrap, an
 * engraving: chosen at purchase without making variants), shown as free text, text choices or swatches.
 */
export const Customization = Schema.Struct({
  ...system,
  key: nullable(Schema.String),
  name: opt(text(NAME_LIMITS.customization, 1)),
  customizationType: opt(CustomizationType),
  customizationRenderType: opt(CustomizationRenderType),
  modifierSettings: opt(Schema.Struct({})),
  freeTextInput: opt(FreeTextSettings),
  choicesSettings: opt(ChoicesSettings),
  assignedProductsCount: nullable(Schema.Number)
})
export type Customization = typeof Customization.Type

export const CustomizationFields = opt(list(CustomizationField, 100))
export const CustomizationRequest = Schema.Struct({ customization: Customization })
export const CustomizationUpdateRequest = Schema.Struct({ customization: Customization, fields: CustomizationFields })
export const CustomizationResponse = Schema.Struct({ customization: Customization })
export type CustomizationResponse = typeof CustomizationResponse.Type
export const GetCustomizationRequest = Schema.Struct({ customizationId: Schema.String, fields: CustomizationFields })
export const DeleteCustomizationRequest = Schema.Struct({ customizationId: Schema.String })
export const QueryCustomizationsRequest = Schema.Struct({ query: opt(EntityQuery), fields: CustomizationFields })
export const QueryCustomizationsResponse = page("customizations", Customization)
export type QueryCustomizationsResponse = typeof QueryCustomizationsResponse.Type
export const BulkCreateCustomizationsRequest = Schema.Struct({
  customizations: list(Customization, MAX_ENTITY_BULK, 1),
  returnEntity: opt(Schema.Boolean)
})
export const MaskedCustomization = Schema.Struct({ customization: opt(Customization), fieldMask: opt(Schema.String) })
export const BulkUpdateCustomizationsRequest = Schema.Struct({
  customizations: list(MaskedCustomization, MAX_ENTITY_BULK, 1),
  returnEntity: opt(Schema.Boolean),
  fields: CustomizationFields
})
/** Customization bulk results carry the entity under `customization`, not `item`. */
export const BulkCustomizationsResponse = Schema.Struct({
  results: Schema.Array(Schema.Struct({ itemMetadata: ItemMetadata, customization: opt(Customization) })),
  bulkActionMetadata: BulkActionMetadata
})
export type BulkCustomizationsResponse = typeof BulkCustomizationsResponse.Type
export const AddChoicesRequest = Schema.Struct({
  customizationId: opt(Schema.String),
  choices: list(CustomizationChoice, MAX_CHOICES, 1),
  fields: CustomizationFields
})
export const SetChoicesRequest = AddChoicesRequest
export const RemoveChoicesRequest = Schema.Struct({
  customizationId: opt(Schema.String),
  choiceIds: list(Schema.String, MAX_ENTITY_BULK, 1),
  revision: opt(Schema.String),
  fields: CustomizationFields
})
export const UpdateChoicesRequest = Schema.Struct({
  customizationId: opt(Schema.String),
  revision: Schema.String,
  choices: list(Schema.Struct({ choice: opt(CustomizationChoice), fieldMask: opt(Schema.String) }), MAX_ENTITY_BULK, 1),
  fields: CustomizationFields
})
export const ReorderChoicesRequest = Schema.Struct({
  customizationId: opt(Schema.String),
  revision: Schema.String,
  choiceIds: list(Schema.String, MAX_CHOICES, 1),
  fields: CustomizationFields
})
export const BulkAddChoicesRequest = Schema.Struct({
  customizationsChoices: list(
    Schema.Struct({ customizationId: opt(Schema.String), choices: opt(list(CustomizationChoice, MAX_ENTITY_BULK, 1)) }),
    MAX_CHOICES,
    1
  ),
  returnEntity: opt(Schema.Boolean),
  fields: CustomizationFields
})

// inventory items (v3)

export const PreorderInfoV3 = Schema.Struct({
  enabled: nullable(Schema.Boolean),
  message: nullable(text(250, 1)),
  limit: nullable(int(0, 100_000)),
  counter: nullable(Schema.Number),
  quantity: nullable(Schema.Number)
})
export type PreorderInfoV3 = typeof PreorderInfoV3.Type

/** The product and variant an inventory item counts, as the platform describes them. */
export const InventoryProduct = Schema.Struct({
  name: nullable(text(80)),
  directCategoryIds: opt(list(Schema.String, 2000)),
  variantName: nullable(text(250)),
  variantSku: nullable(text(40)),
  variantVisible: nullable(Schema.Boolean)
})
export type InventoryProduct = typeof InventoryProduct.Type

export const ExtendedFields = Schema.Struct({
  namespaces: opt(Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Unknown)))
})

/**
 * A v3 inventory item: the stock of one variant at one location, counted (`quantity`, with
 * `trackQuantity` true) or only in or out of stock (`inStock`).
 */
export const InventoryItemV3 = Schema.Struct({
  ...system,
  variantId: opt(Id),
  locationId: nullable(Id),
  productId: opt(Id),
  trackQuantity: opt(Schema.Boolean),
  inStock: opt(Schema.Boolean),
  quantity: opt(int(-MAX_QUANTITY, MAX_QUANTITY)),
  availabilityStatus: opt(AvailabilityStatus),
  preorderInfo: opt(PreorderInfoV3),
  product: opt(InventoryProduct),
  extendedFields: opt(ExtendedFields)
})
export type InventoryItemV3 = typeof InventoryItemV3.Type

export const InventoryItemRequest = Schema.Struct({ inventoryItem: InventoryItemV3 })
export const InventoryItemUpdateRequest = Schema.Struct({ inventoryItem: InventoryItemV3, reason: opt(InventoryReason) })
export const InventoryItemResponse = Schema.Struct({ inventoryItem: InventoryItemV3 })
export type InventoryItemResponse = typeof InventoryItemResponse.Type
export const GetInventoryItemRequest = Schema.Struct({ inventoryItemId: Schema.String })
export const DeleteInventoryItemRequest = GetInventoryItemRequest
export const QueryInventoryItemsRequest = Schema.Struct({ query: opt(EntityQuery) })
export const QueryInventoryItemsResponse = page("inventoryItems", InventoryItemV3)
export type QueryInventoryItemsResponse = typeof QueryInventoryItemsResponse.Type
export const BulkCreateInventoryItemsRequest = Schema.Struct({
  inventoryItems: list(InventoryItemV3, MAX_INVENTORY_BULK, 1),
  returnEntity: opt(Schema.Boolean)
})
export const MaskedInventoryItem = Schema.Struct({ inventoryItem: opt(InventoryItemV3), fieldMask: opt(Schema.String) })
export const BulkUpdateInventoryItemsRequest = Schema.Struct({
  inventoryItems: list(MaskedInventoryItem, MAX_INVENTORY_BULK, 1),
  returnEntity: opt(Schema.Boolean),
  reason: opt(InventoryReason)
})
export const BulkDeleteInventoryItemsRequest = Schema.Struct({ inventoryItemIds: Ids(MAX_INVENTORY_BULK) })
const Amount = int(1, MAX_QUANTITY)
export const BulkIncrementRequest = Schema.Struct({
  incrementData: list(Schema.Struct({ inventoryItemId: opt(Schema.String), incrementBy: opt(Amount) }), MAX_INVENTORY_ADJUST, 1),
  returnEntity: opt(Schema.Boolean),
  reason: opt(InventoryReason)
})
export const BulkDecrementRequest = Schema.Struct({
  decrementData: list(
    Schema.Struct({ inventoryItemId: opt(Schema.String), decrementBy: opt(Amount), preorderRequest: opt(Schema.Boolean) }),
    MAX_INVENTORY_ADJUST,
    1
  ),
  restrictInventory: nullable(Schema.Boolean),
  returnEntity: opt(Schema.Boolean),
  reason: opt(InventoryReason)
})
export const BulkIncrementByVariantRequest = Schema.Struct({
  incrementData: list(
    Schema.Struct({
      variantId: opt(Schema.String),
      locationId: nullable(Schema.String),
      incrementBy: opt(Amount),
      productId: opt(Schema.String)
    }),
    MAX_INVENTORY_ADJUST,
    1
  ),
  returnEntity: opt(Schema.Boolean),
  reason: opt(InventoryReason)
})
export const BulkDecrementByVariantRequest = Schema.Struct({
  decrementData: list(
    Schema.Struct({
      variantId: opt(Schema.String),
      locationId: nullable(Schema.String),
      decrementBy: opt(Amount),
      preorderRequest: opt(Schema.Boolean),
      productId: opt(Schema.String)
    }),
    MAX_INVENTORY_ADJUST,
    1
  ),
  restrictInventory: nullable(Schema.Boolean),
  returnEntity: opt(Schema.Boolean),
  reason: opt(InventoryReason)
})
export const BulkInventoryItemsResponse = bulkResults(InventoryItemV3)
export type BulkInventoryItemsResponse = typeof BulkInventoryItemsResponse.Type

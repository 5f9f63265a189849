/**
 * The checks the client runs on the catalog v3 entity services' answers: small guards, not Schema (see
 * `src/http/guard.ts`). Each has exactly the type of its wire Schema in `../wire/entities.ts`, which
 * the tests hold the compiler to.
 */
import * as G from "../../http/guard.ts"
import { AVAILABILITY_STATUSES, CHOICE_TYPES, CUSTOMIZATION_RENDER_TYPES, CUSTOMIZATION_TYPES } from "./protocol.ts"

const opt = G.optional
const nullable = <A>(guard: G.Guard<A>) => G.optional(G.nullOr(guard))

const system = {
  id: nullable(G.string),
  revision: nullable(G.string),
  createdDate: nullable(G.string),
  updatedDate: nullable(G.string)
}

export const ItemMetadata = G.struct({
  id: nullable(G.string),
  originalIndex: opt(G.number),
  success: opt(G.boolean),
  error: nullable(G.struct({
    code: opt(G.string),
    description: opt(G.string),
    data: nullable(G.unknown)
  }))
})

export const BulkActionMetadata = G.struct({
  totalSuccesses: opt(G.number),
  totalFailures: opt(G.number),
  undetailedFailures: opt(G.number)
})

export const CursorPagingMetadata = G.struct({
  count: nullable(G.number),
  cursors: opt(G.struct({ next: nullable(G.string), prev: nullable(G.string) })),
  hasNext: nullable(G.boolean)
})
export type CursorPagingMetadata = G.TypeOf<typeof CursorPagingMetadata>

export const CountResponse = G.struct({ count: G.number })
export const BulkDeleteResponse = G.struct({
  results: G.array(G.struct({ itemMetadata: ItemMetadata })),
  bulkActionMetadata: BulkActionMetadata
})

export type ItemMetadata = G.TypeOf<typeof ItemMetadata>
export type BulkActionMetadata = G.TypeOf<typeof BulkActionMetadata>
export type BulkDeleteResults = G.TypeOf<typeof BulkDeleteResponse>

/** What a bulk call answers: every item's fate in request order, with the entity when asked for. */
export interface BulkResults<A> {
  readonly results: ReadonlyArray<{ readonly itemMetadata: ItemMetadata; readonly item?: A }>
  readonly bulkActionMetadata: BulkActionMetadata
}

const bulkResults = <A>(entity: G.Guard<A>): G.Guard<BulkResults<A>> =>
  G.struct({ results: G.array(G.struct({ itemMetadata: ItemMetadata, item: opt(entity) })), bulkActionMetadata: BulkActionMetadata })

// brands

export const Brand = G.struct({ ...system, name: opt(G.string), assignedProductsCount: nullable(G.number) })
export type Brand = G.TypeOf<typeof Brand>
export const BrandResponse = G.struct({ brand: Brand })
export const QueryBrandsResponse = G.struct({ brands: G.array(Brand), pagingMetadata: CursorPagingMetadata })
export const BulkBrandsResponse = bulkResults(Brand)

// ribbons

export const Ribbon = G.struct({ ...system, name: opt(G.string), assignedProductCount: nullable(G.number) })
export type Ribbon = G.TypeOf<typeof Ribbon>
export const RibbonResponse = G.struct({ ribbon: Ribbon })
export const QueryRibbonsResponse = G.struct({ ribbons: G.array(Ribbon), pagingMetadata: CursorPagingMetadata })
export const BulkRibbonsResponse = bulkResults(Ribbon)

// info sections

export const RichContent = G.struct({
  nodes: opt(G.array(G.object)),
  metadata: opt(G.object),
  documentStyle: opt(G.object)
})
export type RichContent = G.TypeOf<typeof RichContent>
export const InfoSection = G.struct({
  ...system,
  uniqueName: opt(G.string),
  title: opt(G.string),
  description: opt(RichContent),
  plainDescription: nullable(G.string),
  assignedProductsCount: nullable(G.number)
})
export type InfoSection = G.TypeOf<typeof InfoSection>
export const InfoSectionResponse = G.struct({ infoSection: InfoSection })
export const QueryInfoSectionsResponse = G.struct({ infoSections: G.array(InfoSection), pagingMetadata: CursorPagingMetadata })
export const BulkInfoSectionsResponse = bulkResults(InfoSection)

// customizations

export const CustomizationChoice = G.struct({
  id: opt(G.string),
  choiceType: opt(G.literals(CHOICE_TYPES)),
  key: nullable(G.string),
  name: opt(G.string),
  colorCode: opt(G.string),
  colorCodes: opt(G.array(G.string)),
  image: opt(G.object),
  defaultAddedPrice: nullable(G.string),
  displayImage: opt(G.object),
  primaryChoiceIds: opt(G.array(G.string))
})
export type CustomizationChoice = G.TypeOf<typeof CustomizationChoice>
export const FreeTextSettings = G.struct({
  minCharCount: opt(G.number),
  maxCharCount: opt(G.number),
  defaultAddedPrice: nullable(G.string),
  title: opt(G.string),
  key: nullable(G.string)
})
export const Customization = G.struct({
  ...system,
  key: nullable(G.string),
  name: opt(G.string),
  customizationType: opt(G.literals(CUSTOMIZATION_TYPES)),
  customizationRenderType: opt(G.literals(CUSTOMIZATION_RENDER_TYPES)),
  modifierSettings: opt(G.struct({})),
  freeTextInput: opt(FreeTextSettings),
  choicesSettings: opt(G.struct({ choices: opt(G.array(CustomizationChoice)) })),
  assignedProductsCount: nullable(G.number)
})
export type Customization = G.TypeOf<typeof Customization>
export const CustomizationResponse = G.struct({ customization: Customization })
export const QueryCustomizationsResponse = G.struct({ customizations: G.array(Customization), pagingMetadata: CursorPagingMetadata })
export const BulkCustomizationsResponse = G.struct({
  results: G.array(G.struct({ itemMetadata: ItemMetadata, customization: opt(Customization) })),
  bulkActionMetadata: BulkActionMetadata
})
export type BulkCustomizationResults = G.TypeOf<typeof BulkCustomizationsResponse>

// inventory items (v3)

export const PreorderInfo = G.struct({
  enabled: nullable(G.boolean),
  message: nullable(G.string),
  limit: nullable(G.number),
  counter: nullable(G.number),
  quantity: nullable(G.number)
})
export const InventoryProduct = G.struct({
  name: nullable(G.string),
  directCategoryIds: opt(G.array(G.string)),
  variantName: nullable(G.string),
  variantSku: nullable(G.string),
  variantVisible: nullable(G.boolean)
})
export const InventoryItem = G.struct({
  ...system,
  variantId: opt(G.string),
  locationId: nullable(G.string),
  productId: opt(G.string),
  trackQuantity: opt(G.boolean),
  inStock: opt(G.boolean),
  quantity: opt(G.number),
  availabilityStatus: opt(G.literals(AVAILABILITY_STATUSES)),
  preorderInfo: opt(PreorderInfo),
  product: opt(InventoryProduct),
  extendedFields: opt(G.struct({ namespaces: opt(G.record(G.object)) }))
})
export type InventoryItem = G.TypeOf<typeof InventoryItem>
export const InventoryItemResponse = G.struct({ inventoryItem: InventoryItem })
export const QueryInventoryItemsResponse = G.struct({ inventoryItems: G.array(InventoryItem), pagingMetadata: CursorPagingMetadata })
export const BulkInventoryItemsResponse = bulkResults(InventoryItem)

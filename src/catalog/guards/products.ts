/**
 * Guards of the catalog v1 answers (products, variants, collections): the client checks the
 * platform's answers with these rather than with the wire Schemas, which would weigh on every page
 * that lists products. Each guard's type is its Schema's type (test/catalog/guards.test.ts).
 */
import * as G from "../../http/guard.ts"
import {
  DIMENSIONS_UNITS,
  DISCOUNT_TYPES,
  INVENTORY_STATUSES,
  MEASUREMENT_UNITS,
  MEDIA_ITEM_TYPES,
  OPTION_TYPES,
  PRODUCT_TYPES
} from "../protocol.ts"
import { BulkActionMetadata, ItemMetadata, nullable, offsetPage, opt, PagingMetadataV1 } from "./common.ts"

const str = G.string
const num = G.number
const bool = G.boolean

export const FormattedPrice = G.struct({ price: opt(str), discountedPrice: opt(str), pricePerUnit: nullable(str) })
export const PriceData = G.struct({
  currency: opt(str),
  price: nullable(num),
  discountedPrice: opt(num),
  formatted: opt(FormattedPrice),
  pricePerUnit: nullable(num)
})
export const CostAndProfitData = G.struct({
  itemCost: nullable(num),
  formattedItemCost: opt(str),
  profit: opt(num),
  formattedProfit: opt(str),
  profitMargin: opt(num)
})
export const NumericPropertyRange = G.struct({ minValue: opt(num), maxValue: opt(num) })
export const Dimensions = G.struct({
  length: nullable(str),
  width: nullable(str),
  height: nullable(str),
  unit: opt(G.literals(DIMENSIONS_UNITS))
})
const MeasurementUnit = G.literals(MEASUREMENT_UNITS)
export const PricePerUnitData = G.struct({
  totalQuantity: opt(num),
  totalMeasurementUnit: opt(MeasurementUnit),
  baseQuantity: opt(num),
  baseMeasurementUnit: opt(MeasurementUnit)
})
export const Stock = G.struct({
  trackInventory: opt(bool),
  quantity: nullable(num),
  inStock: opt(bool),
  inventoryStatus: opt(G.literals(INVENTORY_STATUSES))
})
export const MediaItemUrlAndSize = G.struct({
  url: opt(str),
  width: opt(num),
  height: opt(num),
  format: nullable(str),
  altText: nullable(str)
})
export const MediaItemVideo = G.struct({ files: opt(G.array(MediaItemUrlAndSize)), stillFrameMediaId: opt(str) })
export const MediaItem = G.struct({
  id: opt(str),
  image: opt(MediaItemUrlAndSize),
  video: opt(MediaItemVideo),
  thumbnail: opt(MediaItemUrlAndSize),
  mediaType: opt(G.literals(MEDIA_ITEM_TYPES)),
  title: opt(str)
})
export const Media = G.struct({ mainMedia: opt(MediaItem), items: opt(G.array(MediaItem)) })
export const Choice = G.struct({ value: opt(str), description: opt(str), media: opt(Media), inStock: opt(bool), visible: opt(bool) })
export const ProductOption = G.struct({ optionType: opt(G.literals(OPTION_TYPES)), name: opt(str), choices: opt(G.array(Choice)) })
export const VariantData = G.struct({
  priceData: opt(PriceData),
  convertedPriceData: opt(PriceData),
  costAndProfitData: opt(CostAndProfitData),
  weight: opt(num),
  sku: opt(str),
  visible: opt(bool),
  productDimensions: opt(Dimensions),
  packageDimensions: opt(Dimensions)
})
export const VariantStock = G.struct({ trackQuantity: opt(bool), quantity: nullable(num), inStock: opt(bool) })
const Choices = G.record(str)
export const Variant = G.struct({ id: opt(str), choices: opt(Choices), variant: opt(VariantData), stock: opt(VariantStock) })
export const Discount = G.struct({ type: opt(G.literals(DISCOUNT_TYPES)), value: opt(num) })
const AdditionalInfoSection = G.struct({ title: opt(str), description: opt(str) })
const Ribbon = G.struct({ text: opt(str) })
const CustomTextField = G.struct({ title: opt(str), maxLength: opt(num), mandatory: opt(bool) })
export const PageUrl = G.struct({ base: opt(str), path: opt(str) })
const SeoData = G.struct({ tags: opt(G.array(G.record(G.unknown))), settings: opt(G.record(G.unknown)) })

export const Product = G.struct({
  id: opt(str),
  name: nullable(str),
  slug: opt(str),
  visible: nullable(bool),
  productType: opt(G.literals(PRODUCT_TYPES)),
  description: nullable(str),
  sku: nullable(str),
  weight: nullable(num),
  weightRange: opt(NumericPropertyRange),
  productDimensions: opt(Dimensions),
  packageDimensions: opt(Dimensions),
  stock: opt(Stock),
  price: opt(PriceData),
  priceData: opt(PriceData),
  convertedPriceData: opt(PriceData),
  priceRange: opt(NumericPropertyRange),
  costAndProfitData: opt(CostAndProfitData),
  costRange: opt(NumericPropertyRange),
  pricePerUnitData: opt(PricePerUnitData),
  additionalInfoSections: opt(G.array(AdditionalInfoSection)),
  ribbons: opt(G.array(Ribbon)),
  media: opt(Media),
  customTextFields: opt(G.array(CustomTextField)),
  manageVariants: nullable(bool),
  productOptions: opt(G.array(ProductOption)),
  productPageUrl: opt(PageUrl),
  numericId: opt(str),
  inventoryItemId: opt(str),
  discount: opt(Discount),
  collectionIds: opt(G.array(str)),
  variants: opt(G.array(Variant)),
  lastUpdated: nullable(str),
  createdDate: nullable(str),
  seoData: opt(SeoData),
  ribbon: nullable(str),
  brand: nullable(str)
})
export type Product = G.TypeOf<typeof Product>

export const Collection = G.struct({
  id: nullable(str),
  name: nullable(str),
  media: opt(Media),
  numberOfProducts: opt(num),
  description: nullable(str),
  slug: nullable(str),
  visible: nullable(bool)
})
export type Collection = G.TypeOf<typeof Collection>

export const ProductResponse = G.struct({ product: opt(Product) })
export const QueryProductsResponse = offsetPage("products", Product)
const VariantInfo = G.struct({
  price: opt(PriceData),
  convertedPriceData: opt(PriceData),
  weight: nullable(num),
  sku: opt(str),
  quantity: nullable(num),
  inStock: opt(bool),
  visible: opt(bool)
})
export const ProductOptionsAvailabilityResponse = G.struct({
  selectedVariant: nullable(VariantInfo),
  media: opt(Media),
  productOptions: opt(G.array(ProductOption)),
  availableForPurchase: opt(bool),
  managedProduct: opt(bool)
})
export const QueryProductVariantsResponse = offsetPage("variants", Variant)
export const StoreVariant = G.struct({
  id: opt(str),
  variantId: opt(str),
  productId: opt(str),
  variantName: opt(str),
  productName: opt(str),
  managedVariant: opt(bool),
  sku: opt(str),
  stock: opt(VariantStock),
  choices: opt(Choices),
  collectionIds: opt(G.array(str)),
  media: opt(MediaItem)
})
export const QueryStoreVariantsResponse = G.struct({ variants: opt(G.array(StoreVariant)), metadata: opt(PagingMetadataV1) })
export const StoreVariantResponse = G.struct({ variant: opt(StoreVariant) })
export const CollectionResponse = G.struct({ collection: opt(Collection) })
export const QueryCollectionsResponse = offsetPage("collections", Collection)
export const UpdateVariantsResponse = G.struct({ variants: opt(G.array(Variant)) })
export const BulkProductsResponse = G.struct({
  results: opt(G.array(G.struct({ itemMetadata: opt(ItemMetadata) }))),
  bulkActionMetadata: opt(BulkActionMetadata)
})

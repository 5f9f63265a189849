/**
 * Catalog v1 on the wire: products with options, choices and variants, collections, and the requests
 * and answers of the v1 reader and writer calls. Field names are the wire's (`id`, `createdDate`,
 * `lastUpdated` as ISO text). One definition serves the local platform and the client's typed tests.
 */
import * as Schema from "effect/Schema"
import {
  BulkActionMetadata,
  DimensionsUnit,
  DiscountType,
  InventoryStatus,
  ItemMetadata,
  MeasurementUnit,
  MediaItemType,
  nullable,
  offsetPage,
  OffsetQuery,
  opt,
  OptionType,
  Paging,
  PagingMetadataV1,
  ProductType
} from "./common.ts"

export const FormattedPrice = Schema.Struct({
  price: opt(Schema.String),
  discountedPrice: opt(Schema.String),
  pricePerUnit: nullable(Schema.String)
})

export const PriceData = Schema.Struct({
  currency: opt(Schema.String),
  price: nullable(Schema.Number),
  discountedPrice: opt(Schema.Number),
  formatted: opt(FormattedPrice),
  pricePerUnit: nullable(Schema.Number)
})
export type PriceData = typeof PriceData.Type

export const CostAndProfitData = Schema.Struct({
  itemCost: nullable(Schema.Number),
  formattedItemCost: opt(Schema.String),
  profit: opt(Schema.Number),
  formattedProfit: opt(Schema.String),
  profitMargin: opt(Schema.Number)
})

export const NumericPropertyRange = Schema.Struct({ minValue: opt(Schema.Number), maxValue: opt(Schema.Number) })

export const Dimensions = Schema.Struct({
  length: nullable(Schema.String),
  width: nullable(Schema.String),
  height: nullable(Schema.String),
  unit: opt(DimensionsUnit)
})

export const PricePerUnitData = Schema.Struct({
  totalQuantity: opt(Schema.Number),
  totalMeasurementUnit: opt(MeasurementUnit),
  baseQuantity: opt(Schema.Number),
  baseMeasurementUnit: opt(MeasurementUnit)
})

export const Stock = Schema.Struct({
  trackInventory: opt(Schema.Boolean),
  quantity: nullable(Schema.Number),
  inStock: opt(Schema.Boolean),
  inventoryStatus: opt(InventoryStatus)
})
export type Stock = typeof Stock.Type

export const MediaItemUrlAndSize = Schema.Struct({
  url: opt(Schema.String),
  width: opt(Schema.Number),
  height: opt(Schema.Number),
  format: nullable(Schema.String),
  altText: nullable(Schema.String)
})
export type MediaItemUrlAndSize = typeof MediaItemUrlAndSize.Type

export const MediaItemVideo = Schema.Struct({
  files: opt(Schema.Array(MediaItemUrlAndSize)),
  stillFrameMediaId: opt(Schema.String)
})

export const MediaItem = Schema.Struct({
  id: opt(Schema.String),
  image: opt(MediaItemUrlAndSize),
  video: opt(MediaItemVideo),
  thumbnail: opt(MediaItemUrlAndSize),
  mediaType: opt(MediaItemType),
  title: opt(Schema.String)
})
export type MediaItem = typeof MediaItem.Type

export const Media = Schema.Struct({ mainMedia: opt(MediaItem), items: opt(Schema.Array(MediaItem)) })
export type Media = typeof Media.Type

export const Choice = Schema.Struct({
  value: opt(Schema.String),
  description: opt(Schema.String),
  media: opt(Media),
  inStock: opt(Schema.Boolean),
  visible: opt(Schema.Boolean)
})
export type Choice = typeof Choice.Type

export const ProductOption = Schema.Struct({
  optionType: opt(OptionType),
  name: opt(Schema.String),
  choices: opt(Schema.Array(Choice))
})
export type ProductOption = typeof ProductOption.Type

export const VariantData = Schema.Struct({
  priceData: opt(PriceData),
  convertedPriceData: opt(PriceData),
  costAndProfitData: opt(CostAndProfitData),
  weight: opt(Schema.Number),
  sku: opt(Schema.String),
  visible: opt(Schema.Boolean),
  productDimensions: opt(Dimensions),
  packageDimensions: opt(Dimensions)
})

export const VariantStock = Schema.Struct({
  trackQuantity: opt(Schema.Boolean),
  quantity: nullable(Schema.Number),
  inStock: opt(Schema.Boolean)
})
export type VariantStock = typeof VariantStock.Type

/** A variant of a product: one choice per option, its own price, weight, SKU and stock. */
export const Variant = Schema.Struct({
  id: opt(Schema.String),
  choices: opt(Schema.Record(Schema.String, Schema.String)),
  variant: opt(VariantData),
  stock: opt(VariantStock)
})
export type Variant = typeof Variant.Type

export const Discount = Schema.Struct({ type: opt(DiscountType), value: opt(Schema.Number) })
export type Discount = typeof Discount.Type

export const AdditionalInfoSection = Schema.Struct({ title: opt(Schema.String), description: opt(Schema.String) })
export const Ribbon = Schema.Struct({ text: opt(Schema.String) })
export const CustomTextField = Schema.Struct({
  title: opt(Schema.String),
  maxLength: opt(Schema.Number),
  mandatory: opt(Schema.Boolean)
})
export const PageUrl = Schema.Struct({ base: opt(Schema.String), path: opt(Schema.String) })
export const SeoData = Schema.Struct({
  tags: opt(Schema.Array(Schema.Record(Schema.String, Schema.Unknown))),
  settings: opt(Schema.Record(Schema.String, Schema.Unknown))
})

/** A catalog v1 product. */
export const Product = Schema.Struct({
  id: opt(Schema.String),
  name: nullable(Schema.String),
  slug: opt(Schema.String),
  visible: nullable(Schema.Boolean),
  productType: opt(ProductType),
  description: nullable(Schema.String),
  sku: nullable(Schema.String),
  weight: nullable(Schema.Number),
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
  additionalInfoSections: opt(Schema.Array(AdditionalInfoSection)),
  ribbons: opt(Schema.Array(Ribbon)),
  media: opt(Media),
  customTextFields: opt(Schema.Array(CustomTextField)),
  manageVariants: nullable(Schema.Boolean),
  productOptions: opt(Schema.Array(ProductOption)),
  productPageUrl: opt(PageUrl),
  numericId: opt(Schema.String),
  inventoryItemId: opt(Schema.String),
  discount: opt(Discount),
  collectionIds: opt(Schema.Array(Schema.String)),
  variants: opt(Schema.Array(Variant)),
  lastUpdated: nullable(Schema.String),
  createdDate: nullable(Schema.String),
  seoData: opt(SeoData),
  ribbon: nullable(Schema.String),
  brand: nullable(Schema.String)
})
export type Product = typeof Product.Type

/** A catalog v1 collection of products. */
export const Collection = Schema.Struct({
  id: nullable(Schema.String),
  name: nullable(Schema.String),
  media: opt(Media),
  numberOfProducts: opt(Schema.Number),
  description: nullable(Schema.String),
  slug: nullable(Schema.String),
  visible: nullable(Schema.Boolean)
})
export type Collection = typeof Collection.Type

// readers

export const ProductResponse = Schema.Struct({ product: opt(Product) })
export const QueryProductsRequest = Schema.Struct({
  query: opt(OffsetQuery),
  includeVariants: opt(Schema.Boolean),
  includeHiddenProducts: opt(Schema.Boolean),
  includeMerchantSpecificData: opt(Schema.Boolean)
})
export type QueryProductsRequest = typeof QueryProductsRequest.Type
export const QueryProductsResponse = offsetPage("products", Product)
export type QueryProductsResponse = typeof QueryProductsResponse.Type

export const ProductOptionsAvailabilityRequest = Schema.Struct({
  id: opt(Schema.String),
  options: opt(Schema.Record(Schema.String, Schema.String))
})
/** The variant a complete choice selects: its price (`price`, as the availability call names it) and stock. */
export const VariantInfo = Schema.Struct({
  price: opt(PriceData),
  convertedPriceData: opt(PriceData),
  weight: nullable(Schema.Number),
  sku: opt(Schema.String),
  quantity: nullable(Schema.Number),
  inStock: opt(Schema.Boolean),
  visible: opt(Schema.Boolean)
})
export const ProductOptionsAvailabilityResponse = Schema.Struct({
  selectedVariant: nullable(VariantInfo),
  media: opt(Media),
  productOptions: opt(Schema.Array(ProductOption)),
  availableForPurchase: opt(Schema.Boolean),
  managedProduct: opt(Schema.Boolean)
})
export type ProductOptionsAvailabilityResponse = typeof ProductOptionsAvailabilityResponse.Type

export const QueryProductVariantsRequest = Schema.Struct({
  id: opt(Schema.String),
  choices: opt(Schema.Record(Schema.String, Schema.String)),
  variantIds: opt(Schema.Array(Schema.String)),
  paging: opt(Paging),
  includeMerchantSpecificData: opt(Schema.Boolean)
})
export const QueryProductVariantsResponse = offsetPage("variants", Variant)

/** A variant across the store: the variant with its product's id and name, media and collections. */
export const StoreVariant = Schema.Struct({
  id: opt(Schema.String),
  variantId: opt(Schema.String),
  productId: opt(Schema.String),
  variantName: opt(Schema.String),
  productName: opt(Schema.String),
  managedVariant: opt(Schema.Boolean),
  sku: opt(Schema.String),
  stock: opt(VariantStock),
  choices: opt(Schema.Record(Schema.String, Schema.String)),
  collectionIds: opt(Schema.Array(Schema.String)),
  media: opt(MediaItem)
})
export type StoreVariant = typeof StoreVariant.Type
export const QueryStoreVariantsRequest = Schema.Struct({ query: opt(OffsetQuery) })
export const QueryStoreVariantsResponse = Schema.Struct({
  variants: opt(Schema.Array(StoreVariant)),
  metadata: opt(PagingMetadataV1)
})
export const StoreVariantResponse = Schema.Struct({ variant: opt(StoreVariant) })

export const CollectionResponse = Schema.Struct({ collection: opt(Collection) })
export const QueryCollectionsRequest = Schema.Struct({ query: opt(OffsetQuery) })
export const QueryCollectionsResponse = offsetPage("collections", Collection)

// writers

export const CreateProductRequest = Schema.Struct({ product: Product })
export const UpdateProductRequest = Schema.Struct({ product: Product })

export const VariantOverride = Schema.Struct({
  choices: opt(Schema.Record(Schema.String, Schema.String)),
  variantIds: opt(Schema.Array(Schema.String)),
  price: opt(Schema.Number),
  cost: opt(Schema.Number),
  weight: opt(Schema.Number),
  sku: opt(Schema.String),
  visible: opt(Schema.Boolean),
  productDimensions: opt(Dimensions),
  packageDimensions: opt(Dimensions)
})
export type VariantOverride = typeof VariantOverride.Type
export const UpdateVariantsRequest = Schema.Struct({ id: opt(Schema.String), variants: Schema.Array(VariantOverride) })
export const UpdateVariantsResponse = Schema.Struct({ variants: opt(Schema.Array(Variant)) })

export const ProductIdsRequest = Schema.Struct({ id: opt(Schema.String), productIds: Schema.Array(Schema.String) })

export const MediaDataForWrite = Schema.Struct({
  mediaId: opt(Schema.String),
  url: opt(Schema.String),
  choice: opt(Schema.Struct({ option: opt(Schema.String), choice: opt(Schema.String) }))
})
export const AddProductMediaRequest = Schema.Struct({ id: opt(Schema.String), media: Schema.Array(MediaDataForWrite) })
export const RemoveProductMediaRequest = Schema.Struct({ id: opt(Schema.String), mediaIds: Schema.Array(Schema.String) })
export const MediaAssignmentToChoice = Schema.Struct({
  option: opt(Schema.String),
  choice: opt(Schema.String),
  mediaIds: opt(Schema.Array(Schema.String))
})
export const ChoicesMediaRequest = Schema.Struct({ id: opt(Schema.String), media: Schema.Array(MediaAssignmentToChoice) })

export const CreateCollectionRequest = Schema.Struct({ collection: Collection })
export const UpdateCollectionRequest = Schema.Struct({ collection: Collection })

/** The property a bulk update sets: one of price, cost, weight, ribbon, brand. */
export const PropertySet = Schema.Struct({
  price: opt(Schema.Number),
  cost: opt(Schema.Number),
  weight: opt(Schema.Number),
  ribbon: opt(Schema.String),
  brand: opt(Schema.String)
})
export const BulkUpdateProductsRequest = Schema.Struct({ ids: Schema.Array(Schema.String), set: PropertySet })

/** A change by a percentage (-100 to 1000), rounded to cents or, with `roundToInt`, to whole units. */
export const PercentageData = Schema.Struct({ rate: opt(Schema.Number), roundToInt: opt(Schema.Boolean) })
/** An adjustment by an amount or a percentage (one of them). */
export const Adjustment = Schema.Struct({ amount: opt(Schema.Number), percentage: opt(PercentageData) })
/** The property a bulk adjust changes: one of price, cost, weight. */
export const PropertyAdjust = Schema.Struct({ price: opt(Adjustment), cost: opt(Adjustment), weight: opt(Adjustment) })
export const BulkAdjustProductsRequest = Schema.Struct({ ids: Schema.Array(Schema.String), adjust: PropertyAdjust })

export const BulkProductResult = Schema.Struct({ itemMetadata: opt(ItemMetadata) })
export const BulkProductsResponse = Schema.Struct({
  results: opt(Schema.Array(BulkProductResult)),
  bulkActionMetadata: opt(BulkActionMetadata)
})
export type BulkProductsResponse = typeof BulkProductsResponse.Type

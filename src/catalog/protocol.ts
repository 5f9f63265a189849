/**
 * The store catalog's protocol facts as plain values: enumerations, limits and paths. The Schemas in
 * `wire/` and the client's answer guards both read these, so a browser page that only queries products
 * carries the lists without carrying Schema.
 */

/** Which catalog a site runs: v1 products, v3 products, or no store at all. */
export const CATALOG_VERSIONS = ["V1_CATALOG", "V3_CATALOG", "STORES_NOT_INSTALLED"] as const
export type CatalogVersion = typeof CATALOG_VERSIONS[number]

export const PRODUCT_TYPES = ["unspecified_product_type", "physical", "digital"] as const
/** Stock status of a v1 product; `PREORDER` appears on v3 catalogs. */
export const INVENTORY_STATUSES = ["IN_STOCK", "OUT_OF_STOCK", "PARTIALLY_OUT_OF_STOCK", "PREORDER"] as const
export const OPTION_TYPES = ["unspecified_option_type", "drop_down", "color"] as const
export const DISCOUNT_TYPES = ["UNDEFINED", "NONE", "AMOUNT", "PERCENT"] as const
export const MEDIA_ITEM_TYPES = ["unspecified_media_item_type", "image", "video", "audio", "document", "zip"] as const
export const DIMENSIONS_UNITS = ["UNKNOWN_DIMENSIONS_UNIT", "MM", "CM", "M", "IN", "FT", "YD"] as const
export const MEASUREMENT_UNITS = [
  "UNSPECIFIED", "ML", "CL", "L", "CBM", "MG", "G", "KG", "MM", "CM", "M", "SQM", "OZ", "LB", "FLOZ", "PT", "QT", "GAL", "IN",
  "FT", "YD", "SQFT"
] as const
export const WEIGHT_UNITS = ["UNSPECIFIED_WEIGHT_UNIT", "KG", "LB"] as const
export const SUBSCRIPTION_FREQUENCIES = ["UNDEFINED", "DAY", "WEEK", "MONTH", "YEAR"] as const
export const IDENTITY_TYPES = ["UNKNOWN", "ANONYMOUS_VISITOR", "MEMBER", "WIX_USER", "APP"] as const
export const SORT_ORDERS = ["ASC", "DESC"] as const

/** v1 product queries take at most 100 items a page; 50 when the query names no limit. */
export const MAX_PRODUCT_PAGE = 100
export const DEFAULT_PRODUCT_PAGE = 50
/** A v1 product query goes as GET `.r` while its query string is at most this long, else as POST. */
export const PRODUCT_QUERY_MAX_QUERY = 4000

/** The paths of the catalog calls, as the platform's official client sends them. */
export const CatalogPaths = {
  version: "/stores/v3/provision/version",
  // catalog v1: readers
  productsQuery: "/stores-reader/v1/products/query-platformized",
  product: (id: string) => `/stores-reader/v1/products/${encodeURIComponent(id)}`,
  optionsAvailability: (id: string) => `/stores-reader/v1/products/${encodeURIComponent(id)}/productOptionsAvailability`,
  productVariantsQuery: (id: string) => `/stores-reader/v1/products/${encodeURIComponent(id)}/variants/query`,
  storeVariantsQuery: "/stores-reader/v1/variants/query",
  storeVariant: (id: string) => `/stores-reader/v1/variants/${encodeURIComponent(id)}`,
  collectionBySlugV1: (slug: string) => `/stores-reader/v1/collections/slug/${encodeURIComponent(slug)}`,
  collectionsQuery: "/v2/collections/query",
  collection: (id: string) => `/v2/collections/${encodeURIComponent(id)}`,
  collectionBySlug: (slug: string) => `/v2/collections/slug/${encodeURIComponent(slug)}`,
  // catalog v1: writers
  products: "/stores/v1/products",
  writeProduct: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}`,
  variants: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/variants`,
  resetVariants: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/variants/resetToDefault`,
  media: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/media`,
  removeMedia: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/media/delete`,
  choicesMedia: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/choices/media`,
  removeChoicesMedia: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/choices/media/delete`,
  options: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/options`,
  removeBrand: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/remove-brand`,
  removeRibbon: (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/remove-ribbon`,
  collections: "/stores/v1/collections",
  writeCollection: (id: string) => `/stores/v1/collections/${encodeURIComponent(id)}`,
  collectionProducts: (id: string) => `/stores/v1/collections/${encodeURIComponent(id)}/productIds`,
  removeCollectionProducts: (id: string) => `/stores/v1/collections/${encodeURIComponent(id)}/productIds/delete`,
  bulkUpdate: "/stores/v1/bulk/products/update",
  bulkAdjust: "/stores/v1/bulk/products/adjust-properties",
  // catalog v1 inventory (the v2 inventory items service)
  inventoryUpdate: (productId: string) => `/stores/v2/inventoryItems/product/${encodeURIComponent(productId)}`,
  inventoryDecrement: "/stores/v2/inventoryItems/decrement",
  inventoryIncrement: "/stores/v2/inventoryItems/increment",
  inventoryVariants: (inventoryId: string) => `/stores-reader/v2/inventoryItems/${encodeURIComponent(inventoryId)}/getVariants`,
  inventoryQuery: "/stores-reader/v2/inventoryItems/query"
} as const

/**
 * The store catalog's protocol facts as plain values: enumerations, limits and paths. The Schemas in
 * `wire/` and the client's answer guards both read these, so a browser page that only queries products
 * carries the lists without carrying Schema.
 */

/** Which catalog a site runs: v1 products, v3 products, or no store at all. */
export const CATALOG_VERSIONS = ["V1_CATALOG", "V3_CATALOG", "STORES_NOT_INSTALLED"] as const
/** The catalog a site runs: `V1_CATALOG`, `V3_CATALOG`, or `STORES_NOT_INSTALLED` when it has no store. */
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

/** The built-in collection of every product (`Collections.ALL_PRODUCTS_COLLECTION_ID`). */
export const ALL_PRODUCTS_ID = "00000000-000000-000000-000000000001"

/** The paths of the catalog calls, as the platform's official client sends them. */
export * as CatalogPaths from "./catalogPaths.ts"

// ---- abandoned carts ---------------------------------------------------------------------------------

export const CART_STATUSES = ["ABANDONED", "RECOVERED"] as const
/** Whether a cart is still abandoned or its buyer came back and paid. */
export type CartStatus = typeof CART_STATUSES[number]
/** Who the buyer of a cart was: the site owner, a member, a visitor, or a contact made for them. */
export const BUYER_IDENTITIES = ["ADMIN", "MEMBER", "VISITOR", "CONTACT"] as const
export const CART_ACTIVITY_TYPES = [
  "UNRECOGNIZED_TYPE", "SCHEDULED", "EMAIL_SENT", "EMAIL_NOT_SENT", "NOTIFICATION_SENT", "TASK_CREATED", "CUSTOM_ACTIVITY"
] as const

/** A cart query returns at most 100 carts a page; 50 when it names no limit. */
export const MAX_CARTS_PAGE = 100
export const DEFAULT_CARTS_PAGE = 50

/** Event types the platform publishes for carts (v1, "non-domain" events). */
export const CartEventTypes = {
  abandoned: "com.wix.ecommerce.cart.abandonment.api.v1.CartAbandonedEvent",
  recovered: "com.wix.ecommerce.cart.abandonment.api.v1.CartRecoveredEvent"
} as const

/** Application codes of the abandoned-carts calls. */
export const CartCodes = {
  notFound: "ABANDONED_CART_NOT_FOUND",
  alreadyRecovered: "ABANDONED_CART_ALREADY_RECOVERED"
} as const

/** The paths as the platform's official client sends them (its raw service paths, no `/stores` prefix). */
export const CartPaths = {
  cart: (id: string) => `/v1/abandonedCarts/${encodeURIComponent(id)}`,
  query: "/v1/abandonedCarts/query"
} as const

// ---- subscription options ----------------------------------------------------------------------------

/** A subscription option's discount: none (`UNDEFINED`), an amount off, or a percentage off. */
export const SUBSCRIPTION_DISCOUNT_TYPES = ["UNDEFINED", "AMOUNT", "PERCENT"] as const
/** How a subscription option's discount is given: an `AMOUNT` off, a `PERCENT` off, or `UNDEFINED` (none). */
export type SubscriptionDiscountType = typeof SUBSCRIPTION_DISCOUNT_TYPES[number]

/** The platform's bounds on a subscription option and on its calls. */
export const SubscriptionLimits = {
  maxTitle: 20,
  maxDescription: 60,
  minBillingCycles: 2,
  maxBillingCycles: 999,
  minInterval: 1,
  maxInterval: 50,
  maxPercent: 100,
  maxAmount: 999_999_999.99,
  /** Options in one bulk call, and ids in one bulk delete. */
  maxBulk: 100,
  /** Options assigned to one product. */
  maxAssigned: 6,
  maxProductIdsPage: 100,
  defaultProductIdsPage: 50
} as const

/** Application codes of the subscription-option calls. */
export const SubscriptionCodes = {
  notFound: "SUBSCRIPTION_OPTION_NOT_FOUND",
  alreadyExists: "SUBSCRIPTION_OPTION_ALREADY_EXISTS"
} as const

const READER = "/_api/subscription-options-reader-server/v1/subscription-options"
const WRITER = "/stores/v1/subscription-options"
const e = (segment: string) => encodeURIComponent(segment)

/** The paths as the platform's official client sends them: readers under their own service, writers under `/stores`. */
export const SubscriptionPaths = {
  option: (id: string) => `${READER}/${e(id)}`,
  forProduct: (productId: string) => `${READER}/byProduct/${e(productId)}`,
  productIds: (id: string) => `${READER}/${e(id)}/productIds`,
  oneTimePurchasesStatus: (productId: string) => `${READER}/product/${e(productId)}/oneTimePurchasesStatus`,
  options: WRITER,
  writeOption: (id: string) => `${WRITER}/${e(id)}`,
  // written out: a template at the top level would keep this object in bundles that never read it
  createBulk: "/stores/v1/subscription-options/createBulk",
  deleteBulk: "/stores/v1/subscription-options/deleteBulk",
  assign: (productId: string) => `${WRITER}/product/${e(productId)}/assign`,
  allowOneTimePurchase: (productId: string) => `${WRITER}/product/${e(productId)}/allowOneTimePurchase`
} as const

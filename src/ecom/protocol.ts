/**
 * The store's current cart on the wire, as plain values: the paths of both cart generations, the
 * application codes their refusals carry, the enumerations their answers use and their event types.
 * The Schemas in `wire/` and the client's answer guards read these, so a page that only adds to the
 * cart carries the lists without carrying Schema.
 */

/** The stores app's id: a `catalogReference.appId` naming a store product. */
export const STORES_APP_ID = "1380b703-ce81-ff05-f115-39571d94dfcd"

/** The cart generations: V1 (`/ecom/v1/carts/current`, `checkoutId` on the cart) and V2 (`/ecom/v2/carts/current`). */
export const CART_GENERATIONS = ["V1", "V2"] as const
/** A cart generation: `"V1"` or `"V2"`. */
export type CartGeneration = typeof CART_GENERATIONS[number]

/** The current-cart calls of Cart V1, as the official client sends them. */
export const CartV1Paths = {
  current: "/ecom/v1/carts/current",
  addToCart: "/ecom/v1/carts/current/add-to-cart",
  removeLineItems: "/ecom/v1/carts/current/remove-line-items",
  updateQuantities: "/ecom/v1/carts/current/update-line-items-quantity",
  estimateTotals: "/ecom/v1/carts/current/estimate-totals",
  createCheckout: "/ecom/v1/carts/current/create-checkout"
} as const

/** The current-cart calls of Cart V2, as the official client sends them. */
export const CartV2Paths = {
  current: "/ecom/v2/carts/current",
  addLineItems: "/ecom/v2/carts/current/add-line-items",
  removeLineItems: "/ecom/v2/carts/current/remove-line-items",
  updateLineItems: "/ecom/v2/carts/current/update-line-items",
  estimate: "/ecom/v2/carts/current/estimate",
  calculate: "/ecom/v2/carts/current/calculate"
} as const

/** The application codes of the cart's refusals (`details.applicationError.code`). */
export const CartCodes = {
  /** The caller has no current cart (a get, an update or an estimate before anything was added). */
  ownedCartNotFound: "OWNED_CART_NOT_FOUND",
  /** A catalog reference names no product or variant a shopper can buy. */
  itemNotFoundInCatalog: "ITEM_NOT_FOUND_IN_CATALOG",
  /** Fewer left in stock than the cart would hold (sold out: none left). */
  insufficientInventory: "INSUFFICIENT_INVENTORY",
  /** A line item id names no line of the cart. */
  lineItemNotFound: "LINE_ITEM_NOT_FOUND_IN_CART",
  /** The cart would hold more lines than it may. */
  maxLineItemsExceeded: "MAX_LINE_ITEMS_EXCEEDED",
  /** createCurrentCart while the caller has a current cart already. */
  cartExists: "CART_ALREADY_EXISTS",
  /** A checkout from an empty cart. */
  emptyCart: "CART_IS_EMPTY"
} as const

/** How many lines one cart holds at most, and how many of one line. */
export const MAX_CART_LINE_ITEMS = 300
export const MAX_LINE_ITEM_QUANTITY = 100_000

/** A line item's availability in Cart V1. */
export const AVAILABILITY_STATUSES = ["AVAILABLE", "NOT_FOUND", "NOT_AVAILABLE", "PARTIALLY_AVAILABLE"] as const
/** A line item's stock status in Cart V2. */
export const ITEM_STATUSES = ["IN_STOCK", "PARTIALLY_IN_STOCK", "OUT_OF_STOCK", "REMOVED_FROM_CATALOG"] as const
export const ITEM_TYPE_PRESETS = ["UNRECOGNISED", "PHYSICAL", "DIGITAL", "GIFT_CARD", "SERVICE"] as const
export const WEIGHT_UNITS = ["UNSPECIFIED_WEIGHT_UNIT", "KG", "LB"] as const

/** The cart's events, one type per change and generation (V1 answers are made from the same cart). */
export const CartEventTypes = {
  v1: { created: "wix.ecom.v1.cart_created", updated: "wix.ecom.v1.cart_updated", deleted: "wix.ecom.v1.cart_deleted" },
  v2: { created: "wix.ecom.v2.cart_created", updated: "wix.ecom.v2.cart_updated", deleted: "wix.ecom.v2.cart_deleted" }
} as const
export const CART_V1_FQDN = "wix.ecom.v1.cart"
export const CART_V2_FQDN = "wix.ecom.v2.cart"

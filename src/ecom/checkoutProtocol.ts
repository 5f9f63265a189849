/**
 * The checkout on the wire, as plain values: the paths of the checkout calls as the official module
 * sends them, the hosted checkout page's path and the query parameter its thank-you redirect carries,
 * the application codes of a checkout's refusals, the sales channels, and the flat shipping rate the
 * local platform charges.
 */

/** The checkout calls, as the official `checkout` module sends them to the platform's API host. */
export const CheckoutPaths = {
  create: "/ecom/v1/checkouts",
  checkout: (id: string) => `/ecom/v1/checkouts/${encodeURIComponent(id)}`,
  checkoutUrl: (id: string) => `/ecom/v1/checkouts/${encodeURIComponent(id)}/checkout-url`,
  markAsCompleted: (id: string) => `/ecom/v1/checkouts/${encodeURIComponent(id)}/mark-as-completed`
} as const

/** The page of the platform where a buyer pays for a checkout (what a checkout redirect session opens). */
export const CHECKOUT_PAGE_PATH = "/checkout"

/** The query parameter the thank-you page URL receives after a checkout: the placed order's id. */
export const THANK_YOU_ORDER_PARAM = "orderId"

/** The application codes of a checkout's refusals (`details.applicationError.code`). */
export const CheckoutCodes = {
  /** No checkout of that id (or not the caller's). */
  checkoutNotFound: "CHECKOUT_NOT_FOUND",
  /** The checkout has its order already: it changes no more. */
  alreadyCompleted: "CHECKOUT_ALREADY_COMPLETED",
  /** A line names nothing a shopper can buy. */
  itemNotFoundInCatalog: "ITEM_NOT_FOUND_IN_CATALOG",
  /** Fewer left in stock than a line holds: the order is refused whole. */
  insufficientInventory: "INSUFFICIENT_INVENTORY",
  /** A checkout without lines. */
  emptyCheckout: "CHECKOUT_IS_EMPTY",
  /** The order needs the buyer's email before it is placed. */
  buyerEmailRequired: "BUYER_EMAIL_REQUIRED"
} as const

/** The sales channel a checkout is created for. */
export const CHANNEL_TYPES = [
  "UNSPECIFIED",
  "WEB",
  "POS",
  "EBAY",
  "AMAZON",
  "OTHER_PLATFORM",
  "WIX_APP_STORE",
  "WIX_INVOICES",
  "BACKOFFICE_MERCHANT",
  "WISH",
  "CLASS_PASS",
  "GLOBAL_E",
  "FACEBOOK",
  "ETSY",
  "TIKTOK",
  "FAIRE_COM",
  "PAYPAL_AGENTIC_CHECKOUT",
  "STRIPE_AGENTIC_CHECKOUT"
] as const
export type ChannelType = typeof CHANNEL_TYPES[number]

/** The one shipping rate of the local platform: a flat amount per order, in the store's currency. */
export const FLAT_SHIPPING_RATE = 5
/** The title of that rate, as the checkout's selected shipping option names it. */
export const FLAT_SHIPPING_TITLE = "Standard shipping (flat rate)"

/** A checkout's entity, as its domain events name it. */
export const CHECKOUT_FQDN = "wix.ecom.v1.checkout"
export const CheckoutEventTypes = {
  created: "wix.ecom.v1.checkout_created",
  updated: "wix.ecom.v1.checkout_updated",
  completed: "wix.ecom.v1.checkout_completed"
} as const

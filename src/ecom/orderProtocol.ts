/**
 * The orders API as it travels: the paths of the admin calls (orders, the payments collector, the
 * fulfillments service), the enumerations an order's fields take, the application codes of its
 * refusals, its event types, and its paging bounds. Shared by sitefx's Orders client and the local
 * platform.
 */

/** The paths of the order calls, as the official clients send them to the platform's API host. */
export const OrderPaths = {
  order: (id: string) => `/ecom/v1/orders/${encodeURIComponent(id)}`,
  search: "/ecom/v1/orders/search",
  cancel: (id: string) => `/ecom/v1/orders/${encodeURIComponent(id)}/cancel`,
  markAsPaid: (id: string) => `/ecom/v1/payments-collector/orders/${encodeURIComponent(id)}/mark-as-paid`,
  fulfillments: (orderId: string) => `/ecom/v1/fulfillments/orders/${encodeURIComponent(orderId)}`,
  createFulfillment: (orderId: string) => `/ecom/v1/fulfillments/orders/${encodeURIComponent(orderId)}/create-fulfillment`
} as const

/** An order's life: placed orders are APPROVED (or PENDING while a payment is under way), then maybe CANCELED. */
export const ORDER_STATUSES = ["INITIALIZED", "APPROVED", "CANCELED", "PENDING", "REJECTED"] as const
/** An order's status, as `Order.status` reads. */
export type OrderStatus = typeof ORDER_STATUSES[number]

export const PAYMENT_STATUSES = [
  "UNSPECIFIED",
  "NOT_PAID",
  "PAID",
  "PARTIALLY_REFUNDED",
  "FULLY_REFUNDED",
  "PENDING",
  "PARTIALLY_PAID",
  "PENDING_MERCHANT",
  "CANCELED",
  "DECLINED"
] as const
/** Where an order's payment stands, as `Order.paymentStatus` reads. */
export type PaymentStatus = typeof PAYMENT_STATUSES[number]

/** How much of an order has been fulfilled. */
export const FULFILLMENT_STATUSES = ["NOT_FULFILLED", "FULFILLED", "PARTIALLY_FULFILLED"] as const
/** How much of an order has been fulfilled, as `Order.fulfillmentStatus` reads. */
export type FulfillmentStatus = typeof FULFILLMENT_STATUSES[number]

/** The entries of an order's history the local platform writes. */
export const ORDER_ACTIVITY_TYPES = ["ORDER_PLACED", "ORDER_PAID", "ORDER_FULFILLED", "ORDER_CANCELED", "TRACKING_NUMBER_ADDED"] as const
export type OrderActivityType = typeof ORDER_ACTIVITY_TYPES[number]

export const CHANNEL_TYPES = ["UNSPECIFIED", "WEB", "POS", "EBAY", "AMAZON", "OTHER_PLATFORM", "WIX_APP_STORE", "WIX_INVOICES", "BACKOFFICE_MERCHANT", "WISH", "CLASS_PASS", "GLOBAL_E", "FACEBOOK", "ETSY", "TIKTOK", "FAIRE"] as const

/** The application codes of the order calls' refusals, and those sitefx raises itself. */
export const OrderCodes = {
  /** No order has this id. */
  notFound: "ORDER_NOT_FOUND",
  /** Mark as paid: the order is paid already. */
  alreadyPaid: "ORDER_ALREADY_PAID",
  /** Cancel: the order waits for its payment. */
  isPending: "ORDER_IS_PENDING",
  /** Cancel: the order was rejected. */
  isRejected: "ORDER_IS_REJECTED",
  /** Cancel: the order is canceled already. */
  alreadyCanceled: "ORDER_ALREADY_CANCELED",
  /** Mark as paid or fulfil: the order is canceled. */
  isCanceled: "ORDER_IS_CANCELED",
  /** Fulfil: every item of the order is fulfilled already, or a line asks for more than is left. */
  nothingToFulfill: "NOTHING_TO_FULFILL",
  /** Fulfil: a line item the order does not have. */
  lineItemNotFound: "LINE_ITEM_NOT_FOUND",
  /** Fulfil: the tracking number is another fulfillment's of the order. */
  trackingNumberExists: "TRACKING_NUMBER_ALREADY_EXISTS",
  /** Search: a cursor this search did not hand out. */
  invalidCursor: "INVALID_CURSOR"
} as const

/** The order's entity, as its domain events name it. */
export const ORDER_ENTITY = "wix.ecom.v1.order"
/** A checkout's entity, as its domain events name it. */
export const CHECKOUT_ENTITY = "wix.ecom.v1.checkout"

/** The event types of orders (domain events on the entity `wix.ecom.v1.order`) and of a completed checkout. */
export const OrderEventTypes = {
  created: "wix.ecom.v1.order_created",
  updated: "wix.ecom.v1.order_updated",
  approved: "wix.ecom.v1.order_approved",
  canceled: "wix.ecom.v1.order_canceled",
  paymentStatusUpdated: "wix.ecom.v1.order_payment_status_updated",
  fulfilled: "wix.ecom.v1.order_fulfilled",
  checkoutCompleted: "wix.ecom.v1.checkout_completed"
} as const

/** A search's page size unless it sets one. */
export const DEFAULT_ORDERS_PAGE = 100
/** The largest page a search may ask for. */
export const MAX_ORDERS_PAGE = 100
/** The most sort fields a search takes. */
export const MAX_ORDER_SORT = 5
/** The first order's number on a new site. */
export const FIRST_ORDER_NUMBER = 10001

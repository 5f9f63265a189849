/**
 * Orders on the wire: the order as the admin calls return it (times as ISO text, amounts as decimal
 * text with their formatted form), the fulfillments of an order, the requests and answers of get,
 * search, cancel, mark as paid and create fulfillment, and the bodies of the order's action events.
 * The local platform decodes requests and writes answers with these; the client checks answers with
 * the guards of `../guards/orders.ts`.
 */
import * as Schema from "effect/Schema"
import { CursorPaging, CursorPagingMetadata, Sorting } from "../../catalog/wire/common.ts"
import { FULFILLMENT_STATUSES, ORDER_ACTIVITY_TYPES, ORDER_STATUSES, PAYMENT_STATUSES } from "../orderProtocol.ts"

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const nullable = <S extends Schema.Top>(s: S) => Schema.optionalKey(Schema.NullOr(s))

export const OrderStatus = Schema.Literals(ORDER_STATUSES)
export const PaymentStatus = Schema.Literals(PAYMENT_STATUSES)
export const FulfillmentStatus = Schema.Literals(FULFILLMENT_STATUSES)

/** An amount: decimal text (`"19.90"`) and as shown (`"$19.90"`). */
export const Price = Schema.Struct({ amount: opt(Schema.String), formattedAmount: opt(Schema.String) })
export type Price = typeof Price.Type

export const ProductName = Schema.Struct({ original: opt(Schema.String), translated: nullable(Schema.String) })

/** Where a line's item comes from: its id in the catalog of the app that sells it, and its options. */
export const CatalogReference = Schema.Struct({
  catalogItemId: opt(Schema.String),
  appId: opt(Schema.String),
  options: nullable(Schema.Record(Schema.String, Schema.Unknown))
})

export const ItemType = Schema.Struct({ preset: opt(Schema.String), custom: opt(Schema.String) })
export const PhysicalProperties = Schema.Struct({ weight: nullable(Schema.Number), sku: nullable(Schema.String), shippable: opt(Schema.Boolean) })

/** One line of an order: what was bought, how many, and at what price. */
export const OrderLineItem = Schema.Struct({
  id: opt(Schema.String),
  productName: opt(ProductName),
  catalogReference: opt(CatalogReference),
  quantity: opt(Schema.Number),
  price: opt(Price),
  totalDiscount: opt(Price),
  totalPriceBeforeTax: opt(Price),
  totalPriceAfterTax: opt(Price),
  itemType: opt(ItemType),
  physicalProperties: opt(PhysicalProperties)
})
export type OrderLineItem = typeof OrderLineItem.Type

/** Who bought: a visitor or a member, their contact and e-mail. */
export const BuyerInfo = Schema.Struct({
  visitorId: opt(Schema.String),
  memberId: opt(Schema.String),
  contactId: nullable(Schema.String),
  email: nullable(Schema.String)
})
export type BuyerInfo = typeof BuyerInfo.Type

export const PriceSummary = Schema.Struct({
  subtotal: opt(Price),
  shipping: opt(Price),
  tax: opt(Price),
  discount: opt(Price),
  total: opt(Price)
})

export const Address = Schema.Struct({
  country: nullable(Schema.String),
  subdivision: nullable(Schema.String),
  city: nullable(Schema.String),
  postalCode: nullable(Schema.String),
  addressLine1: nullable(Schema.String),
  addressLine2: nullable(Schema.String)
})

export const ContactDetails = Schema.Struct({
  firstName: nullable(Schema.String),
  lastName: nullable(Schema.String),
  phone: nullable(Schema.String),
  company: nullable(Schema.String)
})

export const AddressWithContact = Schema.Struct({ address: opt(Address), contactDetails: opt(ContactDetails) })

/** One entry of the order's history. */
export const Activity = Schema.Struct({
  id: nullable(Schema.String),
  createdDate: nullable(Schema.String),
  type: opt(Schema.Literals(ORDER_ACTIVITY_TYPES))
})

export const ChannelInfo = Schema.Struct({ type: opt(Schema.String) })

/** What is left to pay, and what was paid. */
export const BalanceSummary = Schema.Struct({ balance: opt(Price), paid: opt(Price) })

export const CreatedBy = Schema.Struct({
  userId: opt(Schema.String),
  memberId: opt(Schema.String),
  visitorId: opt(Schema.String),
  appId: opt(Schema.String)
})

/** An order: its number, lines, buyer, money, and where it stands (status, payment, fulfillment). */
export const Order = Schema.Struct({
  id: nullable(Schema.String),
  /** The order's number as the store shows it (`"10001"`); numbers follow one another. */
  number: opt(Schema.String),
  createdDate: nullable(Schema.String),
  updatedDate: nullable(Schema.String),
  purchasedDate: nullable(Schema.String),
  lineItems: opt(Schema.Array(OrderLineItem)),
  buyerInfo: opt(BuyerInfo),
  paymentStatus: opt(PaymentStatus),
  fulfillmentStatus: opt(FulfillmentStatus),
  status: opt(OrderStatus),
  currency: nullable(Schema.String),
  weightUnit: opt(Schema.String),
  taxIncludedInPrices: opt(Schema.Boolean),
  priceSummary: opt(PriceSummary),
  billingInfo: opt(AddressWithContact),
  buyerNote: nullable(Schema.String),
  archived: nullable(Schema.Boolean),
  activities: opt(Schema.Array(Activity)),
  channelInfo: opt(ChannelInfo),
  createdBy: opt(CreatedBy),
  seenByAHuman: nullable(Schema.Boolean),
  checkoutId: nullable(Schema.String),
  balanceSummary: opt(BalanceSummary)
})
export type Order = typeof Order.Type

// ---- fulfillments ----------------------------------------------------------------------------------------

export const FulfillmentLineItem = Schema.Struct({ id: opt(Schema.String), quantity: nullable(Schema.Number) })
export const TrackingInfo = Schema.Struct({
  trackingNumber: nullable(Schema.String),
  shippingProvider: nullable(Schema.String),
  trackingLink: nullable(Schema.String)
})

/** One shipment (or hand-over) of some of an order's lines. */
export const Fulfillment = Schema.Struct({
  id: nullable(Schema.String),
  createdDate: nullable(Schema.String),
  lineItems: opt(Schema.Array(FulfillmentLineItem)),
  trackingInfo: opt(TrackingInfo),
  status: nullable(Schema.String),
  completed: nullable(Schema.Boolean)
})
export type Fulfillment = typeof Fulfillment.Type

export const OrderWithFulfillments = Schema.Struct({ orderId: opt(Schema.String), fulfillments: opt(Schema.Array(Fulfillment)) })

// ---- calls -----------------------------------------------------------------------------------------------

export const GetOrderRequest = Schema.Struct({ id: Schema.String })
export const OrderResponse = Schema.Struct({ order: opt(Order) })

/** A search: the data filter language over the order's fields, a sort list and cursor paging. */
export const CursorSearch = Schema.Struct({
  filter: nullable(Schema.Record(Schema.String, Schema.Unknown)),
  sort: opt(Schema.Array(Sorting)),
  cursorPaging: opt(CursorPaging)
})
export const SearchOrdersRequest = Schema.Struct({ search: opt(CursorSearch) })
export type SearchOrdersRequest = typeof SearchOrdersRequest.Type
export const SearchOrdersResponse = Schema.Struct({ orders: opt(Schema.Array(Order)), metadata: opt(CursorPagingMetadata) })

export const CancelOrderRequest = Schema.Struct({
  id: opt(Schema.String),
  sendOrderCanceledEmail: opt(Schema.Boolean),
  customMessage: nullable(Schema.String),
  restockAllItems: opt(Schema.Boolean)
})

export const MarkOrderAsPaidRequest = Schema.Struct({
  ecomOrderId: opt(Schema.String),
  userDefinedPaymentMethodName: opt(Schema.Struct({ predefined: opt(Schema.String), custom: opt(Schema.String) }))
})

export const ListFulfillmentsResponse = Schema.Struct({ orderWithFulfillments: opt(OrderWithFulfillments) })

export const CreateFulfillmentRequest = Schema.Struct({
  orderId: opt(Schema.String),
  fulfillment: Schema.Struct({
    lineItems: opt(Schema.Array(FulfillmentLineItem)),
    trackingInfo: opt(TrackingInfo),
    status: nullable(Schema.String),
    completed: nullable(Schema.Boolean)
  })
})
export type CreateFulfillmentRequest = typeof CreateFulfillmentRequest.Type
export const CreateFulfillmentResponse = Schema.Struct({ orderWithFulfillments: opt(OrderWithFulfillments), fulfillmentId: opt(Schema.String) })

// ---- event bodies ----------------------------------------------------------------------------------------

/** The body of `order_approved`, `order_fulfilled`. */
export const OrderEventBody = Schema.Struct({ order: opt(Order) })
/** The body of `order_payment_status_updated`. */
export const PaymentStatusUpdated = Schema.Struct({ order: opt(Order), previousPaymentStatus: opt(PaymentStatus) })
/** The body of `order_canceled`. */
export const OrderCanceled = Schema.Struct({
  order: opt(Order),
  restockAllItems: opt(Schema.Boolean),
  sendOrderCanceledEmail: opt(Schema.Boolean),
  customMessage: nullable(Schema.String)
})
/** The body of `checkout_completed`: the checkout the order came from (its id, buyer and lines as the platform keeps them). */
export const CheckoutCompleted = Schema.Struct({
  checkout: opt(Schema.Struct({
    id: nullable(Schema.String),
    buyerInfo: opt(Schema.Record(Schema.String, Schema.Unknown)),
    lineItems: opt(Schema.Array(Schema.Record(Schema.String, Schema.Unknown))),
    currency: opt(Schema.String),
    completed: opt(Schema.Boolean)
  }))
})

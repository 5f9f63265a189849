/**
 * Guards of the order answers the client reads, without Schema. The Schemas of the same shapes are in
 * `../wire/orders.ts`; test/ecom/guards.test.ts keeps each guard's type equal to its Schema's.
 */
import * as G from "../../http/guard.ts"
import { FULFILLMENT_STATUSES, ORDER_ACTIVITY_TYPES, ORDER_STATUSES, PAYMENT_STATUSES } from "../orderProtocol.ts"

const opt = G.optional
const nullable = <A>(guard: G.Guard<A>) => G.optional(G.nullOr(guard))
const optStr = opt(G.string)
const nullStr = nullable(G.string)

export const Price = G.struct({ amount: optStr, formattedAmount: optStr })
export const ProductName = G.struct({ original: optStr, translated: nullStr })
export const CatalogReference = G.struct({ catalogItemId: optStr, appId: optStr, options: nullable(G.object) })
export const ItemType = G.struct({ preset: optStr, custom: optStr })
export const PhysicalProperties = G.struct({ weight: nullable(G.number), sku: nullStr, shippable: opt(G.boolean) })

export const OrderLineItem = G.struct({
  id: optStr,
  productName: opt(ProductName),
  catalogReference: opt(CatalogReference),
  quantity: opt(G.number),
  price: opt(Price),
  totalDiscount: opt(Price),
  totalPriceBeforeTax: opt(Price),
  totalPriceAfterTax: opt(Price),
  itemType: opt(ItemType),
  physicalProperties: opt(PhysicalProperties)
})

export const BuyerInfo = G.struct({ visitorId: optStr, memberId: optStr, contactId: nullStr, email: nullStr })
export const PriceSummary = G.struct({ subtotal: opt(Price), shipping: opt(Price), tax: opt(Price), discount: opt(Price), total: opt(Price) })
export const Address = G.struct({
  country: nullStr,
  subdivision: nullStr,
  city: nullStr,
  postalCode: nullStr,
  addressLine1: nullStr,
  addressLine2: nullStr
})
export const ContactDetails = G.struct({ firstName: nullStr, lastName: nullStr, phone: nullStr, company: nullStr })
export const AddressWithContact = G.struct({ address: opt(Address), contactDetails: opt(ContactDetails) })
export const Activity = G.struct({ id: nullStr, createdDate: nullStr, type: opt(G.literals(ORDER_ACTIVITY_TYPES)) })
export const ChannelInfo = G.struct({ type: optStr })
export const BalanceSummary = G.struct({ balance: opt(Price), paid: opt(Price) })
export const CreatedBy = G.struct({ userId: optStr, memberId: optStr, visitorId: optStr, appId: optStr })

export const Order = G.struct({
  id: nullStr,
  number: optStr,
  createdDate: nullStr,
  updatedDate: nullStr,
  purchasedDate: nullStr,
  lineItems: opt(G.array(OrderLineItem)),
  buyerInfo: opt(BuyerInfo),
  paymentStatus: opt(G.literals(PAYMENT_STATUSES)),
  fulfillmentStatus: opt(G.literals(FULFILLMENT_STATUSES)),
  status: opt(G.literals(ORDER_STATUSES)),
  currency: nullStr,
  weightUnit: optStr,
  taxIncludedInPrices: opt(G.boolean),
  priceSummary: opt(PriceSummary),
  billingInfo: opt(AddressWithContact),
  buyerNote: nullStr,
  archived: nullable(G.boolean),
  activities: opt(G.array(Activity)),
  channelInfo: opt(ChannelInfo),
  createdBy: opt(CreatedBy),
  seenByAHuman: nullable(G.boolean),
  checkoutId: nullStr,
  balanceSummary: opt(BalanceSummary)
})
export type Order = G.TypeOf<typeof Order>

export const FulfillmentLineItem = G.struct({ id: optStr, quantity: nullable(G.number) })
export const TrackingInfo = G.struct({ trackingNumber: nullStr, shippingProvider: nullStr, trackingLink: nullStr })
export const Fulfillment = G.struct({
  id: nullStr,
  createdDate: nullStr,
  lineItems: opt(G.array(FulfillmentLineItem)),
  trackingInfo: opt(TrackingInfo),
  status: nullStr,
  completed: nullable(G.boolean)
})
export type Fulfillment = G.TypeOf<typeof Fulfillment>
export const OrderWithFulfillments = G.struct({ orderId: optStr, fulfillments: opt(G.array(Fulfillment)) })

export const CursorPagingMetadata = G.struct({
  count: nullable(G.number),
  cursors: opt(G.struct({ next: nullStr, prev: nullStr })),
  hasNext: nullable(G.boolean)
})

export const OrderResponse = G.struct({ order: opt(Order) })
export const SearchOrdersResponse = G.struct({ orders: opt(G.array(Order)), metadata: opt(CursorPagingMetadata) })
export const ListFulfillmentsResponse = G.struct({ orderWithFulfillments: opt(OrderWithFulfillments) })
export const CreateFulfillmentResponse = G.struct({ orderWithFulfillments: opt(OrderWithFulfillments), fulfillmentId: optStr })

export const OrderEventBody = G.struct({ order: opt(Order) })
export const PaymentStatusUpdated = G.struct({ order: opt(Order), previousPaymentStatus: opt(G.literals(PAYMENT_STATUSES)) })
export const OrderCanceled = G.struct({ order: opt(Order), restockAllItems: opt(G.boolean), sendOrderCanceledEmail: opt(G.boolean), customMessage: nullStr })
export const CheckoutCompleted = G.struct({
  checkout: opt(G.struct({
    id: nullStr,
    buyerInfo: opt(G.object),
    lineItems: opt(G.array(G.object)),
    currency: optStr,
    completed: opt(G.boolean)
  }))
})

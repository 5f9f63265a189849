/**
 * The checkout on the wire: the checkout as the checkout calls answer it (its lines priced like a
 * Cart V1 cart's, the buyer, the billing and shipping addresses, the selected shipping rate, totals,
 * whether it is completed), and the requests and answers of create, get, update, get URL and mark as
 * completed. The local platform decodes requests and writes answers with these; the client checks
 * answers with the guards of `../guards/checkouts.ts`.
 */
import * as Schema from "effect/Schema"
import { CHANNEL_TYPES } from "../checkoutProtocol.ts"
import { WEIGHT_UNITS } from "../protocol.ts"
import { BuyerInfoV1, LineItemInput, LineItemV1, MultiCurrencyPrice } from "./carts.ts"
import { AddressWithContact } from "./orders.ts"

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const nullable = <S extends Schema.Top>(s: S) => Schema.optionalKey(Schema.NullOr(s))

export const ChannelType = Schema.Literals(CHANNEL_TYPES)

/** The shipping rate a checkout charges: its code, title and cost. */
export const SelectedShippingOption = Schema.Struct({
  code: opt(Schema.String),
  title: opt(Schema.String),
  cost: opt(Schema.Struct({
    totalPriceAfterTax: opt(MultiCurrencyPrice),
    totalPriceBeforeTax: opt(MultiCurrencyPrice),
    price: opt(MultiCurrencyPrice)
  }))
})

/** Where the order ships to, and at what rate. */
export const ShippingInfo = Schema.Struct({
  shippingDestination: opt(AddressWithContact),
  selectedCarrierServiceOption: opt(SelectedShippingOption)
})

/** A checkout's totals, in the store's currency and the buyer's. */
export const CheckoutPriceSummary = Schema.Struct({
  subtotal: opt(MultiCurrencyPrice),
  shipping: opt(MultiCurrencyPrice),
  tax: opt(MultiCurrencyPrice),
  discount: opt(MultiCurrencyPrice),
  total: opt(MultiCurrencyPrice)
})

export const CheckoutCreatedBy = Schema.Struct({
  visitorId: opt(Schema.String),
  memberId: opt(Schema.String),
  userId: opt(Schema.String),
  appId: opt(Schema.String)
})

/** A checkout: what is bought, by whom, shipped where, for how much; `completed` once its order is placed. */
export const Checkout = Schema.Struct({
  id: nullable(Schema.String),
  lineItems: opt(Schema.Array(LineItemV1)),
  billingInfo: opt(AddressWithContact),
  shippingInfo: opt(ShippingInfo),
  buyerNote: nullable(Schema.String),
  buyerInfo: opt(BuyerInfoV1),
  conversionCurrency: opt(Schema.String),
  paymentCurrency: opt(Schema.String),
  currency: opt(Schema.String),
  priceSummary: opt(CheckoutPriceSummary),
  payNow: opt(CheckoutPriceSummary),
  appliedDiscounts: opt(Schema.Array(Schema.Unknown)),
  weightUnit: opt(Schema.Literals(WEIGHT_UNITS)),
  channelType: opt(ChannelType),
  completed: opt(Schema.Boolean),
  taxIncludedInPrice: opt(Schema.Boolean),
  createdBy: opt(CheckoutCreatedBy),
  createdDate: nullable(Schema.String),
  updatedDate: nullable(Schema.String),
  cartId: nullable(Schema.String)
})
export type Checkout = typeof Checkout.Type

/** What an update may change: the buyer's email, the addresses and the buyer's note. */
export const CheckoutUpdate = Schema.Struct({
  id: nullable(Schema.String),
  buyerInfo: opt(Schema.Struct({ email: nullable(Schema.String) })),
  billingInfo: opt(AddressWithContact),
  shippingInfo: opt(Schema.Struct({ shippingDestination: opt(AddressWithContact) })),
  buyerNote: nullable(Schema.String)
})
export type CheckoutUpdate = typeof CheckoutUpdate.Type

/** `POST /ecom/v1/checkouts`: lines (catalog references and quantities), a channel, maybe the checkout's first details. */
export const NewCheckoutRequest = Schema.Struct({
  checkoutInfo: opt(CheckoutUpdate),
  lineItems: opt(Schema.Array(LineItemInput)),
  customLineItems: opt(Schema.Array(Schema.Unknown)),
  channelType: opt(Schema.String),
  couponCode: nullable(Schema.String),
  giftCardCode: nullable(Schema.String),
  overrideCheckoutUrl: nullable(Schema.String)
})
export type NewCheckoutRequest = typeof NewCheckoutRequest.Type

/** `PATCH /ecom/v1/checkouts/{id}`. */
export const UpdateCheckoutRequest = Schema.Struct({
  checkout: CheckoutUpdate,
  couponCode: nullable(Schema.String),
  giftCardCode: nullable(Schema.String),
  overrideCheckoutUrl: nullable(Schema.String),
  lineItems: opt(Schema.Array(Schema.Unknown)),
  customLineItems: opt(Schema.Array(Schema.Unknown))
})
export type UpdateCheckoutRequest = typeof UpdateCheckoutRequest.Type

/** Create, get and update answer the checkout. */
export const CheckoutResponse = Schema.Struct({ checkout: opt(Checkout) })
export type CheckoutResponse = typeof CheckoutResponse.Type

/** `GET /ecom/v1/checkouts/{id}/checkout-url`: the page where the buyer pays. */
export const CheckoutUrlResponse = Schema.Struct({ checkoutUrl: opt(Schema.String) })
export type CheckoutUrlResponse = typeof CheckoutUrlResponse.Type

/** `POST /ecom/v1/checkouts/{id}/mark-as-completed` answers nothing. */
export const MarkAsCompletedResponse = Schema.Struct({})

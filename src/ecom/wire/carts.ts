/**
 * The current cart on the wire, both generations. Cart V1 (`/ecom/v1/carts/current`) holds `lineItems`
 * with prices as `MultiCurrencyPrice` and a `checkoutId`; Cart V2 (`/ecom/v2/carts/current`) holds
 * `lineItems` with `quantityInfo`, `pricing` and `source`, and answers an estimate with a `summary`.
 * Amounts are decimal text (`"12.5"`), times ISO text, ids `id` (the official client renames them to
 * `_id` for its users). Used by the local platform to read requests and write answers; the client
 * checks answers with the guards of `../guards/carts.ts`.
 */
import * as Schema from "effect/Schema"
import { AVAILABILITY_STATUSES, ITEM_STATUSES, ITEM_TYPE_PRESETS, WEIGHT_UNITS } from "../protocol.ts"

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const nullable = <S extends Schema.Top>(s: S) => Schema.optionalKey(Schema.NullOr(s))

/** What a line item is in the catalog: the app that sells it, the item's id in that app, and its options. */
export const CatalogReference = Schema.Struct({
  catalogItemId: Schema.String,
  appId: Schema.String,
  /** Store products: `{ variantId }`, or `{ options: { Size: "L" } }` (option name → choice). */
  options: nullable(Schema.Record(Schema.String, Schema.Unknown))
})
export type CatalogReference = typeof CatalogReference.Type

/** Text in the site's language and the buyer's. */
export const TranslatableString = Schema.Struct({ original: opt(Schema.String), translated: nullable(Schema.String) })

/** A line's option choice as the cart page shows it: `Size: L`, or a color with its code. */
export const DescriptionLine = Schema.Struct({
  name: opt(TranslatableString),
  plainText: opt(TranslatableString),
  colorInfo: opt(Schema.Struct({ original: opt(Schema.String), translated: nullable(Schema.String), code: nullable(Schema.String) }))
})

export const PhysicalProperties = Schema.Struct({
  weight: nullable(Schema.Number),
  sku: nullable(Schema.String),
  shippable: opt(Schema.Boolean)
})

export const ItemType = Schema.Struct({ preset: opt(Schema.Literals(ITEM_TYPE_PRESETS)), custom: opt(Schema.String) })

// ---- Cart V1 ------------------------------------------------------------------------------------------

/** An amount in the store's currency and the buyer's, as text and formatted (`"12.5"`, `"$12.50"`). */
export const MultiCurrencyPrice = Schema.Struct({
  amount: opt(Schema.String),
  convertedAmount: opt(Schema.String),
  formattedAmount: opt(Schema.String),
  formattedConvertedAmount: opt(Schema.String)
})
export type MultiCurrencyPrice = typeof MultiCurrencyPrice.Type

export const AvailabilityInfo = Schema.Struct({
  status: opt(Schema.Literals(AVAILABILITY_STATUSES)),
  quantityAvailable: nullable(Schema.Number)
})

/** A Cart V1 line: what it is, how many, and its prices (`price` after the product's discount). */
export const LineItemV1 = Schema.Struct({
  id: opt(Schema.String),
  quantity: opt(Schema.Number),
  catalogReference: opt(CatalogReference),
  productName: opt(TranslatableString),
  url: opt(Schema.String),
  price: opt(MultiCurrencyPrice),
  fullPrice: opt(MultiCurrencyPrice),
  priceBeforeDiscounts: opt(MultiCurrencyPrice),
  lineItemPrice: opt(MultiCurrencyPrice),
  descriptionLines: opt(Schema.Array(DescriptionLine)),
  image: opt(Schema.String),
  availability: opt(AvailabilityInfo),
  physicalProperties: opt(PhysicalProperties),
  itemType: opt(ItemType),
  paymentOption: opt(Schema.String),
  rootCatalogItemId: nullable(Schema.String),
  customLineItem: opt(Schema.Boolean),
  priceUndetermined: opt(Schema.Boolean),
  fixedQuantity: opt(Schema.Boolean)
})
export type LineItemV1 = typeof LineItemV1.Type

export const BuyerInfoV1 = Schema.Struct({
  visitorId: opt(Schema.String),
  memberId: opt(Schema.String),
  userId: opt(Schema.String),
  contactId: nullable(Schema.String),
  email: nullable(Schema.String)
})

/** A Cart V1 cart. */
export const CartV1 = Schema.Struct({
  id: nullable(Schema.String),
  lineItems: opt(Schema.Array(LineItemV1)),
  buyerNote: nullable(Schema.String),
  buyerInfo: opt(BuyerInfoV1),
  currency: opt(Schema.String),
  conversionCurrency: opt(Schema.String),
  paymentCurrency: opt(Schema.String),
  buyerLanguage: nullable(Schema.String),
  siteLanguage: nullable(Schema.String),
  taxIncludedInPrices: nullable(Schema.Boolean),
  weightUnit: opt(Schema.Literals(WEIGHT_UNITS)),
  checkoutId: nullable(Schema.String),
  appliedDiscounts: opt(Schema.Array(Schema.Unknown)),
  createdDate: nullable(Schema.String),
  updatedDate: nullable(Schema.String)
})
export type CartV1 = typeof CartV1.Type

/** A line to add: a catalog item and how many (1 when left out). */
export const LineItemInput = Schema.Struct({
  catalogReference: CatalogReference,
  quantity: opt(Schema.Number)
})

export const AddToCurrentCartRequest = Schema.Struct({
  lineItems: opt(Schema.Array(LineItemInput)),
  customLineItems: opt(Schema.Array(Schema.Unknown)),
  businessLocationId: nullable(Schema.String)
})
export type AddToCurrentCartRequest = typeof AddToCurrentCartRequest.Type

export const UpdateLineItemsQuantityRequest = Schema.Struct({
  lineItems: Schema.Array(Schema.Struct({ id: Schema.String, quantity: Schema.Number }))
})
export type UpdateLineItemsQuantityRequest = typeof UpdateLineItemsQuantityRequest.Type

export const RemoveLineItemsRequest = Schema.Struct({ lineItemIds: Schema.Array(Schema.String) })
export type RemoveLineItemsRequest = typeof RemoveLineItemsRequest.Type

export const EstimateTotalsRequest = Schema.Struct({
  selectedShippingOption: opt(Schema.Unknown),
  shippingAddress: opt(Schema.Unknown),
  billingAddress: opt(Schema.Unknown),
  selectedMemberships: opt(Schema.Unknown),
  calculateTax: nullable(Schema.Boolean),
  calculateShipping: nullable(Schema.Boolean),
  calculateAdditionalFees: nullable(Schema.Boolean)
})
export type EstimateTotalsRequest = typeof EstimateTotalsRequest.Type

/** Every Cart V1 write and get answers the cart. */
export const CartV1Response = Schema.Struct({ cart: opt(CartV1) })
export type CartV1Response = typeof CartV1Response.Type

export const PriceSummaryV1 = Schema.Struct({
  subtotal: opt(MultiCurrencyPrice),
  shipping: opt(MultiCurrencyPrice),
  tax: opt(MultiCurrencyPrice),
  discount: opt(MultiCurrencyPrice),
  total: opt(MultiCurrencyPrice),
  additionalFees: opt(MultiCurrencyPrice)
})

export const CalculatedLineItem = Schema.Struct({
  lineItemId: opt(Schema.String),
  pricesBreakdown: opt(Schema.Struct({
    totalPriceAfterTax: opt(MultiCurrencyPrice),
    totalPriceBeforeTax: opt(MultiCurrencyPrice),
    totalDiscount: opt(MultiCurrencyPrice),
    price: opt(MultiCurrencyPrice),
    priceBeforeDiscounts: opt(MultiCurrencyPrice),
    lineItemPrice: opt(MultiCurrencyPrice),
    fullPrice: opt(MultiCurrencyPrice)
  })),
  paymentOption: opt(Schema.String)
})

/** The totals of the cart as a checkout would start them: no shipping chosen yet, tax by the site's rule. */
export const EstimateTotalsResponse = Schema.Struct({
  cart: opt(CartV1),
  calculatedLineItems: opt(Schema.Array(CalculatedLineItem)),
  priceSummary: opt(PriceSummaryV1),
  currency: opt(Schema.String),
  weightUnit: opt(Schema.Literals(WEIGHT_UNITS)),
  appliedDiscounts: opt(Schema.Array(Schema.Unknown))
})
export type EstimateTotalsResponse = typeof EstimateTotalsResponse.Type

export const CreateCheckoutRequest = Schema.Struct({
  channelType: opt(Schema.String),
  shippingAddress: opt(Schema.Unknown),
  billingAddress: opt(Schema.Unknown),
  selectedShippingOption: opt(Schema.Unknown),
  email: nullable(Schema.String)
})
export type CreateCheckoutRequest = typeof CreateCheckoutRequest.Type
export const CreateCheckoutResponse = Schema.Struct({ checkoutId: opt(Schema.String) })

// ---- Cart V2 ------------------------------------------------------------------------------------------

/** An amount in the store's currency and the buyer's, as decimal text. */
export const ConvertedMoney = Schema.Struct({ amount: opt(Schema.String), convertedAmount: opt(Schema.String) })
export type ConvertedMoney = typeof ConvertedMoney.Type

/** A Cart V2 line: its name, quantities, pricing, source in the catalog and attributes. */
export const LineItemV2 = Schema.Struct({
  id: opt(Schema.String),
  name: opt(TranslatableString),
  quantityInfo: opt(Schema.Struct({
    confirmedQuantity: opt(Schema.Number),
    requestedQuantity: opt(Schema.Number),
    availableQuantity: nullable(Schema.Number),
    fixedQuantity: opt(Schema.Boolean)
  })),
  pricing: opt(Schema.Struct({
    unitPrice: opt(ConvertedMoney),
    totalPrice: opt(ConvertedMoney),
    priceUndetermined: opt(Schema.Boolean),
    breakdown: opt(Schema.Struct({ fullPrice: opt(ConvertedMoney), salePrice: opt(ConvertedMoney) }))
  })),
  source: opt(Schema.Struct({ catalogReference: opt(CatalogReference), rootCatalogItemId: nullable(Schema.String) })),
  attributes: opt(Schema.Struct({
    descriptionLines: opt(Schema.Array(DescriptionLine)),
    image: opt(Schema.String),
    url: opt(Schema.String),
    itemType: opt(ItemType),
    physicalProperties: opt(PhysicalProperties)
  })),
  status: opt(Schema.Literals(ITEM_STATUSES)),
  customLineItem: opt(Schema.Boolean)
})
export type LineItemV2 = typeof LineItemV2.Type

/** A Cart V2 cart. */
export const CartV2 = Schema.Struct({
  id: opt(Schema.String),
  createdDate: nullable(Schema.String),
  updatedDate: nullable(Schema.String),
  revision: opt(Schema.String),
  lineItems: opt(Schema.Array(LineItemV2)),
  subtotal: opt(ConvertedMoney),
  note: nullable(Schema.String),
  customerInfo: opt(Schema.Struct({
    visitorId: opt(Schema.String),
    memberId: opt(Schema.String),
    userId: opt(Schema.String),
    email: nullable(Schema.String),
    currencyCode: opt(Schema.String),
    languageCode: opt(Schema.String)
  })),
  businessInfo: opt(Schema.Struct({ locationId: nullable(Schema.String), currencyCode: opt(Schema.String), languageCode: opt(Schema.String) })),
  orderPlaced: opt(Schema.Boolean),
  orderId: nullable(Schema.String),
  currentCart: opt(Schema.Boolean)
})
export type CartV2 = typeof CartV2.Type

/** A catalog item to add: its reference and how many (1 when left out). */
export const CatalogItemInput = Schema.Struct({
  catalogReference: CatalogReference,
  quantity: opt(Schema.Number),
  inventoryAppId: nullable(Schema.String)
})

export const CreateCurrentCartRequest = Schema.Struct({
  cart: opt(Schema.Struct({ note: nullable(Schema.String) })),
  catalogItems: opt(Schema.Array(CatalogItemInput)),
  customItems: opt(Schema.Array(Schema.Unknown)),
  coupons: opt(Schema.Array(Schema.Unknown)),
  deliveryMethod: opt(Schema.Unknown),
  giftCards: opt(Schema.Array(Schema.Unknown))
})
export type CreateCurrentCartRequest = typeof CreateCurrentCartRequest.Type

export const AddLineItemsRequest = Schema.Struct({
  catalogItems: opt(Schema.Array(CatalogItemInput)),
  customItems: opt(Schema.Array(Schema.Unknown))
})
export type AddLineItemsRequest = typeof AddLineItemsRequest.Type

export const UpdateLineItemsRequest = Schema.Struct({
  lineItems: Schema.Array(Schema.Struct({
    lineItemId: Schema.String,
    quantity: opt(Schema.Struct({ newQuantity: opt(Schema.Number) }))
  }))
})
export type UpdateLineItemsRequest = typeof UpdateLineItemsRequest.Type

export const EstimateCurrentCartRequest = Schema.Struct({
  refreshCart: nullable(Schema.Boolean),
  validationConfig: opt(Schema.String),
  calculateDelivery: nullable(Schema.Boolean),
  calculateAdditionalFees: nullable(Schema.Boolean),
  calculateTax: nullable(Schema.Boolean),
  calculateGiftCards: nullable(Schema.Boolean)
})
export type EstimateCurrentCartRequest = typeof EstimateCurrentCartRequest.Type

export const CartV2Response = Schema.Struct({ cart: opt(CartV2) })
export type CartV2Response = typeof CartV2Response.Type

export const PriceSummaryV2 = Schema.Struct({
  subtotal: opt(ConvertedMoney),
  discount: opt(ConvertedMoney),
  delivery: opt(ConvertedMoney),
  additionalFees: opt(ConvertedMoney),
  tax: opt(ConvertedMoney),
  total: opt(ConvertedMoney)
})

/** What an estimate of a V2 cart says: each line's prices and the cart's price summary. */
export const CartSummary = Schema.Struct({
  cartId: opt(Schema.String),
  cartRevision: opt(Schema.String),
  lineItems: opt(Schema.Array(Schema.Struct({
    lineItemId: opt(Schema.String),
    quantity: opt(Schema.Number),
    unitPrice: opt(ConvertedMoney),
    totalPrice: opt(ConvertedMoney)
  }))),
  discounts: opt(Schema.Array(Schema.Unknown)),
  priceSummary: opt(PriceSummaryV2)
})

/** A V2 estimate: the cart, and the summary of its prices. */
export const EstimateCurrentCartResponse = Schema.Struct({ cart: opt(CartV2), summary: opt(CartSummary) })
/** A V2 estimate: the cart, and the summary of its prices. */
export type EstimateCurrentCartResponse = typeof EstimateCurrentCartResponse.Type

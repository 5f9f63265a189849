/**
 * A stored cart as each generation shows it: Cart V1 (`lineItems` priced as `MultiCurrencyPrice`,
 * `checkoutId`, the buyer as `buyerInfo`) and Cart V2 (`quantityInfo`, `pricing`, `source`, the buyer
 * as `customerInfo`), and their totals (V1 `priceSummary`, V2 `summary`). Both are made from the same
 * rows priced from the catalog at the time of the call.
 */
import { STORES_APP_ID } from "../../../ecom/protocol.ts"
import type {
  CartV1,
  CatalogReference,
  CartV2,
  ConvertedMoney,
  EstimateCurrentCartResponse,
  EstimateTotalsResponse,
  LineItemV1,
  LineItemV2,
  MultiCurrencyPrice
} from "../../../ecom/wire/carts.ts"
import type { Product } from "../../../catalog/wire/products.ts"
import type { ProductStoreShape } from "../../catalog/products/ProductStore.ts"
import { amountText, type CatalogItem, cartTotals, formatAmount, lineTotals, priceItem, type PricedItem, type PricedLine } from "./pricing.ts"

/** A cart as stored: who owns it, its lines, and its history. */
export interface StoredCart {
  readonly id: string
  readonly ownerKind: "visitor" | "member"
  readonly ownerId: string
  readonly createdDate: string
  readonly updatedDate: string
  readonly revision: number
  readonly checkoutId: string | undefined
  readonly lines: ReadonlyArray<StoredLine>
}

export interface StoredLine {
  readonly id: string
  readonly reference: { readonly catalogItemId: string; readonly appId: string; readonly options?: Readonly<Record<string, unknown>> | null }
  readonly quantity: number
}

/** A cart with each line priced from the catalog, and the store's currency. */
export interface PricedCart {
  readonly cart: StoredCart
  readonly lines: ReadonlyArray<PricedLine & { readonly reference: StoredLine["reference"] }>
  readonly currency: string
}

const money = (n: number, currency: string): MultiCurrencyPrice => {
  const amount = amountText(n)
  const formatted = formatAmount(n, currency)
  return { amount, convertedAmount: amount, formattedAmount: formatted, formattedConvertedAmount: formatted }
}

const converted = (n: number): ConvertedMoney => {
  const amount = amountText(n)
  return { amount, convertedAmount: amount }
}

const descriptionLines = (item: PricedItem) =>
  item.options.map((o) =>
    o.color === undefined
      ? { name: { original: o.name, translated: o.name }, plainText: { original: o.choice, translated: o.choice } }
      : { name: { original: o.name, translated: o.name }, colorInfo: { original: o.choice, translated: o.choice, code: o.color } }
  )

const buyer = (cart: StoredCart) => (cart.ownerKind === "member" ? { memberId: cart.ownerId } : { visitorId: cart.ownerId })

/** A priced line as Cart V1 (and the checkout) shows it. */
export const lineV1 = (line: PricedCart["lines"][number], currency: string): LineItemV1 => {
  const base = { id: line.id, quantity: line.quantity, catalogReference: line.reference }
  if (!line.item.found) {
    return { ...base, availability: { status: "NOT_FOUND", quantityAvailable: 0 }, customLineItem: false }
  }
  const item = line.item
  const totals = lineTotals(line)
  return {
    ...base,
    productName: { original: item.name, translated: item.name },
    ...(item.slug === undefined ? {} : { url: `/product-page/${item.slug}` }),
    price: money(item.price, currency),
    fullPrice: money(item.fullPrice, currency),
    priceBeforeDiscounts: money(item.price, currency),
    lineItemPrice: money(totals.total, currency),
    descriptionLines: descriptionLines(item),
    ...(item.image === undefined ? {} : { image: item.image }),
    availability: item.available === undefined
      ? { status: "AVAILABLE", quantityAvailable: null }
      : {
        status: item.available === 0 ? "NOT_AVAILABLE" : item.available < line.quantity ? "PARTIALLY_AVAILABLE" : "AVAILABLE",
        quantityAvailable: item.available
      },
    physicalProperties: { weight: item.weight ?? null, sku: item.sku ?? null, shippable: item.physical },
    itemType: { preset: item.physical ? "PHYSICAL" : "DIGITAL" },
    paymentOption: "FULL_PAYMENT_ONLINE",
    rootCatalogItemId: item.productId,
    customLineItem: false,
    priceUndetermined: false,
    fixedQuantity: false
  }
}

/** The cart as Cart V1 answers it. */
export const cartV1 = (priced: PricedCart): CartV1 => {
  const { cart, currency } = priced
  return {
    id: cart.id,
    lineItems: priced.lines.map((l) => lineV1(l, currency)),
    buyerInfo: buyer(cart),
    currency,
    conversionCurrency: currency,
    paymentCurrency: currency,
    taxIncludedInPrices: false,
    weightUnit: "KG",
    checkoutId: cart.checkoutId ?? null,
    appliedDiscounts: [],
    createdDate: cart.createdDate,
    updatedDate: cart.updatedDate
  }
}

/** The totals as Cart V1's estimate answers them. */
export const estimateV1 = (priced: PricedCart): EstimateTotalsResponse => {
  const { currency } = priced
  const totals = cartTotals(priced.lines)
  return {
    cart: cartV1(priced),
    calculatedLineItems: priced.lines.map((line) => {
      const t = lineTotals(line)
      const unit = line.item.found ? line.item.price : 0
      const full = line.item.found ? line.item.fullPrice : 0
      return {
        lineItemId: line.id,
        pricesBreakdown: {
          totalPriceAfterTax: money(t.total, currency),
          totalPriceBeforeTax: money(t.total, currency),
          totalDiscount: money(0, currency),
          price: money(unit, currency),
          priceBeforeDiscounts: money(unit, currency),
          lineItemPrice: money(t.total, currency),
          fullPrice: money(full, currency)
        },
        paymentOption: "FULL_PAYMENT_ONLINE"
      }
    }),
    priceSummary: {
      subtotal: money(totals.subtotal, currency),
      shipping: money(totals.shipping, currency),
      tax: money(totals.tax, currency),
      discount: money(totals.discount, currency),
      total: money(totals.total, currency),
      additionalFees: money(0, currency)
    },
    currency,
    weightUnit: "KG",
    appliedDiscounts: []
  }
}

const lineV2 = (line: PricedCart["lines"][number]): LineItemV2 => {
  const base = { id: line.id, source: { catalogReference: line.reference, rootCatalogItemId: line.reference.catalogItemId } }
  if (!line.item.found) {
    return {
      ...base,
      quantityInfo: { confirmedQuantity: 0, requestedQuantity: line.quantity, availableQuantity: 0, fixedQuantity: false },
      status: "REMOVED_FROM_CATALOG",
      customLineItem: false
    }
  }
  const item = line.item
  const totals = lineTotals(line)
  const confirmed = item.available === undefined ? line.quantity : Math.min(line.quantity, item.available)
  return {
    ...base,
    name: { original: item.name, translated: item.name },
    quantityInfo: { confirmedQuantity: confirmed, requestedQuantity: line.quantity, availableQuantity: item.available ?? null, fixedQuantity: false },
    pricing: {
      unitPrice: converted(item.price),
      totalPrice: converted(totals.total),
      priceUndetermined: false,
      breakdown: { fullPrice: converted(item.fullPrice), salePrice: converted(item.price) }
    },
    attributes: {
      descriptionLines: descriptionLines(item),
      ...(item.image === undefined ? {} : { image: item.image }),
      ...(item.slug === undefined ? {} : { url: `/product-page/${item.slug}` }),
      itemType: { preset: item.physical ? "PHYSICAL" : "DIGITAL" },
      physicalProperties: { weight: item.weight ?? null, sku: item.sku ?? null, shippable: item.physical }
    },
    status: item.available === undefined || item.available >= line.quantity
      ? "IN_STOCK"
      : item.available === 0
      ? "OUT_OF_STOCK"
      : "PARTIALLY_IN_STOCK",
    customLineItem: false
  }
}

/** The cart as Cart V2 answers it. */
export const cartV2 = (priced: PricedCart): CartV2 => {
  const { cart, currency } = priced
  const totals = cartTotals(priced.lines)
  return {
    id: cart.id,
    createdDate: cart.createdDate,
    updatedDate: cart.updatedDate,
    revision: String(cart.revision),
    lineItems: priced.lines.map(lineV2),
    subtotal: converted(totals.subtotal),
    customerInfo: { ...buyer(cart), currencyCode: currency, languageCode: "en" },
    businessInfo: { currencyCode: currency, languageCode: "en" },
    orderPlaced: false,
    currentCart: true
  }
}

/** The totals as Cart V2's estimate answers them. */
export const estimateV2 = (priced: PricedCart): EstimateCurrentCartResponse => {
  const totals = cartTotals(priced.lines)
  return {
    cart: cartV2(priced),
    summary: {
      cartId: priced.cart.id,
      cartRevision: String(priced.cart.revision),
      lineItems: priced.lines.map((line) => ({
        lineItemId: line.id,
        quantity: line.quantity,
        unitPrice: converted(line.item.found ? line.item.price : 0),
        totalPrice: converted(lineTotals(line).total)
      })),
      discounts: [],
      priceSummary: {
        subtotal: converted(totals.subtotal),
        discount: converted(totals.discount),
        delivery: converted(totals.shipping),
        additionalFees: converted(0),
        tax: converted(totals.tax),
        total: converted(totals.total)
      }
    }
  }
}

/** The app a reference must name to be priced from the local catalog. */
export const sellsHere = (appId: string): boolean => appId === STORES_APP_ID

/**
 * The catalog item a cart's or a checkout's line names, priced from the catalog as it is now: missing
 * when the line's app sells nothing on this site or the product is gone.
 */
export const catalogItem = (products: ProductStoreShape, reference: StoredLine["reference"]): CatalogItem => {
  if (!sellsHere(reference.appId)) return { found: false, reason: `App ${reference.appId} sells nothing on this site` }
  const doc = products.doc(reference.catalogItemId, false)
  return priceItem(doc === undefined ? undefined : JSON.parse(doc) as Product, reference as CatalogReference)
}

/**
 * The price to show for a product or one of its variants: the price, the price after discount, the
 * discount itself, and all of them formatted in the store's currency.
 */
import type { PriceData, Product, Variant } from "../wire/products.ts"
import { isRecord } from "../../http/isRecord.ts"

/** How a price is shown: the locale to format in, the currency, and whether the converted price is used. */
export interface DisplayPriceOptions {
  /**
   * The locale to format in (a BCP 47 tag such as "de-DE"). Given, every string is formatted here in it;
   * absent, the platform's own formatted strings are kept when they show the same amount, and anything
   * else is formatted in "en-US" (a fixed default, so a page rendered on a server and in a browser reads
   * the same).
   */
  readonly locale?: string
  /** The currency when the product names none (ISO 4217, e.g. "EUR"). */
  readonly currency?: string
  /** Use the price converted to the visitor's currency (`convertedPriceData`) when the platform sent one. */
  readonly converted?: boolean
}

/** The amounts of a price, rounded to the currency's minor unit, and the same formatted. */
export interface DisplayPrice {
  /** ISO 4217 code, when the product or the options name one. */
  readonly currency: string | undefined
  readonly price: number
  /** The price after discount; equals `price` when nothing is off. Never above `price`, never below 0. */
  readonly discountedPrice: number
  /** Whether anything is off. */
  readonly onSale: boolean
  readonly discount: {
    /** `price - discountedPrice`. */
    readonly amount: number
    /** The amount as a whole percentage of the price, 0 to 100. */
    readonly percent: number
  }
  readonly formatted: {
    readonly price: string
    readonly discountedPrice: string
    /** The discount amount. */
    readonly discount: string
  }
}

const DEFAULT_LOCALE = "en-US"

interface Formatter {
  readonly format: (n: number) => string
  readonly digits: number
}

const formatters = new Map<string, Formatter>()

const makeFormatter = (locale: string, currency: string | undefined): Formatter => {
  if (currency !== undefined) {
    try {
      const f = new Intl.NumberFormat(locale, { style: "currency", currency })
      return { format: (n) => f.format(n), digits: f.resolvedOptions().maximumFractionDigits ?? 2 }
    } catch {
      // a currency Intl does not know: the amount with the code after it
      const plain = makeFormatter(locale, undefined)
      return { format: (n) => `${plain.format(n)} ${currency}`, digits: plain.digits }
    }
  }
  const f = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  return { format: (n) => f.format(n), digits: 2 }
}

/** A formatter for a locale and currency; a locale Intl refuses falls back to the default locale. */
const formatterFor = (locale: string, currency: string | undefined): Formatter => {
  const key = `${locale}\u0000${currency ?? ""}`
  const known = formatters.get(key)
  if (known !== undefined) return known
  let made: Formatter
  try {
    made = makeFormatter(locale, currency)
  } catch {
    made = makeFormatter(DEFAULT_LOCALE, currency)
  }
  if (formatters.size >= 64) formatters.clear()
  formatters.set(key, made)
  return made
}

const roundTo = (n: number, digits: number): number => {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

const finite = (u: unknown): number | undefined => (typeof u === "number" && Number.isFinite(u) ? u : undefined)

/** The digits of an amount written with `digits` decimals, e.g. 1234.5 at 2 → "123450". */
const digitsOf = (n: number, digits: number): string => n.toFixed(digits).replace(/\D/g, "").replace(/^0+(?=\d)/, "")

/** Whether a formatted string shows this amount: the same digits, whatever the symbols and separators. */
const shows = (formatted: unknown, n: number, digits: number): formatted is string =>
  typeof formatted === "string" && formatted.replace(/\D/g, "").replace(/^0+(?=\d)/, "") === digitsOf(n, digits)

const pickVariant = (product: Product, variant: Variant | string | undefined): Variant | undefined => {
  if (variant === undefined) return undefined
  if (typeof variant !== "string") return isRecord(variant) ? variant : undefined
  return Array.isArray(product.variants) ? product.variants.find((v) => isRecord(v) && v.id === variant) : undefined
}

const priceDataOf = (product: Product, variant: Variant | undefined, converted: boolean): PriceData | undefined => {
  const data = isRecord(variant?.variant) ? variant.variant : undefined
  const candidates = converted
    ? [data?.convertedPriceData, data?.priceData, product.convertedPriceData, product.priceData, product.price]
    : [data?.priceData, product.priceData, product.price]
  return candidates.find((c): c is PriceData => isRecord(c) && finite(c.price) !== undefined)
}

/**
 * The price to show for a product, or for one of its variants (the variant itself or its id): the
 * price, the discounted price (the platform's `discountedPrice`, else the product's `discount` applied:
 * an amount off or a percentage off), the discount as an amount and a whole percentage, whether it is on
 * sale, and each formatted with `Intl.NumberFormat` in the store's currency. Amounts are rounded to the
 * currency's minor unit (cents, or none for JPY), and the discounted price is kept within 0 and the price.
 *
 * `undefined` when the product (and variant) carry no price. A variant id the product does not have
 * falls back to the product's price.
 *
 * @example
 * import type { Product } from "sitefx/catalog/products"
 * declare const product: Product
 * const resolved = resolveVariant(product, { Size: "M" })
 * const shown = displayPrice(product, resolved._tag === "Resolved" ? resolved.variant : undefined, { locale: "de-DE" })
 * const label = shown?.onSale ? `${shown.formatted.discountedPrice} statt ${shown.formatted.price} (−${shown.discount.percent} %)`
 *   : shown?.formatted.price
 */
export const displayPrice = (
  product: Product,
  variant?: Variant | string,
  options: DisplayPriceOptions = {}
): DisplayPrice | undefined => {
  const safe: Product = isRecord(product) ? product : {}
  const data = priceDataOf(safe, pickVariant(safe, variant), options.converted === true)
  const raw = finite(data?.price)
  if (data === undefined || raw === undefined || raw < 0) return undefined
  const currency = typeof data.currency === "string" && data.currency.length > 0
    ? data.currency
    : typeof options.currency === "string" && options.currency.length > 0
    ? options.currency
    : undefined
  const locale = typeof options.locale === "string" && options.locale.length > 0 ? options.locale : undefined
  const formatter = formatterFor(locale ?? DEFAULT_LOCALE, currency)
  const price = roundTo(raw, formatter.digits)

  const given = finite(data.discountedPrice)
  const discount = isRecord(safe.discount) ? safe.discount : undefined
  const off = finite(discount?.value) ?? 0
  const computed = given !== undefined
    ? given
    : discount?.type === "AMOUNT"
    ? raw - off
    : discount?.type === "PERCENT"
    ? raw * (100 - Math.min(Math.max(off, 0), 100)) / 100
    : raw
  const discountedPrice = Math.min(Math.max(roundTo(computed, formatter.digits), 0), price)
  const amount = roundTo(price - discountedPrice, formatter.digits)
  const percent = price > 0 ? Math.min(Math.max(Math.round((amount / price) * 100), 0), 100) : 0

  const platform = locale === undefined && isRecord(data.formatted) ? data.formatted : undefined
  const platformPrice = platform?.price
  const platformDiscounted = platform?.discountedPrice
  return {
    currency,
    price,
    discountedPrice,
    onSale: discountedPrice < price,
    discount: { amount, percent },
    formatted: {
      price: shows(platformPrice, price, formatter.digits) ? platformPrice : formatter.format(price),
      discountedPrice: shows(platformDiscounted, discountedPrice, formatter.digits)
        ? platformDiscounted
        : formatter.format(discountedPrice),
      discount: formatter.format(amount)
    }
  }
}

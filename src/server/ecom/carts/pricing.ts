/**
 * What a cart line costs and how many are left, read from the store's catalog: the product (a v1
 * product as shoppers see it), the variant its `catalogReference.options` select (`{ variantId }` or
 * `{ options: { Size: "L" } }`, a choice named by its description or its value), the variant's full
 * price and its price after the product's discount, and its stock. Pure functions, so the cart's
 * arithmetic is tested without a platform.
 */
import type { Product, Variant } from "../../../catalog/wire/products.ts"
import type { CatalogReference } from "../../../ecom/wire/carts.ts"

/** One option's choice as the cart shows it: `Size: L`, or a color with its code. */
export interface ChosenOption {
  readonly name: string
  readonly choice: string
  readonly color: string | undefined
}

/** A catalog item a shopper can buy, priced. */
export interface PricedItem {
  readonly found: true
  readonly productId: string
  readonly name: string
  readonly variantId: string | undefined
  /** Price before the product's discount. */
  readonly fullPrice: number
  /** Price after it. */
  readonly price: number
  readonly currency: string
  /** How many are left; undefined when the product does not track quantities and is in stock. */
  readonly available: number | undefined
  readonly options: ReadonlyArray<ChosenOption>
  readonly image: string | undefined
  readonly sku: string | undefined
  readonly weight: number | undefined
  readonly physical: boolean
  readonly slug: string | undefined
}

export interface MissingItem {
  readonly found: false
  /** Why the reference names nothing a shopper can buy. */
  readonly reason: string
}

export type CatalogItem = PricedItem | MissingItem

const missing = (reason: string): MissingItem => ({ found: false, reason })

const round2 = (n: number): number => Math.round(n * 100) / 100

/** The choice of `option` that `given` names, by description or by value. */
const choiceOf = (product: Product, optionName: string, given: unknown) => {
  const option = (product.productOptions ?? []).find((o) => o.name === optionName)
  return option?.choices?.find((c) => c.description === given || c.value === given)
}

/** The variant a reference's options select, or why none. */
const selectVariant = (product: Product, options: Readonly<Record<string, unknown>>): Variant | MissingItem | undefined => {
  const variants = product.variants ?? []
  const productOptions = product.productOptions ?? []
  if (typeof options.variantId === "string") {
    return variants.find((v) => v.id === options.variantId) ?? missing(`Product ${product.id} has no variant ${options.variantId}`)
  }
  const chosen = typeof options.options === "object" && options.options !== null ? options.options as Record<string, unknown> : {}
  if (productOptions.length === 0) return variants[0]
  const wanted: Record<string, string> = {}
  for (const option of productOptions) {
    const name = option.name ?? ""
    if (!(name in chosen)) return missing(`Product ${product.id} needs a choice of ${name}`)
    const choice = choiceOf(product, name, chosen[name])
    if (choice === undefined) return missing(`Product ${product.id} has no ${name} ${JSON.stringify(chosen[name])}`)
    wanted[name] = choice.description ?? choice.value ?? ""
  }
  return variants.find((v) => productOptions.every((o) => v.choices?.[o.name ?? ""] === wanted[o.name ?? ""])) ??
    missing(`Product ${product.id} has no variant of those choices`)
}

/** The id of the variant a reference's options select in `product` (undefined: none it can name). */
export const variantIdOf = (product: Product, options: Readonly<Record<string, unknown>>): string | undefined => {
  const selected = selectVariant(product, options)
  return selected === undefined || "found" in selected ? undefined : selected.id
}

/** The choices a variant stands for, in option order, colors with their code. */
const chosenOptions = (product: Product, variant: Variant | undefined): ReadonlyArray<ChosenOption> =>
  (product.productOptions ?? []).flatMap((option) => {
    const name = option.name ?? ""
    const described = variant?.choices?.[name]
    if (described === undefined) return []
    const choice = choiceOf(product, name, described)
    return [{ name, choice: described, color: option.optionType === "color" ? choice?.value : undefined }]
  })

/**
 * The catalog item a reference names in `product` (undefined: no such product, or hidden from
 * shoppers), priced and with its stock.
 */
export const priceItem = (product: Product | undefined, reference: CatalogReference): CatalogItem => {
  if (product === undefined || product.id === undefined) return missing(`No product ${reference.catalogItemId} in the store`)
  const selected = selectVariant(product, reference.options ?? {})
  if (selected !== undefined && "found" in selected) return selected
  const variant = selected
  if (variant?.variant?.visible === false) return missing(`Variant ${variant.id} of product ${product.id} is not for sale`)
  const priceData = variant?.variant?.priceData ?? product.priceData ?? product.price
  const fullPrice = round2(priceData?.price ?? 0)
  const price = round2(priceData?.discountedPrice ?? fullPrice)
  const tracked = variant?.stock?.trackQuantity ?? product.stock?.trackInventory ?? false
  const quantity = variant?.stock?.quantity ?? product.stock?.quantity ?? null
  const inStock = variant?.stock?.inStock ?? product.stock?.inStock ?? true
  const available = tracked ? Math.max(0, quantity ?? 0) : inStock ? undefined : 0
  return {
    found: true,
    productId: product.id,
    name: product.name ?? "",
    variantId: variant?.id,
    fullPrice,
    price,
    currency: priceData?.currency ?? "USD",
    available,
    options: chosenOptions(product, variant),
    image: product.media?.mainMedia?.image?.url,
    sku: variant?.variant?.sku ?? product.sku ?? undefined,
    weight: variant?.variant?.weight ?? product.weight ?? undefined,
    physical: product.productType !== "digital",
    slug: product.slug
  }
}

/** A line as totals read it: how many, and the item (missing items count for nothing). */
export interface PricedLine {
  readonly id: string
  readonly quantity: number
  readonly item: CatalogItem
}

/** A line's totals: before and after the product's discount. */
export interface LineTotals {
  readonly full: number
  readonly total: number
  readonly discount: number
}

export const lineTotals = (line: PricedLine): LineTotals => {
  if (!line.item.found) return { full: 0, total: 0, discount: 0 }
  const full = round2(line.item.fullPrice * line.quantity)
  const total = round2(line.item.price * line.quantity)
  return { full, total, discount: round2(full - total) }
}

/**
 * The cart's totals before checkout: the subtotal at full prices, the product discounts, no shipping
 * (chosen at checkout), tax at `taxRate` (the local platform has no tax rule: 0), and the total.
 */
export interface CartTotals {
  readonly subtotal: number
  readonly discount: number
  readonly shipping: number
  readonly tax: number
  readonly total: number
}

export const cartTotals = (lines: ReadonlyArray<PricedLine>, taxRate = 0): CartTotals => {
  let subtotal = 0
  let discount = 0
  for (const line of lines) {
    const t = lineTotals(line)
    subtotal += t.full
    discount += t.discount
  }
  subtotal = round2(subtotal)
  discount = round2(discount)
  const tax = round2((subtotal - discount) * taxRate)
  return { subtotal, discount, shipping: 0, tax, total: round2(subtotal - discount + tax) }
}

/** An amount as the wire writes it: decimal text without trailing zeros (`"12.5"`). */
export const amountText = (n: number): string => String(round2(n))

const formatters = new Map<string, Intl.NumberFormat>()
/** An amount with its currency's symbol (`$12.50`). */
export const formatAmount = (n: number, currency: string): string => {
  let f = formatters.get(currency)
  if (f === undefined) {
    f = new Intl.NumberFormat("en-US", { style: "currency", currency })
    formatters.set(currency, f)
  }
  return f.format(n)
}

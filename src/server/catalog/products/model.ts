/**
 * The store's products as the local platform keeps them. A product is stored twice over: its **spec**,
 * what writers said (name, price, options, per-variant overrides and stock, collection membership),
 * and its **doc**, the wire product derived from the spec (discounted and formatted prices, cost and
 * profit, variants as the cross product of the options' choices, stock and inventory status). Every
 * write changes the spec and derives the doc again, so queries filter and sort on exactly what
 * readers see, and nothing derived can drift from what it is derived from.
 */
import { createHash } from "node:crypto"
import type { INVENTORY_STATUSES } from "../../../catalog/protocol.ts"

type InventoryStatus = typeof INVENTORY_STATUSES[number]
import type { Choice, Collection, Media, MediaItem, Product, ProductOption, Variant } from "../../../catalog/wire/products.ts"

/** The built-in collection every product belongs to. */
export const ALL_PRODUCTS_ID = "00000000-000000-000000-000000000001"
export const ALL_PRODUCTS_SLUG = "all-products"
/** The id of the one variant of a product without options. */
export const DEFAULT_VARIANT_ID = "00000000-0000-0000-0000-000000000000"
export const STORE_CURRENCY = "USD"
/** Bounds of one product: the platform's own. */
export const MAX_OPTIONS = 6
export const MAX_CHOICES = 100
export const MAX_VARIANTS = 300
export const MAX_NAME = 80
export const MAX_DESCRIPTION = 16_000
export const MAX_MEDIA = 100

/** An option as stored: checked, named, each choice with its value and description. */
export interface SpecOption {
  optionType: "drop_down" | "color"
  name: string
  choices: Array<{ value: string; description: string }>
}

/** What a writer may say about one variant (keyed by its choices). */
export interface VariantSpec {
  price?: number
  cost?: number
  weight?: number
  sku?: string
  visible?: boolean
  productDimensions?: Product["productDimensions"]
  packageDimensions?: Product["packageDimensions"]
  /** Tracked quantity (when the product tracks inventory). */
  quantity?: number
  /** In stock when inventory is not tracked. */
  inStock: boolean
  availableForPreorder?: boolean
}

/** Choice media assignments: option name → choice description → media ids. */
export type ChoiceMedia = Record<string, Record<string, Array<string>>>

export interface ProductSpec {
  id: string
  numericId: string
  inventoryItemId: string
  createdDate: string
  lastUpdated: string
  name: string
  slug: string
  visible: boolean
  productType: "physical" | "digital"
  description: string
  sku?: string
  weight?: number
  price: number
  cost?: number
  discount: { type: "NONE" | "AMOUNT" | "PERCENT"; value: number }
  manageVariants: boolean
  trackInventory: boolean
  productOptions: Array<SpecOption>
  media: Array<MediaItem>
  choiceMedia: ChoiceMedia
  ribbon?: string
  brand?: string
  additionalInfoSections: Array<{ title?: string; description?: string }>
  customTextFields: Array<{ title?: string; maxLength?: number; mandatory?: boolean }>
  productDimensions?: Product["productDimensions"]
  packageDimensions?: Product["packageDimensions"]
  pricePerUnitData?: Product["pricePerUnitData"]
  seoData?: Product["seoData"]
  /** Variant specs by {@link variantKey}. */
  variants: Record<string, VariantSpec>
  /** Collections besides "All Products". */
  collectionIds: Array<string>
}

export interface CollectionSpec {
  id: string
  name: string
  slug: string
  description: string
  visible: boolean
  media?: Media
}

/** The name a variant's choices use for a choice: its description (color options name the color there). */
export const choiceName = (choice: Choice): string => choice.description ?? choice.value ?? ""

/** The choice combinations of the options, in option order (one empty combination without options). */
export const combinations = (options: ReadonlyArray<ProductOption>): Array<Record<string, string>> => {
  let out: Array<Record<string, string>> = [{}]
  for (const option of options) {
    const next: Array<Record<string, string>> = []
    for (const partial of out) {
      for (const choice of option.choices ?? []) next.push({ ...partial, [option.name ?? ""]: choiceName(choice) })
    }
    out = next
  }
  return out
}

/** A variant's key: its choices in option order. */
export const variantKey = (options: ReadonlyArray<ProductOption>, choices: Record<string, string>): string =>
  JSON.stringify(options.map((o) => choices[o.name ?? ""] ?? null))

/** A stable variant id: the default id without options, else derived from the product and the choices. */
export const variantId = (productId: string, options: ReadonlyArray<ProductOption>, choices: Record<string, string>): string => {
  if (options.length === 0) return DEFAULT_VARIANT_ID
  const hex = createHash("sha256").update(`${productId}\u0000${variantKey(options, choices)}`).digest("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

const round2 = (n: number): number => Math.round(n * 100) / 100

const formatters = new Map<string, Intl.NumberFormat>()
export const formatMoney = (amount: number, currency = STORE_CURRENCY): string => {
  let f = formatters.get(currency)
  if (f === undefined) {
    f = new Intl.NumberFormat("en-US", { style: "currency", currency })
    formatters.set(currency, f)
  }
  return f.format(amount)
}

/** The price after the product's discount, never below zero. */
export const discounted = (price: number, discount: ProductSpec["discount"]): number => {
  if (discount.type === "AMOUNT") return round2(Math.max(0, price - discount.value))
  if (discount.type === "PERCENT") return round2(price * (1 - discount.value / 100))
  return price
}

const priceData = (price: number, discount: ProductSpec["discount"]) => {
  const after = discounted(price, discount)
  return {
    currency: STORE_CURRENCY,
    price,
    discountedPrice: after,
    formatted: { price: formatMoney(price), discountedPrice: formatMoney(after) }
  }
}

const costAndProfit = (cost: number | undefined, sellingPrice: number) => {
  if (cost === undefined) return undefined
  const profit = round2(sellingPrice - cost)
  return {
    itemCost: cost,
    formattedItemCost: formatMoney(cost),
    profit,
    formattedProfit: formatMoney(profit),
    profitMargin: sellingPrice === 0 ? 0 : round2(profit / sellingPrice)
  }
}

/** A variant's stock as readers see it. */
const variantStock = (spec: ProductSpec, v: VariantSpec) =>
  spec.trackInventory
    ? { trackQuantity: true, quantity: v.quantity ?? 0, inStock: (v.quantity ?? 0) > 0 }
    : { trackQuantity: false, inStock: v.inStock }

/** The variants of the spec's options, with their stored overrides or the product's defaults. */
export const variantsOf = (spec: ProductSpec): Array<{ readonly key: string; readonly choices: Record<string, string>; readonly v: VariantSpec; readonly id: string }> =>
  combinations(spec.productOptions).map((choices) => {
    const key = variantKey(spec.productOptions, choices)
    return { key, choices, v: spec.variants[key] ?? { inStock: true }, id: variantId(spec.id, spec.productOptions, choices) }
  })

/** The product's variants on the wire. */
export const wireVariants = (spec: ProductSpec): Array<Variant> =>
  variantsOf(spec).map(({ choices, id, v }) => {
    const price = spec.manageVariants && v.price !== undefined ? v.price : spec.price
    const prices = priceData(price, spec.discount)
    const cost = spec.manageVariants && v.cost !== undefined ? v.cost : spec.cost
    const cap = costAndProfit(cost, prices.discountedPrice)
    const weight = spec.manageVariants && v.weight !== undefined ? v.weight : spec.weight
    const sku = spec.manageVariants && v.sku !== undefined ? v.sku : spec.sku
    return {
      id,
      choices,
      variant: {
        priceData: prices,
        convertedPriceData: prices,
        ...(cap === undefined ? {} : { costAndProfitData: cap }),
        ...(weight === undefined ? {} : { weight }),
        ...(sku === undefined ? {} : { sku }),
        visible: v.visible ?? true,
        ...(v.productDimensions === undefined ? {} : { productDimensions: v.productDimensions }),
        ...(v.packageDimensions === undefined ? {} : { packageDimensions: v.packageDimensions })
      },
      stock: variantStock(spec, v)
    }
  })

export const inventoryStatusOf = (inStock: ReadonlyArray<boolean>): InventoryStatus => {
  const some = inStock.some((b) => b)
  const every = inStock.every((b) => b)
  return every && inStock.length > 0 ? "IN_STOCK" : some ? "PARTIALLY_OUT_OF_STOCK" : "OUT_OF_STOCK"
}

const range = (values: ReadonlyArray<number>) =>
  values.length === 0 ? undefined : { minValue: Math.min(...values), maxValue: Math.max(...values) }

const mediaById = (spec: ProductSpec) => new Map(spec.media.map((m) => [m.id ?? "", m]))

/** The wire product of a spec, as an API key reads it (readers without one get {@link forVisitors}). */
export const derive = (spec: ProductSpec): Product => {
  const variants = wireVariants(spec)
  const visibleVariants = variants.filter((v) => v.variant?.visible !== false)
  const counted = visibleVariants.length > 0 ? visibleVariants : variants
  const inStock = counted.map((v) => v.stock?.inStock === true)
  const status = inventoryStatusOf(inStock)
  const prices = priceData(spec.price, spec.discount)
  const cap = costAndProfit(spec.cost, prices.discountedPrice)
  const byId = mediaById(spec)
  const options: Array<ProductOption> = spec.productOptions.map((o) => ({
    optionType: o.optionType ?? "drop_down",
    name: o.name ?? "",
    choices: (o.choices ?? []).map((c) => {
      const name = choiceName(c)
      const withChoice = variants.filter((v) => v.choices?.[o.name ?? ""] === name)
      const assigned = (spec.choiceMedia[o.name ?? ""]?.[name] ?? []).flatMap((id) => {
        const m = byId.get(id)
        return m === undefined ? [] : [m]
      })
      return {
        value: c.value ?? name,
        description: name,
        ...(assigned.length === 0 ? {} : { media: { mainMedia: assigned[0]!, items: assigned } }),
        inStock: withChoice.some((v) => v.stock?.inStock === true),
        visible: withChoice.some((v) => v.variant?.visible !== false)
      }
    })
  }))
  const quantity = spec.trackInventory ? counted.reduce((sum, v) => sum + (v.stock?.quantity ?? 0), 0) : undefined
  const productPrices = variants.map((v) => v.variant?.priceData?.price ?? spec.price)
  const costs = variants.flatMap((v) => (v.variant?.costAndProfitData?.itemCost == null ? [] : [v.variant.costAndProfitData.itemCost]))
  const weights = variants.flatMap((v) => (v.variant?.weight === undefined ? [] : [v.variant.weight]))
  const main = spec.media[0]
  const ribbons = spec.ribbon === undefined ? [] : [{ text: spec.ribbon }]
  return {
    id: spec.id,
    name: spec.name,
    slug: spec.slug,
    visible: spec.visible,
    productType: spec.productType,
    description: spec.description,
    ...(spec.sku === undefined ? {} : { sku: spec.sku }),
    ...(spec.weight === undefined ? {} : { weight: spec.weight }),
    ...(weights.length === 0 ? {} : { weightRange: range(weights)! }),
    ...(spec.productDimensions === undefined ? {} : { productDimensions: spec.productDimensions }),
    ...(spec.packageDimensions === undefined ? {} : { packageDimensions: spec.packageDimensions }),
    stock: {
      trackInventory: spec.trackInventory,
      ...(quantity === undefined ? {} : { quantity }),
      inStock: status !== "OUT_OF_STOCK",
      inventoryStatus: status
    },
    price: prices,
    priceData: prices,
    convertedPriceData: prices,
    priceRange: range(productPrices)!,
    ...(cap === undefined ? {} : { costAndProfitData: cap }),
    ...(costs.length === 0 ? {} : { costRange: range(costs)! }),
    ...(spec.pricePerUnitData === undefined ? {} : { pricePerUnitData: spec.pricePerUnitData }),
    additionalInfoSections: spec.additionalInfoSections,
    ribbons,
    media: { ...(main === undefined ? {} : { mainMedia: main }), items: spec.media },
    customTextFields: spec.customTextFields,
    manageVariants: spec.manageVariants,
    productOptions: options,
    productPageUrl: { base: "/", path: `/product-page/${spec.slug}` },
    numericId: spec.numericId,
    inventoryItemId: spec.inventoryItemId,
    discount: spec.discount,
    collectionIds: [ALL_PRODUCTS_ID, ...spec.collectionIds],
    variants,
    lastUpdated: spec.lastUpdated,
    createdDate: spec.createdDate,
    ...(spec.seoData === undefined ? {} : { seoData: spec.seoData }),
    ...(spec.ribbon === undefined ? {} : { ribbon: spec.ribbon }),
    ...(spec.brand === undefined ? {} : { brand: spec.brand })
  }
}

/** What readers without an API key see: no costs or profits. */
export const forVisitors = (product: Product): Product => {
  const { costAndProfitData: _, costRange: __, ...rest } = product
  if (rest.variants === undefined) return rest
  return {
    ...rest,
    variants: rest.variants.map((v) => {
      if (v.variant?.costAndProfitData === undefined) return v
      const { costAndProfitData: ___, ...variant } = v.variant
      return { ...v, variant }
    })
  }
}

/** The v2 inventory item of a product: one entry per variant. */
export const inventoryItemOf = (spec: ProductSpec) => ({
  id: spec.inventoryItemId,
  externalId: spec.id,
  productId: spec.id,
  trackQuantity: spec.trackInventory,
  variants: variantsOf(spec).map(({ id, v }) => ({
    variantId: id,
    inStock: spec.trackInventory ? (v.quantity ?? 0) > 0 : v.inStock,
    ...(spec.trackInventory ? { quantity: v.quantity ?? 0 } : {}),
    availableForPreorder: v.availableForPreorder ?? false
  })),
  lastUpdated: spec.lastUpdated,
  numericId: spec.numericId,
  preorderInfo: { enabled: false }
})

export const wireCollection = (spec: CollectionSpec, numberOfProducts: number): Collection => ({
  id: spec.id,
  name: spec.name,
  ...(spec.media === undefined ? {} : { media: spec.media }),
  numberOfProducts,
  description: spec.description,
  slug: spec.slug,
  visible: spec.visible
})

/** A URL-safe slug of a name: lower case words joined by dashes. */
export const slugify = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100) || "product"

/**
 * What each catalog write does to a product spec, as pure functions that check their input first and
 * throw an {@link EngineFailure} (a 400 with field violations, a 404, a 409) before anything changes.
 * Storage (ProductStore.ts) runs them inside a transaction and stores the result.
 */
import { createHash } from "node:crypto"
import type { Adjustment, MediaDataForWrite, Product, ProductOption, VariantOverride } from "../../../catalog/wire/products.ts"
import { EngineFailure } from "../../store/engineFailures.ts"
import {
  type ChoiceMedia,
  choiceName,
  combinations,
  MAX_CHOICES,
  MAX_DESCRIPTION,
  MAX_MEDIA,
  MAX_NAME,
  MAX_OPTIONS,
  MAX_VARIANTS,
  type ProductSpec,
  slugify,
  type SpecOption,
  variantKey,
  variantsOf,
  type VariantSpec
} from "./model.ts"

/** A 400 naming the field that is wrong. */
export const invalid = (field: string, description: string, violatedRule = "OTHER", data: Record<string, unknown> = {}): EngineFailure =>
  new EngineFailure({ status: 400, code: "INVALID_ARGUMENT", description, violations: [{ field, description, violatedRule, data }] })

export const productNotFound = (id: string): EngineFailure =>
  new EngineFailure({ status: 404, code: "PRODUCT_NOT_FOUND", description: `Product ${id} not found` })

const MAX_PRICE = 999_999_999

const money = (value: number, field: string): number => {
  if (!Number.isFinite(value) || value < 0) throw invalid(field, `${field} must be a number of at least 0`, "MIN", { min: 0 })
  if (value > MAX_PRICE) throw invalid(field, `${field} must be at most ${MAX_PRICE}`, "MAX", { max: MAX_PRICE })
  return Math.round(value * 100) / 100
}

const quantityOf = (value: number, field: string): number => {
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(field, `${field} must be a whole number of at least 0`, "MIN", { min: 0 })
  return value
}

const text = (value: string, field: string, max: number): string => {
  if (value.length > max) throw invalid(field, `${field} must be at most ${max} characters`, "MAX_LENGTH", { maxLength: max })
  return value
}

const checkDiscount = (discount: NonNullable<Product["discount"]>, price: number): ProductSpec["discount"] => {
  const type = discount.type === "AMOUNT" || discount.type === "PERCENT" ? discount.type : "NONE"
  const value = type === "NONE" ? 0 : money(discount.value ?? 0, "product.discount.value")
  if (type === "PERCENT" && value > 100) throw invalid("product.discount.value", "A percent discount must be at most 100", "MAX", { max: 100 })
  if (type === "AMOUNT" && value > price) {
    throw invalid("product.discount.value", "An amount discount must not exceed the price", "MAX", { max: price })
  }
  return { type, value }
}

/** Options checked: names unique and present, choices unique within an option, bounded counts. */
const checkOptions = (options: ReadonlyArray<ProductOption>): Array<SpecOption> => {
  if (options.length > MAX_OPTIONS) throw invalid("product.productOptions", `A product has at most ${MAX_OPTIONS} options`, "MAX_SIZE", { max: MAX_OPTIONS })
  const names = new Set<string>()
  const out = options.map((o, i) => {
    const name = (o.name ?? "").trim()
    const field = `product.productOptions[${i}]`
    if (name === "") throw invalid(`${field}.name`, "An option needs a name", "REQUIRED_FIELD")
    text(name, `${field}.name`, 50)
    if (names.has(name.toLowerCase())) throw invalid(`${field}.name`, `Option ${name} is named twice`, "OTHER")
    names.add(name.toLowerCase())
    const choices = o.choices ?? []
    if (choices.length === 0) throw invalid(`${field}.choices`, `Option ${name} needs at least one choice`, "REQUIRED_FIELD")
    if (choices.length > MAX_CHOICES) throw invalid(`${field}.choices`, `An option has at most ${MAX_CHOICES} choices`, "MAX_SIZE", { max: MAX_CHOICES })
    const seen = new Set<string>()
    return {
      optionType: o.optionType === "color" ? ("color" as const) : ("drop_down" as const),
      name,
      choices: choices.map((c, j) => {
        const description = (c.description ?? c.value ?? "").trim()
        if (description === "") throw invalid(`${field}.choices[${j}]`, "A choice needs a value or a description", "REQUIRED_FIELD")
        text(description, `${field}.choices[${j}].description`, 50)
        if (seen.has(description.toLowerCase())) throw invalid(`${field}.choices[${j}]`, `Choice ${description} appears twice in option ${name}`)
        seen.add(description.toLowerCase())
        return { value: c.value ?? description, description }
      })
    }
  })
  let count = 1
  for (const o of out) count *= o.choices.length
  if (count > MAX_VARIANTS) {
    throw invalid("product.productOptions", `The options make ${count} variants; a product has at most ${MAX_VARIANTS}`, "MAX_SIZE", { max: MAX_VARIANTS })
  }
  return out
}

/** Stock given on a product (create or update) reaches every variant. */
const applyStock = (spec: ProductSpec, stock: NonNullable<Product["stock"]>): void => {
  if (stock.trackInventory !== undefined) spec.trackInventory = stock.trackInventory
  const quantity = stock.quantity == null ? undefined : quantityOf(stock.quantity, "product.stock.quantity")
  for (const { key, v } of variantsOf(spec)) {
    spec.variants[key] = {
      ...v,
      ...(quantity === undefined ? {} : { quantity, inStock: quantity > 0 }),
      ...(stock.inStock === undefined ? {} : { inStock: stock.inStock })
    }
  }
}

/** Regenerates the variants for new options, keeping what was said of variants that still exist. */
const setOptions = (spec: ProductSpec, options: ReadonlyArray<ProductOption>): void => {
  const old = new Map(variantsOf(spec).map(({ choices, v }) => [JSON.stringify(Object.entries(choices).sort()), v]))
  const checked = checkOptions(options)
  // a variant new to the options starts from the product's default stock
  const fallback: VariantSpec = { inStock: true, ...(spec.trackInventory ? { quantity: 0 } : {}) }
  spec.productOptions = checked
  spec.variants = {}
  for (const choices of combinations(checked)) {
    const before = old.get(JSON.stringify(Object.entries(choices).sort()))
    spec.variants[variantKey(checked, choices)] = before ?? { ...fallback }
  }
  // choice media of removed choices goes with them
  const media: ChoiceMedia = {}
  for (const o of checked) {
    const kept = spec.choiceMedia[o.name]
    if (kept === undefined) continue
    media[o.name] = Object.fromEntries(Object.entries(kept).filter(([c]) => o.choices.some((x) => x.description === c)))
  }
  spec.choiceMedia = media
}

/** Fields a create or an update may set, applied to `spec` in place. */
const applyFields = (spec: ProductSpec, p: Product, creating: boolean): void => {
  if (p.name != null) {
    const name = p.name.trim()
    if (name === "") throw invalid("product.name", "A product needs a name", "REQUIRED_FIELD")
    spec.name = text(name, "product.name", MAX_NAME)
  }
  if (p.slug !== undefined) {
    const slug = slugify(p.slug)
    if (slug !== p.slug) throw invalid("product.slug", "A slug holds lower-case letters, digits and dashes", "FORMAT")
    spec.slug = slug
  }
  if (p.visible != null) spec.visible = p.visible
  if (p.productType === "physical" || p.productType === "digital") spec.productType = p.productType
  if (p.description != null) spec.description = text(p.description, "product.description", MAX_DESCRIPTION)
  if (p.sku != null) spec.sku = text(p.sku, "product.sku", 40)
  if (p.weight != null) spec.weight = money(p.weight, "product.weight")
  const price = p.priceData?.price ?? p.price?.price
  if (price != null) spec.price = money(price, "product.priceData.price")
  else if (creating) throw invalid("product.priceData.price", "A product needs a price", "REQUIRED_FIELD")
  if (p.costAndProfitData?.itemCost != null) spec.cost = money(p.costAndProfitData.itemCost, "product.costAndProfitData.itemCost")
  if (p.manageVariants != null) spec.manageVariants = p.manageVariants
  if (p.ribbon !== undefined) {
    if (p.ribbon === null || p.ribbon === "") delete spec.ribbon
    else spec.ribbon = text(p.ribbon, "product.ribbon", 30)
  } else if (p.ribbons !== undefined) {
    const first = p.ribbons[0]?.text
    if (first === undefined || first === "") delete spec.ribbon
    else spec.ribbon = text(first, "product.ribbons[0].text", 30)
  }
  if (p.brand !== undefined) {
    if (p.brand === null || p.brand === "") delete spec.brand
    else spec.brand = text(p.brand, "product.brand", 50)
  }
  if (p.additionalInfoSections !== undefined) spec.additionalInfoSections = p.additionalInfoSections.map((s) => ({ ...s }))
  if (p.customTextFields !== undefined) spec.customTextFields = p.customTextFields.map((s) => ({ ...s }))
  if (p.productDimensions !== undefined) spec.productDimensions = p.productDimensions
  if (p.packageDimensions !== undefined) spec.packageDimensions = p.packageDimensions
  if (p.pricePerUnitData !== undefined) spec.pricePerUnitData = p.pricePerUnitData
  if (p.seoData !== undefined) spec.seoData = p.seoData
  if (p.productOptions !== undefined) setOptions(spec, p.productOptions)
  if (p.discount !== undefined) spec.discount = checkDiscount(p.discount, spec.price)
  else if (spec.discount.type === "AMOUNT" && spec.discount.value > spec.price) {
    throw invalid("product.priceData.price", "The price is below the product's amount discount", "MIN", { min: spec.discount.value })
  }
  if (p.media?.items !== undefined) {
    if (p.media.items.length > MAX_MEDIA) throw invalid("product.media.items", `A product has at most ${MAX_MEDIA} media items`, "MAX_SIZE")
    spec.media = p.media.items.map((m) => ({ ...m }))
  }
  if (p.stock !== undefined) applyStock(spec, p.stock)
}

export interface NewIds {
  readonly id: string
  readonly numericId: string
  readonly inventoryItemId: string
}

/** A new product's spec from a create request. */
export const createSpec = (p: Product, ids: NewIds, now: string): ProductSpec => {
  if (p.name == null || p.name.trim() === "") throw invalid("product.name", "A product needs a name", "REQUIRED_FIELD")
  const spec: ProductSpec = {
    id: ids.id,
    numericId: ids.numericId,
    inventoryItemId: ids.inventoryItemId,
    createdDate: now,
    lastUpdated: now,
    name: "",
    slug: "",
    visible: true,
    productType: "physical",
    description: "",
    price: 0,
    discount: { type: "NONE", value: 0 },
    manageVariants: false,
    trackInventory: false,
    productOptions: [],
    media: [],
    choiceMedia: {},
    additionalInfoSections: [],
    customTextFields: [],
    variants: { "[]": { inStock: true } },
    collectionIds: []
  }
  applyFields(spec, p, true)
  if (spec.slug === "") spec.slug = slugify(spec.name)
  return spec
}

/** An updated spec (a copy; `spec` is untouched). */
export const updateSpec = (spec: ProductSpec, p: Product, now: string): ProductSpec => {
  const next = structuredClone(spec)
  applyFields(next, p, false)
  next.lastUpdated = now
  return next
}

/** The top-level fields of `p` a change names, for change events. */
export const changedFields = (p: Product): Array<string> => Object.keys(p).filter((k) => k !== "id")

/** Variant overrides: each override picks variants by choices (all matching) or ids. */
export const overrideVariants = (spec: ProductSpec, overrides: ReadonlyArray<VariantOverride>, now: string): { spec: ProductSpec; changed: Array<string> } => {
  const next = structuredClone(spec)
  const all = variantsOf(next)
  const changed = new Set<string>()
  overrides.forEach((o, i) => {
    const field = `variants[${i}]`
    const picked = all.filter(({ choices, id }) => {
      if (o.variantIds !== undefined && o.variantIds.length > 0) return o.variantIds.includes(id)
      if (o.choices !== undefined) return Object.entries(o.choices).every(([k, v]) => choices[k] === v)
      return false
    })
    if (picked.length === 0) throw invalid(field, "The override matches no variant of the product", "OTHER")
    if (o.variantIds !== undefined) {
      const known = new Set(all.map((v) => v.id))
      const unknown = o.variantIds.find((id) => !known.has(id))
      if (unknown !== undefined) throw new EngineFailure({ status: 404, code: "VARIANT_NOT_FOUND", description: `Variant ${unknown} not found` })
    }
    for (const { key, id } of picked) {
      const v = { ...next.variants[key] ?? { inStock: true } }
      if (o.price !== undefined) v.price = money(o.price, `${field}.price`)
      if (o.cost !== undefined) v.cost = money(o.cost, `${field}.cost`)
      if (o.weight !== undefined) v.weight = money(o.weight, `${field}.weight`)
      if (o.sku !== undefined) v.sku = text(o.sku, `${field}.sku`, 40)
      if (o.visible !== undefined) v.visible = o.visible
      if (o.productDimensions !== undefined) v.productDimensions = o.productDimensions
      if (o.packageDimensions !== undefined) v.packageDimensions = o.packageDimensions
      next.variants[key] = v
      changed.add(id)
    }
  })
  // a variant's own price only counts when variants are managed; saying one turns that on
  if (overrides.some((o) => o.price !== undefined || o.cost !== undefined || o.weight !== undefined || o.sku !== undefined)) next.manageVariants = true
  next.lastUpdated = now
  return { spec: next, changed: [...changed] }
}

/** Every variant back to the product's own price, weight and SKU, visible; stock is kept. */
export const resetVariants = (spec: ProductSpec, now: string): ProductSpec => {
  const next = structuredClone(spec)
  for (const [key, v] of Object.entries(next.variants)) {
    next.variants[key] = {
      inStock: v.inStock,
      ...(v.quantity === undefined ? {} : { quantity: v.quantity }),
      ...(v.availableForPreorder === undefined ? {} : { availableForPreorder: v.availableForPreorder })
    }
  }
  next.lastUpdated = now
  return next
}

export const removeOptions = (spec: ProductSpec, now: string): ProductSpec => {
  const next = structuredClone(spec)
  const stock = variantsOf(next)
  const anyInStock = stock.some(({ v }) => (next.trackInventory ? (v.quantity ?? 0) > 0 : v.inStock))
  const quantity = stock.reduce((sum, { v }) => sum + (v.quantity ?? 0), 0)
  next.productOptions = []
  next.choiceMedia = {}
  next.variants = { "[]": { inStock: anyInStock, ...(next.trackInventory ? { quantity } : {}) } }
  next.lastUpdated = now
  return next
}

/** A media item for a media id (the site's media) or a URL. */
export const mediaItem = (write: typeof MediaDataForWrite.Type, field: string): NonNullable<ProductSpec["media"]>[number] => {
  const id = write.mediaId ?? (write.url === undefined ? undefined : `url-${createHash("sha256").update(write.url).digest("hex").slice(0, 24)}`)
  if (id === undefined) throw invalid(field, "A media item needs a mediaId or a url", "REQUIRED_FIELD")
  if (id.length > 200 || !/^[\w.~-]+$/.test(id)) throw invalid(`${field}.mediaId`, "A media id holds letters, digits, dots, dashes and underscores", "FORMAT")
  if (write.url !== undefined && !/^https?:\/\/|^\/\//.test(write.url)) throw invalid(`${field}.url`, "A media url must be http(s)", "FORMAT")
  const url = write.url ?? `https://static.wixstatic.com/media/${id}`
  return {
    id,
    mediaType: "image",
    title: id,
    image: { url, width: 1000, height: 1000 },
    thumbnail: { url, width: 50, height: 50 }
  }
}

const requireChoice = (spec: ProductSpec, option: string | undefined, choice: string | undefined, field: string): [string, string] => {
  const o = spec.productOptions.find((x) => x.name === option)
  if (o === undefined) throw invalid(`${field}.option`, `The product has no option ${option ?? ""}`)
  const c = o.choices?.find((x) => choiceName(x) === choice)
  if (c === undefined) throw invalid(`${field}.choice`, `Option ${o.name} has no choice ${choice ?? ""}`)
  return [o.name ?? "", choiceName(c)]
}

export const addMedia = (spec: ProductSpec, media: ReadonlyArray<typeof MediaDataForWrite.Type>, now: string): ProductSpec => {
  const next = structuredClone(spec)
  media.forEach((m, i) => {
    const item = mediaItem(m, `media[${i}]`)
    if (!next.media.some((x) => x.id === item.id)) next.media.push(item)
    if (m.choice !== undefined) {
      const [o, c] = requireChoice(next, m.choice.option, m.choice.choice, `media[${i}].choice`)
      const list = ((next.choiceMedia[o] ??= {})[c] ??= [])
      if (!list.includes(item.id!)) list.push(item.id!)
    }
  })
  if (next.media.length > MAX_MEDIA) throw invalid("media", `A product has at most ${MAX_MEDIA} media items`, "MAX_SIZE")
  next.lastUpdated = now
  return next
}

export const removeMedia = (spec: ProductSpec, ids: ReadonlyArray<string>, now: string): ProductSpec => {
  const next = structuredClone(spec)
  const gone = new Set(ids)
  next.media = next.media.filter((m) => !gone.has(m.id ?? ""))
  for (const choices of Object.values(next.choiceMedia)) {
    for (const c of Object.keys(choices)) choices[c] = choices[c]!.filter((id) => !gone.has(id))
  }
  next.lastUpdated = now
  return next
}

export const setChoiceMedia = (
  spec: ProductSpec,
  assignments: ReadonlyArray<{ readonly option?: string; readonly choice?: string; readonly mediaIds?: ReadonlyArray<string> }>,
  remove: boolean,
  now: string
): ProductSpec => {
  const next = structuredClone(spec)
  const known = new Set(next.media.map((m) => m.id))
  assignments.forEach((a, i) => {
    const [o, c] = requireChoice(next, a.option, a.choice, `media[${i}]`)
    const ids = a.mediaIds ?? []
    const unknown = ids.find((id) => !known.has(id))
    if (!remove && unknown !== undefined) throw invalid(`media[${i}].mediaIds`, `Media ${unknown} is not one of the product's media`)
    const list = ((next.choiceMedia[o] ??= {})[c] ??= [])
    if (remove) (next.choiceMedia[o]![c] = ids.length === 0 ? [] : list.filter((id) => !ids.includes(id)))
    else for (const id of ids) if (!list.includes(id)) list.push(id)
  })
  next.lastUpdated = now
  return next
}

export interface PropertySet {
  readonly price?: number
  readonly cost?: number
  readonly weight?: number
  readonly ribbon?: string
  readonly brand?: string
}

/** Checks the values a bulk set would write, once for all products. */
export const checkSet = (set: PropertySet): void => {
  if (set.price !== undefined) money(set.price, "set.price")
  if (set.cost !== undefined) money(set.cost, "set.cost")
  if (set.weight !== undefined) money(set.weight, "set.weight")
  if (set.ribbon !== undefined) text(set.ribbon, "set.ribbon", 30)
  if (set.brand !== undefined) text(set.brand, "set.brand", 50)
  oneProperty(set, "set", "set")
}

export const setProperties = (spec: ProductSpec, set: PropertySet, now: string): ProductSpec => {
  const next = structuredClone(spec)
  if (set.price !== undefined) next.price = money(set.price, "set.price")
  if (set.cost !== undefined) next.cost = money(set.cost, "set.cost")
  if (set.weight !== undefined) next.weight = money(set.weight, "set.weight")
  if (set.ribbon !== undefined) set.ribbon === "" ? delete next.ribbon : (next.ribbon = set.ribbon)
  if (set.brand !== undefined) set.brand === "" ? delete next.brand : (next.brand = set.brand)
  if (next.discount.type === "AMOUNT" && next.discount.value > next.price) {
    throw invalid("set.price", "The new price is below the product's amount discount", "MIN", { min: next.discount.value })
  }
  next.lastUpdated = now
  return next
}

export interface PropertyAdjust {
  readonly price?: typeof Adjustment.Type
  readonly cost?: typeof Adjustment.Type
  readonly weight?: typeof Adjustment.Type
}

const checkAdjustment = (a: typeof Adjustment.Type, field: string): void => {
  if ((a.amount === undefined) === (a.percentage === undefined)) throw invalid(field, "An adjustment is an amount or a percentage (one of them)", "OTHER")
  if (a.amount !== undefined && (!Number.isFinite(a.amount) || Math.abs(a.amount) > MAX_PRICE)) {
    throw invalid(`${field}.amount`, "An amount must be a finite number", "OTHER")
  }
  if (a.percentage !== undefined) {
    const rate = a.percentage.rate
    if (rate === undefined || !Number.isFinite(rate) || rate < -100 || rate > 1000) {
      throw invalid(`${field}.percentage.rate`, "A percentage rate is a number from -100 to 1000", "OTHER", { min: -100, max: 1000 })
    }
  }
}

/** The one property a bulk set or adjust names (the platform takes one per call). */
const oneProperty = (o: object, field: string, what: string): void => {
  const named = Object.entries(o).filter(([, v]) => v !== undefined)
  if (named.length !== 1) throw invalid(field, `Name exactly one property to ${what}, not ${named.length}`, "OTHER")
}

export const checkAdjust = (adjust: PropertyAdjust): void => {
  oneProperty(adjust, "adjust", "adjust")
  for (const k of ["price", "cost", "weight"] as const) if (adjust[k] !== undefined) checkAdjustment(adjust[k], `adjust.${k}`)
}

const adjusted = (value: number, a: typeof Adjustment.Type, field: string): number => {
  let next = a.amount !== undefined ? value + a.amount : value * (1 + a.percentage!.rate! / 100)
  if (a.percentage?.roundToInt === true) next = Math.round(next)
  if (next < 0) throw invalid(field, `The adjustment would make ${field} negative`, "MIN", { min: 0 })
  return money(next, field)
}

/** Adjusts by an amount or a percentage; a product without a cost or weight keeps none. */
export const adjustProperties = (spec: ProductSpec, adjust: PropertyAdjust, now: string): ProductSpec => {
  const next = structuredClone(spec)
  if (adjust.price !== undefined) {
    next.price = adjusted(next.price, adjust.price, "price")
    for (const v of Object.values(next.variants)) if (v.price !== undefined) v.price = adjusted(v.price, adjust.price, "price")
    if (next.discount.type === "AMOUNT" && next.discount.value > next.price) {
      throw invalid("adjust.price", "The adjusted price is below the product's amount discount", "MIN", { min: next.discount.value })
    }
  }
  if (adjust.cost !== undefined && next.cost !== undefined) next.cost = adjusted(next.cost, adjust.cost, "cost")
  if (adjust.weight !== undefined && next.weight !== undefined) next.weight = adjusted(next.weight, adjust.weight, "weight")
  next.lastUpdated = now
  return next
}

/** Sets tracked quantities or in-stock flags of variants (v2 inventory). */
export const setInventory = (
  spec: ProductSpec,
  item: { readonly trackQuantity?: boolean | null | undefined; readonly variants?: ReadonlyArray<{ readonly variantId?: string | undefined; readonly inStock?: boolean | null | undefined; readonly quantity?: number | null | undefined }> | undefined },
  now: string
): { spec: ProductSpec; changed: Array<{ id: string; before: VariantSpec; after: VariantSpec }> } => {
  const next = structuredClone(spec)
  if (item.trackQuantity != null) next.trackInventory = item.trackQuantity
  const byId = new Map(variantsOf(next).map((v) => [v.id, v]))
  const changed: Array<{ id: string; before: VariantSpec; after: VariantSpec }> = []
  ;(item.variants ?? []).forEach((v, i) => {
    const found = byId.get(v.variantId ?? "")
    if (found === undefined) throw new EngineFailure({ status: 404, code: "VARIANT_NOT_FOUND", description: `Variant ${v.variantId ?? ""} not found` })
    const after: VariantSpec = { ...found.v }
    if (v.quantity != null) {
      after.quantity = quantityOf(v.quantity, `inventoryItem.variants[${i}].quantity`)
      after.inStock = after.quantity > 0
    }
    if (v.inStock != null) after.inStock = v.inStock
    next.variants[found.key] = after
    changed.push({ id: found.id, before: found.v, after })
  })
  next.lastUpdated = now
  return { spec: next, changed }
}

/** Changes a variant's tracked quantity by `delta` (decrements below zero are refused). */
export const shiftQuantity = (spec: ProductSpec, variantId: string, delta: number, field: string, now: string) => {
  const found = variantsOf(spec).find((v) => v.id === variantId)
  if (found === undefined) throw new EngineFailure({ status: 404, code: "VARIANT_NOT_FOUND", description: `Variant ${variantId} not found` })
  if (!spec.trackInventory) throw invalid(field, `Product ${spec.id} does not track quantities`, "OTHER")
  const quantity = (found.v.quantity ?? 0) + delta
  if (quantity < 0) {
    throw new EngineFailure({ status: 400, code: "INSUFFICIENT_INVENTORY", description: `Variant ${variantId} has ${found.v.quantity ?? 0} in stock` })
  }
  return setInventory(spec, { variants: [{ variantId, quantity }] }, now)
}

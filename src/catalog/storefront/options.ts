/**
 * How a product's options, choices and variants are read by the storefront helpers: one index per call
 * that resolves every variant's choices to option and choice positions once, so the helpers compare
 * numbers instead of strings.
 *
 * Matching follows the platform: an option is named by its `name`, a choice by its `description` (the
 * text a shopper sees, and what variants carry: a color choice is `{ value: "#FF0000", description:
 * "Red" }` and its variants say `{ Color: "Red" }`) or by its `value`; both compare without regard to
 * case (the platform's own examples send `{ color: "Blue" }` for an option named "Color"), and an exact
 * match wins over one that differs only in case.
 *
 * Every reader here is defensive: a product from anywhere (a cache, a hand-written fixture) may lack
 * fields or carry the wrong types, and the helpers answer rather than throw.
 */
import type { Choice, Product, ProductOption, Variant } from "../wire/products.ts"
import { isRecord } from "../../http/isRecord.ts"

/** Chosen options: option name to choice description (or value), e.g. `{ Size: "L", Color: "Red" }`. */
export type Chosen = Readonly<Record<string, string>>

/** One option of the product, with lookups from text to the choice's position. */
export interface IndexedOption {
  readonly name: string
  readonly option: ProductOption
  readonly choices: ReadonlyArray<Choice>
  readonly find: (text: string) => number
}

/** One variant with the position of its choice for each option (-1: the variant names none we know). */
export interface IndexedVariant {
  readonly variant: Variant
  readonly picks: ReadonlyArray<number>
  readonly visible: boolean
  readonly inStock: boolean
  readonly tracked: boolean
  readonly quantity: number | undefined
}

export interface ProductIndex {
  readonly product: Product
  readonly options: ReadonlyArray<IndexedOption>
  /** Options a shopper must choose (those with at least one choice). */
  readonly required: ReadonlyArray<number>
  /** The product's variants; `undefined` when the answer carried none (a query without variants). */
  readonly variants: ReadonlyArray<IndexedVariant> | undefined
  readonly findOption: (name: string) => number
  readonly preorder: boolean
}

const arrayOf = <A>(u: unknown): ReadonlyArray<A> => (Array.isArray(u) ? (u as ReadonlyArray<A>) : [])
const text = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined)
export const lower = (s: string): string => s.toLowerCase()

/** The text a shopper sees for a choice: its description, else its value. */
export const choiceLabel = (choice: Choice): string => text(choice.description) ?? text(choice.value) ?? ""

/**
 * Looks text up in tiers, the first tier that knows it answering: exact tiers with the text as given,
 * then the lower-cased tiers with the text lower-cased.
 */
const tiered = (exact: ReadonlyArray<Map<string, number>>, folded: ReadonlyArray<Map<string, number>>) =>
(key: string): number => {
  for (const tier of exact) {
    const hit = tier.get(key)
    if (hit !== undefined) return hit
  }
  const low = lower(key)
  for (const tier of folded) {
    const hit = tier.get(low)
    if (hit !== undefined) return hit
  }
  return -1
}

const remember = (map: Map<string, number>, key: string | undefined, at: number) => {
  if (key !== undefined && !map.has(key)) map.set(key, at)
}

const indexOption = (option: ProductOption): IndexedOption => {
  const choices = arrayOf<Choice>(option.choices).filter(isRecord)
  const description = new Map<string, number>()
  const value = new Map<string, number>()
  const descriptionLow = new Map<string, number>()
  const valueLow = new Map<string, number>()
  choices.forEach((choice, i) => {
    const d = text(choice.description)
    const v = text(choice.value)
    remember(description, d, i)
    remember(value, v, i)
    remember(descriptionLow, d === undefined ? undefined : lower(d), i)
    remember(valueLow, v === undefined ? undefined : lower(v), i)
  })
  return { name: text(option.name) ?? "", option, choices, find: tiered([description, value], [descriptionLow, valueLow]) }
}

/** The stock facts of one variant, as the platform reports them. */
export const variantStockFacts = (variant: Variant, productInStock: boolean) => {
  const stock = isRecord(variant.stock) ? variant.stock : undefined
  const tracked = stock?.trackQuantity === true
  const quantity = tracked && typeof stock?.quantity === "number" && Number.isFinite(stock.quantity) ? stock.quantity : undefined
  const inStock = quantity !== undefined
    ? quantity > 0
    : typeof stock?.inStock === "boolean"
    ? stock.inStock
    : productInStock
  return { tracked, quantity, inStock }
}

/** Whether the product's own stock says it can be bought, read from its status, quantity or flag. */
export const productStockFacts = (product: Product) => {
  const stock = isRecord(product.stock) ? product.stock : undefined
  const tracked = stock?.trackInventory === true
  const quantity = tracked && typeof stock?.quantity === "number" && Number.isFinite(stock.quantity) ? stock.quantity : undefined
  const status = text(stock?.inventoryStatus)
  const inStock = status === "IN_STOCK" || status === "PARTIALLY_OUT_OF_STOCK"
    ? true
    : status === "OUT_OF_STOCK" || status === "PREORDER"
    ? false
    : quantity !== undefined
    ? quantity > 0
    : stock?.inStock !== false
  return { tracked, quantity, inStock, status, preorder: status === "PREORDER" }
}

const ownKey = (record: Record<string, unknown>, name: string): string | undefined => {
  if (Object.hasOwn(record, name) && typeof record[name] === "string") return record[name] as string
  const low = lower(name)
  for (const key of Object.keys(record)) {
    if (lower(key) === low && typeof record[key] === "string") return record[key] as string
  }
  return undefined
}

/** Indexes a product for the helpers. */
export const indexProduct = (product: Product): ProductIndex => {
  const safe: Product = isRecord(product) ? product : {}
  const options = arrayOf<ProductOption>(safe.productOptions).filter(isRecord).map(indexOption)
  const exact = new Map<string, number>()
  const low = new Map<string, number>()
  options.forEach((o, i) => {
    remember(exact, o.name, i)
    remember(low, lower(o.name), i)
  })
  const findOption = tiered([exact], [low])
  const required = options.flatMap((o, i) => (o.choices.length > 0 ? [i] : []))
  const own = productStockFacts(safe)
  const variants = Array.isArray(safe.variants)
    ? arrayOf<Variant>(safe.variants).filter(isRecord).map((variant): IndexedVariant => {
      const choices = isRecord(variant.choices) ? variant.choices : {}
      const picks = options.map((o) => {
        const said = ownKey(choices, o.name)
        return said === undefined ? -1 : o.find(said)
      })
      const data = isRecord(variant.variant) ? variant.variant : undefined
      return { variant, picks, visible: data?.visible !== false, ...variantStockFacts(variant, own.inStock) }
    })
    : undefined
  return { product: safe, options, required, variants, findOption, preorder: own.preorder }
}

/** A shopper's choices read against the product: what matched, and what named nothing the product has. */
export interface ReadChoices {
  /** Option position to choice position. */
  readonly picked: ReadonlyMap<number, number>
  readonly unknownOptions: ReadonlyArray<string>
  readonly unknownChoices: ReadonlyArray<{ readonly option: string; readonly value: string }>
}

/**
 * Reads chosen options: names that match an option exactly are read first, so `{ Color: "Red",
 * color: "Blue" }` reads Red; a later key for the same option that picks another choice is unknown.
 */
export const readChoices = (index: ProductIndex, chosen: unknown): ReadChoices => {
  const picked = new Map<number, number>()
  const unknownOptions: Array<string> = []
  const unknownChoices: Array<{ option: string; value: string }> = []
  if (!isRecord(chosen)) return { picked, unknownOptions, unknownChoices }
  const keys = Object.keys(chosen)
  const exactFirst = [
    ...keys.filter((k) => index.options.some((o) => o.name === k)),
    ...keys.filter((k) => !index.options.some((o) => o.name === k))
  ]
  for (const key of exactFirst) {
    const raw = chosen[key]
    const at = index.findOption(key)
    const option = index.options[at]
    if (option === undefined) {
      unknownOptions.push(key)
      continue
    }
    const choice = typeof raw === "string" ? option.find(raw) : -1
    const before = picked.get(at)
    if (choice < 0 || (before !== undefined && before !== choice)) {
      unknownChoices.push({ option: option.name, value: typeof raw === "string" ? raw : String(raw) })
      continue
    }
    picked.set(at, choice)
  }
  return { picked, unknownOptions, unknownChoices }
}

/** The chosen choices by option name, as the platform spells them (choice descriptions). */
export const spelled = (index: ProductIndex, picked: ReadonlyMap<number, number>): Record<string, string> =>
  Object.fromEntries(
    [...picked].sort(([a], [b]) => a - b).flatMap(([o, c]) => {
      const option = index.options[o]
      const choice = option?.choices[c]
      return option === undefined || choice === undefined ? [] : [[option.name, choiceLabel(choice)]]
    })
  )

/** Whether a variant carries every picked choice. */
export const carries = (variant: IndexedVariant, picked: ReadonlyMap<number, number>, except = -1): boolean => {
  for (const [o, c] of picked) {
    if (o !== except && variant.picks[o] !== c) return false
  }
  return true
}

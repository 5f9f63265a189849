/**
 * Which variant a shopper has chosen, and which choices are still worth offering: the two questions a
 * product page asks on every click, answered from the product alone (no request).
 */
import type { Choice, Product, ProductOption, Variant } from "../wire/products.ts"
import {
  carries,
  type Chosen,
  choiceLabel,
  type IndexedOption,
  type IndexedVariant,
  indexProduct,
  type ProductIndex,
  readChoices,
  spelled
} from "./options.ts"

/** A chosen option value the product does not know: an option name, or a choice of a known option. */
export interface UnknownChoice {
  readonly option: string
  readonly value: string
}

/** The variant for a complete choice. */
export interface VariantResolved {
  readonly _tag: "Resolved"
  readonly variant: Variant
  readonly variantId: string | undefined
  /** The choices by option name as the platform spells them (`{ Color: "Red" }` even if `color: "red"` was chosen). */
  readonly choices: Readonly<Record<string, string>>
  /** Whether shoppers may see the variant. */
  readonly visible: boolean
  readonly inStock: boolean
  /** Visible, and in stock or open for preorder: the platform's `availableForPurchase`. */
  readonly purchasable: boolean
}

/** Some options have no choice yet. */
export interface VariantIncomplete {
  readonly _tag: "Incomplete"
  /** Names of the options still to choose, in the product's order. */
  readonly missing: ReadonlyArray<string>
  readonly choices: Readonly<Record<string, string>>
}

/** The choice names an option or a choice value the product does not have. */
export interface VariantUnknown {
  readonly _tag: "Unknown"
  readonly options: ReadonlyArray<string>
  readonly choices: ReadonlyArray<UnknownChoice>
}

/** Every option is chosen and known, yet no variant carries this combination. */
export interface NoSuchVariant {
  readonly _tag: "NoSuchVariant"
  readonly choices: Readonly<Record<string, string>>
}

/** The product came without its variants (a product query without `includeVariants`). */
export interface VariantsNotLoaded {
  readonly _tag: "VariantsNotLoaded"
  readonly choices: Readonly<Record<string, string>>
}

/** What a shopper's choices come to: a variant, or why there is none yet. */
export type VariantResolution = VariantResolved | VariantIncomplete | VariantUnknown | NoSuchVariant | VariantsNotLoaded

const resolvedFrom = (index: ProductIndex, v: IndexedVariant, choices: Record<string, string>): VariantResolved => ({
  _tag: "Resolved",
  variant: v.variant,
  variantId: typeof v.variant.id === "string" ? v.variant.id : undefined,
  choices,
  visible: v.visible,
  inStock: v.inStock,
  purchasable: v.visible && (v.inStock || index.preorder)
})

/**
 * The variant a shopper's choices name: one choice per option, keyed by option name, each the choice's
 * description (what shoppers see; for color options the color's name, not its hex value) or its value.
 * Names and values compare without regard to case. A product without options resolves to its default
 * variant with `{}`.
 *
 * The answer is tagged: `Resolved` (with the variant, whether it is visible, in stock and purchasable),
 * `Incomplete` (naming the options still missing), `Unknown` (naming option names or choice values the
 * product does not have; checked first, so a typo is reported even when options are also missing),
 * `NoSuchVariant` (a known combination no variant carries) or `VariantsNotLoaded`.
 *
 * @example
 * import type { Product } from "sitefx/catalog/products"
 * import type { Chosen } from "sitefx/catalog/storefront"
 * const buttonLabel = (product: Product, chosen: Chosen): string => {
 *   const answer = resolveVariant(product, chosen)
 *   switch (answer._tag) {
 *     case "Resolved": return answer.purchasable ? "Add to cart" : "Sold out"
 *     case "Incomplete": return `Choose ${answer.missing.join(" and ")}`
 *     case "Unknown": return `No ${answer.choices.map((c) => `${c.option} ${c.value}`).join(", ")}`
 *     default: return "Not available"
 *   }
 * }
 */
export const resolveVariant = (product: Product, chosen: Chosen = {}): VariantResolution => {
  const index = indexProduct(product)
  const read = readChoices(index, chosen)
  if (read.unknownOptions.length > 0 || read.unknownChoices.length > 0) {
    return { _tag: "Unknown", options: read.unknownOptions, choices: read.unknownChoices }
  }
  const choices = spelled(index, read.picked)
  const missing = index.required.filter((o) => !read.picked.has(o)).map((o) => index.options[o]?.name ?? "")
  if (missing.length > 0) return { _tag: "Incomplete", missing, choices }
  if (index.variants === undefined) return { _tag: "VariantsNotLoaded", choices }
  const found = index.variants.find((v) => carries(v, read.picked))
  return found === undefined ? { _tag: "NoSuchVariant", choices } : resolvedFrom(index, found, choices)
}

/** Why a choice cannot be bought right now. */
export type ChoiceState =
  /** A visible variant in stock (or open for preorder) carries it with the other chosen options. */
  | "available"
  /** Offered with the other chosen options, but every such variant is out of stock. */
  | "out-of-stock"
  /** Offered, but not together with some of the other chosen options (see `conflictsWith`). */
  | "not-offered-with"
  /** No visible variant carries this choice at all. */
  | "unavailable"

/** One choice of an option, given the shopper's other choices. */
export interface ChoiceAvailability {
  readonly option: string
  /** The choice's description, else its value: what shoppers see and variants carry. */
  readonly label: string
  readonly choice: Choice
  readonly selected: boolean
  /** A visible variant carries this choice together with the other chosen options. */
  readonly selectable: boolean
  /** ... and one such variant is in stock, or the product is open for preorder. */
  readonly purchasable: boolean
  readonly state: ChoiceState
  /**
   * For `not-offered-with`: the other chosen options it is not offered with, each one alone when some
   * are enough to rule it out, else all of them together. Empty otherwise.
   */
  readonly conflictsWith: Readonly<Record<string, string>>
}

/** One option of the product with each of its choices' availability. */
export interface OptionAvailability {
  readonly name: string
  readonly optionType: ProductOption["optionType"]
  /** The chosen choice's label, if this option is chosen. */
  readonly selected: string | undefined
  readonly choices: ReadonlyArray<ChoiceAvailability>
}

const stateOf = (selectable: boolean, purchasable: boolean, everVisible: boolean): ChoiceState =>
  purchasable ? "available" : selectable ? "out-of-stock" : everVisible ? "not-offered-with" : "unavailable"

/** What a choice's availability adds to the choice and its option: the part the two ways of reading it differ in. */
type Offered = Pick<ChoiceAvailability, "selectable" | "purchasable" | "state" | "conflictsWith">

/** Option `o`'s availability, each of its choices as `offered` says. */
const optionAvailability = (
  option: IndexedOption,
  o: number,
  picked: ReadonlyMap<number, number>,
  offered: (choice: Choice, c: number) => Offered
): OptionAvailability => ({
  name: option.name,
  optionType: option.option.optionType,
  selected: picked.has(o) ? choiceLabel(option.choices[picked.get(o)!]!) : undefined,
  choices: option.choices.map((choice, c): ChoiceAvailability => ({
    option: option.name,
    label: choiceLabel(choice),
    choice,
    selected: picked.get(o) === c,
    ...offered(choice, c)
  }))
})

/** Availability from the product's own choice flags, for products that came without variants. */
const fromFlags = (index: ProductIndex, picked: ReadonlyMap<number, number>): ReadonlyArray<OptionAvailability> =>
  index.options.map((option, o) =>
    optionAvailability(option, o, picked, (choice) => {
      const selectable = choice.visible !== false
      const purchasable = selectable && (choice.inStock !== false || index.preorder)
      return { selectable, purchasable, state: stateOf(selectable, purchasable, selectable), conflictsWith: {} }
    })
  )

/**
 * For every option, each choice with whether it can still be picked given the shopper's other choices:
 * `selectable` when a visible variant carries it with them, `purchasable` when such a variant is in stock
 * (or the product is open for preorder), and a `state` a page can show: `out-of-stock`, or
 * `not-offered-with` naming the chosen options it does not combine with (`conflictsWith`), or
 * `unavailable` when no visible variant carries it at all.
 *
 * A choice's own option is left out of "the other choices", so the chosen size's neighbours say what
 * switching size would give. Chosen names or values the product does not know are ignored. A product
 * that came without its variants is answered from its choices' `visible` and `inStock` flags.
 *
 * @example
 * import type { Product } from "sitefx/catalog/products"
 * declare const product: Product
 * declare const render: (label: string, props: { disabled: boolean; note: string }) => void
 * for (const option of availableChoices(product, { Color: "Red" })) {
 *   for (const c of option.choices) {
 *     render(c.label, { disabled: !c.purchasable, note: c.state === "out-of-stock" ? "Sold out"
 *       : c.state === "not-offered-with" ? `Not with ${Object.values(c.conflictsWith).join(", ")}` : "" })
 *   }
 * }
 */
export const availableChoices = (product: Product, partial: Chosen = {}): ReadonlyArray<OptionAvailability> => {
  const index = indexProduct(product)
  const { picked } = readChoices(index, partial)
  if (index.variants === undefined) return fromFlags(index, picked)
  const variants = index.variants.filter((v) => v.visible)
  return index.options.map((option, o) => {
    const others = new Map([...picked].filter(([at]) => at !== o))
    const offered = new Set<number>()
    const inStock = new Set<number>()
    const everVisible = new Set<number>()
    for (const v of variants) {
      const c = v.picks[o]!
      everVisible.add(c)
      if (!carries(v, others)) continue
      offered.add(c)
      if (v.inStock || index.preorder) inStock.add(c)
    }
    return optionAvailability(option, o, picked, (_, c) => {
      const selectable = offered.has(c)
      const purchasable = inStock.has(c)
      const state = stateOf(selectable, purchasable, everVisible.has(c))
      return { selectable, purchasable, state, conflictsWith: state === "not-offered-with" ? conflicts(index, variants, o, c, others) : {} }
    })
  })
}

/** The chosen options a choice is not offered with: each alone if any suffices, else all together. */
const conflicts = (
  index: ProductIndex,
  variants: ReadonlyArray<IndexedVariant>,
  o: number,
  c: number,
  others: ReadonlyMap<number, number>
): Record<string, string> => {
  const alone = [...others].filter(([p, q]) => !variants.some((v) => v.picks[o] === c && v.picks[p] === q))
  return spelled(index, new Map(alone.length > 0 ? alone : others))
}

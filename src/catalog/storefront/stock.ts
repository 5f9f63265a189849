/**
 * Stock as one answer, at whichever level the shopper's choices reach: the product, a partial choice
 * (any variant with these choices), or one variant.
 */
import type { Product, Stock } from "../wire/products.ts"
import { carries, type Chosen, indexProduct, productStockFacts, readChoices, spelled } from "./options.ts"

/** A v1 stock status; `PREORDER` when the product is out of stock but takes preorders. */
export type StockStatus = NonNullable<Stock["inventoryStatus"]>

/** Stock at one level. */
export interface StockAnswer {
  /** `product` with no choices, `choice` for a partial (or unmatched) choice, `variant` for a complete one. */
  readonly level: "product" | "choice" | "variant"
  readonly status: StockStatus
  /** At least one unit (of one matching visible variant) is in stock. */
  readonly inStock: boolean
  /** In stock, or out of stock but open for preorder. */
  readonly purchasable: boolean
  /** Quantities are counted (for `choice`: every matching variant's quantity is). */
  readonly tracked: boolean
  /** Units left, when counted: the variant's, the sum over the matching variants, or the product's. */
  readonly quantity?: number
  /** The variant's id, at the `variant` level. */
  readonly variantId?: string
  /** The choices the answer is for, as the platform spells them (empty at the `product` level). */
  readonly choices: Readonly<Record<string, string>>
}

const STATUSES: ReadonlyArray<string> = ["IN_STOCK", "OUT_OF_STOCK", "PARTIALLY_OUT_OF_STOCK", "PREORDER"]

const answer = (
  level: StockAnswer["level"],
  status: StockStatus,
  tracked: boolean,
  quantity: number | undefined,
  choices: Readonly<Record<string, string>>,
  variantId?: string
): StockAnswer => {
  const inStock = status === "IN_STOCK" || status === "PARTIALLY_OUT_OF_STOCK"
  return {
    level,
    status,
    inStock,
    purchasable: inStock || status === "PREORDER",
    tracked,
    ...(quantity === undefined ? {} : { quantity }),
    ...(variantId === undefined ? {} : { variantId }),
    choices
  }
}

const countStatus = (inStock: number, of: number, preorder: boolean): StockStatus =>
  of > 0 && inStock === of ? "IN_STOCK" : inStock > 0 ? "PARTIALLY_OUT_OF_STOCK" : preorder ? "PREORDER" : "OUT_OF_STOCK"

/**
 * Stock for what the shopper has chosen so far, as one answer:
 *
 * - no choices (or a product without options): the product's own `inventoryStatus` (`IN_STOCK`,
 *   `PARTIALLY_OUT_OF_STOCK` when some variants are out, `OUT_OF_STOCK`, `PREORDER`), or one derived
 *   from its quantity, flag or visible variants when the status is absent;
 * - some options chosen: the visible variants carrying those choices; `IN_STOCK` when all are in stock,
 *   `PARTIALLY_OUT_OF_STOCK` when some are, and the sum of their quantities when all are counted;
 * - every option chosen: the variant, with its tracked quantity or its in-stock flag.
 *
 * Chosen names or values the product does not know are ignored. A complete choice no variant carries,
 * and a partial one no visible variant carries, are `OUT_OF_STOCK` at the `choice` level; a product that
 * came without variants is answered from its choices' `inStock` flags.
 *
 * @example
 * import type { Product } from "sitefx/catalog/products"
 * declare const product: Product
 * const stock = stockOf(product, { Size: "M" })
 * const note = stock.purchasable ? (stock.quantity !== undefined && stock.quantity < 5 ? `Only ${stock.quantity} left` : "")
 *   : stock.status === "PREORDER" ? "Preorder" : "Sold out"
 */
export const stockOf = (product: Product, chosen: Chosen = {}): StockAnswer => {
  const index = indexProduct(product)
  const { picked } = readChoices(index, chosen)
  const own = productStockFacts(index.product)
  const variants = index.variants
  if (picked.size === 0) {
    if (own.status !== undefined && STATUSES.includes(own.status)) {
      return answer("product", own.status as StockStatus, own.tracked, own.quantity, {})
    }
    const visible = variants?.filter((v) => v.visible) ?? []
    if (index.required.length > 0 && visible.length > 0) {
      const status = countStatus(visible.filter((v) => v.inStock).length, visible.length, false)
      return answer("product", status, own.tracked, own.quantity, {})
    }
    return answer("product", own.inStock ? "IN_STOCK" : "OUT_OF_STOCK", own.tracked, own.quantity, {})
  }
  const choices = spelled(index, picked)
  if (variants === undefined) {
    const flags = [...picked].map(([o, c]) => index.options[o]?.choices[c]?.inStock !== false)
    return answer("choice", flags.every((f) => f) ? "IN_STOCK" : own.preorder ? "PREORDER" : "OUT_OF_STOCK", false, undefined, choices)
  }
  const complete = index.required.every((o) => picked.has(o))
  const exact = complete ? variants.find((v) => carries(v, picked)) : undefined
  if (exact !== undefined) {
    const status = exact.inStock ? "IN_STOCK" : own.preorder ? "PREORDER" : "OUT_OF_STOCK"
    const id = typeof exact.variant.id === "string" ? exact.variant.id : undefined
    return answer("variant", status, exact.tracked, exact.quantity, choices, id)
  }
  const matching = variants.filter((v) => v.visible && carries(v, picked))
  const tracked = matching.length > 0 && matching.every((v) => v.tracked && v.quantity !== undefined)
  const quantity = tracked ? matching.reduce((sum, v) => sum + (v.quantity ?? 0), 0) : undefined
  const status = countStatus(matching.filter((v) => v.inStock).length, matching.length, own.preorder)
  return answer("choice", status, tracked, quantity, choices)
}

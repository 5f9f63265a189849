/**
 * One product as a line of a catalog export: what `sitefx catalog export` writes and `sitefx catalog
 * import` reads back. The line holds what a writer says about a product (name, prices, options,
 * each variant's own values and stock), not what the platform derives from it (discounted and
 * formatted prices, ranges, profit, inventory status), so a line edited by hand stays consistent.
 *
 * - Choices go by their description (a colour option's `#1e3a8a` is `Navy`), as variants name them.
 * - Variants carry their effective price, cost, weight, SKU and visibility; import sends a variant's
 *   own value only where it differs from the product's (or the product manages its variants).
 * - `stock` is the variant's inventory: `{quantity}` when the product tracks quantities
 *   (`inventory.trackQuantity`), else `{inStock}`.
 * - Media and choice media go by media id (or an image URL); collections by slug.
 *
 * @example
 * {"id":"…","slug":"pocket-tee","name":"Pocket Tee","price":24.99,"options":[{"name":"Size","type":"drop_down",
 *  "choices":[{"value":"S","description":"S"}]}],"variants":[{"choices":{"Size":"S"},"price":24.99,"visible":true,
 *  "stock":{"quantity":12}}],"inventory":{"trackQuantity":true},"collections":["tees"]}
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import { ALL_PRODUCTS_COLLECTION_ID } from "../../catalog/Collections.ts"
import type { Product } from "../../catalog/Products.ts"

const opt = Schema.optionalKey
const Amount = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

export const LineChoice = Schema.Struct({
  value: opt(Schema.String),
  description: opt(Schema.String),
  /** Media ids (of the product's `media`) shown for this choice. */
  media: opt(Schema.Array(Schema.String))
})

export const LineOption = Schema.Struct({
  name: Schema.String,
  type: opt(Schema.Literals(["drop_down", "color"])),
  choices: Schema.Array(LineChoice).check(Schema.isMinLength(1))
})
export type LineOption = typeof LineOption.Type

export const LineStock = Schema.Struct({ quantity: opt(Count), inStock: opt(Schema.Boolean) })

export const LineVariant = Schema.Struct({
  /** Option name → choice (its description). */
  choices: Schema.Record(Schema.String, Schema.String),
  price: opt(Amount),
  cost: opt(Amount),
  weight: opt(Amount),
  sku: opt(Schema.String),
  visible: opt(Schema.Boolean),
  stock: opt(LineStock)
})
export type LineVariant = typeof LineVariant.Type

export const LineMedia = Schema.Struct({ mediaId: opt(Schema.String), url: opt(Schema.String) })

export const ProductLine = Schema.Struct({
  /** The product's id where it was exported; `--mode upsert` updates the product with this id. */
  id: opt(Schema.String),
  slug: opt(Schema.String),
  name: Schema.String,
  description: opt(Schema.String),
  visible: opt(Schema.Boolean),
  productType: opt(Schema.Literals(["physical", "digital"])),
  sku: opt(Schema.String),
  weight: opt(Amount),
  price: opt(Amount),
  cost: opt(Amount),
  discount: opt(Schema.Struct({ type: Schema.Literals(["NONE", "AMOUNT", "PERCENT"]), value: Amount })),
  ribbon: opt(Schema.String),
  brand: opt(Schema.String),
  manageVariants: opt(Schema.Boolean),
  options: opt(Schema.Array(LineOption)),
  variants: opt(Schema.Array(LineVariant)),
  inventory: opt(Schema.Struct({ trackQuantity: Schema.Boolean })),
  media: opt(Schema.Array(LineMedia)),
  additionalInfoSections: opt(Schema.Array(Schema.Struct({ title: opt(Schema.String), description: opt(Schema.String) }))),
  customTextFields: opt(Schema.Array(Schema.Struct({ title: opt(Schema.String), maxLength: opt(Count), mandatory: opt(Schema.Boolean) }))),
  /** Slugs of the collections (besides "All Products") the product is in. */
  collections: opt(Schema.Array(Schema.String))
})
export type ProductLine = typeof ProductLine.Type

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** Keys whose value is undefined or null left out (a line never says `null`). */
const defined = <T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], null | undefined> } =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as never

const nonEmpty = <A>(list: ReadonlyArray<A> | undefined): ReadonlyArray<A> | undefined => (list === undefined || list.length === 0 ? undefined : list)

/** The key of a variant by its choices, whatever order they are written in. */
export const choicesKey = (choices: { readonly [option: string]: string }): string =>
  JSON.stringify(Object.entries(choices).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/** A product as read with its variants (and an API key) as a line; `slugs` names collections by id. */
export const toLine = (product: Product, slugs: ReadonlyMap<string, string>): ProductLine => {
  const tracked = product.stock?.trackInventory === true
  const options = (product.productOptions ?? []).map((o): LineOption => ({
    name: o.name ?? "",
    type: o.optionType === "color" ? "color" : "drop_down",
    choices: (o.choices ?? []).map((c) => {
      const media = nonEmpty((c.media?.items ?? []).flatMap((m) => (m.id === undefined ? [] : [m.id])))
      return defined({ value: c.value, description: c.description ?? c.value, media })
    })
  }))
  const variants = (product.variants ?? []).map((v): LineVariant =>
    defined({
      choices: v.choices ?? {},
      price: v.variant?.priceData?.price,
      cost: v.variant?.costAndProfitData?.itemCost,
      weight: v.variant?.weight,
      sku: v.variant?.sku,
      visible: v.variant?.visible ?? true,
      stock: tracked ? { quantity: v.stock?.quantity ?? 0 } : { inStock: v.stock?.inStock ?? true }
    })
  )
  const media = (product.media?.items ?? []).flatMap((m) => {
    const item = defined({ mediaId: m.id, url: m.image?.url ?? m.thumbnail?.url })
    return item.mediaId === undefined && item.url === undefined ? [] : [item]
  })
  const collections = (product.collectionIds ?? []).flatMap((id) => {
    const slug = id === ALL_PRODUCTS_COLLECTION_ID ? undefined : slugs.get(id)
    return slug === undefined ? [] : [slug]
  })
  const discount = product.discount?.type === undefined ? undefined : { type: product.discount.type, value: product.discount.value ?? 0 }
  return defined({
    id: product.id,
    slug: product.slug,
    name: product.name ?? "",
    description: product.description,
    visible: product.visible,
    productType: product.productType,
    sku: product.sku,
    weight: product.weight,
    price: product.priceData?.price ?? product.price?.price,
    cost: product.costAndProfitData?.itemCost,
    discount,
    ribbon: product.ribbon ?? product.ribbons?.[0]?.text,
    brand: product.brand,
    manageVariants: product.manageVariants,
    options: nonEmpty(options),
    variants: nonEmpty(variants),
    inventory: { trackQuantity: tracked },
    media: nonEmpty(media),
    additionalInfoSections: nonEmpty(product.additionalInfoSections),
    customTextFields: nonEmpty(product.customTextFields),
    collections: nonEmpty(collections)
  }) as ProductLine
}

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

/** `options[0].choices` from a schema path. */
const pathText = (path: ReadonlyArray<unknown>): string =>
  path
    .map((p) => (typeof p === "object" && p !== null && "key" in p ? (p as { key: unknown }).key : p))
    .reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : text === "" ? String(key) : `${text}.${String(key)}`), "")

/** What is wrong with a decoded value, as one short line. */
const describeIssue = (issue: SchemaIssue.Issue): string =>
  formatIssue(issue)
    .issues.map((i) => {
      const where = pathText(i.path ?? [])
      if (i.message === "Missing key") return `missing ${where}`
      const what = i.message.replace(/^Expected /, "expected ")
      return where === "" ? what : `${where}: ${what}`
    })
    .join("; ")

const decodeLine = Schema.decodeUnknownResult(ProductLine)

/**
 * A line of a JSONL file as a product line, or what is wrong with it: not JSON, not an object, a
 * missing or blank name, options without choices or named twice, variants whose choices are not the
 * options', choice media that are not among the product's media. Names and choices come back trimmed
 * (as the platform keeps them).
 */
export const checkLine = (text: string): Result.Result<ProductLine, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Result.fail(`not valid JSON (${(e as Error).message})`)
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return Result.fail("not a JSON object (one product per line)")
  const decoded = decodeLine(json, { errors: "all" })
  if (Result.isFailure(decoded)) return Result.fail(describeIssue(decoded.failure.issue))
  const line = decoded.success as Mutable<ProductLine>
  if (line.name.trim() === "") return Result.fail("name is blank")
  line.name = line.name.trim()

  // options: names unique, each choice named (by description, else value) and unique in its option
  const options: Array<LineOption> = []
  const choiceNames = new Map<string, Set<string>>()
  for (const [i, o] of (line.options ?? []).entries()) {
    const name = o.name.trim()
    if (name === "") return Result.fail(`options[${i}].name is blank`)
    if ([...choiceNames.keys()].some((n) => n.toLowerCase() === name.toLowerCase())) return Result.fail(`options[${i}]: option "${name}" is named twice`)
    const names = new Set<string>()
    const choices = []
    for (const [j, c] of o.choices.entries()) {
      const description = (c.description ?? c.value ?? "").trim()
      if (description === "") return Result.fail(`options[${i}].choices[${j}] needs a value or a description`)
      if ([...names].some((n) => n.toLowerCase() === description.toLowerCase())) {
        return Result.fail(`options[${i}].choices[${j}]: choice "${description}" appears twice in option "${name}"`)
      }
      names.add(description)
      choices.push({ ...c, value: c.value ?? description, description })
    }
    choiceNames.set(name, names)
    options.push({ ...o, name, choices })
  }
  if (line.options !== undefined) line.options = options

  // variants: exactly one choice of every option, each variant once
  const seen = new Set<string>()
  const variants: Array<LineVariant> = []
  for (const [i, v] of (line.variants ?? []).entries()) {
    const choices: Record<string, string> = {}
    for (const [option, choice] of Object.entries(v.choices)) {
      const name = option.trim()
      const known = choiceNames.get(name)
      if (known === undefined) return Result.fail(`variants[${i}].choices: the product has no option "${name}"`)
      if (!known.has(choice.trim())) return Result.fail(`variants[${i}].choices: option "${name}" has no choice "${choice.trim()}"`)
      choices[name] = choice.trim()
    }
    const missing = [...choiceNames.keys()].find((name) => choices[name] === undefined)
    if (missing !== undefined) return Result.fail(`variants[${i}].choices: no choice of option "${missing}"`)
    const key = choicesKey(choices)
    if (seen.has(key)) return Result.fail(`variants[${i}]: the variant ${key} appears twice`)
    seen.add(key)
    variants.push({ ...v, choices })
  }
  if (line.variants !== undefined) line.variants = variants

  if (line.discount?.type === "PERCENT" && line.discount.value > 100) return Result.fail("discount.value: a percent discount is at most 100")
  for (const [i, m] of (line.media ?? []).entries()) {
    if (m.mediaId === undefined && m.url === undefined) return Result.fail(`media[${i}] needs a mediaId or a url`)
  }
  const mediaIds = new Set((line.media ?? []).flatMap((m) => (m.mediaId === undefined ? [] : [m.mediaId])))
  for (const [i, o] of options.entries()) {
    for (const [j, c] of o.choices.entries()) {
      const unknown = (c.media ?? []).find((id) => !mediaIds.has(id))
      if (unknown !== undefined) return Result.fail(`options[${i}].choices[${j}].media: ${unknown} is not among the product's media`)
    }
  }
  return Result.succeed(line)
}

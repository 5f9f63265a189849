/**
 * Storefront helpers against brute force over random products (random options, choices, missing
 * combinations, visibility and stock, choices spelled in any case or by color value), random prices
 * and discounts in several currencies and locales, and random media ids in every form the platform
 * writes them.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import {
  availableChoices,
  displayPrice,
  mediaId,
  mediaUrl,
  mediaUrlResolver,
  resolveVariant,
  stockOf
} from "../../src/catalog/storefront/index.ts"
import type { Product } from "../../src/catalog/wire/products.ts"

// ---------------------------------------------------------------------------------------------------
// random products, with the truth kept beside them

const OPTION_NAMES = ["Size", "Color", "Material", "Fit"]
const LABELS = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"]

interface TruthVariant {
  readonly combo: ReadonlyArray<number>
  readonly present: boolean
  readonly visible: boolean
  readonly tracked: boolean
  readonly quantity: number
  readonly flag: boolean
}

interface Truth {
  readonly options: ReadonlyArray<{ readonly name: string; readonly color: boolean; readonly labels: ReadonlyArray<string> }>
  readonly variants: ReadonlyArray<TruthVariant>
  readonly preorder: boolean
}

const cross = (sizes: ReadonlyArray<number>): Array<Array<number>> =>
  sizes.reduce<Array<Array<number>>>((acc, n) => acc.flatMap((combo) => Array.from({ length: n }, (_, i) => [...combo, i])), [[]])

const TruthArb: fc.Arbitrary<Truth> = fc
  .record({
    options: fc.array(fc.record({ color: fc.boolean(), choices: fc.integer({ min: 1, max: 4 }) }), { maxLength: 3 }),
    preorder: fc.boolean()
  })
  .chain(({ options, preorder }) => {
    const combos = cross(options.map((o) => o.choices))
    const facts = fc.record({
      present: fc.boolean(),
      visible: fc.boolean(),
      tracked: fc.boolean(),
      quantity: fc.integer({ min: 0, max: 3 }),
      flag: fc.boolean()
    })
    return fc.array(facts, { minLength: combos.length, maxLength: combos.length }).map((f): Truth => ({
      options: options.map((o, i) => ({ name: OPTION_NAMES[i]!, color: o.color, labels: LABELS.slice(0, o.choices) })),
      variants: combos.map((combo, i) => ({ combo, ...f[i]! })),
      preorder
    }))
  })

const hex = (o: number, c: number) => `#${String(o)}${String(c)}A0F0`
const inStockOf = (v: TruthVariant) => (v.tracked ? v.quantity > 0 : v.flag)

const productOf = (t: Truth): Product => ({
  id: "p",
  stock: { trackInventory: false, inventoryStatus: t.preorder ? "PREORDER" : "IN_STOCK" },
  productOptions: t.options.map((o, oi) => ({
    name: o.name,
    optionType: o.color ? "color" : "drop_down",
    choices: o.labels.map((label, ci) => ({ value: o.color ? hex(oi, ci) : label, description: label }))
  })),
  variants: t.variants.filter((v) => v.present).map((v) => ({
    id: `v${v.combo.join("")}`,
    choices: Object.fromEntries(v.combo.map((c, o) => [t.options[o]!.name, t.options[o]!.labels[c]!])),
    variant: { visible: v.visible },
    stock: v.tracked ? { trackQuantity: true, quantity: v.quantity, inStock: v.quantity > 0 } : { trackQuantity: false, inStock: v.flag }
  }))
})

/** A shopper's choice: per option nothing or a choice, each spelled some way; perhaps a stray name or value. */
interface Pick {
  readonly picks: ReadonlyArray<number | undefined>
  readonly chosen: Record<string, string>
  readonly strayOption: boolean
  readonly strayValue: number | undefined
}

const spellings = (s: string) => [s, s.toLowerCase(), s.toUpperCase()]

const PickArb = (t: Truth): fc.Arbitrary<Pick> =>
  fc.record({
    picks: fc.tuple(...t.options.map((o) => fc.option(fc.integer({ min: 0, max: o.labels.length - 1 }), { nil: undefined }))),
    keySpelling: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: t.options.length, maxLength: t.options.length }),
    valueSpelling: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: t.options.length, maxLength: t.options.length }),
    strayOption: fc.boolean(), // a name no option has
    strayValue: fc.option(fc.integer({ min: 0, max: Math.max(t.options.length - 1, 0) }), { nil: undefined })
  }).map(({ keySpelling, picks, strayOption, strayValue, valueSpelling }): Pick => {
    const entries: Array<[string, string]> = []
    const strays = strayValue !== undefined && strayValue < t.options.length && picks[strayValue] === undefined ? strayValue : undefined
    t.options.forEach((o, oi) => {
      const key = spellings(o.name)[keySpelling[oi]!]!
      if (oi === strays) {
        entries.push([key, "Nonesuch"])
        return
      }
      const c = picks[oi]
      if (c === undefined) return
      const label = o.labels[c]!
      const value = valueSpelling[oi] === 3 ? (o.color ? hex(oi, c).toLowerCase() : label) : spellings(label)[valueSpelling[oi]!]!
      entries.push([key, value])
    })
    if (strayOption) entries.push(["Engraving", "Yes"])
    return { picks: [...picks].map((p, i) => (i === strays ? undefined : p)), chosen: Object.fromEntries(entries), strayOption, strayValue: strays }
  })

const Case = TruthArb.chain((truth) => PickArb(truth).map((pick) => ({ truth, pick })))

const carries = (v: TruthVariant, picks: ReadonlyArray<number | undefined>, except = -1) =>
  picks.every((c, o) => o === except || c === undefined || v.combo[o] === c)

const spelledBy = (t: Truth, picks: ReadonlyArray<number | undefined>, except = -1) =>
  Object.fromEntries(picks.flatMap((c, o) => (c === undefined || o === except ? [] : [[t.options[o]!.name, t.options[o]!.labels[c]!]])))

describe("variant resolution, availability and stock agree with brute force", () => {
  it("resolveVariant", () => {
    fc.assert(
      fc.property(Case, ({ pick, truth }) => {
        const answer = resolveVariant(productOf(truth), pick.chosen)
        if (pick.strayOption || pick.strayValue !== undefined) {
          assert.strictEqual(answer._tag, "Unknown")
          if (answer._tag !== "Unknown") return
          assert.deepStrictEqual(answer.options, pick.strayOption ? ["Engraving"] : [])
          assert.deepStrictEqual(
            answer.choices,
            pick.strayValue === undefined ? [] : [{ option: truth.options[pick.strayValue]!.name, value: "Nonesuch" }]
          )
          return
        }
        const choices = spelledBy(truth, pick.picks)
        const missing = truth.options.filter((_, o) => pick.picks[o] === undefined).map((o) => o.name)
        if (missing.length > 0) {
          assert.deepStrictEqual(answer, { _tag: "Incomplete", missing, choices })
          return
        }
        const found = truth.variants.find((v) => v.present && carries(v, pick.picks))
        if (found === undefined) {
          assert.deepStrictEqual(answer, { _tag: "NoSuchVariant", choices })
          return
        }
        assert.deepStrictEqual(answer._tag === "Resolved" && { ...answer, variant: undefined }, {
          _tag: "Resolved",
          variant: undefined,
          variantId: `v${found.combo.join("")}`,
          choices,
          visible: found.visible,
          inStock: inStockOf(found),
          purchasable: found.visible && (inStockOf(found) || truth.preorder)
        })
      }),
      { numRuns: 1000 }
    )
  })

  it("availableChoices", () => {
    fc.assert(
      fc.property(Case, ({ pick, truth }) => {
        const answer = availableChoices(productOf(truth), pick.chosen)
        const seen = truth.variants.filter((v) => v.present && v.visible)
        assert.strictEqual(answer.length, truth.options.length)
        answer.forEach((option, o) => {
          assert.strictEqual(option.name, truth.options[o]!.name)
          const chosen = pick.picks[o]
          assert.strictEqual(option.selected, chosen === undefined ? undefined : truth.options[o]!.labels[chosen])
          option.choices.forEach((got, c) => {
            const withIt = seen.filter((v) => v.combo[o] === c)
            const offered = withIt.filter((v) => carries(v, pick.picks, o))
            const selectable = offered.length > 0
            const purchasable = offered.some((v) => inStockOf(v) || truth.preorder)
            const state = purchasable
              ? "available"
              : selectable
              ? "out-of-stock"
              : withIt.length > 0
              ? "not-offered-with"
              : "unavailable"
            let conflictsWith = {}
            if (state === "not-offered-with") {
              const alone = pick.picks.map((q, p) =>
                q === undefined || p === o || withIt.some((v) => v.combo[p] === q) ? undefined : q
              )
              conflictsWith = alone.some((q) => q !== undefined) ? spelledBy(truth, alone) : spelledBy(truth, pick.picks, o)
            }
            assert.deepStrictEqual(
              { label: got.label, selected: got.selected, selectable: got.selectable, purchasable: got.purchasable, state: got.state, conflictsWith: got.conflictsWith },
              { label: truth.options[o]!.labels[c], selected: chosen === c, selectable, purchasable, state, conflictsWith }
            )
          })
        })
      }),
      { numRuns: 1000 }
    )
  })

  it("stockOf", () => {
    fc.assert(
      fc.property(Case, ({ pick, truth }) => {
        const answer = stockOf(productOf(truth), pick.chosen)
        const picked = pick.picks.some((c) => c !== undefined)
        if (!picked) {
          assert.strictEqual(answer.level, "product")
          assert.strictEqual(answer.status, truth.preorder ? "PREORDER" : "IN_STOCK")
          return
        }
        assert.deepStrictEqual(answer.choices, spelledBy(truth, pick.picks))
        const complete = pick.picks.every((c) => c !== undefined)
        const exact = complete ? truth.variants.find((v) => v.present && carries(v, pick.picks)) : undefined
        if (exact !== undefined) {
          const inStock = inStockOf(exact)
          assert.strictEqual(answer.level, "variant")
          assert.strictEqual(answer.variantId, `v${exact.combo.join("")}`)
          assert.strictEqual(answer.inStock, inStock)
          assert.strictEqual(answer.tracked, exact.tracked)
          assert.strictEqual(answer.quantity, exact.tracked ? exact.quantity : undefined)
          assert.strictEqual(answer.status, inStock ? "IN_STOCK" : truth.preorder ? "PREORDER" : "OUT_OF_STOCK")
          return
        }
        const matching = truth.variants.filter((v) => v.present && v.visible && carries(v, pick.picks))
        const inStock = matching.filter(inStockOf).length
        assert.strictEqual(answer.level, "choice")
        assert.strictEqual(answer.inStock, inStock > 0)
        assert.strictEqual(
          answer.status,
          matching.length > 0 && inStock === matching.length
            ? "IN_STOCK"
            : inStock > 0
            ? "PARTIALLY_OUT_OF_STOCK"
            : truth.preorder
            ? "PREORDER"
            : "OUT_OF_STOCK"
        )
        const counted = matching.length > 0 && matching.every((v) => v.tracked)
        assert.strictEqual(answer.tracked, counted)
        assert.strictEqual(answer.quantity, counted ? matching.reduce((s, v) => s + v.quantity, 0) : undefined)
        assert.strictEqual(answer.purchasable, inStock > 0 || truth.preorder)
      }),
      { numRuns: 1000 }
    )
  })
})

// ---------------------------------------------------------------------------------------------------
// prices

const CURRENCIES = ["USD", "EUR", "JPY", "KWD", "GBP", "ILS", "CHF", "INR"]
const LOCALES = ["en-US", "de-DE", "fr-FR", "ja-JP", "he-IL", "en-IN", "de-CH"]

const digitsOf = (s: string) => s.replace(/\D/g, "")

const PriceCase = fc.record({
  cents: fc.integer({ min: 0, max: 10_000_000_000 }),
  currency: fc.option(fc.constantFrom(...CURRENCIES), { nil: undefined }),
  locale: fc.option(fc.constantFrom(...LOCALES), { nil: undefined }),
  discount: fc.oneof(
    fc.record({ kind: fc.constant("given" as const), cents: fc.integer({ min: -100, max: 20_000_000_000 }) }),
    fc.record({ kind: fc.constant("PERCENT" as const), value: fc.double({ min: -50, max: 150, noNaN: true }) }),
    fc.record({ kind: fc.constant("AMOUNT" as const), value: fc.double({ min: 0, max: 2e8, noNaN: true }) }),
    fc.record({ kind: fc.constant("NONE" as const) })
  ),
  platformFormatted: fc.option(fc.constantFrom(...LOCALES), { nil: undefined }),
  skew: fc.boolean()
})

describe("prices are consistent", () => {
  it("discounted within 0 and the price, the discount adds up, and the formatted strings show the amounts", () => {
    fc.assert(
      fc.property(PriceCase, (c) => {
        const raw = c.cents / 100
        const format = (locale: string, n: number) =>
          new Intl.NumberFormat(
            locale,
            c.currency === undefined ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : { style: "currency", currency: c.currency }
          ).format(n)
        const given = c.discount.kind === "given" ? c.discount.cents / 100 : undefined
        const product: Product = {
          priceData: {
            price: raw,
            ...(c.currency === undefined ? {} : { currency: c.currency }),
            ...(given === undefined ? {} : { discountedPrice: given }),
            ...(c.platformFormatted === undefined
              ? {}
              : { formatted: { price: format(c.platformFormatted, c.skew ? raw + 1 : raw), discountedPrice: "0" } })
          },
          ...(c.discount.kind === "PERCENT" || c.discount.kind === "AMOUNT"
            ? { discount: { type: c.discount.kind, value: c.discount.value } }
            : c.discount.kind === "NONE"
            ? { discount: { type: "NONE" } }
            : {})
        }
        const shown = displayPrice(product, undefined, c.locale === undefined ? {} : { locale: c.locale })
        assert.isDefined(shown)
        if (shown === undefined) return
        const digits = c.currency === undefined
          ? 2
          : new Intl.NumberFormat("en-US", { style: "currency", currency: c.currency }).resolvedOptions().maximumFractionDigits!
        const f = 10 ** digits
        assert.strictEqual(shown.price, Math.round(raw * f) / f)
        assert.isAtLeast(shown.discountedPrice, 0)
        assert.isAtMost(shown.discountedPrice, shown.price)
        assert.strictEqual(shown.onSale, shown.discountedPrice < shown.price)
        assert.strictEqual(Math.round(shown.discount.amount * f), Math.round((shown.price - shown.discountedPrice) * f))
        assert.isTrue(Number.isInteger(shown.discount.percent))
        assert.isAtLeast(shown.discount.percent, 0)
        assert.isAtMost(shown.discount.percent, 100)
        if (c.discount.kind === "NONE" || (c.discount.kind === "PERCENT" && c.discount.value <= 0)) assert.isFalse(shown.onSale)
        // every formatted string round-trips its amount: the same digits at the currency's minor unit
        const roundTrip = (s: string) => Number(digitsOf(s)) / f
        assert.strictEqual(roundTrip(shown.formatted.price), shown.price)
        assert.strictEqual(roundTrip(shown.formatted.discountedPrice), shown.discountedPrice)
        assert.strictEqual(roundTrip(shown.formatted.discount), shown.discount.amount)
        // a locale asked for: formatted in it; none asked: the platform's string kept when it shows the amount
        if (c.locale !== undefined) {
          assert.strictEqual(shown.formatted.price, format(c.locale, shown.price))
        } else if (c.platformFormatted !== undefined && !c.skew) {
          assert.strictEqual(shown.formatted.price, format(c.platformFormatted, raw))
        } else {
          assert.strictEqual(shown.formatted.price, format("en-US", shown.price))
        }
      }),
      { numRuns: 1000 }
    )
  })
})

// ---------------------------------------------------------------------------------------------------
// media

const ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_~.-"
const SimpleId = fc
  .string({ unit: fc.constantFrom(...ID_CHARS), minLength: 1, maxLength: 60 })
  .filter((s) => s !== "." && s !== "..")
const AnyId = fc
  .string({ unit: "grapheme", minLength: 1, maxLength: 30 })
  .filter((s) => s !== "." && s !== ".." && !/[/\\?#\s\u0000-\u001f\u007f]/.test(s))

const MediaCase = fc.record({
  simple: SimpleId,
  any: AnyId,
  form: fc.constantFrom("identifier", "legacy", "bare", "protocol-relative", "https", "http", "sized", "item", "media"),
  width: fc.integer({ min: 1, max: 10_000 }),
  height: fc.integer({ min: 1, max: 10_000 }),
  fit: fc.option(fc.constantFrom("fill" as const, "fit" as const), { nil: undefined }),
  base: fc.constantFrom("http://localhost:4100/media", "https://shop.example/img/", "http://127.0.0.1:9/x/y")
})

const sourceOf = (form: string, simple: string, any: string) => {
  const encoded = encodeURIComponent(any)
  switch (form) {
    case "identifier":
      return { id: any, source: `wix:image://v1/${encoded}/name%20here.jpg#originWidth=640&originHeight=480` }
    case "legacy":
      return { id: any, source: `image://v1/${encoded}/x.png#originWidth=1&originHeight=1` }
    case "bare":
      return { id: simple, source: simple }
    case "protocol-relative":
      return { id: any, source: `//static.wixstatic.com/media/${encoded}` }
    case "https":
      return { id: any, source: `https://static.wixstatic.com/media/${encoded}` }
    case "http":
      return { id: any, source: `http://static.wixstatic.com/media/${encoded}` }
    case "sized":
      return { id: any, source: `https://static.wixstatic.com/media/${encoded}/v1/fill/w_9,h_9,al_c/${encoded}` }
    case "item":
      return { id: simple, source: { id: simple, mediaType: "image" as const, image: { width: 10, height: 10 } } }
    default:
      return { id: any, source: { mainMedia: { image: { url: `wix:image://v1/${encoded}/f.jpg` } } } }
  }
}

describe("media URLs", () => {
  it("are https on the platform's media host and carry the requested size", () => {
    fc.assert(
      fc.property(MediaCase, (c) => {
        const { id, source } = sourceOf(c.form, c.simple, c.any)
        const url = mediaUrl(source, { width: c.width, height: c.height, ...(c.fit === undefined ? {} : { fit: c.fit }) })
        assert.isDefined(url)
        const parsed = new URL(url!)
        assert.strictEqual(parsed.protocol, "https:")
        assert.strictEqual(parsed.host, "static.wixstatic.com")
        const fit = c.fit ?? "fill"
        assert.include(parsed.pathname, `/v1/${fit}/w_${c.width},h_${c.height},`)
        const segments = parsed.pathname.split("/")
        assert.strictEqual(decodeURIComponent(segments[2]!), id)
        assert.strictEqual(mediaId(url), id)
      }),
      { numRuns: 1000 }
    )
  })

  it("from a resolver, are under its base and carry the requested size", () => {
    fc.assert(
      fc.property(MediaCase, (c) => {
        const { id, source } = sourceOf(c.form, c.simple, c.any)
        const size = { width: c.width, height: c.height, ...(c.fit === undefined ? {} : { fit: c.fit }) }
        const url = mediaUrlResolver(c.base)(source, size)
        assert.isDefined(url)
        const base = c.base.replace(/\/+$/, "")
        assert.isTrue(url!.startsWith(`${base}/`), url)
        const parsed = new URL(url!)
        assert.strictEqual(parsed.searchParams.get("w"), String(c.width))
        assert.strictEqual(parsed.searchParams.get("h"), String(c.height))
        assert.strictEqual(parsed.searchParams.get("fit"), c.fit ?? "fill")
        assert.strictEqual(decodeURIComponent(url!.slice(base.length + 1).split("?")[0]!), id)
        // resolving its own URL again keeps it
        assert.strictEqual(mediaUrlResolver(c.base)(url, size), url)
      }),
      { numRuns: 1000 }
    )
  })
})

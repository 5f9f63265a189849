/** Storefront helpers on the products a storefront meets: the named cases, one by one. */
import { assert, describe, it } from "@effect/vitest"
import { media as officialMedia } from "@wix/sdk"
import * as esbuild from "esbuild"
import { gzipSync } from "node:zlib"
import {
  availableChoices,
  displayPrice,
  LOCAL_MEDIA_PATH,
  mediaId,
  mediaUrl,
  mediaUrlResolver,
  resolveVariant,
  stockOf
} from "../../src/catalog/storefront/index.ts"
import type { Product, Variant } from "../../src/catalog/wire/products.ts"

const SIZES = ["S", "M", "L"] as const
const COLORS = [["#FF0000", "Red"], ["#00FF00", "Green"], ["#0000FF", "Blue"], ["#000000", "Black"]] as const

const variant = (size: string, color: string, extra: { quantity?: number; visible?: boolean; price?: number } = {}): Variant => ({
  id: `v-${size}-${color}`,
  choices: { Size: size, Color: color },
  variant: {
    visible: extra.visible ?? true,
    sku: `${size}-${color}`,
    weight: 1,
    priceData: { currency: "USD", price: extra.price ?? 20, discountedPrice: extra.price ?? 20 }
  },
  stock: { trackQuantity: true, quantity: extra.quantity ?? 5, inStock: (extra.quantity ?? 5) > 0 }
})

/**
 * A shirt in S/M/L and Red/Green/Blue/Black: S+Red is sold out, M+Blue is hidden, L+Green was never
 * made, and Black has no variant at all; L costs more.
 */
const shirt: Product = {
  id: "shirt",
  name: "Shirt",
  manageVariants: true,
  priceData: {
    currency: "USD",
    price: 20,
    discountedPrice: 20,
    formatted: { price: "$20.00", discountedPrice: "$20.00" }
  },
  stock: { trackInventory: true, quantity: 44, inStock: true, inventoryStatus: "PARTIALLY_OUT_OF_STOCK" },
  productOptions: [
    { name: "Size", optionType: "drop_down", choices: SIZES.map((s) => ({ value: s, description: s, inStock: true, visible: true })) },
    {
      name: "Color",
      optionType: "color",
      choices: COLORS.map(([value, description]) => ({ value, description, inStock: true, visible: true }))
    }
  ],
  variants: [
    variant("S", "Red", { quantity: 0 }),
    variant("S", "Green"),
    variant("S", "Blue"),
    variant("M", "Red"),
    variant("M", "Green", { quantity: 2 }),
    variant("M", "Blue", { visible: false }),
    variant("L", "Red", { quantity: 3, price: 25 }),
    variant("L", "Blue", { price: 25 })
  ]
}

const mug: Product = {
  id: "mug",
  name: "Mug",
  priceData: { currency: "EUR", price: 9.5 },
  stock: { trackInventory: false, inStock: true, inventoryStatus: "IN_STOCK" },
  productOptions: [],
  variants: [{ id: "00000000-0000-0000-0000-000000000000", choices: {}, stock: { trackQuantity: false, inStock: true } }]
}

const option = (product: Product, partial: Record<string, string>, name: string) =>
  availableChoices(product, partial).find((o) => o.name === name)!
const choice = (product: Product, partial: Record<string, string>, name: string, label: string) =>
  option(product, partial, name).choices.find((c) => c.label === label)!

describe("resolveVariant", () => {
  it("a complete choice gives its variant, spelled as the platform spells it", () => {
    const answer = resolveVariant(shirt, { Size: "M", Color: "Red" })
    assert.strictEqual(answer._tag, "Resolved")
    if (answer._tag !== "Resolved") return
    assert.strictEqual(answer.variantId, "v-M-Red")
    assert.deepStrictEqual(answer.choices, { Size: "M", Color: "Red" })
    assert.isTrue(answer.visible)
    assert.isTrue(answer.inStock)
    assert.isTrue(answer.purchasable)
  })

  it("names and values compare without regard to case; a color is named by its description or its value", () => {
    for (const chosen of [{ size: "m", COLOR: "red" }, { Size: "M", Color: "#ff0000" }, { Size: "M", Color: "#FF0000" }]) {
      const answer = resolveVariant(shirt, chosen)
      assert.strictEqual(answer._tag, "Resolved", JSON.stringify(chosen))
      if (answer._tag === "Resolved") {
        assert.strictEqual(answer.variantId, "v-M-Red")
        assert.deepStrictEqual(answer.choices, { Size: "M", Color: "Red" })
      }
    }
  })

  it("an exact match wins over one that differs only in case", () => {
    const odd: Product = {
      productOptions: [{ name: "Size", choices: [{ value: "S", description: "S" }, { value: "s", description: "s" }] }],
      variants: [{ id: "big", choices: { Size: "S" } }, { id: "small", choices: { Size: "s" } }]
    }
    const small = resolveVariant(odd, { Size: "s" })
    assert.strictEqual(small._tag === "Resolved" && small.variantId, "small")
    const big = resolveVariant(odd, { size: "S" })
    assert.strictEqual(big._tag === "Resolved" && big.variantId, "big")
  })

  it("an incomplete choice names the options still missing", () => {
    assert.deepStrictEqual(resolveVariant(shirt, { Size: "M" }), { _tag: "Incomplete", missing: ["Color"], choices: { Size: "M" } })
    assert.deepStrictEqual(resolveVariant(shirt, {}), { _tag: "Incomplete", missing: ["Size", "Color"], choices: {} })
    assert.deepStrictEqual(resolveVariant(shirt), { _tag: "Incomplete", missing: ["Size", "Color"], choices: {} })
  })

  it("unknown option names and choice values are named, even when options are also missing", () => {
    assert.deepStrictEqual(resolveVariant(shirt, { Size: "M", Fabric: "Silk" }), {
      _tag: "Unknown",
      options: ["Fabric"],
      choices: []
    })
    assert.deepStrictEqual(resolveVariant(shirt, { Size: "XL" }), {
      _tag: "Unknown",
      options: [],
      choices: [{ option: "Size", value: "XL" }]
    })
    // the same option twice with different choices
    assert.deepStrictEqual(resolveVariant(shirt, { Size: "M", size: "L", Color: "Red" }), {
      _tag: "Unknown",
      options: [],
      choices: [{ option: "Size", value: "L" }]
    })
    // the same option twice with the same choice is fine
    assert.strictEqual(resolveVariant(shirt, { Size: "M", size: "m", Color: "Red" })._tag, "Resolved")
  })

  it("a known combination no variant carries is NoSuchVariant", () => {
    assert.deepStrictEqual(resolveVariant(shirt, { Size: "L", Color: "Green" }), {
      _tag: "NoSuchVariant",
      choices: { Size: "L", Color: "Green" }
    })
  })

  it("hidden and sold-out variants resolve, and say they cannot be bought", () => {
    const hidden = resolveVariant(shirt, { Size: "M", Color: "Blue" })
    assert.isTrue(hidden._tag === "Resolved" && !hidden.visible && hidden.inStock && !hidden.purchasable)
    const soldOut = resolveVariant(shirt, { Size: "S", Color: "Red" })
    assert.isTrue(soldOut._tag === "Resolved" && soldOut.visible && !soldOut.inStock && !soldOut.purchasable)
  })

  it("a product without options resolves to its default variant; a product without variants says so", () => {
    const answer = resolveVariant(mug, {})
    assert.strictEqual(answer._tag === "Resolved" && answer.variantId, "00000000-0000-0000-0000-000000000000")
    assert.deepStrictEqual(resolveVariant(mug, { Size: "M" }), { _tag: "Unknown", options: ["Size"], choices: [] })
    const { variants: _, ...bare } = shirt
    assert.deepStrictEqual(resolveVariant(bare, { Size: "M", Color: "Red" }), {
      _tag: "VariantsNotLoaded",
      choices: { Size: "M", Color: "Red" }
    })
  })

  it("never throws on odd input", () => {
    const odd = [null, undefined, 3, "x", [], { productOptions: "no" }, { productOptions: [null, { choices: [null] }], variants: [null, 1] }]
    for (const p of odd) {
      assert.doesNotThrow(() => resolveVariant(p as unknown as Product, { Size: 3 } as unknown as Record<string, string>))
      assert.doesNotThrow(() => availableChoices(p as unknown as Product, null as unknown as Record<string, string>))
      assert.doesNotThrow(() => stockOf(p as unknown as Product, { Size: "M" }))
      assert.doesNotThrow(() => displayPrice(p as unknown as Product, "x"))
    }
    const proto = JSON.parse(`{"__proto__": "M", "Color": "Red"}`)
    assert.deepStrictEqual(resolveVariant(shirt, proto), { _tag: "Unknown", options: ["__proto__"], choices: [] })
    const weird: Product = {
      productOptions: [{ name: "__proto__", choices: [{ value: "x", description: "x" }] }],
      variants: [{ id: "w", choices: JSON.parse(`{"__proto__": "x"}`) }]
    }
    const answer = resolveVariant(weird, JSON.parse(`{"__proto__": "x"}`))
    assert.strictEqual(answer._tag === "Resolved" && answer.variantId, "w")
    assert.isTrue(answer._tag === "Resolved" && Object.hasOwn(answer.choices, "__proto__"))
  })
})

describe("availableChoices", () => {
  it("with Red chosen: S is sold out, M and L can be bought, and Red is selected", () => {
    const size = option(shirt, { Color: "Red" }, "Size")
    assert.deepStrictEqual(size.choices.map((c) => [c.label, c.state]), [["S", "out-of-stock"], ["M", "available"], ["L", "available"]])
    assert.isTrue(size.choices[0]!.selectable)
    assert.isFalse(size.choices[0]!.purchasable)
    const color = option(shirt, { Color: "Red" }, "Color")
    assert.strictEqual(color.selected, "Red")
    assert.strictEqual(color.optionType, "color")
    assert.deepStrictEqual(color.choices.filter((c) => c.selected).map((c) => c.label), ["Red"])
    assert.strictEqual(size.selected, undefined)
  })

  it("a choice not offered with another chosen option names it; one offered with nothing is unavailable", () => {
    const large = choice(shirt, { Color: "Green" }, "Size", "L")
    assert.strictEqual(large.state, "not-offered-with")
    assert.isFalse(large.selectable)
    assert.deepStrictEqual(large.conflictsWith, { Color: "Green" })
    // M+Blue is hidden: Blue is not offered with M
    const blue = choice(shirt, { Size: "M" }, "Color", "Blue")
    assert.strictEqual(blue.state, "not-offered-with")
    assert.deepStrictEqual(blue.conflictsWith, { Size: "M" })
    const black = choice(shirt, {}, "Color", "Black")
    assert.strictEqual(black.state, "unavailable")
    assert.deepStrictEqual(black.conflictsWith, {})
  })

  it("a choice's own option is not a constraint: switching size shows what it would give", () => {
    const size = option(shirt, { Size: "S", Color: "Red" }, "Size")
    assert.deepStrictEqual(size.choices.map((c) => c.state), ["out-of-stock", "available", "available"])
    assert.deepStrictEqual(size.choices.map((c) => c.selected), [true, false, false])
  })

  it("names the single chosen option that rules a choice out, else all of them together", () => {
    const three: Product = {
      productOptions: ["A", "B", "C"].map((name) => ({ name, choices: ["1", "2"].map((v) => ({ value: v, description: v })) })),
      variants: [
        { id: "111", choices: { A: "1", B: "1", C: "1" } },
        { id: "122", choices: { A: "1", B: "2", C: "2" } },
        { id: "212", choices: { A: "2", B: "1", C: "2" } },
        { id: "221", choices: { A: "2", B: "2", C: "1" } }
      ]
    }
    // A=2 with B=1 exists (212), with C=1 exists (221), but not with both
    assert.deepStrictEqual(choice(three, { B: "1", C: "1" }, "A", "2").conflictsWith, { B: "1", C: "1" })
    // C=2 with A=1: 122 exists; with B=1: 212 exists; with both A=1, B=1: none
    assert.deepStrictEqual(choice(three, { A: "1", B: "1" }, "C", "2").conflictsWith, { A: "1", B: "1" })
    const twoOptions: Product = { ...three, variants: three.variants!.filter((v) => v.id !== "212" && v.id !== "111") }
    // no variant has A=2 and B=1 at all (A=2 with C=1 exists): B alone rules it out
    assert.deepStrictEqual(choice(twoOptions, { B: "1", C: "1" }, "A", "2").conflictsWith, { B: "1" })
  })

  it("unknown chosen names or values are ignored", () => {
    assert.deepStrictEqual(
      availableChoices(shirt, { Color: "Red", Fabric: "Silk", Size: "XXL" }),
      availableChoices(shirt, { Color: "Red" })
    )
  })

  it("a product without variants is answered from its choices' flags", () => {
    const { variants: _, ...bare } = shirt
    const flagged: Product = {
      ...bare,
      productOptions: [{ name: "Size", choices: [{ value: "S", inStock: false, visible: true }, { value: "M", visible: false }, { value: "L" }] }]
    }
    assert.deepStrictEqual(option(flagged, { Size: "L" }, "Size").choices.map((c) => [c.label, c.state, c.selected]), [
      ["S", "out-of-stock", false],
      ["M", "unavailable", false],
      ["L", "available", true]
    ])
  })

  it("a product open for preorder can be bought out of stock", () => {
    const preorder: Product = { ...shirt, stock: { ...shirt.stock, inventoryStatus: "PREORDER" } }
    assert.strictEqual(choice(preorder, { Color: "Red" }, "Size", "S").state, "available")
    const soldOut = resolveVariant(preorder, { Size: "S", Color: "Red" })
    assert.isTrue(soldOut._tag === "Resolved" && !soldOut.inStock && soldOut.purchasable)
  })
})

describe("stockOf", () => {
  it("without choices: the product's status", () => {
    assert.deepStrictEqual(stockOf(shirt), {
      level: "product",
      status: "PARTIALLY_OUT_OF_STOCK",
      inStock: true,
      purchasable: true,
      tracked: true,
      quantity: 44,
      choices: {}
    })
    const preorder = stockOf({ ...mug, stock: { trackInventory: true, quantity: 0, inventoryStatus: "PREORDER" } })
    assert.deepStrictEqual([preorder.status, preorder.inStock, preorder.purchasable, preorder.quantity], ["PREORDER", false, true, 0])
    assert.deepStrictEqual(stockOf(mug, {}), { level: "product", status: "IN_STOCK", inStock: true, purchasable: true, tracked: false, choices: {} })
  })

  it("without a status: derived from the visible variants, or the quantity", () => {
    const { inventoryStatus: _, ...stock } = shirt.stock!
    assert.strictEqual(stockOf({ ...shirt, stock }).status, "PARTIALLY_OUT_OF_STOCK")
    const out = shirt.variants!.map((v) => ({ ...v, stock: { trackQuantity: true, quantity: 0, inStock: false } }))
    assert.strictEqual(stockOf({ ...shirt, stock, variants: out }).status, "OUT_OF_STOCK")
    assert.strictEqual(stockOf({ stock: { trackInventory: true, quantity: 0 } }).status, "OUT_OF_STOCK")
    assert.strictEqual(stockOf({ stock: { trackInventory: true, quantity: 3 } }).quantity, 3)
    assert.strictEqual(stockOf({}).status, "IN_STOCK")
  })

  it("a partial choice: the visible variants with it, their quantities summed", () => {
    assert.deepStrictEqual(stockOf(shirt, { color: "red" }), {
      level: "choice",
      status: "PARTIALLY_OUT_OF_STOCK",
      inStock: true,
      purchasable: true,
      tracked: true,
      quantity: 8,
      choices: { Color: "Red" }
    })
    // M+Blue is hidden: Blue counts S and L only
    assert.strictEqual(stockOf(shirt, { Color: "Blue" }).quantity, 10)
    assert.strictEqual(stockOf(shirt, { Color: "Black" }).status, "OUT_OF_STOCK")
    assert.strictEqual(stockOf(shirt, { Size: "M" }).status, "IN_STOCK")
  })

  it("a complete choice: the variant's quantity, or its flag when not counted", () => {
    assert.deepStrictEqual(stockOf(shirt, { Size: "M", Color: "Green" }), {
      level: "variant",
      status: "IN_STOCK",
      inStock: true,
      purchasable: true,
      tracked: true,
      quantity: 2,
      variantId: "v-M-Green",
      choices: { Size: "M", Color: "Green" }
    })
    assert.deepStrictEqual(stockOf(shirt, { Size: "S", Color: "Red" }).status, "OUT_OF_STOCK")
    const flagged: Product = {
      ...shirt,
      variants: [{ id: "f", choices: { Size: "S", Color: "Red" }, stock: { trackQuantity: false, inStock: false } }]
    }
    const v = stockOf(flagged, { Size: "S", Color: "Red" })
    assert.deepStrictEqual([v.level, v.inStock, v.tracked, v.quantity], ["variant", false, false, undefined])
    // a combination no variant carries
    assert.deepStrictEqual(stockOf(shirt, { Size: "L", Color: "Green" }).level, "choice")
    assert.deepStrictEqual(stockOf(shirt, { Size: "L", Color: "Green" }).status, "OUT_OF_STOCK")
  })

  it("a product without variants: its choices' flags", () => {
    const { variants: _, ...bare } = shirt
    const flagged: Product = {
      ...bare,
      productOptions: [{ name: "Size", choices: [{ value: "S", inStock: false }, { value: "M", inStock: true }] }]
    }
    assert.strictEqual(stockOf(flagged, { Size: "S" }).status, "OUT_OF_STOCK")
    assert.strictEqual(stockOf(flagged, { Size: "M" }).status, "IN_STOCK")
  })
})

describe("displayPrice", () => {
  it("a plain price, with the platform's formatted strings kept", () => {
    assert.deepStrictEqual(displayPrice(shirt), {
      currency: "USD",
      price: 20,
      discountedPrice: 20,
      onSale: false,
      discount: { amount: 0, percent: 0 },
      formatted: { price: "$20.00", discountedPrice: "$20.00", discount: "$0.00" }
    })
  })

  it("a sale: the discount as amount and percent; the store's own format kept when it shows the amount", () => {
    const sale: Product = {
      priceData: { currency: "EUR", price: 1200, discountedPrice: 900, formatted: { price: "1.200,00 €", discountedPrice: "950,00 €" } }
    }
    const shown = displayPrice(sale)!
    assert.strictEqual(shown.onSale, true)
    assert.deepStrictEqual(shown.discount, { amount: 300, percent: 25 })
    assert.strictEqual(shown.formatted.price, "1.200,00 €")
    // the platform's discounted string shows another amount: formatted here
    assert.strictEqual(shown.formatted.discountedPrice, "€900.00")
    assert.strictEqual(shown.formatted.discount, "€300.00")
  })

  it("a locale formats everything in it", () => {
    const shown = displayPrice({ priceData: { currency: "EUR", price: 1200, discountedPrice: 900, formatted: { price: "€1,200.00" } } }, undefined, {
      locale: "de-DE"
    })!
    const de = new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" })
    assert.deepStrictEqual(shown.formatted, { price: de.format(1200), discountedPrice: de.format(900), discount: de.format(300) })
  })

  it("the product's discount applies when the platform sent no discounted price", () => {
    const percent = displayPrice({ priceData: { currency: "USD", price: 80 }, discount: { type: "PERCENT", value: 12.5 } })!
    assert.deepStrictEqual([percent.discountedPrice, percent.discount.amount, percent.discount.percent], [70, 10, 13])
    const amount = displayPrice({ priceData: { currency: "USD", price: 80 }, discount: { type: "AMOUNT", value: 100 } })!
    assert.deepStrictEqual([amount.discountedPrice, amount.discount.percent, amount.formatted.discountedPrice], [0, 100, "$0.00"])
    const none = displayPrice({ priceData: { currency: "USD", price: 80 }, discount: { type: "NONE", value: 10 } })!
    assert.isFalse(none.onSale)
    // a discounted price above the price is not a sale
    const odd = displayPrice({ priceData: { currency: "USD", price: 80, discountedPrice: 90 } })!
    assert.deepStrictEqual([odd.discountedPrice, odd.onSale], [80, false])
  })

  it("amounts are rounded to the currency's minor unit", () => {
    const yen = displayPrice({ priceData: { currency: "JPY", price: 1234.6 } })!
    assert.deepStrictEqual([yen.price, yen.formatted.price], [1235, "¥1,235"])
    const dinar = displayPrice({ priceData: { currency: "KWD", price: 10 }, discount: { type: "PERCENT", value: 33.33 } })!
    assert.strictEqual(dinar.discountedPrice, 6.667)
  })

  it("a variant's own price, by the variant or its id; an unknown id gives the product's", () => {
    const large = shirt.variants!.find((v) => v.id === "v-L-Red")!
    assert.strictEqual(displayPrice(shirt, large)!.price, 25)
    assert.strictEqual(displayPrice(shirt, "v-L-Red")!.formatted.price, "$25.00")
    assert.strictEqual(displayPrice(shirt, "nope")!.price, 20)
    // a variant without its own price data shows the product's
    assert.strictEqual(displayPrice(mug, mug.variants![0])!.price, 9.5)
  })

  it("the converted price when asked and sent; a currency from the options; odd currencies and locales", () => {
    const converted: Product = { priceData: { currency: "USD", price: 10 }, convertedPriceData: { currency: "ILS", price: 37 } }
    assert.strictEqual(displayPrice(converted, undefined, { converted: true })!.currency, "ILS")
    assert.strictEqual(displayPrice(converted)!.currency, "USD")
    assert.strictEqual(displayPrice({ priceData: { price: 5 } }, undefined, { currency: "GBP" })!.formatted.price, "£5.00")
    assert.strictEqual(displayPrice({ priceData: { price: 5 } })!.formatted.price, "5.00")
    assert.strictEqual(displayPrice({ priceData: { price: 5, currency: "DOLLARS" } })!.formatted.price, "5.00 DOLLARS")
    assert.strictEqual(displayPrice({ priceData: { price: 5, currency: "USD" } }, undefined, { locale: "not a locale!" })!.formatted.price, "$5.00")
  })

  it("no price, no answer", () => {
    assert.strictEqual(displayPrice({}), undefined)
    assert.strictEqual(displayPrice({ priceData: { price: null } }), undefined)
    assert.strictEqual(displayPrice({ priceData: { price: -1 } }), undefined)
    assert.strictEqual(displayPrice({ priceData: { price: Number.NaN } }), undefined)
  })
})

describe("mediaUrl", () => {
  const id = "11062b_6fc1a1d9c2b04f6d9d8a7c0e5b6f4d21~mv2.jpg"
  const identifier = `wix:image://v1/${id}/blue%20shoe.jpg#originWidth=1200&originHeight=900`
  const sized = (w: number, h: number) => `https://static.wixstatic.com/media/${id}/v1/fill/w_${w},h_${h},al_c,q_80,enc_auto/${id}`

  it("every way the platform names an image gives the same sized https URL", () => {
    const sources = [
      identifier,
      `image://v1/${id}/blue%20shoe.jpg#originWidth=1200&originHeight=900`,
      id,
      `//static.wixstatic.com/media/${id}`,
      `https://static.wixstatic.com/media/${id}`,
      `http://static.wixstatic.com/media/${id}`,
      `https://static.wixstatic.com/media/${id}/v1/fill/w_50,h_50,al_c,q_85/file.jpg`,
      { id, mediaType: "image" as const, image: { url: `https://static.wixstatic.com/media/${id}`, width: 1200, height: 900 } },
      { id },
      { mainMedia: { image: { url: identifier } } },
      { items: [{ image: { url: identifier } }] },
      { mediaType: "video" as const, id: "video-id", thumbnail: { url: `https://static.wixstatic.com/media/${id}` } }
    ]
    for (const source of sources) assert.strictEqual(mediaUrl(source, { width: 300, height: 200 }), sized(300, 200), JSON.stringify(source))
    assert.strictEqual(mediaId(identifier), id)
    assert.strictEqual(mediaId("https://example.com/a.jpg"), undefined)
  })

  it("the sized URL has the shape the official client's image helper gives", () => {
    const official = officialMedia.getScaledToFillImageUrl(identifier, 300, 200, {})
    const ours = mediaUrl(identifier, { width: 300, height: 200 })!
    const head = (u: string) => u.split(",").slice(0, 3).join(",")
    assert.strictEqual(head(ours), head(official))
    assert.strictEqual(officialMedia.getImageUrl(identifier).url, `https://static.wixstatic.com/media/${id}`)
  })

  it("fit, quality and sizes kept within bounds", () => {
    assert.strictEqual(
      mediaUrl(id, { width: 640.4, height: 480, fit: "fit", quality: 90 }),
      `https://static.wixstatic.com/media/${id}/v1/fit/w_640,h_480,q_90,enc_auto/${id}`
    )
    assert.strictEqual(mediaUrl(id, { width: 0, height: 1e9 }), sized(1, 10000))
    assert.strictEqual(mediaUrl(id, { width: Number.NaN, height: -5 }), sized(1, 1))
  })

  it("other URLs come back as they are (protocol-relative ones on https); nothing usable gives undefined", () => {
    assert.strictEqual(mediaUrl("https://cdn.example.com/a.jpg", { width: 10, height: 10 }), "https://cdn.example.com/a.jpg")
    assert.strictEqual(mediaUrl("//cdn.example.com/a.jpg", { width: 10, height: 10 }), "https://cdn.example.com/a.jpg")
    for (const bad of ["", "   ", "javascript:alert(1)", "wix:image://v1/", "wix:image://v1/../x", "a b.jpg", null, undefined, {}, { mainMedia: {} }]) {
      assert.strictEqual(mediaUrl(bad as string, { width: 10, height: 10 }), undefined, JSON.stringify(bad))
    }
  })

  it("ids are one path segment, encoded", () => {
    assert.strictEqual(
      mediaUrl("wix:image://v1/we%C3%AFrd%25id.png/x.png", { width: 10, height: 10 }),
      "https://static.wixstatic.com/media/we%C3%AFrd%25id.png/v1/fill/w_10,h_10,al_c,q_80,enc_auto/we%C3%AFrd%25id.png"
    )
  })

  it("a resolver serves platform images from another base, such as the local platform", () => {
    const local = mediaUrlResolver(new URL(LOCAL_MEDIA_PATH, "http://localhost:4100").href + "/")
    const want = `http://localhost:4100/media/${id}?w=400&h=300&fit=fill`
    for (const source of [identifier, id, `//static.wixstatic.com/media/${id}`, { mainMedia: { id } }]) {
      assert.strictEqual(local(source, { width: 400, height: 300 }), want)
    }
    // already under the base, or under the local media path as another origin saw it: re-sized
    assert.strictEqual(local(`http://localhost:4100/media/${id}?w=10&h=10`, { width: 400, height: 300 }), want)
    assert.strictEqual(local(`http://127.0.0.1:9999/media/${id}`, { width: 400, height: 300 }), want)
    assert.strictEqual(local(`/media/${id}`, { width: 400, height: 300 }), want)
    // the default gives a path as it is: only a resolver knows the platform's origin
    assert.strictEqual(mediaUrl(`/media/${id}`, { width: 400, height: 300 }), `/media/${id}`)
    assert.strictEqual(
      local(id, { width: 400, height: 300, fit: "fit", quality: 70 }),
      `http://localhost:4100/media/${id}?w=400&h=300&fit=fit&q=70`
    )
    assert.strictEqual(local("https://cdn.example.com/a.jpg", { width: 1, height: 1 }), "https://cdn.example.com/a.jpg")
    assert.strictEqual(local("http://localhost:4100/media/..", { width: 1, height: 1 }), undefined)
  })
})

describe("in a browser bundle", () => {
  it("the helpers carry no effect module at all (types only), and weigh under 5 KB gzipped", async () => {
    const built = await esbuild.build({
      entryPoints: ["src/catalog/storefront/index.ts"],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      write: false,
      metafile: true,
      logLevel: "silent"
    })
    const inputs = Object.keys(built.metafile.inputs)
    // nothing but the helpers themselves and the client's one plain-object test (a module with no imports)
    assert.deepStrictEqual(inputs.filter((path) => !path.startsWith("src/catalog/storefront/") && path !== "src/http/isRecord.ts"), [])
    const gzip = gzipSync(built.outputFiles[0]!.contents).length
    assert.isAtMost(gzip, 5_000, `the storefront helpers weigh ${gzip} bytes gzipped`)
  }, 60_000)
})

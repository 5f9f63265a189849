/**
 * The `demo` seed's store: 64 products in 7 collections (and "All Products"), clothing with sizes and
 * colours, shoes by size, accessories by colour, homeware without options; prices, percent and amount
 * discounts, costs, tracked stock with some products sold out and some partly, ribbons and brands,
 * and images the platform serves itself. Everything is derived from fixed names by a fixed
 * pseudo-random sequence, with fixed ids and dates, and nothing existing is overwritten, so seeding
 * again changes nothing.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createHash } from "node:crypto"
import type { ProductOption } from "../../../catalog/wire/products.ts"
import { Seeder } from "../../accounts/seed.ts"
// the brands and ribbons the demo products carry are the store's seeded v3 brands and ribbons
import { DEMO_BRANDS } from "../entities/seed.ts"
import { createSpec, mediaItem } from "./changes.ts"
import { type CollectionSpec, type ProductSpec, slugify, variantsOf } from "./model.ts"
import { ProductStore } from "./ProductStore.ts"
import { Database } from "../../platform/Database.ts"

/** A stable UUID-shaped id for a seeded thing. */
const fixedId = (kind: string, name: string): string => {
  const h = createHash("sha256").update(`sitefx-demo/${kind}/${name}`).digest("hex")
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}


const SIZES = ["S", "M", "L", "XL"]
const SHOE_SIZES = ["40", "41", "42", "43", "44"]
const COLORS: ReadonlyArray<readonly [string, string]> = [
  ["#1f2937", "Charcoal"],
  ["#f5f5f4", "Chalk"],
  ["#1e3a8a", "Navy"],
  ["#166534", "Forest"],
  ["#b45309", "Ochre"]
]

interface Line {
  readonly collection: string
  readonly description: string
  readonly names: ReadonlyArray<string>
  readonly price: readonly [number, number]
  readonly sizes?: ReadonlyArray<string>
  readonly colors?: number
  readonly weight: number
}

const LINES: ReadonlyArray<Line> = [
  {
    collection: "Tees",
    description: "Soft everyday tees in organic cotton.",
    names: ["Everyday Tee", "Pocket Tee", "Long Sleeve Tee", "Heavyweight Tee", "Striped Tee", "Henley", "Ringer Tee", "Boxy Tee", "Raglan Tee", "Slub Tee"],
    price: [18, 38],
    sizes: SIZES,
    colors: 4,
    weight: 0.2
  },
  {
    collection: "Hoodies",
    description: "Warm layers for cool evenings.",
    names: ["Trail Hoodie", "Zip Hoodie", "Fleece Crew", "Quarter Zip", "Waffle Crew", "Loopback Hoodie", "Cabin Sweater", "Merino Crew"],
    price: [48, 110],
    sizes: SIZES,
    colors: 3,
    weight: 0.6
  },
  {
    collection: "Outerwear",
    description: "Jackets that take weather in their stride.",
    names: ["Rain Shell", "Field Jacket", "Down Vest", "Chore Coat", "Wind Anorak", "Quilted Liner", "Wool Overshirt", "Storm Parka"],
    price: [90, 260],
    sizes: ["S", "M", "L"],
    colors: 2,
    weight: 1.1
  },
  {
    collection: "Footwear",
    description: "Shoes made to walk far.",
    names: ["Trail Runner", "Canvas Low", "Leather Boot", "Camp Mule", "Court Sneaker", "Hiking Boot", "Slip-On", "Sandal"],
    price: [55, 180],
    sizes: SHOE_SIZES,
    weight: 0.9
  },
  {
    collection: "Accessories",
    description: "Small things that finish an outfit.",
    names: ["Beanie", "Wool Scarf", "Canvas Tote", "Cap", "Leather Belt", "Wool Socks", "Bandana", "Gloves", "Daypack", "Wallet"],
    price: [12, 75],
    colors: 3,
    weight: 0.15
  },
  {
    collection: "Home",
    description: "Things for the places you come back to.",
    names: ["Enamel Mug", "Wool Blanket", "Linen Pillow", "Candle", "Ceramic Bowl", "Cutting Board", "Tea Towel Set", "Lantern", "Camp Chair", "Thermos"],
    price: [9, 140],
    weight: 0.8
  },
  {
    collection: "Kids",
    description: "Tough clothes for small explorers.",
    names: ["Kids Tee", "Kids Hoodie", "Kids Rain Jacket", "Kids Beanie", "Kids Sneaker", "Kids Overalls", "Kids Socks", "Kids Backpack", "Kids Vest", "Kids Cap"],
    price: [10, 60],
    sizes: ["2T", "4T", "6", "8"],
    colors: 2,
    weight: 0.25
  }
]

/** A fixed pseudo-random sequence (a linear congruential generator). */
const sequence = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

export const DEMO_COLLECTIONS_STORE: ReadonlyArray<CollectionSpec> = [
  ...LINES.map((line) => ({
    id: fixedId("collection", line.collection),
    name: line.collection,
    slug: slugify(line.collection),
    description: line.description,
    visible: true,
    media: { mainMedia: mediaItem({ mediaId: `sitefx-demo-${slugify(line.collection)}.svg` }, "media") }
  })),
  {
    id: fixedId("collection", "Sale"),
    name: "Sale",
    slug: "sale",
    description: "Marked down while stock lasts.",
    visible: true,
    media: { mainMedia: mediaItem({ mediaId: "sitefx-demo-sale.svg" }, "media") }
  }
]

/** The demo products' specs, in a fixed order, with fixed ids and dates. */
export const demoProducts = (): Array<ProductSpec> => {
  const random = sequence(20260101)
  const pick = <A>(list: ReadonlyArray<A>): A => list[Math.floor(random() * list.length)]!
  const sale = DEMO_COLLECTIONS_STORE.find((c) => c.slug === "sale")!
  const out: Array<ProductSpec> = []
  let n = 0
  for (const line of LINES) {
    const collection = DEMO_COLLECTIONS_STORE.find((c) => c.name === line.collection)!
    for (const name of line.names) {
      n++
      const slug = slugify(name)
      const price = Math.round(line.price[0] + random() * (line.price[1] - line.price[0])) - 0.01
      const options: Array<ProductOption> = []
      if (line.sizes !== undefined) options.push({ name: "Size", optionType: "drop_down", choices: line.sizes.map((s) => ({ value: s, description: s })) })
      if (line.colors !== undefined) {
        const start = Math.floor(random() * COLORS.length)
        const colors = Array.from({ length: line.colors }, (_, i) => COLORS[(start + i) % COLORS.length]!)
        options.push({ name: "Color", optionType: "color", choices: colors.map(([value, description]) => ({ value, description })) })
      }
      const discount = n % 4 === 0
        ? { type: "PERCENT" as const, value: 20 }
        : n % 7 === 0
        ? { type: "AMOUNT" as const, value: Math.min(5, Math.floor(price / 2)) }
        : { type: "NONE" as const, value: 0 }
      const ribbon = discount.type !== "NONE" ? "Sale" : n % 9 === 1 ? "New" : n % 11 === 3 ? "Limited" : n % 6 === 5 ? "Bestseller" : undefined
      const created = new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString()
      const spec = createSpec(
        {
          name,
          slug,
          description: `${name}: ${line.description.toLowerCase().replace(/\.$/, "")}. Made to last, from the ${line.collection.toLowerCase()} range.`,
          productType: "physical",
          priceData: { price: Math.round(price * 100) / 100 },
          costAndProfitData: { itemCost: Math.round(price * (0.35 + random() * 0.2) * 100) / 100 },
          weight: line.weight,
          sku: `${line.collection.slice(0, 3).toUpperCase()}-${String(n).padStart(3, "0")}`,
          discount,
          productOptions: options,
          ...(ribbon === undefined ? {} : { ribbon }),
          brand: pick(DEMO_BRANDS),
          visible: n % 23 !== 0,
          stock: { trackInventory: true, quantity: 0 },
          media: {
            items: [
              mediaItem({ mediaId: `sitefx-demo-${slug}.svg` }, "media"),
              mediaItem({ mediaId: `sitefx-demo-${slug}-detail.svg` }, "media")
            ]
          },
          additionalInfoSections: [
            { title: "Care", description: "Wash cold, dry flat." },
            { title: "Shipping & returns", description: "Free returns within 30 days." }
          ]
        },
        { id: fixedId("product", name), numericId: String(1000 + n), inventoryItemId: fixedId("inventory", name) },
        created
      )
      // stock: every 10th product sold out, every 3rd partly, the rest in stock
      const soldOut = n % 10 === 0
      const partly = !soldOut && n % 3 === 0
      for (const { key, v } of variantsOf(spec)) {
        const quantity = soldOut ? 0 : partly && random() < 0.4 ? 0 : 1 + Math.floor(random() * 40)
        spec.variants[key] = { ...v, quantity, inStock: quantity > 0 }
      }
      // colour choices show their own picture
      const color = options.find((o) => o.name === "Color")
      for (const choice of color?.choices ?? []) {
        const item = mediaItem({ mediaId: `sitefx-demo-${slug}-${slugify(choice.description ?? "")}.svg` }, "media")
        spec.media.push(item)
        ;(spec.choiceMedia["Color"] ??= {})[choice.description ?? ""] = [item.id!]
      }
      spec.collectionIds = discount.type === "NONE" ? [collection.id] : [collection.id, sale.id]
      out.push(spec)
    }
  }
  return out
}

/** Registers the store part of the `demo` seed. */
export const productsSeed: Layer.Layer<never, never, Seeder | ProductStore | Database> = Layer.effectDiscard(
  Effect.gen(function*() {
    const seeder = yield* Seeder
    const products = yield* ProductStore
    const db = yield* Database
    seeder.extend((name) =>
      Effect.sync(() => {
        if (name !== "demo") return
        for (const collection of DEMO_COLLECTIONS_STORE) {
          if (products.collection(collection.id) === undefined) products.storeCollection(collection)
        }
        // one transaction, as a route's write is: some 700 rows, not 700 commits
        db.transaction(() => {
          for (const spec of demoProducts()) {
            if (products.find(spec.id) === undefined) products.store(spec)
          }
        })
      })
    )
  })
)

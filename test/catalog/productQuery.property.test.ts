/**
 * Product queries against a reference: random catalogs (names, prices, discounts, brands, visibility,
 * collection membership, stock) go into the local platform, random filters and sorts go through
 * sitefx's query builder over HTTP, and every page must hold exactly what a plain evaluator over the
 * same products says, in the same order, with the same total, for visitors and for an API key.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import fc from "fast-check"
import type { OffsetQuery } from "../../src/catalog/OffsetQuery.ts"
import type { Product } from "../../src/catalog/Products.ts"
import type { PlatformClient } from "../../src/http/PlatformClient.ts"
import * as Products from "../../src/catalog/Products.ts"
import { createSpec } from "../../src/server/catalog/products/changes.ts"
import { ProductStore as ProductStore } from "../../src/server/catalog/products/index.ts"
import { asAdmin } from "../data/support.ts"
import { LocalPlatform, withSite } from "../support/platform.ts"
import { layerWithCore } from "../../src/server/LocalPlatform.ts"

const BRANDS = ["Alder", "Birch", "Cedar"] as const
const WORDS = ["Blue", "blue", "Trail", "Tee", "Zip", "Émile", "Ärm", "Z"] as const

const RandomProduct = fc.record({
  name: fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([a, b]) => `${a} ${b}`),
  price: fc.integer({ min: 0, max: 300 }),
  percent: fc.option(fc.integer({ min: 1, max: 90 }), { nil: undefined }),
  brand: fc.option(fc.constantFrom(...BRANDS), { nil: undefined }),
  visible: fc.boolean(),
  quantity: fc.integer({ min: 0, max: 3 }),
  inB: fc.boolean()
})

type Field = "name" | "priceData.price" | "priceData.discountedPrice" | "brand" | "stock.quantity"
type Condition =
  | { readonly op: "eq" | "ne" | "gt" | "lt" | "ge" | "le"; readonly field: Field; readonly value: string | number }
  | { readonly op: "startsWith"; readonly field: "name"; readonly value: string }
  | { readonly op: "in"; readonly field: "brand" | "priceData.price"; readonly value: ReadonlyArray<string | number> }
  | { readonly op: "exists"; readonly field: "brand"; readonly value: boolean }
  | { readonly op: "hasSome" | "hasAll"; readonly field: "collectionIds"; readonly value: ReadonlyArray<string> }

/** Collections a condition may name: the run's second collection ("B"), All Products, and one no product is in. */
const B = "B"
const ALL_PRODUCTS = "00000000-000000-000000-000000000001"

const NumberField = fc.constantFrom<Field>("priceData.price", "priceData.discountedPrice", "stock.quantity")
const RandomCondition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ op: fc.constantFrom("eq", "ne", "gt", "lt", "ge", "le" as const), field: NumberField, value: fc.integer({ min: 0, max: 300 }) }),
  fc.record({ op: fc.constantFrom("eq", "ne", "gt", "lt" as const), field: fc.constant<Field>("name"), value: fc.constantFrom(...WORDS).map((w) => `${w} Tee`) }),
  fc.record({ op: fc.constantFrom("eq", "ne" as const), field: fc.constant<Field>("brand"), value: fc.constantFrom(...BRANDS) }),
  // text matching is where clients and platforms most often disagree (case, accents): weighted up
  { arbitrary: fc.record({ op: fc.constant("startsWith" as const), field: fc.constant("name" as const), value: fc.constantFrom("B", "bl", "BL", "blue t", "Trail", "É", "Z") }), weight: 3 },
  fc.record({ op: fc.constant("in" as const), field: fc.constant("brand" as const), value: fc.subarray([...BRANDS]) }),
  fc.record({ op: fc.constant("in" as const), field: fc.constant("priceData.price" as const), value: fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 5 }) }),
  fc.record({ op: fc.constant("exists" as const), field: fc.constant("brand" as const), value: fc.boolean() }),
  {
    arbitrary: fc.record({
      op: fc.constantFrom("hasSome", "hasAll" as const),
      field: fc.constant("collectionIds" as const),
      value: fc.subarray([B, ALL_PRODUCTS, "no-such-collection"], { minLength: 1 })
    }),
    weight: 2
  }
)

const Sort = fc.array(fc.record({ field: fc.constantFrom<Field>("name", "priceData.price", "priceData.discountedPrice", "brand"), desc: fc.boolean() }), { maxLength: 2 })

const Case = fc.record({
  products: fc.array(RandomProduct, { minLength: 0, maxLength: 25 }),
  conditions: fc.array(RandomCondition, { maxLength: 4 }),
  sort: Sort,
  limit: fc.integer({ min: 1, max: 10 }),
  admin: fc.boolean()
})

type Row = {
  readonly id: string
  readonly seq: number
  readonly values: Record<Field, string | number | undefined>
  readonly collections: ReadonlyArray<string>
}

/** Values compare only within a type; numbers and strings by value, strings by code point. */
const compare = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0)

const matches = (row: Row, c: Condition): boolean => {
  if (c.op === "hasSome" || c.op === "hasAll") {
    return c.op === "hasSome" ? c.value.some((id) => row.collections.includes(id)) : c.value.every((id) => row.collections.includes(id))
  }
  const v = row.values[c.field as Field]
  switch (c.op) {
    case "eq":
      return v === c.value
    case "ne":
      return v !== c.value
    case "gt":
    case "lt":
    case "ge":
    case "le": {
      if (v === undefined || typeof v !== typeof c.value) return false
      const d = compare(v, c.value)
      return c.op === "gt" ? d > 0 : c.op === "lt" ? d < 0 : c.op === "ge" ? d >= 0 : d <= 0
    }
    case "startsWith":
      return typeof v === "string" && v.toLowerCase().startsWith(c.value.toLowerCase())
    case "in":
      return v !== undefined && c.value.includes(v)
    case "exists":
      return (v !== undefined) === c.value
  }
}

/** Missing sorts first ascending (and last descending); ties keep creation order. */
const order = (sort: ReadonlyArray<{ readonly field: Field; readonly desc: boolean }>) => (a: Row, b: Row): number => {
  for (const s of sort) {
    const x = a.values[s.field]
    const y = b.values[s.field]
    const d = x === y ? 0 : x === undefined ? -1 : y === undefined ? 1 : compare(x, y)
    if (d !== 0) return s.desc ? -d : d
  }
  return a.seq - b.seq
}

const applyConditions = <A>(q: OffsetQuery<A>, conditions: ReadonlyArray<Condition>): OffsetQuery<A> =>
  conditions.reduce((acc, c) => {
    switch (c.op) {
      case "startsWith":
        return acc.startsWith(c.field, c.value)
      case "in":
        return acc.in(c.field, c.value)
      case "exists":
        return acc.exists(c.field, c.value)
      case "hasSome":
        return acc.hasSome(c.field, c.value)
      case "hasAll":
        return acc.hasAll(c.field, c.value)
      default:
        return acc[c.op](c.field, c.value)
    }
  }, q)

let run = 0

it.layer(layerWithCore({ seed: "none" }), { excludeTestServices: true })("product queries", (it) => {
  it.effect("equal a reference evaluator over random catalogs", () =>
    Effect.flatMap(Effect.context<LocalPlatform | ProductStore>(), (context) =>
      Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(Case, (c) =>
            Effect.runPromiseWith(context)(Effect.gen(function*() {
              const store = yield* ProductStore
              // each run's products sit in a collection of their own, which every query names
              const collectionId = `prop-${run++}`
              const second = `${collectionId}-b`
              store.storeCollection({ id: collectionId, name: collectionId, slug: collectionId, description: "", visible: true })
              store.storeCollection({ id: second, name: second, slug: second, description: "", visible: true })
              const rows: Array<Row> = c.products.map((p, seq) => {
                const spec = createSpec(
                  {
                    name: p.name,
                    priceData: { price: p.price },
                    ...(p.percent === undefined ? {} : { discount: { type: "PERCENT" as const, value: p.percent } }),
                    ...(p.brand === undefined ? {} : { brand: p.brand }),
                    visible: p.visible,
                    stock: { trackInventory: true, quantity: p.quantity }
                  },
                  store.newIds(),
                  store.now()
                )
                spec.slug = `${collectionId}-${seq}`
                spec.collectionIds = p.inB ? [collectionId, second] : [collectionId]
                const doc = store.store(spec)
                return {
                  id: spec.id,
                  seq,
                  collections: [ALL_PRODUCTS, collectionId, ...(p.inB ? [B] : [])],
                  values: {
                    name: doc.name ?? undefined,
                    "priceData.price": doc.priceData!.price ?? undefined,
                    "priceData.discountedPrice": doc.priceData!.discountedPrice,
                    brand: doc.brand ?? undefined,
                    "stock.quantity": doc.stock!.quantity ?? undefined
                  } as Row["values"]
                }
              })
              const visible = new Set(c.products.flatMap((p, i) => (p.visible ? [rows[i]!.id] : [])))
              const expected = rows
                .filter((r) => (c.admin || visible.has(r.id)) && c.conditions.every((k) => matches(r, k)))
                .sort(order(c.sort))
                .map((r) => r.id)

              // "B" stands for the run's second collection
              const conditions = c.conditions.map((k) => (k.op === "hasSome" || k.op === "hasAll" ? { ...k, value: k.value.map((v) => (v === B ? second : v)) } : k))
              // the run draws its field names at random from those the platform filters and sorts on: the
              // untyped query takes them as strings, as a script building filters at run time would
              const loose: OffsetQuery<Product> = Products.query().hasSome("collectionIds", [collectionId]) as OffsetQuery<Product, PlatformClient, any>
              let q = applyConditions(loose, conditions).limit(c.limit)
              for (const s of c.sort) q = s.desc ? q.descending(s.field) : q.ascending(s.field)
              const as = c.admin ? asAdmin : withSite
              const first = yield* as(q.find)
              const streamed = yield* as(q.stream.pipe(Stream.map((p) => p.id), Stream.runCollect))
              assert.strictEqual(first.totalCount, expected.length, "total")
              assert.deepStrictEqual(first.items.map((p) => p.id), expected.slice(0, c.limit), "first page")
              assert.deepStrictEqual([...streamed], expected, "every page")
            }))
          ),
          { numRuns: 120 }
        )
      )
    ), 120_000) // 120 random catalogs: about 10 s on a quiet machine, past 30 s on a loaded one
})

/**
 * The storefront's atoms: the store's collections, the product grid's query (one cached,
 * paginated atom per search, filter and sort, through sitefx/react's query atoms), and a product by its
 * slug with its variants.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import * as Collections from "sitefx/catalog/collections"
import * as Products from "sitefx/catalog/products"
import { queryAtoms, QueryKeys } from "sitefx/react"
import { runtime } from "../site.ts"

/** A product query (filter, sort, page). */
export type ProductQuery = ReturnType<typeof Products.query>

/** Products per page of the grid. */
export const PAGE_SIZE = 24

export const queries = queryAtoms(runtime)

/** The store's collections, by name (the built-in "All Products" is the grid without a collection filter). */
export const collectionsAtom = queries.collections(Collections.query().ascending("name").limit(100))

export const ALL_PRODUCTS = Collections.ALL_PRODUCTS_COLLECTION_ID

export const SORTS = {
  newest: { label: "Newest", apply: (q: ProductQuery) => q.descending("createdDate") },
  "price-asc": { label: "Price, low to high", apply: (q: ProductQuery) => q.ascending("priceData.discountedPrice", "name") },
  "price-desc": { label: "Price, high to low", apply: (q: ProductQuery) => q.descending("priceData.discountedPrice").ascending("name") },
  name: { label: "Name, A to Z", apply: (q: ProductQuery) => q.ascending("name") }
} as const
export type SortKey = keyof typeof SORTS

/** What the grid shows, as the URL says it. */
export interface Filters {
  /** The search's words (see `Products.searchFilter`: each in the name, description or SKU). */
  readonly q: string
  /** A collection's slug; "" for every product. */
  readonly collection: string
  readonly inStock: boolean
  readonly min: number | undefined
  readonly max: number | undefined
  readonly brand: string
  readonly sort: SortKey
}

const amount = (text: string | null): number | undefined => {
  if (text === null || text.trim() === "") return undefined
  const n = Number(text)
  return Number.isFinite(n) && n >= 0 ? n : undefined
}

export const filtersOf = (params: URLSearchParams): Filters => {
  const sort = params.get("sort") ?? "newest"
  return {
    q: params.get("q") ?? "",
    collection: params.get("c") ?? "",
    inStock: params.get("stock") === "in",
    min: amount(params.get("min")),
    max: amount(params.get("max")),
    brand: params.get("brand") ?? "",
    sort: sort in SORTS ? sort as SortKey : "newest"
  }
}

/** The URL parameters of filters (defaults left out). */
export const paramsOfFilters = (f: Filters): Record<string, string | undefined> => ({
  q: f.q.trim() === "" ? undefined : f.q,
  c: f.collection || undefined,
  stock: f.inStock ? "in" : undefined,
  min: f.min === undefined ? undefined : String(f.min),
  max: f.max === undefined ? undefined : String(f.max),
  brand: f.brand || undefined,
  sort: f.sort === "newest" ? undefined : f.sort
})

/** The product query of the grid: the filters as the platform's filter language, prices as shoppers pay them. */
export const productQuery = (f: Filters, collectionId: string | undefined): ProductQuery => {
  let q = Products.query().limit(PAGE_SIZE)
  q = q.where(Products.searchFilter(f.q))
  if (collectionId !== undefined && collectionId !== ALL_PRODUCTS) q = q.hasSome("collectionIds", [collectionId])
  if (f.inStock) q = q.in("stock.inventoryStatus", ["IN_STOCK", "PARTIALLY_OUT_OF_STOCK"])
  if (f.min !== undefined) q = q.ge("priceData.discountedPrice", f.min)
  if (f.max !== undefined) q = q.le("priceData.discountedPrice", f.max)
  if (f.brand !== "") q = q.eq("brand", f.brand)
  return SORTS[f.sort].apply(q)
}

export class ProductNotFound extends Data.TaggedError("ProductNotFound")<{ readonly slug: string }> {
  override get message() {
    return `There is no product at “${this.slug}”.`
  }
}

/** A product by its slug, with its variants (what the product page's choices resolve against). */
export const productAtom = Atom.family((slug: string) =>
  runtime.factory.withReactivity([QueryKeys.products])(
    runtime.atom(Effect.gen(function*() {
      const page = yield* Products.query().eq("slug", slug).limit(1).find
      const id = page.items[0]?.id
      if (id === undefined) return yield* new ProductNotFound({ slug })
      return yield* Products.get(id)
    }))
  )
)

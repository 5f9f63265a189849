/**
 * What the grid shows, as the URL says it: the filters, the sorts and the page size, without Effect, so
 * the first screen's bootstrap and its filter form read the URL as the full app does.
 */
import type * as Products from "sitefx/catalog/products"

/** A product query (filter, sort, page). */
export type ProductQuery = ReturnType<typeof Products.query>

/** Products per page of the grid. */
export const PAGE_SIZE = 24

function asc(fieldName: string) {
  return { fieldName, order: "ASC" } as const
}
function desc(fieldName: string) {
  return { fieldName, order: "DESC" } as const
}

/**
 * The sorts: each as the query builder writes it (`apply`) and as it goes on the wire (`wire`), which the
 * first screen's bootstrap sends without the builder; its answer serves the grid's query atom only when the
 * two write the same request (its key is the request's), as test/app/firstScreen.test.ts holds.
 */
export const SORTS = {
  newest: { label: "Newest", apply: (q: ProductQuery) => q.descending("createdDate"), wire: [desc("createdDate")] },
  "price-asc": { label: "Price, low to high", apply: (q: ProductQuery) => q.ascending("priceData.discountedPrice", "name"), wire: [asc("priceData.discountedPrice"), asc("name")] },
  "price-desc": { label: "Price, high to low", apply: (q: ProductQuery) => q.descending("priceData.discountedPrice").ascending("name"), wire: [desc("priceData.discountedPrice"), asc("name")] },
  name: { label: "Name, A to Z", apply: (q: ProductQuery) => q.ascending("name"), wire: [asc("name")] }
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

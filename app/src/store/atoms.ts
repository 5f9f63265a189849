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
import { type Filters, filtersOf, PAGE_SIZE, paramsOfFilters, type ProductQuery, SORTS, type SortKey } from "./filters.ts"

export { type Filters, filtersOf, PAGE_SIZE, paramsOfFilters, type ProductQuery, SORTS, type SortKey }

export const queries = queryAtoms(runtime)

/** The store's collections, by name (the built-in "All Products" is the grid without a collection filter); the first screen's bootstrap may have answered it already (boot/early.ts asks for the same page). */
export const collectionsQuery = Collections.query().ascending("name").limit(100)

export const collectionsAtom = queries.collections(collectionsQuery)

export const ALL_PRODUCTS = Collections.ALL_PRODUCTS_COLLECTION_ID

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

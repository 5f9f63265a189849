/**
 * The first screen's requests, started as the entry script runs, through `sitefx/first-screen` (plain
 * `fetch`, no Effect): the session's access token (from the tabs' shared store, else granted and saved
 * there under their lock), then the grid's first page and the collections at once, as the full app's
 * query atoms would ask for them. Only the catalog's plain screen (every product, any sort, no search or
 * filter) is answered here; any other route leaves its requests to the full app. The answers are handed
 * to the full app's atoms (full.tsx hydrates its registry with them), keyed as those atoms key their
 * queries, so nothing is asked twice.
 */
import type { Collection } from "sitefx/catalog/collections"
import type { Product } from "sitefx/catalog/products"
import { collections, type DehydratedQueries, type FirstAnswer, firstScreen, products } from "sitefx/first-screen"
import { CLIENT_ID, platformUrl } from "../platform.ts"
import { type Filters, filtersOf, PAGE_SIZE, SORTS } from "../store/filters.ts"
import { paramsOf } from "../store/params.ts"

/** What the bootstrap got for the screen the location named: the filters it asked for, both answers, and their handover. */
export interface Early {
  readonly filters: Filters
  readonly products: FirstAnswer<Product>
  readonly collections: FirstAnswer<Collection> | undefined
  /** The answers as the full app's query atoms take them (`hydrate`). */
  readonly queries: DehydratedQueries
}

/** The catalog's plain screen, which the bootstrap can draw: the filters it shows, else undefined. */
export const plainCatalog = (hash: string): Filters | undefined => {
  const [path = "", query = ""] = hash.replace(/^#\/?/, "").split("?")
  const parts = path.split("/").filter((p) => p !== "")
  if (parts.length > 1 || (parts.length === 1 && parts[0] !== "store")) return undefined
  const f = filtersOf(paramsOf(query))
  return f.q.trim() === "" && f.collection === "" && !f.inStock && f.min === undefined && f.max === undefined && f.brand === "" ? f : undefined
}

const start = async (filters: Filters): Promise<Early | undefined> => {
  const first = firstScreen({ clientId: CLIENT_ID, baseUrl: platformUrl })
  // the grid's query and the nav's, as atoms.ts builds them (`productQuery`, `collectionsQuery`)
  const grid = first.query(products({ limit: PAGE_SIZE, sort: SORTS[filters.sort].wire }))
  // the nav is worth having at once, but the grid does not wait on it
  const nav = first.query(collections({ limit: 100, sort: [{ fieldName: "name", order: "ASC" }] }))
  const [productsPage, collectionsPage] = await Promise.all([grid, nav])
  if (productsPage === undefined) return undefined
  return { filters, products: productsPage, collections: collectionsPage, queries: await first.dehydrated() }
}

/** The bootstrap's answers for the location the page opened at; undefined when it asked nothing or the grid's request failed (the full app then asks). */
export const early: Promise<Early | undefined> = (() => {
  const filters = plainCatalog(window.location.hash)
  if (filters === undefined) return Promise.resolve(undefined)
  return start(filters).catch(() => undefined)
})()

/**
 * The first screen's requests, started as the entry script runs, with plain `fetch`: the session's
 * access token (visitorToken.ts), then the grid's first page and the collections at once, exactly as
 * the full app's query atoms would ask for them. Only the catalog's plain screen (every product, any
 * sort, no search or filter) is answered here; any other route leaves its requests to the full app. The
 * answers are handed to the full app as its queries' seeds (full.tsx), so nothing is asked twice.
 */
import { type Filters, filtersOf, PAGE_SIZE, SORTS } from "../store/filters.ts"
import { paramsOf } from "../store/params.ts"
import { platformUrl } from "../platform.ts"
import { visitorToken } from "./visitorToken.ts"
import { CatalogPaths, toWire } from "./wire.ts"

/** One query's first page as the platform answered it, and the payload it answered (full.tsx compares it with its own query's). */
export interface EarlyPage<A> {
  readonly payload: string
  readonly items: ReadonlyArray<A>
  readonly total: number | undefined
  readonly hasMore: boolean
}

/** What the bootstrap got for the screen the location named: the filters it asked for, and both answers. */
export interface Early {
  readonly filters: Filters
  readonly products: EarlyPage<any>
  readonly collections: EarlyPage<any> | undefined
}

/** The catalog's plain screen, which the bootstrap can draw: the filters it shows, else undefined. */
export const plainCatalog = (hash: string): Filters | undefined => {
  const [path = "", query = ""] = hash.replace(/^#\/?/, "").split("?")
  const parts = path.split("/").filter((p) => p !== "")
  if (parts.length > 1 || (parts.length === 1 && parts[0] !== "store")) return undefined
  const f = filtersOf(paramsOf(query))
  return f.q.trim() === "" && f.collection === "" && !f.inStock && f.min === undefined && f.max === undefined && f.brand === "" ? f : undefined
}

/** A v1 query's first page, sent as the library sends it (GET with `.r`), its paging read as `OffsetQuery` reads it. */
const firstPage = async <A>(path: string, query: Record<string, unknown>, field: string, token: string): Promise<EarlyPage<A>> => {
  const payload = { query }
  const wire = toWire({ method: "GET", path, payload, complex: {} }, platformUrl)
  const res = await fetch(wire.url, { method: wire.method, headers: { authorization: token } })
  if (!res.ok) throw new Error(`${path} answered ${res.status}`)
  const body = await res.json() as Record<string, unknown> & { metadata?: { total?: number }; totalResults?: number }
  const items = (body[field] ?? []) as ReadonlyArray<A>
  const limit = (query["paging"] as { limit: number }).limit
  const total = body.metadata?.total ?? body.totalResults
  return { payload: JSON.stringify(payload), items, total, hasMore: total === undefined ? items.length === limit : items.length < total && items.length > 0 }
}

const start = async (filters: Filters): Promise<Early | undefined> => {
  const token = await visitorToken()
  if (token === undefined) return undefined
  const [products, collections] = await Promise.all([
    firstPage(CatalogPaths.productsQuery, { filter: {}, paging: { offset: 0, limit: PAGE_SIZE }, sort: SORTS[filters.sort].wire }, "products", token),
    // the nav is worth having at once, but the grid does not wait on it
    firstPage(CatalogPaths.collectionsQuery, { filter: {}, paging: { offset: 0, limit: 100 }, sort: [{ fieldName: "name", order: "ASC" }] }, "collections", token)
      .catch(() => undefined)
  ])
  return { filters, products, collections }
}

/** The bootstrap's answers for the location the page opened at; undefined when it asked nothing or a request failed (the full app then asks). */
export const early: Promise<Early | undefined> = (() => {
  const filters = plainCatalog(window.location.hash)
  if (filters === undefined) return Promise.resolve(undefined)
  return start(filters).catch(() => undefined)
})()

/** The Reactivity keys the query atoms listen on: a module of its own, shared by the queries, the writes and the live changes. */

/** The Reactivity keys of sitefx's collections: invalidating one refreshes every query over it. */
export const QueryKeys = {
  data: (collection: string): string => `sitefx/data/${collection}`,
  products: "sitefx/catalog/products",
  collections: "sitefx/catalog/collections"
} as const

/**
 * The cache key of a catalog v1 query (`catalogQuery`): what it reads, the name its options go by, the
 * request of its first page, and the reasons it is refused before it is sent. Plain, so a page's first
 * script (`sitefx/first-screen`) keys the answer it hands over exactly as the query atom will.
 */
export const catalogQueryKey = (what: "products" | "collections", request: unknown, key = "", refusal = "", error = ""): string =>
  `${what} ${key} ${JSON.stringify(request)} ${refusal} ${error}`

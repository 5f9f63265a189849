/** The Reactivity keys the query atoms listen on: a module of its own, shared by the queries, the writes and the live changes. */

/** The Reactivity keys of sitefx's collections: invalidating one refreshes every query over it. */
export const QueryKeys = {
  data: (collection: string): string => `sitefx/data/${collection}`,
  products: "sitefx/catalog/products",
  collections: "sitefx/catalog/collections"
} as const

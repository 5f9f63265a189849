/**
 * Guards of the shapes every data answer shares: item data, items and paging metadata. The client checks
 * the platform's answers with guards rather than the wire Schemas (`../wire/`), which would weigh on every
 * page that runs a query; test/data/guards.test.ts holds each guard's type to its Schema's.
 */
import * as G from "../../http/guard.ts"

const nullable = <A>(g: G.Guard<A>) => G.optional(G.nullOr(g))

/** Item fields: any JSON object, taken as it is (not copied key by key). */
export const ItemData = G.object
export const DataItem = G.struct({ id: G.optional(G.string), dataCollectionId: G.optional(G.string), data: nullable(ItemData) })

export const PagingMetadata = G.struct({
  count: nullable(G.number),
  offset: nullable(G.number),
  total: nullable(G.number),
  tooManyToCount: nullable(G.boolean),
  cursors: G.optional(G.struct({ next: nullable(G.string), prev: nullable(G.string) })),
  hasNext: nullable(G.boolean)
})
/** An answer's optional `pagingMetadata`. */
export const paging = G.optional(PagingMetadata)

/**
 * Guards of the answer parts the catalog services share (v1 offset paging, bulk results), and the two
 * wrappers every guard file uses. Their Schemas are in `../wire/common.ts`.
 */
import * as G from "../../http/guard.ts"

/** A key that may be left out. */
export const opt = G.optional
/** A key that may be left out or sent as null. */
export const nullable = <A>(guard: G.Guard<A>) => G.optional(G.nullOr(guard))

/** v1 paging answer: items on this page, where it starts, and the total. */
export const PagingMetadataV1 = G.struct({
  items: opt(G.number),
  offset: opt(G.number),
  count: opt(G.number),
  total: opt(G.number),
  tooManyToCount: nullable(G.boolean)
})
export type PagingMetadataV1 = G.TypeOf<typeof PagingMetadataV1>

/** A v1 query answer: the items of one page under their call's key, the paging, and the total. */
export const offsetPage = <K extends string, A>(key: K, item: G.Guard<A>) =>
  G.struct({ ...({ [key]: opt(G.array(item)) } as { [P in K]: G.Optional<ReadonlyArray<A>> }), metadata: opt(PagingMetadataV1), totalResults: opt(G.number) })

/** Where one item of a bulk call stands. */
export const ItemMetadata = G.struct({
  id: nullable(G.string),
  originalIndex: opt(G.number),
  success: opt(G.boolean),
  error: nullable(G.struct({ code: opt(G.string), description: opt(G.string), data: nullable(G.unknown) }))
})
export type ItemMetadata = G.TypeOf<typeof ItemMetadata>

/** How many items of a bulk call succeeded and failed. */
export const BulkActionMetadata = G.struct({
  totalSuccesses: opt(G.number),
  totalFailures: opt(G.number),
  undetailedFailures: opt(G.number)
})
export type BulkActionMetadata = G.TypeOf<typeof BulkActionMetadata>

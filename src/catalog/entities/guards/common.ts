/**
 * What the catalog v3 entity services' answers share: the system fields, counts and bulk results. The
 * guards here and beside it check answers without Schema (see `src/http/guard.ts`); each has exactly
 * the type of its wire Schema in `../wire/`, which test/catalog/guards.test.ts holds the compiler to.
 */
import * as G from "../../../http/guard.ts"
import { BulkActionMetadata, ItemMetadata, nullable, opt } from "../../guards/common.ts"

export { BulkActionMetadata, ItemMetadata, nullable, opt } from "../../guards/common.ts"

/** v3 paging answer: the page's size, its cursors, and whether more follow. */
export const CursorPagingMetadata = G.struct({
  count: nullable(G.number),
  cursors: opt(G.struct({ next: nullable(G.string), prev: nullable(G.string) })),
  hasNext: nullable(G.boolean)
})
export type CursorPagingMetadata = G.TypeOf<typeof CursorPagingMetadata>

/** The system fields every v3 entity carries. */
export const system = {
  id: nullable(G.string),
  revision: nullable(G.string),
  createdDate: nullable(G.string),
  updatedDate: nullable(G.string)
}

export const CountResponse = G.struct({ count: G.number })
export const BulkDeleteResponse = G.struct({
  results: G.array(G.struct({ itemMetadata: ItemMetadata })),
  bulkActionMetadata: BulkActionMetadata
})
/** What a bulk delete answers: every id's fate in request order. */
export type BulkDeleteResults = G.TypeOf<typeof BulkDeleteResponse>

/** What a bulk call answers: every item's fate in request order, with the entity when asked for. */
export interface BulkResults<A> {
  readonly results: ReadonlyArray<{ readonly itemMetadata: ItemMetadata; readonly item?: A }>
  readonly bulkActionMetadata: BulkActionMetadata
}

/** The guard of a bulk call's answer with entities checked by `entity`. */
export const bulkResults = <A>(entity: G.Guard<A>): G.Guard<BulkResults<A>> =>
  G.struct({ results: G.array(G.struct({ itemMetadata: ItemMetadata, item: opt(entity) })), bulkActionMetadata: BulkActionMetadata })

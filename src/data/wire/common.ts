/**
 * The shapes every data call shares: item data (JSON in which dates travel as `{"$date": iso}`), items,
 * filters (JSON trees read by `FilterTree.ts`), sorting, paging and the paging metadata of answers.
 */
import * as Schema from "effect/Schema"
import { isRecord } from "../../http/isRecord.ts"
import { CursorPaging, Paging, Sorting, SortOrder } from "../../http/wire.ts"
import { DATA_ENVIRONMENTS } from "../protocol.ts"

/** The paging and sorting shapes every module's queries share. */
export { CursorPaging, Paging, Sorting, SortOrder }

/**
 * A JSON object of item fields (`$date` values still encoded). Checked as a whole and passed on as it
 * is: a page of a thousand items is not copied key by key on either side of the wire.
 */
export const ItemData = Schema.declare((u): u is { readonly [field: string]: unknown } => isRecord(u), { identifier: "ItemData" })
export type ItemData = typeof ItemData.Type

/** A filter tree as JSON (`{field: value}`, `{field: {$op: ...}}`, `$and`/`$or`/`$not`). */
export const FilterJson = Schema.Record(Schema.String, Schema.Unknown)
export type FilterJson = typeof FilterJson.Type

/** An item as it travels: its id, its collection and its fields (`data`); what item writes send and item answers hold. */
export const DataItem = Schema.Struct({
  id: Schema.optionalKey(Schema.String),
  dataCollectionId: Schema.optionalKey(Schema.String),
  data: Schema.optionalKey(Schema.NullOr(ItemData))
})
export type DataItem = typeof DataItem.Type

/** What a query asks for (filter, sort, fields, paging): the `query` of an item query (`/items/query`) and of `GET …/collections/query`. */
export const QueryV2 = Schema.Struct({
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  sort: Schema.optionalKey(Schema.Array(Sorting)),
  fields: Schema.optionalKey(Schema.Array(Schema.String)),
  paging: Schema.optionalKey(Paging),
  cursorPaging: Schema.optionalKey(CursorPaging)
})
export type QueryV2 = typeof QueryV2.Type

/** A reference field whose referenced items a query or get returns in place of their ids (at most `limit` of them). */
export const IncludedReference = Schema.Struct({ field: Schema.String, limit: Schema.optionalKey(Schema.Number) })
export type IncludedReference = typeof IncludedReference.Type

/** The paging part of an answer: how many items came, the total when asked for, whether more follow, and the cursors to go on. */
export const PagingMetadata = Schema.Struct({
  count: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  offset: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  total: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  tooManyToCount: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  cursors: Schema.optionalKey(Schema.Struct({
    next: Schema.optionalKey(Schema.NullOr(Schema.String)),
    prev: Schema.optionalKey(Schema.NullOr(Schema.String))
  })),
  hasNext: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
})
export type PagingMetadata = typeof PagingMetadata.Type

/** Where a data call works: a collection's LIVE items, its SANDBOX copy, or SANDBOX_PREFERRED. */
export const Environment = Schema.Literals(DATA_ENVIRONMENTS)
export type Environment = typeof Environment.Type

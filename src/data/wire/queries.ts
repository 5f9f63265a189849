/** Reading many items: queries, counts, distinct values and full-text search. */
import * as Schema from "effect/Schema"
import { CursorPaging, DataItem, FilterJson, IncludedReference, Paging, PagingMetadata, QueryV2, Sorting, SortOrder } from "./common.ts"
import { ReadOptions, WriteOptions } from "./fields.ts"

export const QueryDataItemsRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  query: Schema.optionalKey(QueryV2),
  returnTotalCount: Schema.optionalKey(Schema.Boolean),
  includeReferences: Schema.optionalKey(Schema.Array(IncludedReference)),
  includeReferencedItems: Schema.optionalKey(Schema.Array(Schema.String)),
  ...ReadOptions,
  ...WriteOptions
})
export type QueryDataItemsRequest = typeof QueryDataItemsRequest.Type

export const QueryDataItemsResponse = Schema.Struct({
  dataItems: Schema.Array(DataItem),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})
export type QueryDataItemsResponse = typeof QueryDataItemsResponse.Type

export const CountDataItemsRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  ...ReadOptions
})
export type CountDataItemsRequest = typeof CountDataItemsRequest.Type
export const CountDataItemsResponse = Schema.Struct({ totalCount: Schema.Number })

export const QueryDistinctValuesRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  /** Absent on cursor pages: the official client sends only the cursor then. */
  fieldName: Schema.optionalKey(Schema.String),
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  order: Schema.optionalKey(SortOrder),
  paging: Schema.optionalKey(Paging),
  cursorPaging: Schema.optionalKey(CursorPaging),
  returnTotalCount: Schema.optionalKey(Schema.Boolean),
  ...ReadOptions
})
export type QueryDistinctValuesRequest = typeof QueryDistinctValuesRequest.Type
export const QueryDistinctValuesResponse = Schema.Struct({
  distinctValues: Schema.Array(Schema.Unknown),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})
export type QueryDistinctValuesResponse = typeof QueryDistinctValuesResponse.Type

export const SearchMode = Schema.Literals(["OR", "AND"])
export const SearchDataItemsRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  search: Schema.Struct({
    filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
    sort: Schema.optionalKey(Schema.Array(Sorting)),
    fields: Schema.optionalKey(Schema.Array(Schema.String)),
    search: Schema.optionalKey(Schema.Struct({
      expression: Schema.optionalKey(Schema.NullOr(Schema.String)),
      fuzzy: Schema.optionalKey(Schema.Boolean),
      mode: Schema.optionalKey(SearchMode)
    })),
    paging: Schema.optionalKey(Paging),
    cursorPaging: Schema.optionalKey(CursorPaging)
  }),
  includeReferences: Schema.optionalKey(Schema.Array(IncludedReference)),
  language: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type SearchDataItemsRequest = typeof SearchDataItemsRequest.Type
export const SearchDataItemsResponse = QueryDataItemsResponse

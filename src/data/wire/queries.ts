/** Reading many items: queries, counts, distinct values and full-text search. */
import * as Schema from "effect/Schema"
import { CursorPaging, DataItem, FilterJson, IncludedReference, Paging, PagingMetadata, QueryV2, Sorting, SortOrder } from "./common.ts"
import { InEnvironment, ReadOptions, WriteOptions } from "./fields.ts"

/** What a query sends: as `.r` of `GET /items/query`, or as the body of `POST /items/query` when the URL would pass 2048 characters. */
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

/** The answer of a query (`/items/query`): a page of items and its paging metadata. */
export const QueryDataItemsResponse = Schema.Struct({
  dataItems: Schema.Array(DataItem),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})
export type QueryDataItemsResponse = typeof QueryDataItemsResponse.Type

/** The body of `POST /items/count`: the filter whose matching items are counted. */
export const CountDataItemsRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  ...ReadOptions
})
export type CountDataItemsRequest = typeof CountDataItemsRequest.Type
/** The answer of `POST /items/count`: how many items match. */
export const CountDataItemsResponse = Schema.Struct({ totalCount: Schema.Number })

/** The body of `POST /items/query-distinct-values`: the field whose distinct values among the matching items are listed. */
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
/** The answer of `POST /items/query-distinct-values`: a page of distinct values. */
export const QueryDistinctValuesResponse = Schema.Struct({
  distinctValues: Schema.Array(Schema.Unknown),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})
export type QueryDistinctValuesResponse = typeof QueryDistinctValuesResponse.Type

/** How a full-text search matches its words: any of them (`OR`, the default) or all of them (`AND`). */
export const SearchMode = Schema.Literals(["OR", "AND"])
/** The body of `POST /items/search`: a full-text search expression, with a query's filter, sort, fields and paging. */
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
  language: Schema.optionalKey(Schema.NullOr(Schema.String)),
  ...InEnvironment
})
export type SearchDataItemsRequest = typeof SearchDataItemsRequest.Type
/** The answer of `POST /items/search`: a page of items, as a query answers. */
export const SearchDataItemsResponse = QueryDataItemsResponse

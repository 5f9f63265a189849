/**
 * Wire shapes of the data-collections API (`/wix-data/v2/...`), defined once and used by both the
 * client (src/data) and the local platform's data engine (src/server/data). Item data is JSON in
 * which dates travel as `{"$date": iso}`; filters are JSON trees read by `FilterTree.ts`.
 */
import * as Schema from "effect/Schema"
import { ASYNC_JOB_STATUSES, BULK_ACTION_TYPES, COLLECTION_TYPES, FIELD_TYPES, PAGING_MODES, ROLES, SORT_ORDERS } from "./protocol.ts"

export { DATA_QUERY_MAX_URL, DataPaths, DEFAULT_PAGE_SIZE, MAX_BULK_ITEMS, peekPagingMetadata, samePaging } from "./protocol.ts"

const isItemData = (u: unknown): u is { readonly [field: string]: unknown } => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A JSON object of item fields (`$date` values still encoded). Checked as a whole and passed on as it
 * is: a page of a thousand items is not copied key by key on either side of the wire.
 */
export const ItemData = Schema.declare(isItemData, { identifier: "ItemData" })
export type ItemData = typeof ItemData.Type

/** A filter tree as JSON (`{field: value}`, `{field: {$op: ...}}`, `$and`/`$or`/`$not`). */
export const FilterJson = Schema.Record(Schema.String, Schema.Unknown)
export type FilterJson = typeof FilterJson.Type

export const DataItem = Schema.Struct({
  id: Schema.optionalKey(Schema.String),
  dataCollectionId: Schema.optionalKey(Schema.String),
  data: Schema.optionalKey(Schema.NullOr(ItemData))
})
export type DataItem = typeof DataItem.Type

export const SortOrder = Schema.Literals(SORT_ORDERS)
export type SortOrder = typeof SortOrder.Type

export const Sorting = Schema.Struct({ fieldName: Schema.String, order: Schema.optionalKey(SortOrder) })
export type Sorting = typeof Sorting.Type

export const Paging = Schema.Struct({
  limit: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  offset: Schema.optionalKey(Schema.NullOr(Schema.Number))
})
export type Paging = typeof Paging.Type

export const CursorPaging = Schema.Struct({
  limit: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  cursor: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type CursorPaging = typeof CursorPaging.Type

export const QueryV2 = Schema.Struct({
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  sort: Schema.optionalKey(Schema.Array(Sorting)),
  fields: Schema.optionalKey(Schema.Array(Schema.String)),
  paging: Schema.optionalKey(Paging),
  cursorPaging: Schema.optionalKey(CursorPaging)
})
export type QueryV2 = typeof QueryV2.Type

export const IncludedReference = Schema.Struct({ field: Schema.String, limit: Schema.optionalKey(Schema.Number) })
export type IncludedReference = typeof IncludedReference.Type

/** Options most calls accept. */
const ReadOptions = {
  consistentRead: Schema.optionalKey(Schema.Boolean),
  language: Schema.optionalKey(Schema.NullOr(Schema.String))
}
const WriteOptions = {
  suppressHooks: Schema.optionalKey(Schema.Boolean)
}

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

// ---------------------------------------------------------------------------------------------------
// Single items

export const InsertDataItemRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItem: DataItem,
  ...WriteOptions
})
export const UpdateDataItemRequest = InsertDataItemRequest
export const SaveDataItemRequest = InsertDataItemRequest
export const DataItemResponse = Schema.Struct({ dataItem: DataItem })
export const SaveDataItemResponse = Schema.Struct({
  action: Schema.optionalKey(Schema.Literals(["UNKNOWN_ACTION", "INSERTED", "UPDATED"])),
  dataItem: DataItem
})

/** GET `/items/{dataItemId}`: every field also travels as a query parameter. */
export const GetDataItemRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItemId: Schema.String,
  fields: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Sent as `.r` (it holds objects); referenced items replace the reference fields. */
  includeReferences: Schema.optionalKey(Schema.Array(IncludedReference)),
  ...ReadOptions
})
export type GetDataItemRequest = typeof GetDataItemRequest.Type

export const RemoveDataItemRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItemId: Schema.String,
  ...WriteOptions
})

export const TruncateDataItemsRequest = Schema.Struct({ dataCollectionId: Schema.String })

export const FieldModificationAction = Schema.Literals([
  "SET_FIELD",
  "REMOVE_FIELD",
  "INCREMENT_FIELD",
  "APPEND_TO_ARRAY",
  "REMOVE_FROM_ARRAY"
])
export type FieldModificationAction = typeof FieldModificationAction.Type

const ValueOption = Schema.Struct({ value: Schema.optionalKey(Schema.Unknown) })

export const FieldModification = Schema.Struct({
  fieldPath: Schema.String,
  action: FieldModificationAction,
  setFieldOptions: Schema.optionalKey(ValueOption),
  incrementFieldOptions: Schema.optionalKey(ValueOption),
  appendToArrayOptions: Schema.optionalKey(ValueOption),
  removeFromArrayOptions: Schema.optionalKey(ValueOption)
})
export type FieldModification = typeof FieldModification.Type

export const Patch = Schema.Struct({ dataItemId: Schema.String, fieldModifications: Schema.Array(FieldModification) })
export type Patch = typeof Patch.Type

export const PatchDataItemRequest = Schema.Struct({ dataCollectionId: Schema.String, patch: Patch, ...WriteOptions })

// ---------------------------------------------------------------------------------------------------
// Reading many

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

const isDataItem = (u: unknown): u is DataItem => {
  if (!isItemData(u)) return false
  const { id, dataCollectionId, data } = u as Record<string, unknown>
  return (id === undefined || typeof id === "string") &&
    (dataCollectionId === undefined || typeof dataCollectionId === "string") &&
    (data === undefined || data === null || isItemData(data))
}

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

const FieldOp = Schema.Struct({ itemFieldName: Schema.String })
export const AggregateOperation = Schema.Struct({
  resultFieldName: Schema.String,
  average: Schema.optionalKey(FieldOp),
  min: Schema.optionalKey(FieldOp),
  max: Schema.optionalKey(FieldOp),
  sum: Schema.optionalKey(FieldOp),
  itemCount: Schema.optionalKey(Schema.Struct({}))
})
export type AggregateOperation = typeof AggregateOperation.Type

export const AggregateDataItemsRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  initialFilter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  aggregation: Schema.optionalKey(Schema.Struct({
    groupingFields: Schema.optionalKey(Schema.Array(Schema.String)),
    operations: Schema.optionalKey(Schema.Array(AggregateOperation))
  })),
  finalFilter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  sort: Schema.optionalKey(Schema.Array(Sorting)),
  paging: Schema.optionalKey(Paging),
  cursorPaging: Schema.optionalKey(CursorPaging),
  returnTotalCount: Schema.optionalKey(Schema.Boolean),
  ...ReadOptions
})
export type AggregateDataItemsRequest = typeof AggregateDataItemsRequest.Type

export const AggregateDataItemsResponse = Schema.Struct({
  results: Schema.Array(ItemData),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})
export type AggregateDataItemsResponse = typeof AggregateDataItemsResponse.Type

/**
 * Pipeline expressions: a field path, a constant, or an operation on expressions. Stages: group,
 * filter, sort, projection, skip, limit, unwindArray, objectToArray.
 */
export interface PipelineExpression {
  readonly fieldPath?: string
  readonly text?: string
  readonly numeric?: number
  readonly add?: { readonly expressions: ReadonlyArray<PipelineExpression> }
  readonly sum?: { readonly expressions: ReadonlyArray<PipelineExpression> }
  readonly multiply?: { readonly expressions: ReadonlyArray<PipelineExpression> }
  readonly subtract?: { readonly firstExpression: PipelineExpression; readonly secondExpression: PipelineExpression }
  readonly divide?: { readonly firstExpression: PipelineExpression; readonly secondExpression: PipelineExpression }
  readonly mod?: { readonly firstExpression: PipelineExpression; readonly secondExpression: PipelineExpression }
  readonly abs?: { readonly expression: PipelineExpression }
  readonly floor?: { readonly expression: PipelineExpression }
  readonly ceil?: { readonly expression: PipelineExpression }
  readonly concat?: { readonly expressions: ReadonlyArray<PipelineExpression> }
  readonly stringify?: { readonly expression: PipelineExpression }
  readonly toLower?: { readonly expression: PipelineExpression }
  readonly toUpper?: { readonly expression: PipelineExpression }
  readonly length?: { readonly expression: PipelineExpression }
  readonly substring?: {
    readonly expression: PipelineExpression
    readonly startExpression: PipelineExpression
    readonly lengthExpression: PipelineExpression
  }
}
const expr = Schema.suspend((): Schema.Codec<PipelineExpression> => PipelineExpression)
const one = Schema.Struct({ expression: expr })
const many = Schema.Struct({ expressions: Schema.Array(expr) })
const two = Schema.Struct({ firstExpression: expr, secondExpression: expr })
export const PipelineExpression: Schema.Codec<PipelineExpression> = Schema.Struct({
  fieldPath: Schema.optionalKey(Schema.String),
  text: Schema.optionalKey(Schema.String),
  numeric: Schema.optionalKey(Schema.Number),
  add: Schema.optionalKey(many),
  sum: Schema.optionalKey(many),
  multiply: Schema.optionalKey(many),
  subtract: Schema.optionalKey(two),
  divide: Schema.optionalKey(two),
  mod: Schema.optionalKey(two),
  abs: Schema.optionalKey(one),
  floor: Schema.optionalKey(one),
  ceil: Schema.optionalKey(one),
  concat: Schema.optionalKey(many),
  stringify: Schema.optionalKey(one),
  toLower: Schema.optionalKey(one),
  toUpper: Schema.optionalKey(one),
  length: Schema.optionalKey(one),
  substring: Schema.optionalKey(Schema.Struct({ expression: expr, startExpression: expr, lengthExpression: expr }))
})

export const PipelineAccumulator = Schema.Struct({
  resultFieldName: Schema.String,
  avg: Schema.optionalKey(one),
  min: Schema.optionalKey(one),
  max: Schema.optionalKey(one),
  sum: Schema.optionalKey(one),
  first: Schema.optionalKey(one),
  last: Schema.optionalKey(one),
  push: Schema.optionalKey(one)
})

export const PipelineProjectionField = Schema.Struct({
  include: Schema.optionalKey(Schema.Struct({ fieldName: Schema.String })),
  exclude: Schema.optionalKey(Schema.Struct({ fieldName: Schema.String })),
  reshape: Schema.optionalKey(Schema.Struct({ resultFieldName: Schema.String, expression: expr }))
})

export const PipelineStage = Schema.Struct({
  group: Schema.optionalKey(Schema.Struct({
    groupIds: Schema.optionalKey(Schema.Array(Schema.Struct({ key: Schema.String, expression: expr }))),
    accumulators: Schema.optionalKey(Schema.Array(PipelineAccumulator))
  })),
  filter: Schema.optionalKey(FilterJson),
  sort: Schema.optionalKey(Schema.Struct({ values: Schema.Array(Sorting) })),
  projection: Schema.optionalKey(Schema.Struct({ fields: Schema.Array(PipelineProjectionField) })),
  objectToArray: Schema.optionalKey(Schema.Struct({ objectFieldName: Schema.String, destinationFieldName: Schema.String })),
  unwindArray: Schema.optionalKey(Schema.Struct({ arrayFieldName: Schema.String })),
  skip: Schema.optionalKey(Schema.Number),
  limit: Schema.optionalKey(Schema.Number)
})
export type PipelineStage = typeof PipelineStage.Type

export const AggregatePipelineRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  pipeline: Schema.Struct({
    stages: Schema.Array(PipelineStage),
    paging: Schema.optionalKey(Paging),
    cursorPaging: Schema.optionalKey(CursorPaging)
  }),
  returnTotalCount: Schema.optionalKey(Schema.Boolean),
  ...ReadOptions
})
export type AggregatePipelineRequest = typeof AggregatePipelineRequest.Type
/** Pipeline results have the aggregate answer's shape. */
export const AggregatePipelineResponse = AggregateDataItemsResponse

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

// ---------------------------------------------------------------------------------------------------
// References

export const DataItemReference = Schema.Struct({
  referringItemFieldName: Schema.String,
  referringItemId: Schema.String,
  referencedItemId: Schema.String
})
export type DataItemReference = typeof DataItemReference.Type

export const QueryReferencedRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  referringItemId: Schema.optionalKey(Schema.String),
  referringItemIds: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Absent on cursor pages: the official client sends only the cursor then. */
  referringItemFieldName: Schema.optionalKey(Schema.String),
  order: Schema.optionalKey(SortOrder),
  paging: Schema.optionalKey(Paging),
  cursorPaging: Schema.optionalKey(CursorPaging),
  returnTotalCount: Schema.optionalKey(Schema.Boolean),
  fields: Schema.optionalKey(Schema.Array(Schema.String)),
  ...ReadOptions
})
export type QueryReferencedRequest = typeof QueryReferencedRequest.Type
export const QueryReferencedResponse = Schema.Struct({
  results: Schema.Array(Schema.Struct({
    dataItem: Schema.optionalKey(DataItem),
    /** Which referring item this result belongs to (queries over several referring items). */
    referringItemId: Schema.optionalKey(Schema.String),
    unresolvedReference: Schema.optionalKey(Schema.Struct({
      referringItemId: Schema.String,
      referringItemFieldName: Schema.String,
      referencedItemId: Schema.optionalKey(Schema.String)
    }))
  })),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})

export const IsReferencedRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  referringItemFieldName: Schema.String,
  referringItemId: Schema.String,
  referencedItemId: Schema.String,
  consistentRead: Schema.optionalKey(Schema.Boolean)
})
export const IsReferencedResponse = Schema.Struct({ isReferenced: Schema.Boolean })

export const ReplaceReferencesRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  referringItemFieldName: Schema.String,
  referringItemId: Schema.String,
  newReferencedItemIds: Schema.optionalKey(Schema.Array(Schema.String))
})
export const ReplaceReferencesResponse = Schema.Struct({
  dataItemReferences: Schema.optionalKey(Schema.Array(DataItemReference))
})

export const BulkReferencesRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItemReferences: Schema.Array(DataItemReference),
  returnEntity: Schema.optionalKey(Schema.Boolean)
})

// ---------------------------------------------------------------------------------------------------
// Bulk

export const ItemError = Schema.Struct({
  code: Schema.String,
  description: Schema.optionalKey(Schema.String),
  data: Schema.optionalKey(Schema.NullOr(Schema.Unknown))
})
export type ItemError = typeof ItemError.Type

export const BulkActionType = Schema.Literals(BULK_ACTION_TYPES)

export const BulkItemResult = Schema.Struct({
  action: Schema.optionalKey(BulkActionType),
  itemMetadata: Schema.Struct({
    id: Schema.optionalKey(Schema.NullOr(Schema.String)),
    originalIndex: Schema.Number,
    success: Schema.Boolean,
    error: Schema.optionalKey(ItemError)
  }),
  dataItem: Schema.optionalKey(DataItem)
})
export type BulkItemResult = typeof BulkItemResult.Type

export const BulkActionMetadata = Schema.Struct({ totalSuccesses: Schema.Number, totalFailures: Schema.Number })

export const BulkResponse = Schema.Struct({
  results: Schema.Array(BulkItemResult),
  bulkActionMetadata: BulkActionMetadata
})
export type BulkResponse = typeof BulkResponse.Type

export const BulkReferencesResponse = Schema.Struct({
  results: Schema.optionalKey(Schema.Array(Schema.Struct({
    action: Schema.optionalKey(BulkActionType),
    referenceMetadata: Schema.Struct({
      id: Schema.optionalKey(Schema.NullOr(Schema.String)),
      originalIndex: Schema.Number,
      success: Schema.Boolean,
      error: Schema.optionalKey(ItemError)
    }),
    dataItemReference: Schema.optionalKey(DataItemReference)
  }))),
  bulkActionMetadata: Schema.optionalKey(BulkActionMetadata)
})

export const BulkItemsRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItems: Schema.Array(DataItem),
  returnEntity: Schema.optionalKey(Schema.Boolean),
  ...WriteOptions
})
export type BulkItemsRequest = typeof BulkItemsRequest.Type

const isOptionalBoolean = (u: unknown) => u === undefined || typeof u === "boolean"

/** Whether a request is a {@link BulkItemsRequest}: the schema's checks written out, without a schema run per item. */
export const isBulkItemsRequest = (u: unknown): u is BulkItemsRequest => {
  if (!isItemData(u)) return false
  const { dataCollectionId, dataItems, returnEntity, suppressHooks } = u as Record<string, unknown>
  return typeof dataCollectionId === "string" && Array.isArray(dataItems) && isOptionalBoolean(returnEntity) && isOptionalBoolean(suppressHooks) &&
    dataItems.every(isDataItem)
}

export const BulkRemoveRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItemIds: Schema.Array(Schema.String),
  ...WriteOptions
})
export const BulkPatchRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  patches: Schema.Array(Patch),
  returnEntity: Schema.optionalKey(Schema.Boolean),
  ...WriteOptions
})

export const AsyncPatchByFilterRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  fieldModifications: Schema.Array(FieldModification),
  ...WriteOptions
})
export const AsyncRemoveByFilterRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  ...WriteOptions
})
export const AsyncJobResponse = Schema.Struct({ jobId: Schema.String })
export const AsyncJobStatus = Schema.Literals(ASYNC_JOB_STATUSES)
export type AsyncJobStatus = typeof AsyncJobStatus.Type
export const AsyncJobStatusResponse = Schema.Struct({
  status: AsyncJobStatus,
  successCount: Schema.optionalKey(Schema.Number)
})

// ---------------------------------------------------------------------------------------------------
// Collections

export const Role = Schema.Literals(ROLES)
export type Role = typeof Role.Type

export const Permissions = Schema.Struct({
  read: Schema.optionalKey(Role),
  insert: Schema.optionalKey(Role),
  update: Schema.optionalKey(Role),
  remove: Schema.optionalKey(Role)
})
export type Permissions = typeof Permissions.Type

export const FieldType = Schema.Literals(FIELD_TYPES)
export type FieldType = typeof FieldType.Type

export const CollectionField = Schema.Struct({
  key: Schema.String,
  displayName: Schema.optionalKey(Schema.NullOr(Schema.String)),
  type: FieldType,
  typeMetadata: Schema.optionalKey(Schema.Struct({
    reference: Schema.optionalKey(Schema.Struct({ referencedCollectionId: Schema.String })),
    multiReference: Schema.optionalKey(Schema.Struct({
      referencedCollectionId: Schema.String,
      referencingFieldKey: Schema.optionalKey(Schema.String),
      referencingDisplayName: Schema.optionalKey(Schema.String)
    }))
  })),
  systemField: Schema.optionalKey(Schema.Boolean),
  required: Schema.optionalKey(Schema.Boolean),
  readOnly: Schema.optionalKey(Schema.Boolean),
  capabilities: Schema.optionalKey(Schema.Struct({
    sortable: Schema.optionalKey(Schema.Boolean),
    queryOperators: Schema.optionalKey(Schema.Array(Schema.String))
  }))
})
export type CollectionField = typeof CollectionField.Type

export const PagingMode = Schema.Literals(PAGING_MODES)

export const DataCollection = Schema.Struct({
  id: Schema.String,
  collectionType: Schema.optionalKey(Schema.Literals(COLLECTION_TYPES)),
  displayName: Schema.optionalKey(Schema.NullOr(Schema.String)),
  displayField: Schema.optionalKey(Schema.NullOr(Schema.String)),
  fields: Schema.optionalKey(Schema.Array(CollectionField)),
  permissions: Schema.optionalKey(Permissions),
  pagingModes: Schema.optionalKey(Schema.Array(PagingMode)),
  maxPageSize: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  revision: Schema.optionalKey(Schema.NullOr(Schema.String)),
  createdDate: Schema.optionalKey(Schema.NullOr(Schema.String)),
  updatedDate: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type DataCollection = typeof DataCollection.Type

export const CollectionResponse = Schema.Struct({ collection: DataCollection })
export const CollectionsListResponse = Schema.Struct({
  collections: Schema.Array(DataCollection),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})

/** `POST` / `PUT /wix-data/v2/collections`. */
export const CollectionRequest = Schema.Struct({ collection: DataCollection })
/** `POST …/collections/create-field` and `update-field`. */
export const CollectionFieldRequest = Schema.Struct({ dataCollectionId: Schema.String, field: CollectionField })
/** `POST …/collections/delete-field`. */
export const DeleteCollectionFieldRequest = Schema.Struct({ dataCollectionId: Schema.String, fieldKey: Schema.String })
/** What the field calls answer. */
export const DataCollectionResponse = Schema.Struct({ dataCollection: DataCollection })
/** `GET …/collections/query?.r=`: `{query:{filter, sort, paging}}` over collection properties. */
export const QueryCollectionsRequest = Schema.Struct({ query: Schema.optionalKey(QueryV2) })
/** `GET /wix-data/v2/collections?paging.limit=&paging.offset=` (API key). */
export const ListCollectionsRequest = Schema.Struct({ paging: Schema.optionalKey(Paging) })

export const IndexField = Schema.Struct({ path: Schema.String, order: Schema.optionalKey(SortOrder) })
export const IndexStatus = Schema.Literals(["UNKNOWN", "BUILDING", "ACTIVE", "DROPPING", "DROPPED", "FAILED", "INVALID"])
export const DataIndex = Schema.Struct({
  id: Schema.optionalKey(Schema.String),
  name: Schema.String,
  fields: Schema.Array(IndexField),
  unique: Schema.optionalKey(Schema.Boolean),
  caseInsensitive: Schema.optionalKey(Schema.Boolean),
  status: Schema.optionalKey(IndexStatus)
})
export type DataIndex = typeof DataIndex.Type

/** `POST /wix-data/v2/indexes`. */
export const CreateIndexRequest = Schema.Struct({ dataCollectionId: Schema.String, index: DataIndex })
export const IndexResponse = Schema.Struct({ index: DataIndex })
/** `GET /wix-data/v2/indexes?dataCollectionId=&paging.limit=&paging.offset=`. */
export const ListIndexesRequest = Schema.Struct({ dataCollectionId: Schema.String, paging: Schema.optionalKey(Paging) })
/** `DELETE /wix-data/v2/indexes?dataCollectionId=&indexName=`. */
export const DropIndexRequest = Schema.Struct({ dataCollectionId: Schema.String, indexName: Schema.String })
export const IndexesListResponse = Schema.Struct({
  indexes: Schema.Array(DataIndex),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})

/** Bulk writes: many items in one request, each with its own result. */
import * as Schema from "effect/Schema"
import { BULK_ACTION_TYPES, DATA_ENVIRONMENTS } from "../protocol.ts"
import { DataItem } from "./common.ts"
import { isRecord } from "../../http/isRecord.ts"
import { WriteOptions } from "./fields.ts"
import { Patch } from "./items.ts"
import { DataItemReference } from "./references.ts"

/** Why one item of a bulk write failed: its WDE code, a description and details. */
export const ItemError = Schema.Struct({
  code: Schema.String,
  description: Schema.optionalKey(Schema.String),
  data: Schema.optionalKey(Schema.NullOr(Schema.Unknown))
})
export type ItemError = typeof ItemError.Type

/** What a bulk write did to an item: `INSERT`, `UPDATE`, `DELETE` or `PATCH`. */
export const BulkActionType = Schema.Literals(BULK_ACTION_TYPES)

/** The result of one item of a bulk write: its index in the request, success or its error, and the item when asked for. */
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

/** How many items of a bulk write succeeded and how many failed. */
export const BulkActionMetadata = Schema.Struct({ totalSuccesses: Schema.Number, totalFailures: Schema.Number })

/** The answer of the bulk item writes (`POST /bulk/items/insert`, `/update`, `/save`, `/patch`, `/remove`): one result per item, and the totals. */
export const BulkResponse = Schema.Struct({
  results: Schema.Array(BulkItemResult),
  bulkActionMetadata: BulkActionMetadata
})
export type BulkResponse = typeof BulkResponse.Type

/** The answer of `POST /bulk/items/insert-references` and `/remove-references`: one result per reference, and the totals. */
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

/** The body of `POST /bulk/items/insert`, `/update` and `/save`: up to 1000 items of one collection. */
export const BulkItemsRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItems: Schema.Array(DataItem),
  returnEntity: Schema.optionalKey(Schema.Boolean),
  ...WriteOptions
})
export type BulkItemsRequest = typeof BulkItemsRequest.Type

const isDataItem = (u: unknown): u is DataItem => {
  if (!isRecord(u)) return false
  const { id, dataCollectionId, data } = u as Record<string, unknown>
  return (id === undefined || typeof id === "string") &&
    (dataCollectionId === undefined || typeof dataCollectionId === "string") &&
    (data === undefined || data === null || isRecord(data))
}

const isOptionalBoolean = (u: unknown) => u === undefined || typeof u === "boolean"

/** Whether a request is a {@link BulkItemsRequest}: the schema's checks written out, without a schema run per item. */
export const isBulkItemsRequest = (u: unknown): u is BulkItemsRequest => {
  if (!isRecord(u)) return false
  const { dataCollectionId, dataItems, returnEntity, suppressHooks, environment } = u as Record<string, unknown>
  return typeof dataCollectionId === "string" && Array.isArray(dataItems) && isOptionalBoolean(returnEntity) && isOptionalBoolean(suppressHooks) &&
    (environment === undefined || (DATA_ENVIRONMENTS as ReadonlyArray<unknown>).includes(environment)) &&
    dataItems.every(isDataItem)
}

/** The body of `POST /bulk/items/remove`: the ids of up to 1000 items to remove. */
export const BulkRemoveRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItemIds: Schema.Array(Schema.String),
  ...WriteOptions
})
/** The body of `POST /bulk/items/patch`: one patch per item. */
export const BulkPatchRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  patches: Schema.Array(Patch),
  returnEntity: Schema.optionalKey(Schema.Boolean),
  ...WriteOptions
})

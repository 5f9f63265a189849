/** Single items: insert, update, save, get, remove, truncate and patch. */
import * as Schema from "effect/Schema"
import { DataItem, IncludedReference } from "./common.ts"
import { ReadOptions, WriteOptions } from "./fields.ts"

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

/** Single items: insert, update, save, get, remove, truncate and patch. */
import * as Schema from "effect/Schema"
import { DataItem, IncludedReference } from "./common.ts"
import { InEnvironment, ReadOptions, WriteOptions } from "./fields.ts"

/** The body of `POST /items`: insert one item (its id is assigned when it has none). */
export const InsertDataItemRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItem: DataItem,
  ...WriteOptions
})
/** The body of `POST /items/update`: replace the item that has the given id. */
export const UpdateDataItemRequest = InsertDataItemRequest
/** The body of `POST /items/save`: insert the item, or replace the one with the same id. */
export const SaveDataItemRequest = InsertDataItemRequest
/** The answer of get (`GET /items/{dataItemId}`), insert, update, patch and remove of one item: the item read, written or removed. */
export const DataItemResponse = Schema.Struct({ dataItem: DataItem })
/** The answer of `POST /items/save`: the item stored, and whether it was inserted or updated. */
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

/** The body of `POST /items/remove`: the id of the item to remove. */
export const RemoveDataItemRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItemId: Schema.String,
  ...WriteOptions
})

/** The body of `POST /items/truncate`: the collection whose items are all removed. */
export const TruncateDataItemsRequest = Schema.Struct({ dataCollectionId: Schema.String, ...InEnvironment })

/** What a field modification of a patch does: set or remove a field, increment a number, append to or remove from an array. */
export const FieldModificationAction = Schema.Literals([
  "SET_FIELD",
  "REMOVE_FIELD",
  "INCREMENT_FIELD",
  "APPEND_TO_ARRAY",
  "REMOVE_FROM_ARRAY"
])
export type FieldModificationAction = typeof FieldModificationAction.Type

const ValueOption = Schema.Struct({ value: Schema.optionalKey(Schema.Unknown) })

/** One change of a patch: a field path, an action, and the value in the options that go with the action. */
export const FieldModification = Schema.Struct({
  fieldPath: Schema.String,
  action: FieldModificationAction,
  setFieldOptions: Schema.optionalKey(ValueOption),
  incrementFieldOptions: Schema.optionalKey(ValueOption),
  appendToArrayOptions: Schema.optionalKey(ValueOption),
  removeFromArrayOptions: Schema.optionalKey(ValueOption)
})
export type FieldModification = typeof FieldModification.Type

/** The patch of one item: its id and the field modifications to apply to it. */
export const Patch = Schema.Struct({ dataItemId: Schema.String, fieldModifications: Schema.Array(FieldModification) })
export type Patch = typeof Patch.Type

/** The body of `POST /items/patch`: change some fields of one item without sending the others. */
export const PatchDataItemRequest = Schema.Struct({ dataCollectionId: Schema.String, patch: Patch, ...WriteOptions })

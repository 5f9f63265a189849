/** References between items: queries of referenced items, checks, inserts, removals and replacements. */
import * as Schema from "effect/Schema"
import { CursorPaging, DataItem, Paging, PagingMetadata, SortOrder } from "./common.ts"
import { ReadOptions } from "./fields.ts"

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

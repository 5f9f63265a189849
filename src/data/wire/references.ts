/** References between items: queries of referenced items, checks, inserts, removals and replacements. */
import * as Schema from "effect/Schema"
import { CursorPaging, DataItem, Paging, PagingMetadata, SortOrder } from "./common.ts"
import { InEnvironment, ReadOptions } from "./fields.ts"

/** One reference: a referring item's reference field pointing at a referenced item; what the reference bulk calls add and remove. */
export const DataItemReference = Schema.Struct({
  referringItemFieldName: Schema.String,
  referringItemId: Schema.String,
  referencedItemId: Schema.String
})
export type DataItemReference = typeof DataItemReference.Type

/** The body of `POST /items/query-referenced`: the items that one or more items' reference field points to. */
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
/** The answer of `POST /items/query-referenced`: a page of referenced items, and the references whose item is missing. */
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

/** The body of `POST /items/is-referenced`: whether one item's reference field points to another item. */
export const IsReferencedRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  referringItemFieldName: Schema.String,
  referringItemId: Schema.String,
  referencedItemId: Schema.String,
  consistentRead: Schema.optionalKey(Schema.Boolean),
  ...InEnvironment
})
/** The answer of `POST /items/is-referenced`: whether that reference exists. */
export const IsReferencedResponse = Schema.Struct({ isReferenced: Schema.Boolean })

/** The body of `POST /items/replace-references`: the items a multi-reference field of one item points to from now on. */
export const ReplaceReferencesRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  referringItemFieldName: Schema.String,
  referringItemId: Schema.String,
  newReferencedItemIds: Schema.optionalKey(Schema.Array(Schema.String)),
  ...InEnvironment
})
/** The answer of `POST /items/replace-references`: the references the field now holds. */
export const ReplaceReferencesResponse = Schema.Struct({
  dataItemReferences: Schema.optionalKey(Schema.Array(DataItemReference))
})

/** The body of `POST /bulk/items/insert-references` and `/bulk/items/remove-references`: the references to add or remove. */
export const BulkReferencesRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  dataItemReferences: Schema.Array(DataItemReference),
  returnEntity: Schema.optionalKey(Schema.Boolean),
  ...InEnvironment
})

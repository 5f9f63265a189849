/** Collections: their fields, permissions and paging modes; indexes. */
import * as Schema from "effect/Schema"
import { COLLECTION_TYPES, FIELD_TYPES, INDEX_SOURCES, INDEX_STATUSES, PAGING_MODES, ROLES } from "../protocol.ts"
import { Paging, PagingMetadata, QueryV2, SortOrder } from "./common.ts"

/** Who a collection permission lets in: admins, the item's author, site members, anyone, CMS editors or privileged callers. */
export const Role = Schema.Literals(ROLES)
export type Role = typeof Role.Type

/** Who may read, insert, update and remove a collection's items. */
export const Permissions = Schema.Struct({
  read: Schema.optionalKey(Role),
  insert: Schema.optionalKey(Role),
  update: Schema.optionalKey(Role),
  remove: Schema.optionalKey(Role)
})
export type Permissions = typeof Permissions.Type

/** The type of a collection field: text, number, date, reference, and the platform's other types. */
export const FieldType = Schema.Literals(FIELD_TYPES)
export type FieldType = typeof FieldType.Type

/** A field of a collection: its key, type, what it references, and what queries can do with it. */
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

/** How a collection's queries may page: by offset or by cursor. */
export const PagingMode = Schema.Literals(PAGING_MODES)

/** A collection as the collection calls read and write it: its fields, permissions and paging. */
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

/** The answer of `GET …/collections/{id}`, `GET …/collections/slug/{slug}`, and of creating (`POST`) or updating (`PUT`) a collection. */
export const CollectionResponse = Schema.Struct({ collection: DataCollection })
/** The answer of listing (`GET /wix-data/v2/collections`) and querying (`GET …/collections/query`) collections: a page of them. */
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

/** One field of an index and its direction. */
export const IndexField = Schema.Struct({ path: Schema.String, order: Schema.optionalKey(SortOrder) })
/** Where an index stands: building, active, being dropped, dropped, failed or invalid. */
export const IndexStatus = Schema.Literals(INDEX_STATUSES)
/** Why an index ended FAILED: a code, what it means, and an item that stood in the way (a duplicate). */
export const IndexFailure = Schema.Struct({
  code: Schema.String,
  description: Schema.String,
  itemId: Schema.optionalKey(Schema.NullOr(Schema.String))
})
/** Who made an index: the platform itself, a user, or the platform on its own initiative. */
export const IndexSource = Schema.Literals(INDEX_SOURCES)
/** An index of a collection: its name, its fields, whether it is unique or case-insensitive, and its status. */
export const DataIndex = Schema.Struct({
  id: Schema.optionalKey(Schema.String),
  name: Schema.String,
  fields: Schema.Array(IndexField),
  unique: Schema.optionalKey(Schema.Boolean),
  caseInsensitive: Schema.optionalKey(Schema.Boolean),
  status: Schema.optionalKey(IndexStatus),
  failure: Schema.optionalKey(IndexFailure),
  source: Schema.optionalKey(IndexSource)
})
export type DataIndex = typeof DataIndex.Type

/** `POST /wix-data/v2/indexes`. */
export const CreateIndexRequest = Schema.Struct({ dataCollectionId: Schema.String, index: DataIndex })
/** The answer of `POST /wix-data/v2/indexes`: the index created. */
export const IndexResponse = Schema.Struct({ index: DataIndex })
/** `GET /wix-data/v2/indexes?dataCollectionId=&paging.limit=&paging.offset=`. */
export const ListIndexesRequest = Schema.Struct({ dataCollectionId: Schema.String, paging: Schema.optionalKey(Paging) })
/** `DELETE /wix-data/v2/indexes?dataCollectionId=&indexName=`. */
export const DropIndexRequest = Schema.Struct({ dataCollectionId: Schema.String, indexName: Schema.String })
/** The answer of `GET /wix-data/v2/indexes`: a page of a collection's indexes. */
export const IndexesListResponse = Schema.Struct({
  indexes: Schema.Array(DataIndex),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})

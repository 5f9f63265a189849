/**
 * Guards of the answers of the full data client's calls beyond queries, counts and single items:
 * aggregations, bulk writes, references, jobs and collections. Apart from protocol.ts, whose guards a
 * page that only queries carries: guards are built when their module loads, so a page that imports
 * none of these never builds or ships them.
 */
import * as G from "../http/guard.ts"
import { ASYNC_JOB_STATUSES, BULK_ACTION_TYPES, COLLECTION_TYPES, DataItem, FIELD_TYPES, ItemData, PAGING_MODES, paging, ROLES } from "./protocol.ts"

const str = G.string
const opt = G.optional
const optStr = opt(str)
const nullable = <A>(g: G.Guard<A>) => opt(G.nullOr(g))

export const AggregateDataItemsResponse = G.struct({ results: G.array(ItemData), pagingMetadata: paging })

const ItemError = G.struct({ code: str, description: optStr, data: nullable(G.unknown) })
const BulkActionMetadata = G.struct({ totalSuccesses: G.number, totalFailures: G.number })
const action = opt(G.literals(BULK_ACTION_TYPES))

export const BulkResponse = G.struct({
  results: G.array(G.struct({
    action,
    itemMetadata: G.struct({ id: nullable(str), originalIndex: G.number, success: G.boolean, error: opt(ItemError) }),
    dataItem: opt(DataItem)
  })),
  bulkActionMetadata: BulkActionMetadata
})

const DataItemReference = G.struct({ referringItemFieldName: str, referringItemId: str, referencedItemId: str })

export const BulkReferencesResponse = G.struct({
  results: opt(G.array(G.struct({
    action,
    referenceMetadata: G.struct({ id: nullable(str), originalIndex: G.number, success: G.boolean, error: opt(ItemError) }),
    dataItemReference: opt(DataItemReference)
  }))),
  bulkActionMetadata: opt(BulkActionMetadata)
})

export const QueryReferencedResponse = G.struct({
  results: G.array(G.struct({
    dataItem: opt(DataItem),
    referringItemId: optStr,
    unresolvedReference: opt(G.struct({ referringItemId: str, referringItemFieldName: str, referencedItemId: optStr }))
  })),
  pagingMetadata: paging
})
export const IsReferencedResponse = G.struct({ isReferenced: G.boolean })
export const ReplaceReferencesResponse = G.struct({ dataItemReferences: opt(G.array(DataItemReference)) })
export const AsyncJobResponse = G.struct({ jobId: str })
export const AsyncJobStatusResponse = G.struct({ status: G.literals(ASYNC_JOB_STATUSES), successCount: opt(G.number) })

const Role = opt(G.literals(ROLES))
const CollectionField = G.struct({
  key: str,
  displayName: nullable(str),
  type: G.literals(FIELD_TYPES),
  typeMetadata: opt(G.struct({
    reference: opt(G.struct({ referencedCollectionId: str })),
    multiReference: opt(G.struct({ referencedCollectionId: str, referencingFieldKey: optStr, referencingDisplayName: optStr }))
  })),
  systemField: opt(G.boolean),
  required: opt(G.boolean),
  readOnly: opt(G.boolean),
  capabilities: opt(G.struct({ sortable: opt(G.boolean), queryOperators: opt(G.array(str)) }))
})
export const DataCollection = G.struct({
  id: str,
  collectionType: opt(G.literals(COLLECTION_TYPES)),
  displayName: nullable(str),
  displayField: nullable(str),
  fields: opt(G.array(CollectionField)),
  permissions: opt(G.struct({ read: Role, insert: Role, update: Role, remove: Role })),
  pagingModes: opt(G.array(G.literals(PAGING_MODES))),
  maxPageSize: nullable(G.number),
  revision: nullable(str),
  createdDate: nullable(str),
  updatedDate: nullable(str)
})
export const CollectionResponse = G.struct({ collection: DataCollection })
export const CollectionsListResponse = G.struct({ collections: G.array(DataCollection), pagingMetadata: paging })


/** Guards of the answers about data collections. */
import * as G from "../../http/guard.ts"
import { COLLECTION_TYPES, FIELD_TYPES, PAGING_MODES, ROLES } from "../protocol.ts"
import { paging } from "./common.ts"

const opt = G.optional
const optStr = opt(G.string)
const nullable = <A>(g: G.Guard<A>) => opt(G.nullOr(g))
const Role = opt(G.literals(ROLES))

export const CollectionField = G.struct({
  key: G.string,
  displayName: nullable(G.string),
  type: G.literals(FIELD_TYPES),
  typeMetadata: opt(G.struct({
    reference: opt(G.struct({ referencedCollectionId: G.string })),
    multiReference: opt(G.struct({ referencedCollectionId: G.string, referencingFieldKey: optStr, referencingDisplayName: optStr }))
  })),
  systemField: opt(G.boolean),
  required: opt(G.boolean),
  readOnly: opt(G.boolean),
  capabilities: opt(G.struct({ sortable: opt(G.boolean), queryOperators: opt(G.array(G.string)) }))
})
export const DataCollection = G.struct({
  id: G.string,
  collectionType: opt(G.literals(COLLECTION_TYPES)),
  displayName: nullable(G.string),
  displayField: nullable(G.string),
  fields: opt(G.array(CollectionField)),
  permissions: opt(G.struct({ read: Role, insert: Role, update: Role, remove: Role })),
  pagingModes: opt(G.array(G.literals(PAGING_MODES))),
  maxPageSize: nullable(G.number),
  revision: nullable(G.string),
  createdDate: nullable(G.string),
  updatedDate: nullable(G.string)
})
export const CollectionResponse = G.struct({ collection: DataCollection })
export const CollectionsListResponse = G.struct({ collections: G.array(DataCollection), pagingMetadata: paging })

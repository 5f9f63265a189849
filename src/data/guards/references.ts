/** Guards of the answers about references between items. */
import * as G from "../../http/guard.ts"
import { DataItem, paging } from "./common.ts"

export const DataItemReference = G.struct({ referringItemFieldName: G.string, referringItemId: G.string, referencedItemId: G.string })

export const QueryReferencedResponse = G.struct({
  results: G.array(G.struct({
    dataItem: G.optional(DataItem),
    referringItemId: G.optional(G.string),
    unresolvedReference: G.optional(G.struct({ referringItemId: G.string, referringItemFieldName: G.string, referencedItemId: G.optional(G.string) }))
  })),
  pagingMetadata: paging
})
export const IsReferencedResponse = G.struct({ isReferenced: G.boolean })
export const ReplaceReferencesResponse = G.struct({ dataItemReferences: G.optional(G.array(DataItemReference)) })

/** Guards of the answers of bulk writes (items and references): each item's own result. */
import * as G from "../../http/guard.ts"
import { BULK_ACTION_TYPES } from "../protocol.ts"
import { DataItem } from "./common.ts"
import { DataItemReference } from "./references.ts"

const ItemError = G.struct({ code: G.string, description: G.optional(G.string), data: G.optional(G.nullOr(G.unknown)) })
const BulkActionMetadata = G.struct({ totalSuccesses: G.number, totalFailures: G.number })
const action = G.optional(G.literals(BULK_ACTION_TYPES))
const id = G.optional(G.nullOr(G.string))

export const BulkResponse = G.struct({
  results: G.array(G.struct({
    action,
    itemMetadata: G.struct({ id, originalIndex: G.number, success: G.boolean, error: G.optional(ItemError) }),
    dataItem: G.optional(DataItem)
  })),
  bulkActionMetadata: BulkActionMetadata
})

export const BulkReferencesResponse = G.struct({
  results: G.optional(G.array(G.struct({
    action,
    referenceMetadata: G.struct({ id, originalIndex: G.number, success: G.boolean, error: G.optional(ItemError) }),
    dataItemReference: G.optional(DataItemReference)
  }))),
  bulkActionMetadata: G.optional(BulkActionMetadata)
})

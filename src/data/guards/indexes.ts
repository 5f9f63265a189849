/** Guards of the answers about a collection's indexes. */
import * as G from "../../http/guard.ts"
import { INDEX_SOURCES, INDEX_STATUSES, SORT_ORDERS } from "../protocol.ts"
import { paging } from "./common.ts"

const opt = G.optional

export const DataIndex = G.struct({
  id: opt(G.string),
  name: G.string,
  fields: G.array(G.struct({ path: G.string, order: opt(G.literals(SORT_ORDERS)) })),
  unique: opt(G.boolean),
  caseInsensitive: opt(G.boolean),
  status: opt(G.literals(INDEX_STATUSES)),
  failure: opt(G.struct({ code: G.string, description: G.string, itemId: opt(G.nullOr(G.string)) })),
  source: opt(G.literals(INDEX_SOURCES))
})
export const IndexResponse = G.struct({ index: DataIndex })
export const IndexesListResponse = G.struct({ indexes: G.array(DataIndex), pagingMetadata: paging })

/** Guard of an aggregation's (and an aggregation pipeline's) answer. */
import * as G from "../../http/guard.ts"
import { ItemData, paging } from "./common.ts"

export const AggregateDataItemsResponse = G.struct({ results: G.array(ItemData), pagingMetadata: paging })

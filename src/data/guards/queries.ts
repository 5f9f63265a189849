/** Guards of the answers of queries, counts and distinct values (a page that runs a query carries these). */
import * as G from "../../http/guard.ts"
import { DataItem, paging } from "./common.ts"

export const QueryDataItemsResponse = G.struct({ dataItems: G.array(DataItem), pagingMetadata: paging })
export const CountDataItemsResponse = G.struct({ totalCount: G.number })
export const QueryDistinctValuesResponse = G.struct({ distinctValues: G.array(G.unknown), pagingMetadata: paging })

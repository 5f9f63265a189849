/** Guards of the answers about one item: insert, update, get, remove, patch, and save (which says what it did). */
import * as G from "../../http/guard.ts"
import { DataItem } from "./common.ts"

export const DataItemResponse = G.struct({ dataItem: DataItem })
export const SaveDataItemResponse = G.struct({ action: G.optional(G.literals(["UNKNOWN_ACTION", "INSERTED", "UPDATED"])), dataItem: DataItem })

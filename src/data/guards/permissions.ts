/** Guards of the answers about data permissions. */
import * as G from "../../http/guard.ts"

const flag = G.optional(G.boolean)

export const MyPermissionsResponse = G.struct({ itemRead: flag, itemInsert: flag, itemUpdate: flag, itemRemove: flag })

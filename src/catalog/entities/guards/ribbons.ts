/** Guards of the ribbons service's answers. */
import * as G from "../../../http/guard.ts"
import { bulkResults, CursorPagingMetadata, nullable, opt, system } from "./common.ts"

export const Ribbon = G.struct({ ...system, name: opt(G.string), assignedProductCount: nullable(G.number) })
export type Ribbon = G.TypeOf<typeof Ribbon>
export const RibbonResponse = G.struct({ ribbon: Ribbon })
export const QueryRibbonsResponse = G.struct({ ribbons: G.array(Ribbon), pagingMetadata: CursorPagingMetadata })
export const BulkRibbonsResponse = bulkResults(Ribbon)

/** Guards of the brands service's answers. */
import * as G from "../../../http/guard.ts"
import { bulkResults, CursorPagingMetadata, nullable, opt, system } from "./common.ts"

export const Brand = G.struct({ ...system, name: opt(G.string), assignedProductsCount: nullable(G.number) })
export type Brand = G.TypeOf<typeof Brand>
export const BrandResponse = G.struct({ brand: Brand })
export const QueryBrandsResponse = G.struct({ brands: G.array(Brand), pagingMetadata: CursorPagingMetadata })
export const BulkBrandsResponse = bulkResults(Brand)

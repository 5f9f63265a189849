/** Guards of the info sections service's answers. */
import * as G from "../../../http/guard.ts"
import { bulkResults, CursorPagingMetadata, nullable, opt, system } from "./common.ts"

export const RichContent = G.struct({
  nodes: opt(G.array(G.object)),
  metadata: opt(G.object),
  documentStyle: opt(G.object)
})
export type RichContent = G.TypeOf<typeof RichContent>
export const InfoSection = G.struct({
  ...system,
  uniqueName: opt(G.string),
  title: opt(G.string),
  description: opt(RichContent),
  plainDescription: nullable(G.string),
  assignedProductsCount: nullable(G.number)
})
export type InfoSection = G.TypeOf<typeof InfoSection>
export const InfoSectionResponse = G.struct({ infoSection: InfoSection })
export const QueryInfoSectionsResponse = G.struct({ infoSections: G.array(InfoSection), pagingMetadata: CursorPagingMetadata })
export const BulkInfoSectionsResponse = bulkResults(InfoSection)

/** Guards of the v3 inventory items service's answers. */
import * as G from "../../../http/guard.ts"
import { AVAILABILITY_STATUSES } from "../protocol.ts"
import { bulkResults, CursorPagingMetadata, nullable, opt, system } from "./common.ts"

export const PreorderInfo = G.struct({
  enabled: nullable(G.boolean),
  message: nullable(G.string),
  limit: nullable(G.number),
  counter: nullable(G.number),
  quantity: nullable(G.number)
})
export const InventoryProduct = G.struct({
  name: nullable(G.string),
  directCategoryIds: opt(G.array(G.string)),
  variantName: nullable(G.string),
  variantSku: nullable(G.string),
  variantVisible: nullable(G.boolean)
})
export const InventoryItem = G.struct({
  ...system,
  variantId: opt(G.string),
  locationId: nullable(G.string),
  productId: opt(G.string),
  trackQuantity: opt(G.boolean),
  inStock: opt(G.boolean),
  quantity: opt(G.number),
  availabilityStatus: opt(G.literals(AVAILABILITY_STATUSES)),
  preorderInfo: opt(PreorderInfo),
  product: opt(InventoryProduct),
  extendedFields: opt(G.struct({ namespaces: opt(G.record(G.object)) }))
})
export type InventoryItem = G.TypeOf<typeof InventoryItem>
export const InventoryItemResponse = G.struct({ inventoryItem: InventoryItem })
export const QueryInventoryItemsResponse = G.struct({ inventoryItems: G.array(InventoryItem), pagingMetadata: CursorPagingMetadata })
export const BulkInventoryItemsResponse = bulkResults(InventoryItem)

/**
 * Guards of the catalog v1 inventory answers (the v2 inventory items service); each guard's type is its
 * Schema's type in `../wire/inventory.ts` (test/catalog/guards.test.ts).
 */
import * as G from "../../http/guard.ts"
import { nullable, offsetPage, opt } from "./common.ts"

const str = G.string
const num = G.number
const bool = G.boolean

export const InventoryVariant = G.struct({ variantId: opt(str), inStock: nullable(bool), quantity: nullable(num), availableForPreorder: opt(bool) })
export const PreorderInfo = G.struct({ enabled: opt(bool), message: nullable(str), limit: nullable(num) })
export const InventoryItem = G.struct({
  id: nullable(str),
  externalId: nullable(str),
  productId: nullable(str),
  trackQuantity: nullable(bool),
  variants: opt(G.array(InventoryVariant)),
  lastUpdated: nullable(str),
  numericId: opt(str),
  preorderInfo: opt(PreorderInfo)
})
export type InventoryItem = G.TypeOf<typeof InventoryItem>
export const GetInventoryVariantsResponse = G.struct({ inventoryItem: opt(InventoryItem) })
export const QueryInventoryResponse = offsetPage("inventoryItems", InventoryItem)

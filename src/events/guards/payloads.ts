/**
 * Guards of the events' payloads: a data item, a catalog v3 product, and the bodies of the catalog v1,
 * inventory and abandoned-cart events (the v3 entity services' events carry the entities the catalog's
 * guards check). Each guard's type is its Schema's in `../wire/payloads.ts` (test/events/guards.test.ts).
 */
import * as V1 from "../../catalog/guards/products.ts"
import { BuyerInfo } from "../../catalog/guards/carts.ts"
import { nullable, opt } from "../../catalog/guards/common.ts"
import * as G from "../../http/guard.ts"

const str = G.string
const optStr = opt(G.string)
const strings = G.array(G.string)

// ---- payloads ------------------------------------------------------------------------------------------

/** A data item as its events carry it, before its fields are read as the data client reads items. */
export const DataItemEntity = G.struct({ id: str, dataCollectionId: str, data: opt(G.object) })

/** A catalog v3 product: its id and the rest of its fields as the platform sends them. */
export interface ProductV3Entity {
  readonly id?: string | null
  readonly [field: string]: unknown
}
export const ProductV3Entity: G.Guard<ProductV3Entity> = G.struct({ id: nullable(str) })

const originatedFromVersion = optStr

export const ProductCreated = G.struct({
  productId: str,
  name: optStr,
  price: opt(V1.PriceData),
  visible: opt(G.boolean),
  media: opt(V1.Media),
  sku: optStr,
  productPageUrl: opt(V1.PageUrl),
  brand: nullable(str),
  costAndProfitData: opt(V1.CostAndProfitData),
  originatedFromVersion,
  slug: optStr
})
export type ProductCreated = G.TypeOf<typeof ProductCreated>

export const ProductChanged = G.struct({
  productId: str,
  changedFields: opt(strings),
  revision: opt(G.union(G.string, G.number)),
  originatedFromVersion
})
export type ProductChanged = G.TypeOf<typeof ProductChanged>

export const ProductDeleted = G.struct({ productId: str, originatedFromVersion })
export type ProductDeleted = G.TypeOf<typeof ProductDeleted>

export const VariantChanged = G.struct({ variantId: optStr, choices: opt(G.record(G.string)), changedFields: opt(strings) })
export const VariantsChanged = G.struct({ productId: str, variants: opt(G.array(VariantChanged)), originatedFromVersion })
export type VariantsChanged = G.TypeOf<typeof VariantsChanged>

export const CollectionCreated = G.struct({
  collection_Id: str,
  name: optStr,
  media: opt(V1.Media),
  slug: optStr,
  visible: opt(G.boolean),
  originatedFromVersion
})
export type CollectionCreated = G.TypeOf<typeof CollectionCreated>

export const CollectionChanged = G.struct({ collection_Id: str, changedFields: opt(strings), originatedFromVersion })
export type CollectionChanged = G.TypeOf<typeof CollectionChanged>

export const CollectionDeleted = G.struct({ collection_Id: str, originatedFromVersion })
export type CollectionDeleted = G.TypeOf<typeof CollectionDeleted>

export const PreorderInfoV1 = G.struct({ enabled: opt(G.boolean), message: nullable(str), limit: nullable(G.number) })

export const InventoryItemChanged = G.struct({
  inventoryItemId: str,
  externalId: optStr,
  productId: optStr,
  trackInventory: opt(G.boolean),
  preorderInfo: opt(PreorderInfoV1),
  fieldMask: opt(strings),
  updatedDate: nullable(str)
})
export type InventoryItemChanged = G.TypeOf<typeof InventoryItemChanged>

export const InventoryVariantState = G.struct({ quantity: nullable(G.number), inStock: opt(G.boolean), availableForPreorder: opt(G.boolean) })
export const InventoryVariantsChanged = G.struct({
  inventoryItemId: str,
  externalId: optStr,
  productId: optStr,
  variants: opt(G.array(G.struct({ id: optStr, oldValue: opt(InventoryVariantState), newValue: opt(InventoryVariantState) }))),
  reason: optStr,
  updatedDate: nullable(str)
})
export type InventoryVariantsChanged = G.TypeOf<typeof InventoryVariantsChanged>

export const CartAbandoned = G.struct({
  cartId: str,
  creationTime: nullable(str),
  abandonTime: nullable(str),
  buyerInfo: opt(BuyerInfo),
  itemsCount: opt(G.number),
  couponId: nullable(str),
  totals: opt(G.struct({ subtotal: nullable(G.number), total: nullable(G.number), formattedTotal: optStr })),
  checkoutUrl: optStr,
  checkoutId: nullable(str)
})
export type CartAbandoned = G.TypeOf<typeof CartAbandoned>

export const CartRecovered = G.struct({
  cartId: str,
  recoveredTime: nullable(str),
  creationTime: nullable(str),
  abandonedTime: nullable(str),
  checkoutId: nullable(str)
})
export type CartRecovered = G.TypeOf<typeof CartRecovered>


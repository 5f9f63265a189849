/**
 * The payloads of the events the local platform publishes, on the wire: a data item (the entity of the
 * data events), a catalog v3 product, and the bodies of the catalog v1, inventory and abandoned-cart
 * events (`src/server/catalog/products`, `src/server/catalog/carts`). The v3 entity services' events
 * carry the entities of `../../catalog/entities/wire/`. Each field is what sitefx's events client
 * requires of it: the id a body names its entity by is required, the rest may be left out.
 */
import * as Schema from "effect/Schema"
import { CartAbandonedEvent, CartRecoveredEvent } from "../../catalog/wire/carts.ts"
import { nullable, opt } from "../../catalog/wire/common.ts"
import { CostAndProfitData, Media, PageUrl, PriceData } from "../../catalog/wire/products.ts"

const Strings = Schema.Array(Schema.String)
/** The catalog version a v1 event's write came from, when the platform says. */
const originatedFromVersion = opt(Schema.String)

/** A data item as its events carry it: its ids and its fields (absent in a deletion that carries only the ids). */
export const DataItemEntity = Schema.Struct({
  id: Schema.String,
  dataCollectionId: Schema.String,
  data: opt(Schema.Record(Schema.String, Schema.Unknown))
})

/** A catalog v3 product: its id and the rest of its fields as the platform sends them. */
export const ProductV3Entity = Schema.StructWithRest(Schema.Struct({ id: nullable(Schema.String) }), [Schema.Record(Schema.String, Schema.Unknown)])

export const ProductCreated = Schema.Struct({
  productId: Schema.String,
  name: opt(Schema.String),
  price: opt(PriceData),
  visible: opt(Schema.Boolean),
  media: opt(Media),
  sku: opt(Schema.String),
  productPageUrl: opt(PageUrl),
  brand: nullable(Schema.String),
  costAndProfitData: opt(CostAndProfitData),
  originatedFromVersion,
  slug: opt(Schema.String)
})

export const ProductChanged = Schema.Struct({
  productId: Schema.String,
  changedFields: opt(Strings),
  revision: opt(Schema.Union([Schema.String, Schema.Number])),
  originatedFromVersion
})

export const ProductDeleted = Schema.Struct({ productId: Schema.String, originatedFromVersion })

export const VariantChanged = Schema.Struct({
  variantId: opt(Schema.String),
  choices: opt(Schema.Record(Schema.String, Schema.String)),
  changedFields: opt(Strings)
})
export const VariantsChanged = Schema.Struct({ productId: Schema.String, variants: opt(Schema.Array(VariantChanged)), originatedFromVersion })

export const CollectionCreated = Schema.Struct({
  collection_Id: Schema.String,
  name: opt(Schema.String),
  media: opt(Media),
  slug: opt(Schema.String),
  visible: opt(Schema.Boolean),
  originatedFromVersion
})

export const CollectionChanged = Schema.Struct({ collection_Id: Schema.String, changedFields: opt(Strings), originatedFromVersion })

export const CollectionDeleted = Schema.Struct({ collection_Id: Schema.String, originatedFromVersion })

export const PreorderInfoV1 = Schema.Struct({ enabled: opt(Schema.Boolean), message: nullable(Schema.String), limit: nullable(Schema.Number) })

export const InventoryItemChanged = Schema.Struct({
  inventoryItemId: Schema.String,
  externalId: opt(Schema.String),
  productId: opt(Schema.String),
  trackInventory: opt(Schema.Boolean),
  preorderInfo: opt(PreorderInfoV1),
  fieldMask: opt(Strings),
  updatedDate: nullable(Schema.String)
})

/** A variant's stock before or after a change. */
export const InventoryVariantState = Schema.Struct({
  quantity: nullable(Schema.Number),
  inStock: opt(Schema.Boolean),
  availableForPreorder: opt(Schema.Boolean)
})
export const InventoryVariantsChanged = Schema.Struct({
  inventoryItemId: Schema.String,
  externalId: opt(Schema.String),
  productId: opt(Schema.String),
  variants: opt(Schema.Array(Schema.Struct({ id: opt(Schema.String), oldValue: opt(InventoryVariantState), newValue: opt(InventoryVariantState) }))),
  reason: opt(Schema.String),
  updatedDate: nullable(Schema.String)
})

/** The platform's abandoned-cart body with its cart id required; the coupon may come as null, and a checkout id may come too. */
export const CartAbandoned = Schema.Struct({
  ...CartAbandonedEvent.fields,
  cartId: Schema.String,
  couponId: nullable(Schema.String),
  checkoutId: nullable(Schema.String)
})

/** The platform's recovered-cart body with its cart id required, and the checkout id it may carry. */
export const CartRecovered = Schema.Struct({ ...CartRecoveredEvent.fields, cartId: Schema.String, checkoutId: nullable(Schema.String) })

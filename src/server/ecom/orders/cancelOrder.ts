/**
 * Canceling an order, in one transaction: the order canceled (OrderStore.cancel: its events), and, when
 * the cancel restocks its items, each line's quantity given back to the tracked stock of the variant it
 * sold (the catalog's `InventoryVariantsChanged` logged for each). The two commit or roll back together.
 * A line whose product is gone, whose variant its options no longer name, or whose product keeps no
 * count, has nothing to give back to and is passed over, as the platform does.
 */
import type * as Effect from "effect/Effect"
import type { Product } from "../../../catalog/wire/products.ts"
import type { Order } from "../../../ecom/wire/orders.ts"
import { giveBackStock, tracksInventory } from "../../catalog/products/stock.ts"
import type { ProductStoreShape } from "../../catalog/products/ProductStore.ts"
import type { Caller } from "../../platform/Caller.ts"
import type { Reject } from "../../platform/responses.ts"
import type { Emit, Engine } from "../../store/engine.ts"
import { variantIdOf } from "../carts/pricing.ts"
import { sellsHere } from "../carts/views.ts"
import type { CancelOptions, OrderStoreShape } from "./OrderStore.ts"

export interface CancelOrderServices {
  readonly catalog: Engine
  readonly products: ProductStoreShape
  readonly orders: OrderStoreShape
}

/** Cancels the order (see the file's comment); refused as OrderStore.cancel refuses. */
export const cancelOrder = (services: CancelOrderServices, id: string, options: CancelOptions, actor: Caller): Effect.Effect<Order, Reject> =>
  services.catalog.commit((catalogEmit) => {
    const order = services.orders.cancel(id, options, actor)
    if (options.restockAllItems === true) restock(services.products, order, actor, catalogEmit)
    return order
  })

/** Gives every line's quantity back, a variant sold in several lines once with their quantities summed. */
const restock = (products: ProductStoreShape, order: Order, actor: Caller, emit: Emit): void => {
  const back = new Map<string, { productId: string; variantId: string; quantity: number }>()
  for (const line of order.lineItems ?? []) {
    const reference = line.catalogReference
    const quantity = line.quantity ?? 0
    const productId = reference?.catalogItemId
    if (productId === undefined || !sellsHere(reference?.appId ?? "") || quantity <= 0) continue
    if (!tracksInventory(products, productId)) continue
    const doc = products.doc(productId, true)
    if (doc === undefined) continue
    const variantId = variantIdOf(JSON.parse(doc) as Product, reference?.options ?? {})
    if (variantId === undefined) continue
    const key = `${productId}/${variantId}`
    const entry = back.get(key) ?? { productId, variantId, quantity: 0 }
    entry.quantity += quantity
    back.set(key, entry)
  }
  for (const b of back.values()) giveBackStock(products, b.productId, b.variantId, b.quantity, actor, emit)
}

/**
 * The tracked stock of the catalog's variants as other modules move it: a sale takes from it (a
 * checkout placing its order), a restocked cancel gives back. Storage code in the caller's transaction,
 * through the product store and `shiftQuantity` (which refuses to go below zero), logging the catalog's
 * `InventoryVariantsChanged` event as the catalog's own increment and decrement calls do.
 */
import type { Caller } from "../../platform/Caller.ts"
import type { CatalogEvent, Emit } from "../CatalogEngine.ts"
import { shiftQuantity } from "./changes.ts"
import type { ProductSpec, VariantSpec } from "./model.ts"
import type { ProductStoreShape } from "./ProductStore.ts"
import { inventoryEvent } from "./requests.ts"

const stockOf = (spec: ProductSpec, v: VariantSpec) =>
  spec.trackInventory ? { quantity: v.quantity ?? 0, inStock: (v.quantity ?? 0) > 0 } : { inStock: v.inStock }

/** The catalog's `InventoryVariantsChanged` event for variants of `spec` that changed. */
export const variantsChanged = (
  spec: ProductSpec,
  changed: ReadonlyArray<{ readonly id: string; readonly before: VariantSpec; readonly after: VariantSpec }>,
  actor: Caller
): CatalogEvent =>
  inventoryEvent("InventoryVariantsChanged", spec.inventoryItemId, {
    inventoryItemId: spec.inventoryItemId,
    productId: spec.id,
    variants: changed.map((c) => ({ id: c.id, oldValue: stockOf(spec, c.before), newValue: stockOf(spec, c.after) })),
    updatedDate: spec.lastUpdated
  }, actor)

/** Whether the product is there and keeps a count of its variants (then a sale takes from it). */
export const tracksInventory = (products: ProductStoreShape, productId: string): boolean => products.find(productId)?.trackInventory ?? false

const shiftStock = (products: ProductStoreShape, productId: string, variantId: string, delta: number, actor: Caller, emit: Emit): void => {
  const result = shiftQuantity(products.require(productId), variantId, delta, "lineItems", products.now())
  products.store(result.spec)
  emit(variantsChanged(result.spec, result.changed, actor))
}

/** Takes `quantity` of the variant off its stock; throws INSUFFICIENT_INVENTORY (and changes nothing) when fewer are left. */
export const takeStock = (products: ProductStoreShape, productId: string, variantId: string, quantity: number, actor: Caller, emit: Emit): void =>
  shiftStock(products, productId, variantId, -quantity, actor, emit)

/** Gives `quantity` of the variant back to its stock (an order canceled with its items restocked). */
export const giveBackStock = (products: ProductStoreShape, productId: string, variantId: string, quantity: number, actor: Caller, emit: Emit): void =>
  shiftStock(products, productId, variantId, quantity, actor, emit)

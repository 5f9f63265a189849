/**
 * Takes a sold variant's quantity off the catalog's tracked inventory, inside the caller's transaction,
 * the way the catalog's own decrement (`POST /stores/v2/inventoryItems/decrement`) does: through the
 * product store (`shiftQuantity`, which refuses to go below zero), logging the catalog's
 * `InventoryVariantsChanged` event. (A candidate for the catalog's ProductStore.)
 */
import type { Caller } from "../../platform/Caller.ts"
import type { Emit } from "../../catalog/CatalogEngine.ts"
import { shiftQuantity } from "../../catalog/products/changes.ts"
import type { ProductSpec, VariantSpec } from "../../catalog/products/model.ts"
import type { ProductStoreShape } from "../../catalog/products/ProductStore.ts"
import { inventoryEvent } from "../../catalog/products/requests.ts"

const stockOf = (spec: ProductSpec, v: VariantSpec) =>
  spec.trackInventory ? { quantity: v.quantity ?? 0, inStock: (v.quantity ?? 0) > 0 } : { inStock: v.inStock }

/** Whether the product keeps a count of its variants (then a sale takes from it). */
export const tracksInventory = (products: ProductStoreShape, productId: string): boolean => products.find(productId)?.trackInventory ?? false

/** Takes `quantity` of the variant off its stock; throws INSUFFICIENT_INVENTORY (and changes nothing) when fewer are left. */
export const takeStock = (
  products: ProductStoreShape,
  productId: string,
  variantId: string,
  quantity: number,
  actor: Caller,
  emit: Emit
): void => {
  const spec = products.require(productId)
  const result = shiftQuantity(spec, variantId, -quantity, "lineItems", products.now())
  products.store(result.spec)
  emit(inventoryEvent("InventoryVariantsChanged", result.spec.inventoryItemId, {
    inventoryItemId: result.spec.inventoryItemId,
    productId: result.spec.id,
    variants: result.changed.map((c) => ({ id: c.id, oldValue: stockOf(result.spec, c.before), newValue: stockOf(result.spec, c.after) })),
    updatedDate: result.spec.lastUpdated
  }, actor))
}

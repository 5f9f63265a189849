/**
 * Catalog v1 inventory (the platform's v2 inventory items): one inventory item per product, with each
 * variant's tracked quantity or in-stock flag. Setting quantities, incrementing and decrementing need
 * an API key (a decrement below zero fails with INSUFFICIENT_INVENTORY and changes nothing); reading a
 * product's inventory serves visitors too.
 *
 * @example
 * import * as Inventory from "sitefx/catalog/inventory"
 * declare const productId: string, variantId: string
 * yield* Inventory.update(productId, { trackQuantity: true, variants: [{ variantId, quantity: 12 }] })
 * yield* Inventory.decrement([{ productId, variantId, decrementBy: 1 }])
 */
import * as Effect from "effect/Effect"
import { first } from "../http/checks.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import type { CatalogFailure } from "./calls.ts"
import * as G from "./guards/inventory.ts"
import { OffsetQuery } from "./OffsetQuery.ts"
import { CatalogPaths } from "./protocol.ts"
import { checkId, checkList, checkObject, offsetRunner, pagingOf, send, sendVoid } from "./v1.ts"

/** A product's inventory item: whether quantities are tracked, and each variant's stock. */
export type InventoryItem = G.InventoryItem
type Effects<A> = Effect.Effect<A, CatalogFailure, PlatformClient>

/** Entries an increment or a decrement takes at once. */
export const MAX_SHIFTS = 1000

/** What an inventory update sets: quantity tracking, and named variants' quantity or in-stock flag. */
export interface InventoryUpdate {
  readonly trackQuantity?: boolean
  readonly variants?: ReadonlyArray<{ readonly variantId: string; readonly quantity?: number; readonly inStock?: boolean }>
}

/** Sets whether quantities are tracked and each named variant's quantity or in-stock flag. */
export const update = (productId: string, item: InventoryUpdate): Effects<void> =>
  sendVoid("Inventory.update", first(checkId("Inventory.update", "productId", productId), checkObject("Inventory.update", "item", item)), () => ({
    method: "PATCH",
    path: CatalogPaths.inventoryUpdate(productId),
    payload: { inventoryItem: { ...item, productId } }
  }))

/** One decrement: the variant of an inventory item (named by its id or its product's) and how many to take. */
export interface Decrement {
  readonly productId?: string
  readonly inventoryId?: string
  readonly variantId: string
  readonly decrementBy: number
}

/** One increment: the variant of an inventory item (named by its id or its product's) and how many to add. */
export interface Increment {
  readonly productId?: string
  readonly inventoryId?: string
  readonly variantId: string
  readonly incrementBy: number
}

/**
 * Takes quantities out (an order); all or nothing.
 *
 * @example
 * import * as Inventory from "sitefx/catalog/inventory"
 * declare const order: ReadonlyArray<{ productId: string; variantId: string; quantity: number }>
 * yield* Inventory.decrement(order.map((line) => ({ productId: line.productId, variantId: line.variantId, decrementBy: line.quantity })))
 */
export const decrement = (entries: ReadonlyArray<Decrement>): Effects<void> =>
  sendVoid("Inventory.decrement", checkList("Inventory.decrement", "entries", entries, MAX_SHIFTS), () => ({
    method: "POST",
    path: CatalogPaths.inventoryDecrement,
    payload: { decrementData: entries }
  }))

/** Puts quantities back (a return, a delivery); all or nothing. */
export const increment = (entries: ReadonlyArray<Increment>): Effects<void> =>
  sendVoid("Inventory.increment", checkList("Inventory.increment", "entries", entries, MAX_SHIFTS), () => ({
    method: "POST",
    path: CatalogPaths.inventoryIncrement,
    payload: { incrementData: entries }
  }))

/**
 * A product's inventory item (by the item's id, or a product's id), with all or some of its variants.
 *
 * @example
 * import * as Inventory from "sitefx/catalog/inventory"
 * declare const productId: string
 * const item = yield* Inventory.get(productId)
 * const low = (item.variants ?? []).filter((v) => item.trackQuantity && (v.quantity ?? 0) < 5)
 */
export const get = (inventoryId: string, options: { readonly variantIds?: ReadonlyArray<string> } = {}): Effects<InventoryItem> =>
  Effect.map(
    send("Inventory.get", checkId("Inventory.get", "inventoryId", inventoryId), () => ({
      method: "POST",
      path: CatalogPaths.inventoryVariants(inventoryId),
      payload: { inventoryId, ...(options.variantIds === undefined ? {} : { variantIds: options.variantIds }) }
    }), G.GetInventoryVariantsResponse),
    (r) => r.inventoryItem ?? {}
  )

/**
 * Inventory items (an API key): a query to filter (`productId`, `trackQuantity`, ...), sort, page and
 * stream. The v1 inventory reader takes its filter and sort as JSON text, and this sends them so.
 *
 * @example
 * import * as Inventory from "sitefx/catalog/inventory"
 * const tracked = yield* Inventory.query().eq("trackQuantity", true).descending("lastUpdated").limit(50).find
 */
export const query = (): OffsetQuery<InventoryItem> =>
  new OffsetQuery(offsetRunner({
    what: "Inventory.query",
    method: "POST",
    path: CatalogPaths.inventoryQuery,
    guard: G.QueryInventoryResponse,
    body: (q) => ({
      query: {
        filter: JSON.stringify(q.filter),
        paging: q.paging,
        ...(q.sort === undefined ? {} : { sort: JSON.stringify(q.sort.map((s) => ({ [s.fieldName]: s.order.toLowerCase() }))) })
      }
    }),
    read: (r) => ({ items: r.inventoryItems ?? [], paging: pagingOf(r.metadata, r.totalResults) })
  }))

/**
 * Inventory items (catalog v3 entity service, answered on any installed store): the stock of one
 * variant at one location, either counted (`quantity`; `trackQuantity` is then true) or only in or out
 * of stock (`inStock`). `availabilityStatus` follows from them (and from preorder settings). Quantities
 * move with the bulk increments and decrements, by item id or by variant and location; a decrement
 * with `restrictInventory` (the default) never takes a quantity below zero. Readers (`get`, `query`,
 * `count`) serve visitors; writers need an API key.
 *
 * @example
 * declare const productId: string, variantId: string
 * const item = yield* InventoryItems.create({ variantId, productId, quantity: 10 })
 * yield* InventoryItems.bulkDecrementByVariant([{ variantId, decrementBy: 2 }])
 */
import * as Effect from "effect/Effect"
import { first } from "../../http/checks.ts"
import type { Filter } from "../../data/Filter.ts"
import type { PlatformClient } from "../../http/PlatformClient.ts"
import { invalidArgument } from "../CatalogError.ts"
import type { CursorQuery } from "./CursorQuery.ts"
import * as G from "./guards/index.ts"
import { checkId, checkInt, checkObject, checkRevision, countBody, type EntityFailure, optionalText, refusalOf, send } from "./calls.ts"
import * as Named from "./named.ts"
import { asObject, checkBatch, checkMasked, maskedEntries, sendBulkCreate } from "./named.ts"
import {
  ENTITY_QUERY_MAX_QUERY,
  EntityPaths,
  INVENTORY_REASONS,
  type InventoryReason,
  MAX_ENTITY_PAGE,
  MAX_INVENTORY_ADJUST,
  MAX_INVENTORY_BULK,
  MAX_QUANTITY
} from "./protocol.ts"

/** A v3 inventory item: one variant's stock at one location, counted or only in or out of stock. */
export type InventoryItem = G.InventoryItem
export type { InventoryReason }

/** Whether a variant may be ordered while out of stock, with a message and a limit. */
export interface PreorderInput {
  readonly enabled?: boolean
  readonly message?: string
  /** How many may be preordered once the stock is gone (tracked quantities only). */
  readonly limit?: number
}
/** An inventory item to create: its variant, product and location, and its quantity or in-stock flag. */
export interface InventoryItemInput {
  readonly variantId: string
  readonly productId: string
  /** The store's default location when left out. */
  readonly locationId?: string
  /** Counted stock (tracks the quantity); leave out to track only `inStock`. */
  readonly quantity?: number
  readonly inStock?: boolean
  readonly preorderInfo?: PreorderInput
}
/** What an update sends: the id, the revision it read, and the stock fields to change. */
export interface InventoryItemUpdate {
  readonly id: string
  readonly revision: string
  readonly quantity?: number
  readonly inStock?: boolean
  readonly preorderInfo?: PreorderInput
}
/** Whether a bulk call answers with the written items. */
export interface BulkOptions {
  readonly returnEntity?: boolean
}
/** Why the stock changed (an order, a manual change, a reverted change). */
export interface ReasonOptions {
  /** Why the stock changed (`MANUAL`, `ORDER`, ...). */
  readonly reason?: InventoryReason
}
/** A decrement's options: whether it may go below zero, the answer, and the reason. */
export interface DecrementOptions extends BulkOptions, ReasonOptions {
  /** Refuse a decrement that would take a quantity below zero (default true). */
  readonly restrictInventory?: boolean
}

type Eff<A> = Effect.Effect<A, EntityFailure, PlatformClient>

const reasonCheck = (what: string, options: ReasonOptions | undefined) =>
  options?.reason === undefined || INVENTORY_REASONS.includes(options.reason)
    ? undefined
    : invalidArgument(`${what}: reason must be one of ${INVENTORY_REASONS.join(", ")}`, "reason")
const optionsOf = (options: (BulkOptions & ReasonOptions & { readonly restrictInventory?: boolean }) | undefined) => ({
  ...(options?.restrictInventory === undefined ? {} : { restrictInventory: options.restrictInventory }),
  ...(options?.returnEntity === undefined ? {} : { returnEntity: options.returnEntity }),
  ...(options?.reason === undefined ? {} : { reason: options.reason })
})

const checkStock = (what: string, item: Record<string, unknown>, field: string) =>
  first(
    item["quantity"] === undefined ? undefined : checkInt(what, `${field}.quantity`, item["quantity"], -MAX_QUANTITY, MAX_QUANTITY),
    item["inStock"] === undefined || typeof item["inStock"] === "boolean"
      ? undefined
      : invalidArgument(`${what}: ${field}.inStock must be a boolean`, `${field}.inStock`),
    item["quantity"] !== undefined && item["inStock"] !== undefined
      ? invalidArgument(`${what}: ${field} tracks either a quantity or inStock, not both`, field)
      : undefined,
    item["preorderInfo"] === undefined ? undefined : checkPreorder(what, item["preorderInfo"], `${field}.preorderInfo`)
  )

const checkPreorder = (what: string, preorder: unknown, field: string) => {
  const p = asObject(preorder)
  return first(
    checkObject(what, field, preorder),
    optionalText(what, `${field}.message`, p["message"], 250),
    p["limit"] === undefined || p["limit"] === null ? undefined : checkInt(what, `${field}.limit`, p["limit"], 0, 100_000)
  )
}

const checkInput = (what: string, item: unknown, field: string) => {
  const i = asObject(item)
  return first(
    checkObject(what, field, item),
    checkId(what, `${field}.variantId`, i["variantId"]),
    checkId(what, `${field}.productId`, i["productId"]),
    i["locationId"] === undefined ? undefined : checkId(what, `${field}.locationId`, i["locationId"]),
    checkStock(what, i, field)
  )
}

const checkUpdate = (what: string, item: unknown, field: string) => {
  const i = asObject(item)
  return first(
    checkObject(what, field, item),
    checkId(what, `${field}.id`, i["id"]),
    checkRevision(what, `${field}.revision`, i["revision"]),
    checkStock(what, i, field)
  )
}

/** A bulk adjustment of quantities: 1 to 300 entries under `field`, each naming its item by id or by variant. */
const adjust = (
  what: string,
  path: string,
  field: "incrementData" | "decrementData",
  by: "id" | "variant",
  list: ReadonlyArray<unknown>,
  options: DecrementOptions | undefined
): Eff<G.BulkResults<InventoryItem>> => {
  const amount = field === "incrementData" ? "incrementBy" : "decrementBy"
  const check = checkBatch(what, field, list, MAX_INVENTORY_ADJUST, (entry, f) => {
    const e = asObject(entry)
    return first(
      checkObject(what, f, entry),
      by === "id" ? checkId(what, `${f}.inventoryItemId`, e["inventoryItemId"]) : checkId(what, `${f}.variantId`, e["variantId"]),
      by === "variant" && e["locationId"] !== undefined ? checkId(what, `${f}.locationId`, e["locationId"]) : undefined,
      checkInt(what, `${f}.${amount}`, e[amount], 1, MAX_QUANTITY)
    )
  })
  return send(
    what,
    first(check, reasonCheck(what, options)),
    () => ({ method: "POST", path, payload: { [field]: list, ...optionsOf(options) } }),
    G.BulkInventoryItemsResponse
  )
}

const INVENTORY_ITEM: Named.Removable<"inventoryItem", "inventoryItems", InventoryItem> = {
  module: "InventoryItems",
  key: "inventoryItem",
  plural: "inventoryItems",
  paths: {
    create: EntityPaths.inventoryItems,
    one: EntityPaths.inventoryItem,
    query: EntityPaths.inventoryItemsQuery,
    count: EntityPaths.inventoryItemsCount,
    bulkCreate: EntityPaths.inventoryBulkCreate,
    bulkUpdate: EntityPaths.inventoryBulkUpdate,
    bulkDelete: EntityPaths.inventoryBulkDelete
  },
  fields: [],
  queryMethod: "GET",
  maxPage: MAX_ENTITY_PAGE.inventoryItems,
  maxBulk: MAX_INVENTORY_BULK,
  guards: { one: G.InventoryItemResponse, page: G.QueryInventoryItemsResponse, bulk: G.BulkInventoryItemsResponse },
  checks: { input: checkInput, update: checkUpdate }
}

/** Creates an inventory item (an API key); ALREADY_EXISTS when its variant and location have one. */
export const create = (inventoryItem: InventoryItemInput): Eff<InventoryItem> => Named.create(INVENTORY_ITEM, inventoryItem)

/** The inventory item of this id; INVENTORY_ITEM_NOT_FOUND when there is none. */
export const get = (id: string): Eff<InventoryItem> => Named.get(INVENTORY_ITEM, id, undefined)

/** Changes the stock fields given; `revision` must be the item's current one. */
export const update = (inventoryItem: InventoryItemUpdate, options?: ReasonOptions): Eff<InventoryItem> =>
  send(
    "InventoryItems.update",
    first(checkUpdate("InventoryItems.update", inventoryItem, "inventoryItem"), reasonCheck("InventoryItems.update", options)),
    () => ({
      method: "PATCH",
      path: EntityPaths.inventoryItem(inventoryItem.id),
      payload: { inventoryItem, ...optionsOf(options) }
    }),
    G.InventoryItemResponse
  ).pipe(Effect.map((r) => r.inventoryItem))

/** Deletes an inventory item (an API key). */
export const remove = (id: string): Eff<void> => Named.remove(INVENTORY_ITEM, id)

/**
 * A query over inventory items (filter on `productId`, `variantId`, `locationId`, `quantity`, `availabilityStatus`, ...).
 *
 * @example
 * import { InventoryItems } from "sitefx/catalog/entities"
 * const soldOut = yield* InventoryItems.query().eq("availabilityStatus", "OUT_OF_STOCK").limit(100).find
 * const lowStock = yield* InventoryItems.count({ quantity: { $lt: 5 } })
 */
export const query = (): CursorQuery<InventoryItem> => Named.query(INVENTORY_ITEM, undefined)

/** How many inventory items match (all of them without a filter). */
export const count = (filter?: Filter | Record<string, unknown>): Eff<number> => {
  const body = countBody(filter)
  return send(
    "InventoryItems.count",
    refusalOf(body),
    () => ({
      method: "GET",
      path: EntityPaths.inventoryItemsCount,
      payload: body as Record<string, unknown>,
      idempotent: true,
      complex: { fallback: { path: EntityPaths.inventoryItemsCount, limit: { kind: "query", max: ENTITY_QUERY_MAX_QUERY } } }
    }),
    G.CountResponse
  ).pipe(Effect.map((r) => r.count))
}

/** Creates up to 1000 inventory items (an API key), each one's fate in its result. */
export const bulkCreate = (inventoryItems: ReadonlyArray<InventoryItemInput>, options?: BulkOptions): Eff<G.BulkResults<InventoryItem>> =>
  sendBulkCreate(
    "InventoryItems.bulkCreate",
    "inventoryItems",
    inventoryItems,
    MAX_INVENTORY_BULK,
    checkInput,
    EntityPaths.inventoryBulkCreate,
    optionsOf(options),
    G.BulkInventoryItemsResponse
  )

/** One inventory item of a bulk update, with the fields to write (all the fields given, without a mask). */
export interface MaskedInventoryItem {
  readonly inventoryItem: InventoryItemUpdate
  readonly fieldMask?: ReadonlyArray<string>
}

/** Updates up to 1000 inventory items (an API key), each one's fate in its result. */
export const bulkUpdate = (
  inventoryItems: ReadonlyArray<MaskedInventoryItem>,
  options?: BulkOptions & ReasonOptions
): Eff<G.BulkResults<InventoryItem>> =>
  send(
    "InventoryItems.bulkUpdate",
    first(
      checkMasked("InventoryItems.bulkUpdate", "inventoryItems", "inventoryItem", inventoryItems, MAX_INVENTORY_BULK, checkUpdate),
      reasonCheck("InventoryItems.bulkUpdate", options)
    ),
    () => ({
      method: "POST",
      path: EntityPaths.inventoryBulkUpdate,
      payload: { inventoryItems: maskedEntries("inventoryItem", inventoryItems), ...optionsOf(options) }
    }),
    G.BulkInventoryItemsResponse
  )

/** Deletes up to 1000 inventory items by id (an API key), each one's fate in its result. */
export const bulkRemove = (ids: ReadonlyArray<string>): Eff<G.BulkDeleteResults> => Named.bulkRemove(INVENTORY_ITEM, ids)

/** Adds to up to 300 items' quantities by item id (an API key). */
export const bulkIncrement = (
  incrementData: ReadonlyArray<{ readonly inventoryItemId: string; readonly incrementBy: number }>,
  options?: BulkOptions & ReasonOptions
): Eff<G.BulkResults<InventoryItem>> =>
  adjust("InventoryItems.bulkIncrement", EntityPaths.inventoryBulkIncrement, "incrementData", "id", incrementData, options)

/** Takes from up to 300 items' quantities by item id (an API key); never below zero unless `restrictInventory` is false. */
export const bulkDecrement = (
  decrementData: ReadonlyArray<{ readonly inventoryItemId: string; readonly decrementBy: number; readonly preorderRequest?: boolean }>,
  options?: DecrementOptions
): Eff<G.BulkResults<InventoryItem>> =>
  adjust("InventoryItems.bulkDecrement", EntityPaths.inventoryBulkDecrement, "decrementData", "id", decrementData, options)

/** Increments by variant (and location: the default one when left out). */
export const bulkIncrementByVariant = (
  incrementData: ReadonlyArray<{ readonly variantId: string; readonly locationId?: string; readonly incrementBy: number; readonly productId?: string }>,
  options?: BulkOptions & ReasonOptions
): Eff<G.BulkResults<InventoryItem>> =>
  adjust("InventoryItems.bulkIncrementByVariant", EntityPaths.inventoryBulkIncrementByVariant, "incrementData", "variant", incrementData, options)

/**
 * Decrements by variant (and location: the default one when left out).
 *
 * @example
 * import { InventoryItems } from "sitefx/catalog/entities"
 * declare const cart: ReadonlyArray<{ variantId: string; quantity: number }>
 * const { bulkActionMetadata } = yield* InventoryItems.bulkDecrementByVariant(
 *   cart.map((line) => ({ variantId: line.variantId, decrementBy: line.quantity })),
 *   { reason: "ORDER" }
 * )
 * if ((bulkActionMetadata.totalFailures ?? 0) > 0) yield* Effect.logWarning("some lines were not in stock")
 */
export const bulkDecrementByVariant = (
  decrementData: ReadonlyArray<{
    readonly variantId: string
    readonly locationId?: string
    readonly decrementBy: number
    readonly preorderRequest?: boolean
    readonly productId?: string
  }>,
  options?: DecrementOptions
): Eff<G.BulkResults<InventoryItem>> =>
  adjust("InventoryItems.bulkDecrementByVariant", EntityPaths.inventoryBulkDecrementByVariant, "decrementData", "variant", decrementData, options)

/**
 * v3 inventory items: one per variant and location (the store's default location when a write names
 * none). An item counts its stock (`quantity`, `trackQuantity` true) or only says whether it is in
 * stock (`inStock`). `availabilityStatus` is derived: a positive quantity (or `inStock`) is IN_STOCK;
 * none left with preorder enabled and preorder room left is PREORDER; otherwise OUT_OF_STOCK. Units
 * sold past zero are the preorder `counter`, and `limit - counter` is the preorder room (`quantity` of
 * `preorderInfo`). Increments and decrements change counted stock and leave status-only items as they
 * are; a decrement with `restrictInventory` (the default) goes below zero only for a preorder request
 * on an item taking preorders, within its limit.
 */
import { EntityCodes, MAX_QUANTITY } from "../../../catalog/entities/protocol.ts"
import { isObject, type Json } from "../../store/values.ts"
import type { AdminCaller } from "../../platform/Caller.ts"
import {
  alreadyExists,
  compact,
  createdEvent,
  type Emit,
  type Engine,
  found,
  invalid,
  Kinds,
  masked,
  modifiedFields,
  nextRevision,
  notFound,
  refused,
  removal,
  required,
  revising,
  updatedEvent
} from "./engine.ts"
import type { EntityTableShape } from "./entityTables.ts"

const ENTITY = "inventory_item"
const KIND = Kinds.inventoryItem

/** The store's one location, which items without a `locationId` belong to. */
export const DEFAULT_LOCATION_ID = "5eed0000-0000-4000-8000-0000000010c0"

const PREORDER_LIMIT = 100_000

const keyOf = (variantId: string, locationId: string) => `${variantId}|${locationId}`

/** Quantity, status, preorder room: the derived fields of an item from what a write set. */
const derive = (doc: Json): Json => {
  const tracked = doc["trackQuantity"] === true
  const quantity = tracked ? doc["quantity"] as number : undefined
  const given = isObject(doc["preorderInfo"]) ? doc["preorderInfo"] as Json : {}
  const enabled = given["enabled"] === true
  const limit = tracked ? (given["limit"] as number | undefined) ?? PREORDER_LIMIT : undefined
  const counter = tracked ? Math.max(0, -(quantity ?? 0)) : undefined
  const room = limit === undefined || counter === undefined ? undefined : Math.max(0, limit - counter)
  const preorderInfo = compact({ enabled, message: given["message"] ?? undefined, limit, counter, quantity: room })
  const status = tracked
    ? (quantity ?? 0) > 0 ? "IN_STOCK" : enabled && (room ?? 0) > 0 ? "PREORDER" : "OUT_OF_STOCK"
    : doc["inStock"] === true ? "IN_STOCK" : enabled ? "PREORDER" : "OUT_OF_STOCK"
  return compact({
    ...doc,
    quantity: tracked ? quantity : undefined,
    inStock: tracked ? undefined : doc["inStock"] === true,
    availabilityStatus: status,
    preorderInfo
  })
}

/** The tracking a write asks for: a quantity (counted), `inStock` (status only), or unchanged. */
const tracking = (input: Json, field: string): Json => {
  const quantity = input["quantity"]
  const inStock = input["inStock"]
  if (quantity !== undefined && inStock !== undefined) throw invalid(field, `${field} tracks either a quantity or inStock, not both`)
  if (quantity !== undefined) return { trackQuantity: true, quantity }
  if (inStock !== undefined) return { trackQuantity: false, inStock }
  return {}
}

const preorderOf = (input: unknown, tracked: boolean, field: string, current?: unknown): Json | undefined => {
  if (input === undefined) return current === undefined ? undefined : current as Json
  if (!isObject(input)) return undefined
  if (!tracked && input["limit"] !== undefined && input["limit"] !== null) {
    throw invalid(`${field}.limit`, "A preorder limit needs a tracked quantity", "PREORDER_LIMIT_NOT_SUPPORTED_FOR_UNTRACKED_INVENTORY")
  }
  const base = isObject(current) ? current as Json : {}
  return compact({ ...base, enabled: input["enabled"] ?? base["enabled"], message: input["message"] ?? base["message"], limit: input["limit"] ?? base["limit"] })
}

export interface Adjustment {
  readonly by: number
  readonly preorderRequest?: boolean | undefined
}

export const inventoryOps = (table: EntityTableShape, engine: Engine) => {
  const create = (input: Json, actor: AdminCaller, emit: Emit, field: string): Json => {
    const variantId = input["variantId"]
    const productId = input["productId"]
    if (typeof variantId !== "string" || variantId === "") throw required(`${field}.variantId`)
    if (typeof productId !== "string" || productId === "") throw required(`${field}.productId`)
    const locationId = typeof input["locationId"] === "string" && input["locationId"] !== "" ? input["locationId"] : DEFAULT_LOCATION_ID
    const track = tracking(input, field)
    const stock = Object.keys(track).length === 0 ? { trackQuantity: false, inStock: true } : track
    const now = engine.now()
    const doc = derive({
      id: engine.newId(),
      revision: "1",
      createdDate: now,
      updatedDate: now,
      variantId,
      locationId,
      productId,
      ...stock,
      preorderInfo: preorderOf(input["preorderInfo"], stock["trackQuantity"] === true, `${field}.preorderInfo`),
      extendedFields: input["extendedFields"]
    })
    if (!table.insert(doc, keyOf(variantId, locationId))) {
      throw alreadyExists(`Variant ${variantId} already has an inventory item at location ${locationId}`, { variantId, locationId })
    }
    emit(createdEvent(ENTITY, doc, actor))
    return doc
  }

  const save = (current: Json, next: Json, actor: AdminCaller, emit: Emit): Json => {
    const saved = derive({ ...next, revision: nextRevision(current), updatedDate: engine.now() })
    table.replace(saved, keyOf(saved["variantId"] as string, saved["locationId"] as string))
    emit(updatedEvent(ENTITY, saved, modifiedFields(current, saved), actor))
    return saved
  }

  const update = (input: Json, mask: ReadonlySet<string> | undefined, actor: AdminCaller, emit: Emit, field: string): Json => {
    const current = revising(table, KIND, input, field)
    const patch = masked(input, mask)
    const track = tracking(patch, field)
    const tracked = track["trackQuantity"] === undefined ? current["trackQuantity"] === true : track["trackQuantity"] === true
    const next: Json = {
      ...current,
      ...track,
      preorderInfo: preorderOf(patch["preorderInfo"], tracked, `${field}.preorderInfo`, current["preorderInfo"]),
      ...(patch["extendedFields"] === undefined ? {} : { extendedFields: patch["extendedFields"] })
    }
    return save(current, next, actor, emit)
  }

  const remove = removal(table, KIND, ENTITY)

  const byVariant = (variantId: unknown, locationId: unknown, field: string): Json => {
    if (typeof variantId !== "string" || variantId === "") throw required(`${field}.variantId`)
    const location = typeof locationId === "string" && locationId !== "" ? locationId : DEFAULT_LOCATION_ID
    const doc = table.byKey(keyOf(variantId, location))
    if (doc === undefined) throw notFound({ label: "Inventory item of variant", notFound: KIND.notFound }, `${variantId} at ${location}`)
    return doc
  }

  const byId = (id: unknown, field: string): Json => {
    if (typeof id !== "string" || id === "") throw required(`${field}.inventoryItemId`)
    return found(table.get(id), KIND, id)
  }

  /** Adds to counted stock; status-only items stay as they are. */
  const increment = (doc: Json, by: number, actor: AdminCaller, emit: Emit): Json => {
    if (doc["trackQuantity"] !== true) return doc
    const quantity = (doc["quantity"] as number) + by
    if (quantity > MAX_QUANTITY) throw invalid("incrementBy", `A quantity stays at most ${MAX_QUANTITY}`, "MAX")
    return save(doc, { ...doc, quantity }, actor, emit)
  }

  /** Takes from counted stock, below zero only as the rules above allow. */
  const decrement = (doc: Json, adjustment: Adjustment, restrict: boolean, actor: AdminCaller, emit: Emit): Json => {
    if (doc["trackQuantity"] !== true) return doc
    const quantity = (doc["quantity"] as number) - adjustment.by
    const preorder = isObject(doc["preorderInfo"]) ? doc["preorderInfo"] as Json : {}
    const limit = (preorder["limit"] as number | undefined) ?? PREORDER_LIMIT
    if (quantity < 0 && restrict) {
      const preorderable = adjustment.preorderRequest === true && preorder["enabled"] === true && -quantity <= limit
      if (!preorderable) {
        throw refused(EntityCodes.insufficientInventory, `Only ${String(doc["quantity"])} left of inventory item ${String(doc["id"])}`, {
          inventoryItemId: doc["id"],
          quantity: doc["quantity"],
          requested: adjustment.by
        })
      }
    }
    if (quantity < -MAX_QUANTITY) throw invalid("decrementBy", `A quantity stays at least ${-MAX_QUANTITY}`, "MIN")
    return save(doc, { ...doc, quantity }, actor, emit)
  }

  return { create, update, remove, byVariant, byId, increment, decrement }
}

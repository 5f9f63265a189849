/**
 * The site's events as typed values. A webhook body (once its signature verified) and a live-stream
 * frame both carry an {@link EventEnvelope}; decoding one checks its shape with guards and gives a
 * {@link SiteEvent}, a tagged union discriminated twice:
 *
 * - `_tag: "Domain"` for the `wix.*` types (data items, catalog v3 entities): one entity changed, with
 *   the event's `id`, `entityFqdn`, `entityId`, `eventTime` (a Date) and a `change`:
 *   `Created { entity }`, `Updated { entity, modifiedFields? }`, `Deleted { entity? }` (the platform may
 *   leave the deleted entity out) or `Action { action, body }` (the action's name and payload).
 * - `_tag: "Legacy"` for the `com.wix.ecommerce.*` types (catalog v1 products, collections, variants,
 *   inventory, abandoned carts): the payload as the platform sends it, in `data`.
 *
 * and by `type`, the event type, which fixes the payload's type through {@link EventPayloads}: narrowing
 * `event.type` narrows `entity` / `data`. Both kinds carry `instanceId`, and `identity` (who caused it)
 * and `accountInfo` when the platform sent them.
 *
 * Payloads keep the platform's wire names (`id`, `createdDate` as ISO text, `collection_Id`), as sitefx's
 * catalog clients do. A data item's `data` is an {@link Item} as the data client returns it: `{"$date"}`
 * values become Dates and `_id` is filled from the item id.
 *
 * @example
 * declare const envelope: unknown // an envelope as parsed from JSON
 * const event = yield* decodeEnvelope(envelope)
 * if (event.type === DataEventTypes.itemCreated && event.change._tag === "Created") {
 *   console.log(event.change.entity.dataCollectionId, event.change.entity.data?._id, event.identity?.identityType)
 * }
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as V3 from "../catalog/entities/guards/index.ts"
import type { Item } from "../data/calls.ts"
import * as OrderGuards from "../ecom/guards/orders.ts"
import * as BackupGuards from "../data/guards/backups.ts"
import * as IndexGuards from "../data/guards/indexes.ts"
import * as JobGuards from "../data/guards/movementJobs.ts"
import type { Backup, DataIndex, DataMovementJob, Restoration } from "../data/wire/index.ts"
import { reviveDates } from "../http/codec.ts"
import * as G from "../http/guard.ts"
import {
  type AccountInfo,
  CatalogV1EventTypes,
  CatalogV3EventTypes,
  DataAdminEventTypes,
  DataEventTypes,
  EcomEventTypes,
  EVENT_TYPES,
  type EventEnvelope,
  type EventType,
  type Identity,
  isDomainEventType
} from "./protocol.ts"
import * as E from "./guards/envelope.ts"
import * as P from "./guards/payloads.ts"
import { type EventDecodeErrorReason, Malformed, UnknownEventType } from "./reasons.ts"

import type { ProductV3Entity } from "./guards/payloads.ts"

export type { ProductV3Entity }

/** A data item as its events carry it: `data` is an {@link Item} as the data client returns it. */
export interface DataItemEntity {
  readonly id: string
  readonly dataCollectionId: string
  /** The item's fields (absent in a deletion that carries only the ids). */
  readonly data?: Item
}
/** The body of a v1 ProductCreated event. */
export type ProductCreated = G.TypeOf<typeof P.ProductCreated>
/** The body of a v1 ProductChanged event: the product and the fields that changed. */
export type ProductChanged = G.TypeOf<typeof P.ProductChanged>
/** The body of a v1 ProductDeleted event. */
export type ProductDeleted = G.TypeOf<typeof P.ProductDeleted>
/** The body of a v1 VariantsChanged event: the product's variants that changed. */
export type VariantsChanged = G.TypeOf<typeof P.VariantsChanged>
/** The body of a v1 CollectionCreated event. */
export type CollectionCreated = G.TypeOf<typeof P.CollectionCreated>
/** The body of a v1 CollectionChanged event: the collection and the fields that changed. */
export type CollectionChanged = G.TypeOf<typeof P.CollectionChanged>
/** The body of a v1 CollectionDeleted event. */
export type CollectionDeleted = G.TypeOf<typeof P.CollectionDeleted>
/** The body of an InventoryItemChanged event: the item's settings that changed. */
export type InventoryItemChanged = G.TypeOf<typeof P.InventoryItemChanged>
/** The body of an InventoryVariantsChanged event: each variant's stock before and after. */
export type InventoryVariantsChanged = G.TypeOf<typeof P.InventoryVariantsChanged>
/** The body of a CartAbandonedEvent. */
export type CartAbandoned = G.TypeOf<typeof P.CartAbandoned>
/** The body of a CartRecoveredEvent. */
export type CartRecovered = G.TypeOf<typeof P.CartRecovered>

/** An order, as the order events carry it. */
export type OrderEntity = G.TypeOf<typeof OrderGuards.Order>
/** The body of `order_approved` and `order_fulfilled`: the order as it is now. */
export type OrderEventBody = G.TypeOf<typeof OrderGuards.OrderEventBody>
/** The body of `order_payment_status_updated`: the order, and its payment status before. */
export type OrderPaymentStatusUpdated = G.TypeOf<typeof OrderGuards.PaymentStatusUpdated>
/** The body of `order_canceled`: the order, and what its cancellation asked for. */
export type OrderCanceled = G.TypeOf<typeof OrderGuards.OrderCanceled>
/** The body of `checkout_completed`: the checkout an order was placed from. */
export type CheckoutCompleted = G.TypeOf<typeof OrderGuards.CheckoutCompleted>

const v1 = CatalogV1EventTypes
const ecom = EcomEventTypes
const v3 = CatalogV3EventTypes

type DataItemEventType = typeof DataEventTypes[keyof typeof DataEventTypes]

/**
 * The payload of each event type: the entity of a domain event (created, updated or deleted), the
 * `data` of a legacy one.
 */
export interface EventPayloads {
  readonly [DataEventTypes.itemCreated]: DataItemEntity
  readonly [DataEventTypes.itemUpdated]: DataItemEntity
  readonly [DataEventTypes.itemDeleted]: DataItemEntity
  readonly [DataAdminEventTypes.indexCreated]: DataIndex
  readonly [DataAdminEventTypes.indexUpdated]: DataIndex
  readonly [DataAdminEventTypes.indexDeleted]: DataIndex
  /** An action event: its body holds the backup as it is now. */
  readonly [DataAdminEventTypes.backupStateChanged]: { readonly backup: Backup }
  /** An action event: its body holds the restoration as it is now. */
  readonly [DataAdminEventTypes.restorationStateChanged]: { readonly restoration: Restoration }
  readonly [DataAdminEventTypes.jobCreated]: DataMovementJob
  readonly [DataAdminEventTypes.jobUpdated]: DataMovementJob
  readonly [DataAdminEventTypes.jobDeleted]: DataMovementJob
  readonly [v1.productCreated]: ProductCreated
  readonly [v1.productChanged]: ProductChanged
  readonly [v1.productDeleted]: ProductDeleted
  readonly [v1.variantsChanged]: VariantsChanged
  readonly [v1.collectionCreated]: CollectionCreated
  readonly [v1.collectionChanged]: CollectionChanged
  readonly [v1.collectionDeleted]: CollectionDeleted
  readonly [v1.inventoryItemChanged]: InventoryItemChanged
  readonly [v1.inventoryVariantsChanged]: InventoryVariantsChanged
  readonly [v1.cartAbandoned]: CartAbandoned
  readonly [v1.cartRecovered]: CartRecovered
  readonly [v3.product.created]: ProductV3Entity
  readonly [v3.product.updated]: ProductV3Entity
  readonly [v3.product.deleted]: ProductV3Entity
  readonly [v3.brand.created]: V3.Brand
  readonly [v3.brand.updated]: V3.Brand
  readonly [v3.brand.deleted]: V3.Brand
  readonly [v3.ribbon.created]: V3.Ribbon
  readonly [v3.ribbon.updated]: V3.Ribbon
  readonly [v3.ribbon.deleted]: V3.Ribbon
  readonly [v3.inventoryItem.created]: V3.InventoryItem
  readonly [v3.inventoryItem.updated]: V3.InventoryItem
  readonly [v3.inventoryItem.deleted]: V3.InventoryItem
  readonly [v3.customization.created]: V3.Customization
  readonly [v3.customization.updated]: V3.Customization
  readonly [v3.customization.deleted]: V3.Customization
  readonly [v3.infoSection.created]: V3.InfoSection
  readonly [v3.infoSection.updated]: V3.InfoSection
  readonly [v3.infoSection.deleted]: V3.InfoSection
  readonly [ecom.orderCreated]: OrderEntity
  readonly [ecom.orderUpdated]: OrderEntity
  /** An action event: its body holds the order as it is now. */
  readonly [ecom.orderApproved]: OrderEventBody
  /** An action event: its body holds the order and what the cancellation asked for. */
  readonly [ecom.orderCanceled]: OrderCanceled
  /** An action event: its body holds the order and its payment status before. */
  readonly [ecom.orderPaymentStatusUpdated]: OrderPaymentStatusUpdated
  /** An action event: its body holds the order, fulfilled whole. */
  readonly [ecom.orderFulfilled]: OrderEventBody
  /** An action event on the checkout: its body holds the checkout. */
  readonly [ecom.checkoutCompleted]: CheckoutCompleted
}

/** The three event types of a v3 entity service, each carrying the entity `guard` checks. */
const v3Entity = <C extends string, U extends string, D extends string, A>(types: { readonly created: C; readonly updated: U; readonly deleted: D }, guard: G.Guard<A>) =>
  ({ [types.created]: guard, [types.updated]: guard, [types.deleted]: guard }) as { readonly [T in C | U | D]: G.Guard<A> }

/**
 * The guard of each event type's payload, held by the compiler to {@link EventPayloads} (a data item's
 * fields become an {@link Item} only after the check), so every type has one and each checks its type.
 */
const payloadGuards: { readonly [T in EventType]: G.Guard<T extends DataItemEventType ? G.TypeOf<typeof P.DataItemEntity> : EventPayloads[T]> } = {
  [DataEventTypes.itemCreated]: P.DataItemEntity,
  [DataEventTypes.itemUpdated]: P.DataItemEntity,
  [DataEventTypes.itemDeleted]: P.DataItemEntity,
  [DataAdminEventTypes.indexCreated]: IndexGuards.DataIndex,
  [DataAdminEventTypes.indexUpdated]: IndexGuards.DataIndex,
  [DataAdminEventTypes.indexDeleted]: IndexGuards.DataIndex,
  [DataAdminEventTypes.backupStateChanged]: G.struct({ backup: BackupGuards.Backup }),
  [DataAdminEventTypes.restorationStateChanged]: G.struct({ restoration: BackupGuards.Restoration }),
  [DataAdminEventTypes.jobCreated]: JobGuards.DataMovementJob,
  [DataAdminEventTypes.jobUpdated]: JobGuards.DataMovementJob,
  [DataAdminEventTypes.jobDeleted]: JobGuards.DataMovementJob,
  [v1.productCreated]: P.ProductCreated,
  [v1.productChanged]: P.ProductChanged,
  [v1.productDeleted]: P.ProductDeleted,
  [v1.variantsChanged]: P.VariantsChanged,
  [v1.collectionCreated]: P.CollectionCreated,
  [v1.collectionChanged]: P.CollectionChanged,
  [v1.collectionDeleted]: P.CollectionDeleted,
  [v1.inventoryItemChanged]: P.InventoryItemChanged,
  [v1.inventoryVariantsChanged]: P.InventoryVariantsChanged,
  [v1.cartAbandoned]: P.CartAbandoned,
  [v1.cartRecovered]: P.CartRecovered,
  ...v3Entity(v3.product, P.ProductV3Entity),
  ...v3Entity(v3.brand, V3.Brand),
  ...v3Entity(v3.ribbon, V3.Ribbon),
  ...v3Entity(v3.inventoryItem, V3.InventoryItem),
  ...v3Entity(v3.customization, V3.Customization),
  ...v3Entity(v3.infoSection, V3.InfoSection),
  [ecom.orderCreated]: OrderGuards.Order,
  [ecom.orderUpdated]: OrderGuards.Order,
  [ecom.orderApproved]: OrderGuards.OrderEventBody,
  [ecom.orderCanceled]: OrderGuards.OrderCanceled,
  [ecom.orderPaymentStatusUpdated]: OrderGuards.PaymentStatusUpdated,
  [ecom.orderFulfilled]: OrderGuards.OrderEventBody,
  [ecom.checkoutCompleted]: OrderGuards.CheckoutCompleted
}

// ---- events --------------------------------------------------------------------------------------------

/** The event types of domain events (`wix.*`). */
export type DomainEventType = Extract<EventType, `wix.${string}`>
/** The event types of legacy events (`com.wix.*`). */
export type LegacyEventType = Exclude<EventType, DomainEventType>

/** What happened to a domain event's entity. */
export type EntityChange<E> =
  | { readonly _tag: "Created"; readonly entity: E }
  | {
    readonly _tag: "Updated"
    readonly entity: E
    /** The fields that changed with their values before the change, when the platform says. */
    readonly modifiedFields?: { readonly [field: string]: unknown }
  }
  | { readonly _tag: "Deleted"; readonly entity?: E }
  | { readonly _tag: "Action"; readonly action: string; readonly body: unknown }

interface EventBase<T extends string> {
  readonly type: T
  /** The site (app instance) the event belongs to. */
  readonly instanceId: string
  /** Who caused the event, when the platform says. */
  readonly identity?: Identity
  readonly accountInfo?: AccountInfo
}

/** One entity created, updated, deleted or acted upon. */
export interface DomainEventOf<T extends string, E> extends EventBase<T> {
  readonly _tag: "Domain"
  readonly id: string
  readonly entityFqdn: string
  readonly entityId: string
  readonly eventTime: Date
  readonly change: EntityChange<E>
  /** The entity's own event counter, when the platform sends one. */
  readonly entityEventSequence?: string
  readonly triggeredByAnonymizeRequest?: boolean
}

/** An event whose payload is its own (catalog v1, inventory v1, abandoned carts). */
export interface LegacyEventOf<T extends string, D> extends EventBase<T> {
  readonly _tag: "Legacy"
  /** The event's id where its carrier gives one (the live stream); webhooks carry none. */
  readonly id?: string
  readonly data: D
}

/** The event of type `T` (a union when `T` is). */
export type EventOf<T extends EventType> = T extends DomainEventType ? DomainEventOf<T, EventPayloads[T]>
  : LegacyEventOf<T, EventPayloads[T]>

/** Any event sitefx knows. */
export type SiteEvent = EventOf<EventType>

const knownTypes: ReadonlySet<string> = new Set(EVENT_TYPES)

/** Whether sitefx knows the event type (it is in {@link EVENT_TYPES}). */
export const isEventType = (type: string): type is EventType => knownTypes.has(type)

// ---- decoding ------------------------------------------------------------------------------------------

/**
 * An envelope that could not be decoded; `reason` says why: `Malformed` (not the envelope's shape, JSON
 * text that is not JSON, a payload without its fields) or `UnknownEventType` (a type sitefx does not
 * know; its `eventType` says which).
 */
export class EventDecodeError extends Data.TaggedError("EventDecodeError")<{ readonly reason: EventDecodeErrorReason }> {
  override get message(): string {
    return this.reason.message
  }

  /** The envelope's event type, when sitefx does not know it. */
  get eventType(): string | undefined {
    return this.reason._tag === "UnknownEventType" ? this.reason.eventType : undefined
  }
}

const malformed = (message: string) => new EventDecodeError({ reason: new Malformed({ message }) })

const parseJson = (text: string, what: string): unknown | EventDecodeError => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return malformed(`${what} is not JSON text`)
  }
}

const checked = <A>(guard: G.Guard<A>, value: unknown, what: string): A | EventDecodeError => {
  const wrong = guard(value)
  return wrong === undefined ? (value as A) : malformed(`${what}${G.describe(wrong)}`)
}


/** A data item's `data` as the data client gives items: `{"$date"}` values as Dates, `_id` from the item id. */
const dataItem = (entity: unknown): unknown => {
  if (!G.isRecord(entity) || !G.isRecord(entity["data"])) return entity
  const data = reviveDates(entity["data"]) as Record<string, unknown>
  const id = typeof data["_id"] === "string" ? data["_id"] : entity["id"]
  return { ...entity, data: { ...data, _id: id } }
}

const isDataItemType = (type: EventType) =>
  type === DataEventTypes.itemCreated || type === DataEventTypes.itemUpdated || type === DataEventTypes.itemDeleted

const entityOf = (type: EventType, entity: unknown, what: string): unknown | EventDecodeError =>
  checked(payloadGuards[type], isDataItemType(type) ? dataItem(entity) : entity, what)

const changeOf = (type: EventType, payload: G.TypeOf<typeof E.DomainPayload>): EntityChange<unknown> | EventDecodeError => {
  // the platform sets one of these; deleted and action win over the others, as the official client reads them
  if (payload.deletedEvent != null) {
    const deleted = payload.deletedEvent.deletedEntity
    if (deleted === undefined || deleted === null) return { _tag: "Deleted" }
    const entity = entityOf(type, deleted, ".deletedEvent.deletedEntity")
    return entity instanceof EventDecodeError ? entity : { _tag: "Deleted", entity }
  }
  if (payload.actionEvent != null) return { _tag: "Action", action: payload.slug, body: payload.actionEvent.body }
  if (payload.updatedEvent != null) {
    const entity = entityOf(type, payload.updatedEvent.currentEntity, ".updatedEvent.currentEntity")
    if (entity instanceof EventDecodeError) return entity
    const modified = payload.updatedEvent.modifiedFields
    return modified == null ? { _tag: "Updated", entity } : { _tag: "Updated", entity, modifiedFields: modified }
  }
  if (payload.createdEvent != null) {
    const entity = entityOf(type, payload.createdEvent.entity, ".createdEvent.entity")
    return entity instanceof EventDecodeError ? entity : { _tag: "Created", entity }
  }
  return malformed("The domain event has none of createdEvent, updatedEvent, deletedEvent, actionEvent")
}

const decodeSync = (envelope: unknown, id: string | undefined): SiteEvent | EventDecodeError => {
  const env = checked(E.Envelope, envelope, "The event envelope")
  if (env instanceof EventDecodeError) return env
  const type = env.eventType
  if (!isEventType(type)) {
    return new EventDecodeError({ reason: new UnknownEventType({ message: `Unknown event type ${JSON.stringify(type)}`, eventType: type }) })
  }
  let identity: Identity | undefined
  if (env.identity != null) {
    const parsed = parseJson(env.identity, "The envelope's identity")
    if (parsed instanceof EventDecodeError) return parsed
    const checkedIdentity = checked(E.Identity, parsed, "The envelope's identity")
    if (checkedIdentity instanceof EventDecodeError) return checkedIdentity
    identity = checkedIdentity
  }
  const accountInfo: AccountInfo | undefined = env.accountInfo == null ? undefined : withoutNulls(env.accountInfo)
  const base = {
    type,
    instanceId: env.instanceId,
    ...(identity === undefined ? {} : { identity }),
    ...(accountInfo === undefined ? {} : { accountInfo })
  }
  const data = parseJson(env.data, "The envelope's data")
  if (data instanceof EventDecodeError) return data
  if (isDomainEventType(type)) {
    const payload = checked(E.DomainPayload, data, "The domain event")
    if (payload instanceof EventDecodeError) return payload
    const eventTime = new Date(payload.eventTime)
    if (Number.isNaN(eventTime.getTime())) return malformed("The domain event's eventTime is not a date")
    const eventId = payload.id ?? id
    if (eventId === undefined) return malformed("The domain event has no id")
    const change = changeOf(type, payload)
    if (change instanceof EventDecodeError) return change
    return {
      _tag: "Domain",
      ...base,
      id: eventId,
      entityFqdn: payload.entityFqdn,
      entityId: payload.entityId,
      eventTime,
      change,
      ...(payload.entityEventSequence === undefined ? {} : { entityEventSequence: String(payload.entityEventSequence) }),
      ...(payload.triggeredByAnonymizeRequest === undefined ? {} : { triggeredByAnonymizeRequest: payload.triggeredByAnonymizeRequest })
    } as SiteEvent
  }
  const payload = checked(payloadGuards[type], data, "The event's data")
  if (payload instanceof EventDecodeError) return payload
  return { _tag: "Legacy", ...base, ...(id === undefined ? {} : { id }), data: payload } as SiteEvent
}

const withoutNulls = (info: { readonly [k: string]: string | null | undefined }): AccountInfo => {
  const out: Record<string, string> = {}
  for (const k of ["accountId", "parentAccountId", "siteId"] as const) {
    const v = info[k]
    if (typeof v === "string") out[k] = v
  }
  return out
}

/**
 * An {@link EventEnvelope} (as parsed from JSON) as a {@link SiteEvent}. `id` is the event's id where its
 * carrier gives one (a live-stream frame): a legacy event takes it as its `id`; a domain event keeps its
 * own and takes this one only when it has none.
 */
export const decodeEnvelope = (envelope: EventEnvelope | unknown, id?: string): Effect.Effect<SiteEvent, EventDecodeError> =>
  Effect.suspend(() => {
    const event = decodeSync(envelope, id)
    return event instanceof EventDecodeError ? Effect.fail(event) : Effect.succeed(event)
  })

/** An envelope given as JSON text (a live-stream frame's data) as a {@link SiteEvent}. */
export const decodeEnvelopeText = (text: string, id?: string): Effect.Effect<SiteEvent, EventDecodeError> =>
  Effect.suspend(() => {
    const parsed = parseJson(text, "The event envelope")
    return parsed instanceof EventDecodeError ? Effect.fail(parsed) : decodeEnvelope(parsed, id)
  })

/**
 * The verified claims of a webhook token as a {@link SiteEvent}: claim `data` must be a string holding
 * the envelope as JSON text (an object there is refused, as the platform never sends one).
 */
export const decodeClaims = (claims: { readonly [claim: string]: unknown }): Effect.Effect<SiteEvent, EventDecodeError> =>
  Effect.suspend(() => {
    const data = claims["data"]
    if (typeof data !== "string") {
      return Effect.fail(malformed(`The token's data claim is ${data === undefined ? "missing" : `a ${typeof data}, not a string`}`))
    }
    return decodeEnvelopeText(data)
  })

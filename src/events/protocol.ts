/**
 * The platform's events as they travel: the event types the local platform publishes, the envelope
 * every event is carried in (inside a signed webhook body, and on the live stream), the identity of who
 * caused it, and the paths of the events API. Shared by sitefx's events client and the local platform.
 *
 * A webhook body is a JWT (RS256, signed with the site's key pair) whose claim `data` is the JSON text
 * of an {@link EventEnvelope}; the envelope's `data` and `identity` are JSON text again. The live stream
 * (server-sent events) carries the same envelope as each frame's data, with the event's id.
 */

/** Event types of data items (domain events). */
export const DataEventTypes = {
  itemCreated: "wix.data.v2.data_item_created",
  itemUpdated: "wix.data.v2.data_item_updated",
  itemDeleted: "wix.data.v2.data_item_deleted"
} as const

/** Event types of a site's data administration: indexes, backups, restorations and movement jobs (domain events). */
export const DataAdminEventTypes = {
  indexCreated: "wix.data.v2.index_created",
  indexUpdated: "wix.data.v2.index_updated",
  indexDeleted: "wix.data.v2.index_deleted",
  backupStateChanged: "wix.data.v2.backup_backup_state_changed",
  restorationStateChanged: "wix.data.v2.backup_restoration_state_changed",
  jobCreated: "wix.hub.v1.job_created",
  jobUpdated: "wix.hub.v1.job_updated",
  jobDeleted: "wix.hub.v1.job_deleted"
} as const

/** Event types of the store catalog v1 (non-domain events). */
export const CatalogV1EventTypes = {
  productCreated: "com.wix.ecommerce.catalog.api.v1.ProductCreated",
  productChanged: "com.wix.ecommerce.catalog.api.v1.ProductChanged",
  productDeleted: "com.wix.ecommerce.catalog.api.v1.ProductDeleted",
  variantsChanged: "com.wix.ecommerce.catalog.api.v1.VariantsChanged",
  collectionCreated: "com.wix.ecommerce.catalog.api.v1.CollectionCreated",
  collectionChanged: "com.wix.ecommerce.catalog.api.v1.CollectionChanged",
  collectionDeleted: "com.wix.ecommerce.catalog.api.v1.CollectionDeleted",
  inventoryItemChanged: "com.wix.ecommerce.inventory.api.v1.InventoryItemChanged",
  inventoryVariantsChanged: "com.wix.ecommerce.inventory.api.v1.InventoryVariantsChanged",
  cartAbandoned: "com.wix.ecommerce.cart.abandonment.api.v1.CartAbandonedEvent",
  cartRecovered: "com.wix.ecommerce.cart.abandonment.api.v1.CartRecoveredEvent"
} as const

const v3 = <E extends string>(entity: E) =>
  ({
    created: `wix.stores.catalog.v3.${entity}_created`,
    updated: `wix.stores.catalog.v3.${entity}_updated`,
    deleted: `wix.stores.catalog.v3.${entity}_deleted`
  }) as const

/** Event types of the store catalog v3 entity services (domain events). */
export const CatalogV3EventTypes = {
  product: v3("product"),
  brand: v3("brand"),
  ribbon: v3("ribbon"),
  inventoryItem: v3("inventory_item"),
  customization: v3("customization"),
  infoSection: v3("info_section")
} as const

/** Event types of the store's orders and of a completed checkout (domain events; see `sitefx/ecom`). */
export const EcomEventTypes = {
  orderCreated: "wix.ecom.v1.order_created",
  orderUpdated: "wix.ecom.v1.order_updated",
  orderApproved: "wix.ecom.v1.order_approved",
  orderCanceled: "wix.ecom.v1.order_canceled",
  orderPaymentStatusUpdated: "wix.ecom.v1.order_payment_status_updated",
  orderFulfilled: "wix.ecom.v1.order_fulfilled",
  checkoutCompleted: "wix.ecom.v1.checkout_completed"
} as const

/** Every event type the local platform publishes. */
export const EVENT_TYPES = [
  ...Object.values(DataEventTypes),
  ...Object.values(DataAdminEventTypes),
  ...Object.values(CatalogV1EventTypes),
  ...Object.values(CatalogV3EventTypes).flatMap((t) => [t.created, t.updated, t.deleted]),
  ...Object.values(EcomEventTypes)
] as const
/** One of {@link EVENT_TYPES}. */
export type EventType = typeof EVENT_TYPES[number]

/** Domain events (`wix.*`) carry a {@link DomainEvent}; the others carry their payload as it is. */
export const isDomainEventType = (type: string): boolean => type.startsWith("wix.")

/** Who may cause an event: nobody known, a visitor, a member, the site's owner, or an app. */
export const IDENTITY_TYPES = ["UNKNOWN", "ANONYMOUS_VISITOR", "MEMBER", "WIX_USER", "APP"] as const

/** Who caused an event. */
export interface Identity {
  readonly identityType: typeof IDENTITY_TYPES[number]
  readonly anonymousVisitorId?: string
  readonly memberId?: string
  readonly wixUserId?: string
  readonly appId?: string
}

/** The account and site an event belongs to. */
export interface AccountInfo {
  readonly accountId?: string
  readonly parentAccountId?: string
  readonly siteId?: string
}

/**
 * What a webhook's claim `data` holds (as JSON text), and what each live-stream frame holds: the event's
 * type, the site instance, the payload and the identity as JSON text, and the account.
 */
export interface EventEnvelope {
  readonly eventType: string
  readonly instanceId: string
  /** JSON text: a {@link DomainEvent} for domain event types, the event's own payload otherwise. */
  readonly data: string
  /** JSON text of an {@link Identity}. */
  readonly identity?: string
  readonly accountInfo?: AccountInfo
}

/** The payload of a domain event: one entity created, updated, deleted, or an action on it. */
export interface DomainEvent {
  readonly id: string
  readonly entityFqdn: string
  /** `created`, `updated`, `deleted`, or the action's name. */
  readonly slug: string
  readonly entityId: string
  /** ISO time. */
  readonly eventTime: string
  readonly triggeredByAnonymizeRequest?: boolean
  readonly entityEventSequence?: string
  readonly createdEvent?: { readonly entity: unknown }
  readonly updatedEvent?: { readonly currentEntity: unknown; readonly modifiedFields?: Readonly<Record<string, unknown>> }
  readonly deletedEvent?: { readonly deletedEntity?: unknown }
  readonly actionEvent?: { readonly body: unknown }
}

/** The events API of the local platform. */
export const EventPaths = {
  /**
   * Server-sent events of the site (an API key): `?eventType=<type>` (repeatable) filters; each frame has
   * `id: <event id>`, `event: <event type>` and `data: <EventEnvelope as JSON>`. A reconnect sends
   * `Last-Event-ID` (or `?lastEventId=`) and gets the events after it, while they are kept.
   */
  stream: "/_api/sitefx-events/v1/stream",
  /** The site's public key for webhook signatures: `{ publicKey: <SPKI PEM> }` (anyone). */
  publicKey: "/_api/sitefx-events/v1/public-key",
  /** Webhook subscriptions (an API key): POST `{ url, eventTypes? }`, GET the list, DELETE `/{id}`. */
  webhooks: "/_api/sitefx-events/v1/webhooks"
} as const

/**
 * Headers on each webhook delivery of the local platform, beside the signed body (`text/plain`): the
 * event's id in the site's event log (a receiver that got it before can skip it), the subscription it
 * was delivered for, and which attempt this is (1 for the first).
 */
export const WebhookHeaders = {
  eventId: "x-sitefx-event-id",
  webhookId: "x-sitefx-webhook-id",
  attempt: "x-sitefx-delivery-attempt"
} as const

/** A webhook subscription of the local platform, as its webhooks API answers it. */
export interface WebhookSubscription {
  readonly id: string
  /** Where the events are POSTed (http or https). */
  readonly url: string
  /** The event types delivered to it (every type the platform publishes when none were named). */
  readonly eventTypes: ReadonlyArray<string>
  /** ISO time. */
  readonly createdDate: string
}

/**
 * sitefx/events: a site's events. `Webhooks` verifies the platform's signed webhook bodies and hands
 * each event to a typed handler (with a `Request → Response` adapter for fetch runtimes, a
 * `(request, response)` one for Node servers and an Effect HttpRouter route); `live` is a Stream of the site's events as they happen; `Subscriptions` manages
 * which URLs receive webhooks (an API key); the event types, the envelope and the typed events are shared.
 *
 * @example
 * import * as Events from "sitefx/events"
 * const hook = Events.Webhooks.handler({ publicKey: process.env.SITE_PUBLIC_KEY!, handlers: { "wix.data.v2.data_item_created": (e) => Effect.log(e.entityId) } })
 * export default { fetch: Events.Webhooks.toFetchHandler(hook) }
 */
export {
  type CartAbandoned,
  type CartRecovered,
  type CheckoutCompleted,
  type CollectionChanged,
  type CollectionCreated,
  type CollectionDeleted,
  type DataItemEntity,
  decodeEnvelope,
  decodeEnvelopeText,
  type DomainEventOf,
  type DomainEventType,
  type EntityChange,
  EventDecodeError,
  type EventOf,
  type EventPayloads,
  type InventoryItemChanged,
  type InventoryVariantsChanged,
  isEventType,
  type LegacyEventOf,
  type LegacyEventType,
  type OrderCanceled,
  type OrderEntity,
  type OrderEventBody,
  type OrderPaymentStatusUpdated,
  type ProductChanged,
  type ProductCreated,
  type ProductDeleted,
  type ProductV3Entity,
  type SiteEvent,
  type VariantsChanged
} from "./Event.ts"
export { type Claims, JwtError, type JwtFailure, type VerifyOptions } from "./jwt.ts"
export { live, LiveError, type LiveEvent, type LiveOptions } from "./Live.ts"
export {
  BadSignature,
  type EventDecodeErrorReason,
  Expired,
  HandlerFailed,
  InvalidKey,
  type JwtErrorReason,
  type LiveErrorReason,
  Malformed,
  NotYetValid,
  Refused,
  TooLarge,
  Unauthorized,
  UnknownEventType,
  Unreachable,
  UnsupportedAlgorithm,
  type WebhookErrorReason
} from "./reasons.ts"
export {
  type AccountInfo,
  CatalogV1EventTypes,
  CatalogV3EventTypes,
  DataEventTypes,
  type DomainEvent,
  EcomEventTypes,
  EVENT_TYPES,
  type EventEnvelope,
  EventPaths,
  type EventType,
  type Identity,
  IDENTITY_TYPES,
  WebhookHeaders,
  type WebhookSubscription
} from "./protocol.ts"
export * as Subscriptions from "./Subscriptions.ts"
export * as Webhooks from "./Webhooks.ts"

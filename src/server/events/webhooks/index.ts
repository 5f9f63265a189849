/**
 * Webhook deliveries of the local platform: subscriptions, signed deliveries with retries, dead
 * letters and redelivery ({@link WebhookSubscriptions}), the admin API and the dev endpoints.
 */
export {
  attempt,
  AttemptFailed,
  backoffMillis,
  DEFAULT_DELIVERY_POLICY,
  deliver,
  type DeliveryPolicy,
  deliveryPolicy,
  type Outgoing,
  Undelivered
} from "./delivery.ts"
export { webhookDevRoutes } from "./webhookDevRoutes.ts"
export { webhookRoutes } from "./webhookRoutes.ts"
export {
  MAX_DEAD_LETTERS,
  MAX_PENDING,
  MAX_WEBHOOKS,
  TooManyWebhooks,
  type WebhookRegistration,
  WebhookSubscriptions,
  WebhooksConfig,
  type WebhooksOptions
} from "./WebhookSubscriptions.ts"
export * from "../../../dev/wire/webhooks.ts"

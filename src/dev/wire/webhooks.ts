/**
 * Wire shapes of the local platform's webhook subscriptions: the admin API (`EventPaths.webhooks`, an
 * API key) and the dev endpoints under {@link WEBHOOKS_DEV_PREFIX} (scripts and tests: the same calls,
 * the public key, the dead letters and their redelivery). Tests and tools decode answers with these.
 */
import * as Schema from "effect/Schema"

export const WEBHOOKS_DEV_PREFIX = "/_sitefx/webhooks"

// The subscriptions' requests and answers are the client's wire (src/events/wire/subscriptions.ts); the
// dev endpoints' own shapes follow.
export {
  CreateWebhookRequest,
  EventTypeName,
  MAX_WEBHOOK_URL_LENGTH,
  Webhook,
  WebhookResponse,
  WebhooksResponse,
  WebhookUrl,
  webhookUrlProblem
} from "../../events/wire/subscriptions.ts"

/** An event the platform gave up delivering to a webhook. */
export const DeadLetter = Schema.Struct({
  id: Schema.String,
  webhookId: Schema.String,
  url: Schema.String,
  /** The event's id in the site's event log. */
  eventId: Schema.Number,
  eventType: Schema.String,
  /** Attempts made, redeliveries included (0: it was never tried, as the webhook's queue was full). */
  attempts: Schema.Number,
  /** What the last attempt met: a status, a network error, a timeout. */
  lastError: Schema.String,
  /** The HTTP status of the last attempt, when the receiver answered. */
  lastStatus: Schema.optionalKey(Schema.Number),
  /** When it last failed (ISO time). */
  failedDate: Schema.String,
  /** A redelivery is under way: the dead letter goes away when it succeeds, and is updated when it fails. */
  redelivering: Schema.Boolean
})
export type DeadLetter = typeof DeadLetter.Type

export const DeadLettersResponse = Schema.Struct({ deadLetters: Schema.Array(DeadLetter) })
export const DeadLetterResponse = Schema.Struct({ deadLetter: DeadLetter })
export const RedeliverAllResponse = Schema.Struct({ redelivering: Schema.Number })
export const PublicKeyResponse = Schema.Struct({ publicKey: Schema.String })
export const DiscardedResponse = Schema.Struct({ discarded: Schema.Number })

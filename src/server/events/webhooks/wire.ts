/**
 * Wire shapes of the local platform's webhook subscriptions: the admin API (`EventPaths.webhooks`, an
 * API key) and the dev endpoints under {@link WEBHOOKS_DEV_PREFIX} (scripts and tests: the same calls,
 * the public key, the dead letters and their redelivery). Tests and tools decode answers with these.
 */
import * as Schema from "effect/Schema"
import { EVENT_TYPES } from "../../../events/protocol.ts"

export const WEBHOOKS_DEV_PREFIX = "/_sitefx/webhooks"

/** The longest webhook URL the platform takes. */
export const MAX_WEBHOOK_URL_LENGTH = 2048

/** Why `url` cannot be a webhook's address, or undefined when it can. */
export const webhookUrlProblem = (url: string): string | undefined => {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return `A webhook URL is at most ${MAX_WEBHOOK_URL_LENGTH} characters`
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "A webhook URL is an absolute http or https URL"
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "A webhook URL is an absolute http or https URL"
  // the URL is listed by the webhooks API and the dev endpoints: a password in it would be shown there
  if (parsed.username !== "" || parsed.password !== "") return "A webhook URL carries no user name or password"
  return undefined
}

export const WebhookUrl = Schema.String.check(Schema.makeFilter((url: string) => webhookUrlProblem(url)))

export const EventTypeName = Schema.Literals(EVENT_TYPES)

/** `POST` a subscription: where to, and which event types (every type when left out). */
export const CreateWebhookRequest = Schema.Struct({
  url: WebhookUrl,
  eventTypes: Schema.optionalKey(
    Schema.Array(EventTypeName).check(
      Schema.makeFilter((types: ReadonlyArray<string>) =>
        types.length === 0 ? "Name at least one event type, or leave eventTypes out for every type" : undefined
      ),
      Schema.isMaxLength(EVENT_TYPES.length * 2)
    )
  )
})
export type CreateWebhookRequest = typeof CreateWebhookRequest.Type

export const Webhook = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  /** The event types it receives (all of them when none were named). */
  eventTypes: Schema.Array(Schema.String),
  createdDate: Schema.String
})
export type Webhook = typeof Webhook.Type

export const WebhookResponse = Schema.Struct({ webhook: Webhook })
export const WebhooksResponse = Schema.Struct({ webhooks: Schema.Array(Webhook) })

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

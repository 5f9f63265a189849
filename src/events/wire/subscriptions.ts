/**
 * The webhook subscriptions' requests and answers (`EventPaths.webhooks`, with an API key): what the
 * local platform decodes and answers, and what the client's guard of a subscription is held to.
 */
import * as Schema from "effect/Schema"
import { EVENT_TYPES } from "../protocol.ts"

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

/** A webhook's address: an absolute http or https URL without credentials. */
export const WebhookUrl = Schema.String.check(Schema.makeFilter((url: string) => webhookUrlProblem(url)))

/** The name of an event type a subscription may name. */
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

/** A webhook subscription as the platform answers it. */
export const Webhook = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  /** The event types it receives (all of them when none were named). */
  eventTypes: Schema.Array(Schema.String),
  createdDate: Schema.String
})
export type Webhook = typeof Webhook.Type

/** The answer of creating or reading one subscription. */
export const WebhookResponse = Schema.Struct({ webhook: Webhook })
/** The answer of listing the subscriptions. */
export const WebhooksResponse = Schema.Struct({ webhooks: Schema.Array(Webhook) })


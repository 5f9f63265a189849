/**
 * The site's webhook subscriptions on the local platform, without an API key, and what became of their
 * deliveries: the dead letters (events the platform gave up delivering), redelivered or discarded.
 *
 * @example
 * import { Webhooks } from "sitefx/dev"
 * const letters = yield* Webhooks.deadLetters()
 * yield* Webhooks.redeliverAll() // the receiver is back up
 */
import * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { DEV_PREFIX, devCall, devSend, segment } from "./call.ts"
import {
  DeadLetterResponse,
  DeadLettersResponse,
  DiscardedResponse,
  PublicKeyResponse,
  RedeliverAllResponse,
  WebhookResponse,
  WebhooksResponse
} from "./guards/webhooks.ts"
import type { DeadLetter, Webhook } from "./wire/webhooks.ts"

export type { DeadLetter, Webhook }

const WEBHOOKS_DEV_PREFIX = `${DEV_PREFIX}/webhooks`
const LETTERS = `${WEBHOOKS_DEV_PREFIX}/dead-letters`

/** The path with `?webhookId=` when one is named. */
const ofWebhook = (path: string, webhookId: string | undefined) =>
  webhookId === undefined ? path : `${path}?${new URLSearchParams({ webhookId }).toString()}`

/** Which webhook's dead letters a call is about (every webhook's when left out). */
export interface WebhookFilter {
  readonly webhookId?: string | undefined
}

/** Every subscription of the site. */
export const list: Effect.Effect<ReadonlyArray<Webhook>, PlatformError, PlatformHttp> = Effect.map(
  devCall({ method: "GET", path: WEBHOOKS_DEV_PREFIX }, WebhooksResponse),
  (r) => r.webhooks
)

/** Subscribes a URL (http or https) to the event types named, or to every type when none are; a bad URL or type is a 400. */
export const create = (input: { readonly url: string; readonly eventTypes?: ReadonlyArray<string> | undefined }): Effect.Effect<Webhook, PlatformError, PlatformHttp> =>
  Effect.map(
    devCall({
      method: "POST",
      path: WEBHOOKS_DEV_PREFIX,
      payload: { url: input.url, ...(input.eventTypes === undefined || input.eventTypes.length === 0 ? {} : { eventTypes: [...input.eventTypes] }) }
    }, WebhookResponse),
    (r) => r.webhook
  )

/** Ends a subscription (404 `WEBHOOK_NOT_FOUND` for an unknown id). */
export const remove = (id: string): Effect.Effect<void, PlatformError, PlatformHttp> =>
  devSend({ method: "DELETE", path: `${WEBHOOKS_DEV_PREFIX}/${segment(id)}` })

/** The public key (SPKI PEM) receivers verify the webhooks' signatures with. */
export const publicKey: Effect.Effect<string, PlatformError, PlatformHttp> = Effect.map(
  devCall({ method: "GET", path: `${WEBHOOKS_DEV_PREFIX}/public-key` }, PublicKeyResponse),
  (r) => r.publicKey
)

/** The events the platform gave up delivering, newest first: every webhook's, or one's. */
export const deadLetters = (filter: WebhookFilter = {}): Effect.Effect<ReadonlyArray<DeadLetter>, PlatformError, PlatformHttp> =>
  Effect.map(devCall({ method: "GET", path: ofWebhook(LETTERS, filter.webhookId) }, DeadLettersResponse), (r) => r.deadLetters)

/** Delivers a dead letter again (queued: it goes away when delivered, and is updated when it fails again). */
export const redeliver = (id: string): Effect.Effect<DeadLetter, PlatformError, PlatformHttp> =>
  Effect.map(devCall({ method: "POST", path: `${LETTERS}/${segment(id)}/redeliver` }, DeadLetterResponse), (r) => r.deadLetter)

/** Delivers every dead letter (of one webhook, when named) again; how many are on their way. */
export const redeliverAll = (filter: WebhookFilter = {}): Effect.Effect<number, PlatformError, PlatformHttp> =>
  Effect.map(devCall({ method: "POST", path: ofWebhook(`${LETTERS}/redeliver`, filter.webhookId) }, RedeliverAllResponse), (r) => r.redelivering)

/** Discards one dead letter (404 `DEAD_LETTER_NOT_FOUND` for an unknown id). */
export const discard = (id: string): Effect.Effect<void, PlatformError, PlatformHttp> =>
  Effect.asVoid(devCall({ method: "DELETE", path: `${LETTERS}/${segment(id)}` }, DiscardedResponse))

/** Discards every dead letter (of one webhook, when named); how many went. */
export const discardAll = (filter: WebhookFilter = {}): Effect.Effect<number, PlatformError, PlatformHttp> =>
  Effect.map(devCall({ method: "DELETE", path: ofWebhook(LETTERS, filter.webhookId) }, DiscardedResponse), (r) => r.discarded)

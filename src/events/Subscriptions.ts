/**
 * The site's webhook subscriptions, managed with an API key: which URLs receive which event types.
 * The local platform's webhooks API (`EventPaths.webhooks`); each subscription is delivered signed
 * bodies that `Webhooks.handler` verifies.
 *
 * @example
 * import { Subscriptions } from "sitefx/events"
 * const hook = yield* Subscriptions.create({ url: "https://example.com/hooks", eventTypes: ["wix.data.v2.data_item_created"] })
 * yield* Subscriptions.remove(hook.id)
 */
import * as Effect from "effect/Effect"
import { PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { WebhookResponse, WebhooksResponse } from "./guards/subscriptions.ts"
import { EventPaths, type WebhookSubscription } from "./protocol.ts"

/** Every subscription of the site. */
export const list: Effect.Effect<ReadonlyArray<WebhookSubscription>, PlatformError, PlatformClient> = Effect.gen(function*() {
  const client = yield* PlatformClient
  return (yield* client.json({ method: "GET", path: EventPaths.webhooks, idempotent: true }, WebhooksResponse)).webhooks
})

/**
 * Subscribes a URL (http or https) to the given event types, or to every type when none are named.
 * The platform refuses a bad URL, an unknown type, or more subscriptions than a site may have (400).
 *
 * @example
 * import { DataEventTypes, Subscriptions } from "sitefx/events"
 * const hook = yield* Subscriptions.create({ url: "https://example.com/hooks/data", eventTypes: [DataEventTypes.itemCreated] })
 * const all = yield* Subscriptions.list
 * console.log(hook.id, all.map((s) => s.url))
 */
export const create = (input: { readonly url: string; readonly eventTypes?: ReadonlyArray<string> }): Effect.Effect<WebhookSubscription, PlatformError, PlatformClient> =>
  Effect.gen(function*() {
    const client = yield* PlatformClient
    const payload = { url: input.url, ...(input.eventTypes === undefined || input.eventTypes.length === 0 ? {} : { eventTypes: [...input.eventTypes] }) }
    return (yield* client.json({ method: "POST", path: EventPaths.webhooks, payload }, WebhookResponse)).webhook
  })

/** Ends a subscription; an unknown id fails with the platform's 404 (`WEBHOOK_NOT_FOUND`). */
export const remove = (id: string): Effect.Effect<void, PlatformError, PlatformClient> =>
  Effect.gen(function*() {
    const client = yield* PlatformClient
    yield* client.request({ method: "DELETE", path: `${EventPaths.webhooks}/${encodeURIComponent(id)}`, idempotent: true })
  })

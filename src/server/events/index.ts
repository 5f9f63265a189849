/**
 * The local platform's events: the site's event log (every data and catalog event in the platform's
 * envelope, with ids), the key pair webhook bodies are signed with, the live stream, and webhook
 * deliveries. {@link eventsLayer} adds the services on top of the data engine and the store;
 * {@link eventsRoutes} plugs into the app.
 */
import * as Layer from "effect/Layer"
import { SiteEvents } from "./SiteEvents.ts"
import { SiteKeys } from "./SiteKeys.ts"
import { streamRoutes } from "./streamRoutes.ts"
import { webhookRoutes, Webhooks } from "./webhooks/index.ts"

export { identityOf, KEPT_EVENTS, type SiteEvent, SiteEvents } from "./SiteEvents.ts"
export { SiteKeys, WEBHOOK_TTL_SECONDS } from "./SiteKeys.ts"
export { webhookDevRoutes, Webhooks, WebhooksConfig, type WebhooksOptions } from "./webhooks/index.ts"

export type EventsServices = SiteEvents | SiteKeys | Webhooks

/** Webhooks read their start-up subscriptions and delivery policy from `WebhooksConfig` (the defaults when none is provided). */
export const eventsLayer = Webhooks.layer.pipe(Layer.provideMerge(Layer.mergeAll(SiteEvents.layer, SiteKeys.layer)))

export const eventsRoutes = Layer.mergeAll(streamRoutes, webhookRoutes)

/**
 * The local platform's events: the key pair webhook bodies are signed with, the live stream, and webhook
 * deliveries, all reading the site's event log (every data and catalog event, with ids, read as the
 * platform's envelopes). The log lives in store/, under the data engine and the catalog, which log their
 * events in their own transactions; {@link eventsLayer} adds the keys and the webhooks on top of them,
 * and {@link eventsRoutes} plugs into the app.
 */
import * as Layer from "effect/Layer"
import type { SiteEvents } from "../store/SiteEvents.ts"
import { SiteKeys } from "./SiteKeys.ts"
import { streamRoutes } from "./streamRoutes.ts"
import { webhookRoutes, WebhookSubscriptions } from "./webhooks/index.ts"

export { identityOf } from "../store/envelopes.ts"
export { KEPT_EVENTS, type LoggedBatch, type SiteEvent, SiteEvents } from "../store/SiteEvents.ts"
export { SiteKeys, WEBHOOK_TTL_SECONDS } from "./SiteKeys.ts"
export { webhookDevRoutes, WebhookSubscriptions, WebhooksConfig, type WebhooksOptions } from "./webhooks/index.ts"

export type EventsServices = SiteEvents | SiteKeys | WebhookSubscriptions

/** WebhookSubscriptions reads its start-up subscriptions and delivery policy from `WebhooksConfig` (the defaults when none is provided). */
export const eventsLayer = WebhookSubscriptions.layer.pipe(Layer.provideMerge(SiteKeys.layer))

export const eventsRoutes = Layer.mergeAll(streamRoutes, webhookRoutes)

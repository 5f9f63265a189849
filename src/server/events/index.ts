/**
 * The local platform's events: the key pair webhook bodies are signed with, the live stream, and webhook
 * deliveries with their dev endpoints, all reading the site's event log (every data and catalog event,
 * with ids, read as the platform's envelopes). The log lives in store/, under the data engine and the
 * catalog, which log their events in their own transactions; this module adds the keys and the webhooks.
 */
import * as Layer from "effect/Layer"
import type { PlatformModule } from "../platform/PlatformModule.ts"
import { SiteKeys } from "./SiteKeys.ts"
import { streamRoutes } from "./streamRoutes.ts"
import { webhookDevRoutes, webhookRoutes, WebhookSubscriptions, WebhooksConfig, type WebhooksOptions } from "./webhooks/index.ts"

/** The platform options the events module reads. */
export interface EventsModuleOptions {
  /** Webhook subscriptions made at start, and the delivery policy. */
  readonly webhooks?: WebhooksOptions | undefined
}

export const module = {
  name: "events",
  layer: (options: EventsModuleOptions) =>
    WebhookSubscriptions.layer.pipe(Layer.provideMerge(SiteKeys.layer), Layer.provide(Layer.succeed(WebhooksConfig)(options.webhooks ?? {}))),
  routes: Layer.mergeAll(streamRoutes, webhookRoutes),
  devRoutes: webhookDevRoutes
} satisfies PlatformModule

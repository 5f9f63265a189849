/**
 * Guards of the webhooks API's answers; each guard's type is the platform's Schema's in
 * `src/events/wire/subscriptions.ts` (test/events/guards.test.ts).
 */
import * as G from "../../http/guard.ts"
import type { WebhookSubscription } from "../protocol.ts"

/** A subscription as the platform answers it. */
export const Webhook: G.Guard<WebhookSubscription> = G.struct({ id: G.string, url: G.string, eventTypes: G.array(G.string), createdDate: G.string })
export const WebhookResponse = G.struct({ webhook: Webhook })
export const WebhooksResponse = G.struct({ webhooks: G.array(Webhook) })

/**
 * Guards of the webhooks' dev answers (`/_sitefx/webhooks`): the subscriptions are the events client's
 * (../../events/guards/subscriptions.ts), the dead letters and counts are the dev endpoints' own.
 * test/dev/guards.test.ts holds each guard's type to its Schema's in ../wire/webhooks.ts.
 */
import * as G from "../../http/guard.ts"

export { WebhookResponse, WebhooksResponse } from "../../events/guards/subscriptions.ts"

export const DeadLetter = G.struct({
  id: G.string,
  webhookId: G.string,
  url: G.string,
  eventId: G.number,
  eventType: G.string,
  attempts: G.number,
  lastError: G.string,
  lastStatus: G.optional(G.number),
  failedDate: G.string,
  redelivering: G.boolean
})
export const DeadLettersResponse = G.struct({ deadLetters: G.array(DeadLetter) })
export const DeadLetterResponse = G.struct({ deadLetter: DeadLetter })
export const RedeliverAllResponse = G.struct({ redelivering: G.number })
export const PublicKeyResponse = G.struct({ publicKey: G.string })
export const DiscardedResponse = G.struct({ discarded: G.number })

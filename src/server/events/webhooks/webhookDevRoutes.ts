/**
 * The webhook dev endpoints (dev mode only) under `/_sitefx/webhooks`: the admin API's calls for scripts
 * without a key, plus the public key receivers verify with, the dead letters, and their redelivery:
 *
 * - `GET /_sitefx/webhooks/public-key` → `{publicKey}` (SPKI PEM)
 * - `GET /_sitefx/webhooks/dead-letters[?webhookId=]` → `{deadLetters}`, newest first
 * - `POST /_sitefx/webhooks/dead-letters/{id}/redeliver` → `{deadLetter}` (the redelivery is queued)
 * - `POST /_sitefx/webhooks/dead-letters/redeliver[?webhookId=]` → `{redelivering: n}`
 * - `DELETE /_sitefx/webhooks/dead-letters[/{id}][?webhookId=]` → `{discarded: n}`
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { notFound, reply } from "../../platform/responses.ts"
import { pathParam, query, route } from "../../platform/routing.ts"
import { SiteKeys } from "../SiteKeys.ts"
import { subscriptionHandlers } from "./webhookRoutes.ts"
import { WebhookSubscriptions } from "./WebhookSubscriptions.ts"
import {
  DeadLetterResponse,
  DeadLettersResponse,
  DiscardedResponse,
  PublicKeyResponse,
  RedeliverAllResponse,
  WEBHOOKS_DEV_PREFIX
} from "../../../dev/wire/webhooks.ts"

export const webhookDevRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const webhooks = yield* WebhookSubscriptions
  const keys = yield* SiteKeys
  const handlers = subscriptionHandlers(webhooks)
  const letters = `${WEBHOOKS_DEV_PREFIX}/dead-letters`
  return [
    route("POST", WEBHOOKS_DEV_PREFIX, handlers.create),
    route("GET", WEBHOOKS_DEV_PREFIX, handlers.list),
    route("GET", `${WEBHOOKS_DEV_PREFIX}/public-key`, Effect.sync(() => reply(PublicKeyResponse, { publicKey: keys.publicKeyPem() }))),
    route("DELETE", `${WEBHOOKS_DEV_PREFIX}/:id`, handlers.remove),
    route(
      "GET",
      letters,
      Effect.gen(function*() {
        const deadLetters = yield* webhooks.deadLetters(yield* webhookIdParam)
        return reply(DeadLettersResponse, { deadLetters })
      })
    ),
    route(
      "POST",
      `${letters}/redeliver`,
      Effect.gen(function*() {
        const redelivering = yield* webhooks.redeliverAll(yield* webhookIdParam)
        return reply(RedeliverAllResponse, { redelivering })
      })
    ),
    route(
      "POST",
      `${letters}/:id/redeliver`,
      Effect.gen(function*() {
        const id = yield* pathParam("id")
        const deadLetter = yield* webhooks.redeliver(id)
        if (deadLetter === undefined) return yield* deadLetterNotFound(id)
        return reply(DeadLetterResponse, { deadLetter })
      })
    ),
    route(
      "DELETE",
      letters,
      Effect.gen(function*() {
        const discarded = yield* webhooks.discard({ webhookId: yield* webhookIdParam })
        return reply(DiscardedResponse, { discarded })
      })
    ),
    route(
      "DELETE",
      `${letters}/:id`,
      Effect.gen(function*() {
        const id = yield* pathParam("id")
        const discarded = yield* webhooks.discard({ id })
        if (discarded === 0) return yield* deadLetterNotFound(id)
        return reply(DiscardedResponse, { discarded })
      })
    )
  ]
}))

const deadLetterNotFound = (id: string) => notFound(`No dead letter has the id ${JSON.stringify(id.slice(0, 100))}`, "DEAD_LETTER_NOT_FOUND")

/** `?webhookId=` when given. */
const webhookIdParam = Effect.map(query, (params) => params.get("webhookId") ?? undefined)

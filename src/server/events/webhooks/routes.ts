/**
 * Webhook subscriptions over HTTP. The admin API at `EventPaths.webhooks` (an API key; visitors and
 * members are refused): POST `{url, eventTypes?}` → `{webhook}`, GET → `{webhooks}`, DELETE `/{id}`.
 * The dev endpoints (dev mode only) under `/_sitefx/webhooks` offer the same calls to scripts without a
 * key, plus the public key receivers verify with, the dead letters, and their redelivery:
 *
 * - `GET /_sitefx/webhooks/public-key` → `{publicKey}` (SPKI PEM)
 * - `GET /_sitefx/webhooks/dead-letters[?webhookId=]` → `{deadLetters}`, newest first
 * - `POST /_sitefx/webhooks/dead-letters/{id}/redeliver` → `{deadLetter}` (the redelivery is queued)
 * - `POST /_sitefx/webhooks/dead-letters/redeliver[?webhookId=]` → `{redelivering: n}`
 * - `DELETE /_sitefx/webhooks/dead-letters[/{id}][?webhookId=]` → `{discarded: n}`
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { EventPaths } from "../../../events/protocol.ts"
import { Callers } from "../../accounts/Callers.ts"
import { badRequest, notFound, type Reject, reply, replyEmpty } from "../../platform/responses.ts"
import { body, type Handler, pathParam, query, route } from "../../platform/routing.ts"
import { SiteKeys } from "../SiteKeys.ts"
import { WebhookSubscriptions } from "./WebhookSubscriptions.ts"
import {
  CreateWebhookRequest,
  DeadLetterResponse,
  DeadLettersResponse,
  DiscardedResponse,
  PublicKeyResponse,
  RedeliverAllResponse,
  WEBHOOKS_DEV_PREFIX,
  WebhookResponse,
  WebhooksResponse
} from "../../../dev/wire/webhooks.ts"

/** The calls the admin API and the dev endpoints share. */
const subscriptionHandlers = (webhooks: WebhookSubscriptions["Service"]) => ({
  create: Effect.gen(function*() {
    const request = yield* body(CreateWebhookRequest)
    const webhook = yield* webhooks.create(request).pipe(
      Effect.catchTag("TooManyWebhooks", (e): Effect.Effect<never, Reject> =>
        Effect.fail(badRequest("TOO_MANY_WEBHOOKS", `A site has at most ${e.max} webhooks; delete one first`, { max: e.max })))
    )
    return reply(WebhookResponse, { webhook })
  }),
  list: Effect.map(webhooks.list, (list) => reply(WebhooksResponse, { webhooks: list })),
  remove: Effect.gen(function*() {
    const id = yield* pathParam("id")
    if (!(yield* webhooks.remove(id))) return yield* notFound(`No webhook has the id ${JSON.stringify(id.slice(0, 100))}`, "WEBHOOK_NOT_FOUND")
    return replyEmpty()
  })
})

export const webhookRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const handlers = subscriptionHandlers(yield* WebhookSubscriptions)
  const admin = (handler: Handler): Handler => Effect.andThen(callers.admin, handler)
  return [
    route("POST", EventPaths.webhooks, admin(handlers.create)),
    route("GET", EventPaths.webhooks, admin(handlers.list)),
    route("DELETE", `${EventPaths.webhooks}/:id`, admin(handlers.remove))
  ]
}))

const deadLetterNotFound = (id: string) => notFound(`No dead letter has the id ${JSON.stringify(id.slice(0, 100))}`, "DEAD_LETTER_NOT_FOUND")

/** `?webhookId=` when given. */
const webhookIdParam = Effect.map(query, (params) => params.get("webhookId") ?? undefined)

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

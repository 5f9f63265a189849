/**
 * Webhook subscriptions over HTTP: the admin API at `EventPaths.webhooks` (an API key; visitors and
 * members are refused): POST `{url, eventTypes?}` → `{webhook}`, GET → `{webhooks}`, DELETE `/{id}`. The
 * dev endpoints (webhookDevRoutes.ts) offer the same calls to scripts without a key.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { EventPaths } from "../../../events/protocol.ts"
import { Callers } from "../../accounts/Callers.ts"
import { badRequest, notFound, type Reject, reply, replyEmpty } from "../../platform/responses.ts"
import { body, type Handler, pathParam, route } from "../../platform/routing.ts"
import { WebhookSubscriptions } from "./WebhookSubscriptions.ts"
import { CreateWebhookRequest, WebhookResponse, WebhooksResponse } from "../../../dev/wire/webhooks.ts"

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

/** The calls the admin API and the dev endpoints share. */
export const subscriptionHandlers = (webhooks: WebhookSubscriptions["Service"]) => ({
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

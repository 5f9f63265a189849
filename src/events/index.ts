/**
 * sitefx/events: a site's events. `Webhooks` verifies the platform's signed webhook bodies and hands
 * each event to a typed handler (with a `Request → Response` adapter for fetch runtimes and an Effect
 * HttpRouter route); `live` is a Stream of the site's events as they happen; `Subscriptions` manages
 * which URLs receive webhooks (an API key); the event types, the envelope and the typed events are shared.
 *
 * @example
 * import * as Events from "sitefx/events"
 * const hook = Events.Webhooks.handler({ publicKey, handlers: { "wix.data.v2.data_item_created": (e) => Effect.log(e.entityId) } })
 * export default { fetch: Events.Webhooks.toFetchHandler(hook) }
 */
export * from "./Event.ts"
export { type Claims, JwtError, type JwtFailure, type VerifyOptions } from "./jwt.ts"
export { live, LiveError, type LiveEvent, type LiveOptions } from "./Live.ts"
export * from "./protocol.ts"
export * as Subscriptions from "./Subscriptions.ts"
export * as Webhooks from "./Webhooks.ts"

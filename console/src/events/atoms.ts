/**
 * The events panel's atoms: the webhook subscriptions and their dead letters (dev endpoints), what is
 * done to them, and the site's events live. The event stream wants the site's API key: it runs on the
 * console's admin runtime (../admin.ts).
 */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import * as Stream from "effect/Stream"
import * as Dev from "sitefx/dev"
import { live, type LiveEvent } from "sitefx/events"
import { adminRuntime } from "../admin.ts"
import { runtime } from "../runtime.ts"
import type { Outcome } from "../shell/Result.tsx"

const KEYS = ["webhooks"]

/** Every subscription. */
export const webhooksAtom = runtime.atom(Dev.Webhooks.list).pipe(Atom.withReactivity(KEYS))

/** Every dead letter, newest first. */
export const deadLettersAtom = runtime.atom(Dev.Webhooks.deadLetters()).pipe(Atom.withReactivity(KEYS))

/** Something done to the subscriptions or their dead letters. */
export type WebhookAction =
  | { readonly kind: "create"; readonly url: string; readonly eventTypes: ReadonlyArray<string> }
  | { readonly kind: "remove"; readonly id: string; readonly url: string }
  | { readonly kind: "redeliver" | "discard"; readonly id: string; readonly eventType: string }
  | { readonly kind: "redeliver-all" | "discard-all" }

/** Runs an action; the lists are read again when it is done. */
export const webhookAction = runtime.fn((action: WebhookAction) => {
  switch (action.kind) {
    case "create":
      return Effect.map(Dev.Webhooks.create({ url: action.url, eventTypes: action.eventTypes }), (w) => ({ message: `Subscribed ${w.url}.` }))
    case "remove":
      return Effect.as(Dev.Webhooks.remove(action.id), { message: `Unsubscribed ${action.url}.` })
    case "redeliver":
      return Effect.as(Dev.Webhooks.redeliver(action.id), { message: `Redelivering the ${action.eventType} event.` })
    case "discard":
      return Effect.as(Dev.Webhooks.discard(action.id), { message: `Discarded the ${action.eventType} event.` })
    case "redeliver-all":
      return Effect.map(Dev.Webhooks.redeliverAll(), (n) => ({ message: `Redelivering ${n} dead letter${n === 1 ? "" : "s"}.` }))
    case "discard-all":
      return Effect.map(Dev.Webhooks.discardAll(), (n) => ({ message: `Discarded ${n} dead letter${n === 1 ? "" : "s"}.` }))
  }
}, { reactivityKeys: KEYS })

/** How many events the panel keeps on screen. */
export const SHOWN_EVENTS = 50

/** The site's events from now on, newest first. */
export const liveEventsAtom = adminRuntime.atom(
  live().pipe(Stream.scan((): ReadonlyArray<LiveEvent> => [], (shown, e) => [e, ...shown].slice(0, SHOWN_EVENTS)))
)

/**
 * The live events panel's atoms. The site's event stream needs an API key; the app is a page of the
 * local platform, so in development it reads the platform's key from its own dev endpoint (which answers
 * the platform's pages only). A real site's storefront would show events through a backend of its own.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { Atom } from "effect/reactivity"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { live, type LiveEvent } from "sitefx/events"
import { ApiKeyAuth, PlatformConfig } from "sitefx/http"
import { platformUrl } from "../site.ts"

/** How many events the panel keeps on screen. */
export const SHOWN_EVENTS = 200

const adminConnection = Layer.unwrap(Effect.gen(function*() {
  const site = yield* Effect.tryPromise({
    try: () => fetch(`${platformUrl}/_sitefx/site`).then((r) => (r.ok ? (r.json() as Promise<{ apiKey: string; siteId: string }>) : Promise.reject(new Error(`the dev endpoint answered ${r.status}`)))),
    catch: (e) => new Error(`The events panel needs the local platform's dev endpoints: ${e instanceof Error ? e.message : String(e)}`)
  })
  return Layer.merge(ApiKeyAuth.layer({ apiKey: Redacted.make(site.apiKey), siteId: site.siteId }), PlatformConfig.layer({ baseUrl: platformUrl }))
}))

const adminRuntime = Atom.runtime(adminConnection)

/** An event as the panel shows it, with when it came (the time of an event whose payload tells none). */
export interface ShownEvent {
  readonly live: LiveEvent
  readonly receivedAt: Date
}

/** Which event types the panel shows (empty: all). */
export const eventTypesAtom = Atom.make<ReadonlyArray<string>>([])

/**
 * The site's newest events first, as they arrive (one stream, whatever the panel shows): none at first,
 * then the list after each event. Kept through a queue rather than `Stream.scan`, whose concatenation
 * machinery would otherwise weigh on the store's first load (the modules it lives in are shared with it).
 */
export const eventsAtom = adminRuntime.atom(
  Stream.callback<ReadonlyArray<ShownEvent>, Stream.Error<ReturnType<typeof live>>, Stream.Services<ReturnType<typeof live>>>((queue) => {
    let shown: ReadonlyArray<ShownEvent> = []
    Queue.offerUnsafe(queue, shown)
    // the queue keeps the newest list only: it holds every event shown
    return live().pipe(
      Stream.runForEach((e) => Effect.sync(() => void Queue.offerUnsafe(queue, shown = [{ live: e, receivedAt: new Date() }, ...shown].slice(0, SHOWN_EVENTS)))),
      Effect.andThen(Queue.end(queue))
    )
  }, { strategy: "sliding", bufferSize: 1 })
)

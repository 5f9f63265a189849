/**
 * Changes made elsewhere, for the data browser's queries: the site's live events (`Events.live`) as
 * changes to collections. The events stream needs the site's API key, which a page must not hold on a
 * real site (there, a backend of the site's own would feed changes, from webhooks for example); the app
 * is a page of the local platform, so in development it reads the key from the platform's dev endpoint,
 * which answers the platform's own pages only.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { DataEventTypes, live } from "sitefx/events"
import { ApiKeyAuth, PlatformConfig } from "sitefx/http"
import { changesOfEvents } from "sitefx/react"
import { platformUrl } from "../site.ts"

class LiveUnavailable extends Error {}

const siteConnection = Layer.unwrap(Effect.gen(function*() {
  const site = yield* Effect.tryPromise({
    try: async () => {
      const res = await fetch(`${platformUrl}/_sitefx/site`)
      if (!res.ok) throw new Error(`the dev endpoint answered ${res.status}`)
      return (await res.json()) as { readonly apiKey: string; readonly siteId: string }
    },
    catch: (e) => new LiveUnavailable(`Live updates need the local platform's dev endpoints (${e instanceof Error ? e.message : String(e)}).`)
  })
  return Layer.merge(ApiKeyAuth.layer({ apiKey: Redacted.make(site.apiKey), siteId: site.siteId }), PlatformConfig.layer({ baseUrl: platformUrl }))
}))

/** Every data item created, updated or removed on the site, as a change to its collection. */
export const dataChanges = changesOfEvents(live({ eventTypes: Object.values(DataEventTypes) })).pipe(Stream.provide(siteConnection))

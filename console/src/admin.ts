/**
 * The console as the site's administrator: the admin calls (the live events, the store's orders and
 * abandoned carts) run with the site's API key, the way a script runs them with `Site.apiKey`. The
 * console is a page of the platform, so it reads the key from the platform's own dev endpoint
 * (`Dev.Platform.site`), where it stays Redacted. Only the panels that load lazily import this module,
 * so the first panel shown does not carry it.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Atom } from "effect/reactivity"
import * as Dev from "sitefx/dev"
import { ApiKeyAuth, PlatformClient } from "sitefx/http"
import { platformUrl } from "./runtime.ts"

/** The site's API key as the platform's auth, with the wire to the platform. */
const adminAuth = Layer.unwrap(Effect.map(Dev.Platform.site, (site) => ApiKeyAuth.layer({ apiKey: site.apiKey, siteId: site.siteId })))

/** The atom runtime of the admin calls: the platform client with the site's API key. */
export const adminRuntime = Atom.runtime(
  PlatformClient.layer.pipe(Layer.provideMerge(adminAuth), Layer.provideMerge(Dev.layer({ baseUrl: platformUrl })))
)

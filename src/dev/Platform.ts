/**
 * The local platform itself: whether it answers, the site a script connects to, starting over (reset
 * and seed), captcha tokens and its counters.
 *
 * @example
 * import { Platform } from "sitefx/dev"
 * yield* Platform.reset
 * yield* Platform.seed("demo")
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { CaptchaResponse, Health, SiteConnection, StatsResponse } from "./guards/platform.ts"
import type { SeedName, StatsResponse as StatsWire } from "./wire/platform.ts"
import { DEV_PREFIX, devCall } from "./call.ts"

/** What a script needs to reach the platform's site: its OAuth client, its id, and its admin API key. */
export interface SiteConnectionInfo {
  readonly clientId: string
  readonly siteId: string
  readonly apiKey: Redacted.Redacted<string>
}

/** Requests served, and token requests by grant type. */
export type Stats = typeof StatsWire.Type

/** Succeeds when the platform answers (with its dev endpoints on). */
export const health: Effect.Effect<void, PlatformError, PlatformHttp> = Effect.asVoid(devCall({ method: "GET", path: `${DEV_PREFIX}/health` }, Health))

/** The site's connection; the API key stays Redacted (it is the site's admin key). */
export const site: Effect.Effect<SiteConnectionInfo, PlatformError, PlatformHttp> = Effect.map(
  devCall({ method: "GET", path: `${DEV_PREFIX}/site` }, SiteConnection),
  (s) => ({ clientId: s.clientId, siteId: s.siteId, apiKey: Redacted.make(s.apiKey, { label: "api key" }) })
)

/** Empties the platform: members, data, store, events, outbox (the site itself stays; `seed` fills it again). */
export const reset: Effect.Effect<void, PlatformError, PlatformHttp> = Effect.asVoid(devCall({ method: "POST", path: `${DEV_PREFIX}/reset` }, Health))

/** Applies a seed: `demo` (a demo member, store and data collections) or `none`. */
export const seed = (name: SeedName): Effect.Effect<void, PlatformError, PlatformHttp> =>
  Effect.asVoid(devCall({ method: "POST", path: `${DEV_PREFIX}/seed`, payload: { seed: name } }, Health))

/** A captcha token the platform takes once, for a registration or login while captcha is on. */
export const captcha: Effect.Effect<string, PlatformError, PlatformHttp> = Effect.map(
  devCall({ method: "POST", path: `${DEV_PREFIX}/captcha` }, CaptchaResponse),
  (r) => r.token
)

/** The platform's counters: requests served and token requests by grant type. */
export const stats: Effect.Effect<Stats, PlatformError, PlatformHttp> = devCall({ method: "GET", path: `${DEV_PREFIX}/stats` }, StatsResponse)

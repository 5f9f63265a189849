/**
 * Everything a program needs to talk to a site, as one Layer: the platform config, the wire, the
 * `PlatformClient` every call (data, store, members) goes through, and either a visitor/member session
 * (`Site.layer`) or API-key authentication (`Site.apiKey`).
 *
 * @example
 * const SiteLive = Site.layer({ clientId: "my-client-id", baseUrl: "http://127.0.0.1:8787" })
 * const page = await Effect.runPromise(DataItems.query("Posts").limit(10).find.pipe(Effect.provide(SiteLive)))
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { ApiKeyAuth, PlatformAuth, PlatformClient } from "./http/PlatformClient.ts"
import { PlatformConfig, PlatformConfigError, type PlatformConfigOptions, readEnv } from "./http/PlatformConfig.ts"
import { PlatformHttp } from "./http/PlatformHttp.ts"
import { fetchTransport } from "./http/transport.ts"
import { makeRateLimiter, pacedTransport, paceOf, type RateLimit, type RateLimiter } from "./http/RateLimit.ts"
import { ownSite, type SessionServices, siteSession, type SiteOptions, wire, type WireOptions } from "./session/SiteSession.ts"

export { type SiteOptions, type WireOptions }

/** What `Site.layer` provides: the session, its token store, and the platform client, wire and config. */
export type SiteServices = SessionServices

export const Site = {
  /** A visitor/member session. Options win over `SITEFX_*` environment variables. */
  layer: (options: SiteOptions = {}): Layer.Layer<SiteServices> => siteSession(options),

  /** API-key authentication for scripts and batch jobs (`SITEFX_API_KEY`, `SITEFX_SITE_ID` when omitted). */
  apiKey: (
    options: PlatformConfigOptions & WireOptions & {
      readonly apiKey?: string | Redacted.Redacted<string> | undefined
      readonly siteId?: string | undefined
      readonly accountId?: string | undefined
      /**
       * How the key's calls are paced (one limiter for every call of this layer): by default the platform's
       * documented 200 calls a minute on its own hosts, and elsewhere the limit its answers announce (the
       * local platform's production profile does). `"none"`, `{ perMinute }`, `{ requests, per }`, or a
       * limiter of `makeRateLimiter` (to read its pace, or share it). The `sitefx` command reads `--rate-limit` or `SITEFX_RATE_LIMIT`.
       */
      readonly rateLimit?: RateLimit | RateLimiter | undefined
    } = {}
  ): Layer.Layer<PlatformClient | PlatformAuth | PlatformHttp | PlatformConfig> => {
    const auth = Layer.unwrap(Effect.gen(function*() {
      const given = options.apiKey ?? (yield* readEnv("SITEFX_API_KEY"))
      if (given === undefined) {
        return yield* new PlatformConfigError({ message: "an API key is needed: Site.apiKey({ apiKey }) or SITEFX_API_KEY" })
      }
      const apiKey = Redacted.isRedacted(given) ? given : Redacted.make(given, { label: "api key" })
      const siteId = options.siteId ?? (yield* readEnv("SITEFX_SITE_ID"))
      return ApiKeyAuth.layer({ apiKey, siteId, accountId: options.accountId })
    })).pipe(Layer.orDie)
    // one limiter for every call of the layer, on the config the wire is built with
    const config = Layer.effect(PlatformConfig, Effect.gen(function*() {
      const config = yield* PlatformConfig
      const limit = options.rateLimit
      if (limit !== undefined && typeof limit === "object" && "pace" in limit) return { ...config, pacer: limit }
      const pace = limit === undefined ? undefined : paceOf(limit)
      if (typeof pace === "string") return yield* new PlatformConfigError({ message: `rateLimit: ${pace}` })
      return { ...config, pacer: makeRateLimiter(limit === undefined ? undefined : pace ?? "none") }
    })).pipe(Layer.provide(PlatformConfig.layerConfig(options)), Layer.orDie)
    const base = wire(config, { transport: options.transport ?? pacedTransport(fetchTransport) })
    return ownSite(PlatformClient.layer.pipe(Layer.provideMerge(Layer.merge(auth, base))))
  }
}


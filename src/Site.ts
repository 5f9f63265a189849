/**
 * Everything a program needs to talk to a site, as one Layer: the platform config, the wire, and
 * either a visitor/member session (`Site.layer`) or API-key authentication (`Site.apiKey`).
 *
 * @example
 * const SiteLive = Site.layer({ clientId: "my-client-id", baseUrl: "http://127.0.0.1:8787" })
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as HttpClient from "effect/http/HttpClient"
import { ApiKeyAuth, PlatformAuth, PlatformClient } from "./http/PlatformClient.ts"
import { PlatformConfig, type PlatformConfigOptions } from "./http/PlatformConfig.ts"
import { PlatformHttp } from "./http/PlatformHttp.ts"
import { DataItems } from "./data/DataItems.ts"
import { AuthorizeAgent } from "./session/AuthorizeAgent.ts"
import { Session } from "./session/Session.ts"
import { TokenStore } from "./session/TokenStore.ts"

export interface WireOptions {
  /**
   * The HTTP client requests go through; `fetch` by default (browsers and Node alike). On Node,
   * `NodeHttpClient.layerNodeHttpOptions({ keepAlive: true })` from `@effect/platform-node` costs batch
   * jobs about a quarter less CPU per request (measured on bulk imports); without keep-alive, Node's
   * agent opens a connection per request.
   */
  readonly httpClient?: Layer.Layer<HttpClient.HttpClient> | undefined
}

export interface SiteOptions extends PlatformConfigOptions, WireOptions {
  /** Where tokens live: in memory (default), in localStorage, or any TokenStore layer (e.g. a file). */
  readonly tokens?: "memory" | "localStorage" | Layer.Layer<TokenStore> | undefined
  /** How a direct login reaches the authorize page; by default an iframe in browsers, HTTP elsewhere. */
  readonly authorizeAgent?: Layer.Layer<AuthorizeAgent> | undefined
}

export type SiteServices = DataItems | Session | TokenStore | PlatformAuth | PlatformClient | PlatformHttp | PlatformConfig

const tokenStore = (tokens: SiteOptions["tokens"]): Layer.Layer<TokenStore> =>
  tokens === undefined || tokens === "memory"
    ? TokenStore.memory()
    : tokens === "localStorage"
    ? TokenStore.localStorage()
    : tokens

const wire = (config: Layer.Layer<PlatformConfig>, options: WireOptions) =>
  (options.httpClient === undefined ? PlatformHttp.layerFetch : PlatformHttp.layer.pipe(Layer.provide(options.httpClient))).pipe(Layer.provideMerge(config))

const withSession = (config: Layer.Layer<PlatformConfig>, options: SiteOptions): Layer.Layer<SiteServices> => {
  const base = wire(config, options)
  const session = Session.layer({ clientId: options.clientId }).pipe(
    Layer.provide(options.authorizeAgent ?? AuthorizeAgent.auto),
    Layer.provideMerge(Layer.merge(base, tokenStore(options.tokens)))
  )
  return DataItems.layer.pipe(Layer.provideMerge(PlatformClient.layer.pipe(Layer.provideMerge(session))))
}

export const Site = {
  /** A visitor/member session. Options win over `SITEFX_*` environment variables. */
  layer: (options: SiteOptions = {}): Layer.Layer<SiteServices> =>
    withSession(PlatformConfig.layerConfig(options).pipe(Layer.orDie), options),

  /** API-key authentication for scripts and batch jobs (`SITEFX_API_KEY`, `SITEFX_SITE_ID` when omitted). */
  apiKey: (
    options: PlatformConfigOptions & WireOptions & {
      readonly apiKey?: string | Redacted.Redacted<string> | undefined
      readonly siteId?: string | undefined
      readonly accountId?: string | undefined
    } = {}
  ): Layer.Layer<DataItems | PlatformClient | PlatformAuth | PlatformHttp | PlatformConfig> => {
    const auth = Layer.unwrap(Effect.gen(function*() {
      const apiKey = options.apiKey === undefined
        ? yield* Config.Redacted("SITEFX_API_KEY")
        : Redacted.isRedacted(options.apiKey)
        ? options.apiKey
        : Redacted.make(options.apiKey, { label: "api key" })
      const siteId = options.siteId ?? Option.getOrUndefined(yield* Config.option(Config.String("SITEFX_SITE_ID")))
      return ApiKeyAuth.layer({ apiKey, siteId, accountId: options.accountId })
    })).pipe(Layer.orDie)
    const base = wire(PlatformConfig.layerConfig(options).pipe(Layer.orDie), options)
    return DataItems.layer.pipe(Layer.provideMerge(PlatformClient.layer.pipe(Layer.provideMerge(Layer.merge(auth, base)))))
  }
}

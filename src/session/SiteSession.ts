/**
 * A visitor/member session and the wire under it, without the data client: what a page that only signs
 * members in needs, and what `Site.layer` builds on. Bundlers leave the data client out of an app that
 * uses only this (about a quarter of the browser bundle, `npm run size`).
 *
 * @example
 * const SessionLive = siteSession({ clientId: "my-client-id", tokens: "localStorage" })
 */
import * as Layer from "effect/Layer"
import { PlatformAuth, PlatformClient } from "../http/PlatformClient.ts"
import { PlatformConfig, type PlatformConfigOptions } from "../http/PlatformConfig.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"
import { AuthorizeAgent } from "./AuthorizeAgent.ts"
import { Session } from "./Session.ts"
import { TokenStore } from "./TokenStore.ts"

export interface WireOptions {
  /**
   * How requests travel; `fetch` by default (browsers and Node alike). On Node,
   * `viaHttpClient(NodeHttpClient.layerNodeHttpOptions({ keepAlive: true }))` (`viaHttpClient` from
   * `sitefx/http`, the client from `@effect/platform-node`) costs batch jobs about a quarter less CPU per
   * request (measured on bulk imports).
   */
  readonly transport?: Layer.Layer<PlatformHttp, never, PlatformConfig> | undefined
}

export interface SiteOptions extends PlatformConfigOptions, WireOptions {
  /** Where tokens live: in memory (default), in localStorage, or any TokenStore layer (e.g. a file). */
  readonly tokens?: "memory" | "localStorage" | Layer.Layer<TokenStore> | undefined
  /** How a direct login reaches the authorize page; by default an iframe in browsers, HTTP elsewhere. */
  readonly authorizeAgent?: Layer.Layer<AuthorizeAgent> | undefined
}

export type SessionServices = Session | TokenStore | PlatformAuth | PlatformClient | PlatformHttp | PlatformConfig

const tokenStore = (tokens: SiteOptions["tokens"]): Layer.Layer<TokenStore> =>
  tokens === undefined || tokens === "memory"
    ? TokenStore.memory()
    : tokens === "localStorage"
    ? TokenStore.localStorage()
    : tokens

/** The platform's HTTP transport over `config`, through `fetch` unless the options give a client. */
export const wire = (config: Layer.Layer<PlatformConfig>, options: WireOptions) =>
  (options.transport ?? PlatformHttp.layerFetch).pipe(Layer.provideMerge(config))

/** A visitor/member session for a site, without the data client. Options win over `SITEFX_*` environment variables. */
export const siteSession = (options: SiteOptions = {}): Layer.Layer<SessionServices> => {
  const base = wire(PlatformConfig.layerConfig(options).pipe(Layer.orDie), options)
  const session = Session.layer({ clientId: options.clientId }).pipe(
    Layer.provide(options.authorizeAgent ?? AuthorizeAgent.auto),
    Layer.provideMerge(Layer.merge(base, tokenStore(options.tokens)))
  )
  return PlatformClient.layer.pipe(Layer.provideMerge(session))
}

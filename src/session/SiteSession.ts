/**
 * A visitor/member session and the wire under it, without the data client: what a page that only signs
 * members in needs, and what `Site.layer` builds on. Bundlers leave the data client out of an app that
 * uses only this (about a quarter of the browser bundle, `npm run size`). `siteTokens` is the token
 * service alone, for a page that only reads the session (visitor tokens, is anyone signed in?) or
 * calls the platform as a visitor: it carries no OAuth or member flow.
 *
 * @example
 * const SessionLive = siteSession({ clientId: "my-client-id", tokens: "localStorage" })
 * const TokensLive = siteTokens({ clientId: "my-client-id", tokens: "localStorage" })
 */
import * as Layer from "effect/Layer"
import { PlatformAuth, PlatformClient } from "../http/PlatformClient.ts"
import { PlatformConfig, type PlatformConfigOptions } from "../http/PlatformConfig.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"
import { AuthorizeAgent } from "./AuthorizeAgent.ts"
import type { MemberFlows } from "./MemberFlows.ts"
import type { OAuthFlows } from "./OAuthFlows.ts"
import { Session } from "./Session.ts"
import { SessionTokens } from "./SessionTokens.ts"
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

/** The options of `siteTokens`: the platform's configuration, the transport, and where tokens live. */
export interface TokenOptions extends PlatformConfigOptions, WireOptions {
  /** Where tokens live: in memory (default), in localStorage, or any TokenStore layer (e.g. a file). */
  readonly tokens?: "memory" | "localStorage" | Layer.Layer<TokenStore> | undefined
}

export interface SiteOptions extends TokenOptions {
  /** How a direct login reaches the authorize page; by default an iframe in browsers, HTTP elsewhere. */
  readonly authorizeAgent?: Layer.Layer<AuthorizeAgent> | undefined
}

/** What `siteTokens` provides: the token service, its store and auth, and the platform client over them. */
export type TokenServices = SessionTokens | TokenStore | PlatformAuth | PlatformClient | PlatformHttp | PlatformConfig

/** What `siteSession` provides: the whole session, each of its parts, and the platform client. */
export type SessionServices = Session | OAuthFlows | MemberFlows | TokenServices

const tokenStore = (tokens: TokenOptions["tokens"]): Layer.Layer<TokenStore> =>
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

/**
 * The token service of a site's session alone (no OAuth or member flow), with the platform client over
 * it: a page that only reads the session, or calls the platform as a visitor. Options win over
 * `SITEFX_*` environment variables.
 */
export const siteTokens = (options: TokenOptions = {}): Layer.Layer<TokenServices> => {
  const base = wire(PlatformConfig.layerConfig(options).pipe(Layer.orDie), options)
  const tokens = SessionTokens.layer({ clientId: options.clientId }).pipe(
    Layer.provideMerge(Layer.merge(base, tokenStore(options.tokens)))
  )
  return PlatformClient.layer.pipe(Layer.provideMerge(tokens))
}

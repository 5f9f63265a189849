/**
 * A visitor/member session and the wire under it, without the data client: what a page that only signs
 * members in needs, and what `Site.layer` builds on. Bundlers leave the data client out of an app that
 * uses only this (about a quarter of the browser bundle, `npm run size`). `siteTokens` is the token
 * service alone, for a page that only reads the session (visitor tokens, is anyone signed in?): it
 * carries no OAuth or member flow, no data wire and no environment configuration.
 *
 * @example
 * const SessionLive = siteSession({ clientId: "my-client-id", tokens: "localStorage" })
 * const TokensLive = siteTokens({ clientId: "my-client-id", tokens: "localStorage" })
 */
import * as Layer from "effect/Layer"
import type { PlatformAuth } from "../http/PlatformAuth.ts"
import { PlatformClient } from "../http/PlatformClient.ts"
import { PlatformConfig, type PlatformConfigOptions } from "../http/PlatformConfig.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"
import { AuthorizeAgent } from "./AuthorizeAgent.ts"
import type { MemberFlows } from "./MemberFlows.ts"
import type { OAuthFlows } from "./OAuthFlows.ts"
import { Session } from "./Session.ts"
import { SessionTokens } from "./SessionTokens.ts"
import { fetchTokenEndpoint, type FetchTokenEndpointOptions } from "./tokenEndpoint.ts"
import { TokenStore } from "./TokenStore.ts"

/** How the platform's requests travel: the transport under the wire. */
export interface WireOptions {
  /**
   * How requests travel; `fetch` by default (browsers and Node alike). On Node,
   * `viaHttpClient(NodeHttpClient.layerNodeHttpOptions({ keepAlive: true }))` (`viaHttpClient` from
   * `sitefx/http`, the client from `@effect/platform-node`) costs batch jobs about a quarter less CPU per
   * request (measured on bulk imports).
   */
  readonly transport?: Layer.Layer<PlatformHttp, never, PlatformConfig> | undefined
}

/** Where tokens live: in memory (default), in localStorage, or any TokenStore layer (e.g. a file). */
export type TokenStoreOption = "memory" | "localStorage" | Layer.Layer<TokenStore> | undefined

/**
 * The options of `siteTokens`, from code only (no `SITEFX_*` variable is read): the client id, where the
 * platform is, and where tokens live.
 */
export interface TokenOptions extends FetchTokenEndpointOptions {
  readonly tokens?: TokenStoreOption
}

/** What `siteSession` takes: the platform's settings, the transport, where tokens live and how a direct login completes. */
export interface SiteOptions extends PlatformConfigOptions, WireOptions {
  /** Where tokens live: in memory (default), in localStorage, or any TokenStore layer (e.g. a file). */
  readonly tokens?: TokenStoreOption
  /** How a direct login reaches the authorize page; by default an iframe in browsers, HTTP elsewhere. */
  readonly authorizeAgent?: Layer.Layer<AuthorizeAgent> | undefined
}

/** What `siteTokens` provides: the token service, its store, and the auth a platform client sends with. */
export type TokenServices = SessionTokens | TokenStore | PlatformAuth

/** What `siteSession` provides: the whole session, each of its parts, the platform client and the wire under it. */
export type SessionServices = Session | OAuthFlows | MemberFlows | TokenServices | PlatformClient | PlatformHttp | PlatformConfig

const tokenStore = (tokens: TokenStoreOption): Layer.Layer<TokenStore> =>
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
  return ownSite(PlatformClient.layer.pipe(Layer.provideMerge(session)))
}

/**
 * A site's layer, built with its own memo map. Effect shares a layer value an enclosing `Effect.provide`
 * has already built, and a site is made of shared values (the platform client, the fetch transport, the
 * session's parts), so a site provided inside a program that runs on another one (an API key inside a
 * session, a second base URL) would otherwise be handed the outer site's, bound to the outer site's
 * config and tokens. Within one site the parts are still built once.
 */
export const ownSite = <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> => Layer.fresh(layer)

/**
 * The token service of a site's session alone (no OAuth or member flow, no platform client): a page
 * that only reads the session (visitor tokens, is anyone signed in?). It calls the token endpoint with
 * a JSON call of its own and reads its settings from code alone, so the page carries neither the data
 * wire nor the environment's configuration. For platform calls too, use `siteSession` (or `Site.layer`).
 *
 * @example
 * const TokensLive = siteTokens({ clientId: "my-client-id", tokens: "localStorage" })
 * const signedIn = Effect.gen(function*() {
 *   const tokens = yield* SessionTokens
 *   return (yield* tokens.state).loggedIn
 * }).pipe(Effect.provide(TokensLive))
 */
export const siteTokens = (options: TokenOptions): Layer.Layer<TokenServices> =>
  ownSite(SessionTokens.layer.pipe(Layer.provideMerge(Layer.merge(fetchTokenEndpoint(options), tokenStore(options.tokens)))))

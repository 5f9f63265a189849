/**
 * A site's token service and platform client without the sign-in flows, and the token service alone
 * (`siteTokens`): what a page's first screen reads the session and the platform through. This module
 * imports no flow, so a bundle that uses only it carries none (`siteSession` in SiteSession.ts adds them).
 *
 * @example
 * const ClientLive = siteClient({ clientId: "my-client-id", tokens: "localStorage" })
 * const TokensLive = siteTokens({ clientId: "my-client-id", tokens: "localStorage" })
 */
import * as Layer from "effect/Layer"
import type { PlatformAuth } from "../http/PlatformAuth.ts"
import { PlatformClient } from "../http/PlatformClient.ts"
import { PlatformConfig, type PlatformConfigOptions } from "../http/PlatformConfig.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"
import type { AuthorizeAgent } from "./AuthorizeAgent.ts"
import { SessionTokens } from "./SessionTokens.ts"
import { fetchTokenEndpoint, type FetchTokenEndpointOptions, wireTokenEndpoint } from "./tokenEndpoint.ts"
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

const tokenStore = (tokens: TokenStoreOption): Layer.Layer<TokenStore> =>
  tokens === undefined || tokens === "memory"
    ? TokenStore.memory()
    : tokens === "localStorage"
    ? TokenStore.localStorage()
    : tokens

/** The platform's HTTP transport over `config`, through `fetch` unless the options give a client. */
export const wire = (config: Layer.Layer<PlatformConfig>, options: WireOptions) =>
  (options.transport ?? PlatformHttp.layerFetch).pipe(Layer.provideMerge(config))

/** What `siteClient` provides: the token service, the platform client and the wire under it, without the sign-in flows. */
export type ClientServices = TokenServices | PlatformClient | PlatformHttp | PlatformConfig

export const client = (options: SiteOptions): Layer.Layer<ClientServices> => {
  const base = wire(PlatformConfig.layerConfig(options).pipe(Layer.orDie), options)
  const tokens = SessionTokens.layer.pipe(
    Layer.provide(wireTokenEndpoint({ clientId: options.clientId })),
    Layer.provideMerge(Layer.merge(base, tokenStore(options.tokens)))
  )
  return PlatformClient.layer.pipe(Layer.provideMerge(tokens))
}

/**
 * A site's token service and platform client without the sign-in flows: a page's first screen that
 * reads the session and the platform but signs no one in. Its member area adds `memberFlows` on top of
 * the same services (one token service for both). Options win over `SITEFX_*` environment variables.
 *
 * @example
 * const runtime = Atom.runtime(siteClient({ clientId: "my-client-id", tokens: tabTokenStore() }))
 * // in the member area's module, loaded later:
 * const memberRuntime = Atom.runtime((get) => memberFlows().pipe(Layer.provideMerge(Layer.effectContext(get.result(runtime)))))
 */
export const siteClient = (options: SiteOptions = {}): Layer.Layer<ClientServices> => ownSite(client(options))

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

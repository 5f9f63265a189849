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
import { AuthorizeAgent } from "./AuthorizeAgent.ts"
import type { MemberFlows } from "./MemberFlows.ts"
import type { OAuthFlows } from "./OAuthFlows.ts"
import { Session } from "./Session.ts"
import { type ClientServices, client, ownSite, type SiteOptions } from "./SiteClient.ts"

export {
  type ClientServices,
  ownSite,
  siteClient,
  type SiteOptions,
  siteTokens,
  type TokenOptions,
  type TokenServices,
  type TokenStoreOption,
  wire,
  type WireOptions
} from "./SiteClient.ts"

/** What `siteSession` provides: the whole session, each of its parts, the platform client and the wire under it. */
export type SessionServices = FlowServices | ClientServices

/** What `memberFlows` adds on top of a site client: the whole session and its OAuth and member flows. */
export type FlowServices = Session | OAuthFlows | MemberFlows

/** The options of `memberFlows`: how a direct login reaches the authorize page. */
export interface FlowOptions {
  /** How a direct login reaches the authorize page; by default an iframe in browsers, HTTP elsewhere. */
  readonly authorizeAgent?: Layer.Layer<AuthorizeAgent> | undefined
}

/** The sign-in flows and the whole session on a site client already built (see `siteClient`). */
export const memberFlows = (options: FlowOptions = {}): Layer.Layer<FlowServices, never, ClientServices> =>
  Session.layerOnTokens().pipe(Layer.provide(options.authorizeAgent ?? AuthorizeAgent.auto))

/** A visitor/member session for a site, without the data client. Options win over `SITEFX_*` environment variables. */
export const siteSession = (options: SiteOptions = {}): Layer.Layer<SessionServices> =>
  ownSite(memberFlows(options).pipe(Layer.provideMerge(client(options))))

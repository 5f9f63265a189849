/**
 * The OAuth flows of a session: a login by redirect to the platform's authorize page with PKCE (the login
 * URL, then the callback read, its state checked and the code exchanged for member tokens) and the logout
 * redirect. Built on the token service; the silent login of a member who signed in with a form is
 * MemberFlows' `completeDirectLogin`, the weekly pre-warm is `Prewarm.prewarm`.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PlatformAuth } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"
import { parseCallback } from "./AuthorizeAgent.ts"
import { apiCall, authRequest, createRedirectSession, exchangeCode } from "./codeGrant.ts"
import { AuthorizationFailed, invalidState, missingCodeOrState, NoLoginInProgress, OAuthError } from "./OAuthError.ts"
import { makePkce } from "./Pkce.ts"
import { SessionTokens } from "./SessionTokens.ts"
import { type OAuthData, TokenStore } from "./TokenStore.ts"
import type { Prompt, ResponseMode } from "./wire/redirects.ts"
import type { Tokens } from "./wire/tokens.ts"

/** What `loginUrl` takes: where the platform sends the browser back, and how the authorize page behaves. */
export interface LoginUrlOptions {
  /** The page the platform sends the browser back to, with `code` and `state`. */
  readonly redirectUri: string
  /** Where to send the member after the login completes (kept with the PKCE data). */
  readonly originalUri?: string | undefined
  /** Where the callback carries the code: the URL's `fragment` (default) or `query`. */
  readonly responseMode?: ResponseMode | undefined
  /** What the authorize page shows; the login form (`login`) by default. */
  readonly prompt?: Prompt | undefined
  /** The session token of a login already made with a form, to skip the platform's own. */
  readonly sessionToken?: string | undefined
  /** An identity provider to sign in with directly. */
  readonly idp?: string | undefined
}

/** The platform's login page for one login: send the browser to `url`. */
export interface LoginUrl {
  /** The whole authorize page URL. */
  readonly url: string
  /** The authorize page without its query. */
  readonly authorizationEndpoint: string
  /** The state the callback must carry back (checked by `completeRedirect`). */
  readonly state: string
}

/** What `completeRedirect` gives back: the member's tokens (already stored) and where to send the member. */
export interface RedirectResult {
  /** The member's tokens, already in the token store. */
  readonly tokens: Tokens
  /** The `originalUri` given to `loginUrl`, to send the member back to. */
  readonly originalUri: string
}

/** The redirect login (its URL, then its callback) and the logout of a session. */
export interface OAuthFlowsShape {
  /**
   * Creates a redirect session and returns the authorize page URL; the PKCE data goes to the store.
   *
   * @example
   * const oauth = yield* OAuthFlows
   * const { url } = yield* oauth.loginUrl({ redirectUri: "https://shop.example.com/callback", originalUri: "/account" })
   * window.location.assign(url)
   */
  readonly loginUrl: (options: LoginUrlOptions) => Effect.Effect<LoginUrl, PlatformError>
  /**
   * Reads the callback URL, checks its state and exchanges the code for member tokens.
   *
   * @example
   * // on the page `loginUrl`'s redirectUri names
   * const oauth = yield* OAuthFlows
   * const { originalUri } = yield* oauth.completeRedirect(window.location.href)
   * window.location.replace(originalUri === "" ? "/" : originalUri)
   */
  readonly completeRedirect: (
    url: string,
    options?: { readonly responseMode?: "fragment" | "query" }
  ) => Effect.Effect<RedirectResult, OAuthError | PlatformError>
  /** Signs the member out: returns the logout page URL and clears both tokens. */
  readonly logout: (options: { readonly postFlowUrl: string }) => Effect.Effect<{ readonly logoutUrl: string }, PlatformError>
}

/** The OAuth flows as a service: a login through the platform's own login page, and the logout. */
export class OAuthFlows extends Context.Service<OAuthFlows, OAuthFlowsShape>()("sitefx/OAuthFlows") {
  /** The OAuth flows over a session's token service (its PlatformAuth signs the redirect-session calls). */
  static readonly layer: Layer.Layer<OAuthFlows, never, SessionTokens | PlatformAuth | PlatformHttp | TokenStore> = Layer.effect(
    OAuthFlows,
    Effect.gen(function*() {
      const tokens = yield* SessionTokens
      const http = yield* PlatformHttp
      const store = yield* TokenStore
      const call = apiCall(http, yield* PlatformAuth)

      const saveOAuthData = (oauthData: OAuthData | undefined) =>
        Effect.flatMap(store.load, (s) => {
          const { oauthData: _previous, ...rest } = s
          return store.save(oauthData === undefined ? rest : { ...rest, oauthData })
        })

      const loginUrl = (opts: LoginUrlOptions) =>
        Effect.gen(function*() {
          const pkce = yield* makePkce()
          yield* saveOAuthData({ ...pkce, redirectUri: opts.redirectUri, originalUri: opts.originalUri ?? "" })
          const session = yield* createRedirectSession(call, authRequest(tokens.clientId, pkce, {
            redirectUri: opts.redirectUri,
            responseMode: opts.responseMode ?? "fragment",
            prompt: opts.prompt ?? "login",
            sessionToken: opts.sessionToken,
            idp: opts.idp
          }))
          return { url: session.fullUrl, authorizationEndpoint: session.urlDetails.endpoint, state: pkce.state }
        })

      const completeRedirect = (url: string, opts: { readonly responseMode?: "fragment" | "query" } = {}) =>
        Effect.gen(function*() {
          const callback = parseCallback(url, opts.responseMode ?? "fragment")
          const stored = (yield* store.load).oauthData
          if (callback.error !== undefined) {
            return yield* new OAuthError({
              reason: new AuthorizationFailed({
                message: callback.errorDescription ?? callback.error,
                error: callback.error,
                ...(callback.errorDescription === undefined ? {} : { errorDescription: callback.errorDescription })
              })
            })
          }
          if (callback.code === undefined || callback.state === undefined) return yield* missingCodeOrState()
          if (stored === undefined) {
            return yield* new OAuthError({ reason: new NoLoginInProgress({ message: "No login in progress: call loginUrl first" }) })
          }
          if (callback.state !== stored.state) return yield* invalidState()
          const member = yield* exchangeCode(http, tokens, callback.code, stored)
          yield* saveOAuthData(undefined)
          return { tokens: member, originalUri: stored.originalUri }
        })

      const logout = (opts: { readonly postFlowUrl: string }) =>
        Effect.gen(function*() {
          const session = yield* createRedirectSession(call, { logout: { clientId: tokens.clientId }, callbacks: { postFlowUrl: opts.postFlowUrl } })
          yield* tokens.clear
          return { logoutUrl: session.fullUrl }
        })

      return OAuthFlows.of({ loginUrl, completeRedirect, logout })
    })
  )
}

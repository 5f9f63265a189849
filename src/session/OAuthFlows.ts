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
import { invalidState, missingCodeOrState, OAuthError } from "./OAuthError.ts"
import { makePkce } from "./Pkce.ts"
import { SessionTokens } from "./SessionTokens.ts"
import { type OAuthData, TokenStore } from "./TokenStore.ts"
import type { Prompt, ResponseMode } from "./wire/redirects.ts"
import type { Tokens } from "./wire/tokens.ts"

export interface LoginUrlOptions {
  readonly redirectUri: string
  /** Where to send the member after the login completes (kept with the PKCE data). */
  readonly originalUri?: string | undefined
  readonly responseMode?: ResponseMode | undefined
  readonly prompt?: Prompt | undefined
  readonly sessionToken?: string | undefined
  readonly idp?: string | undefined
}

export interface LoginUrl {
  readonly url: string
  readonly authorizationEndpoint: string
  readonly state: string
}

export interface RedirectResult {
  readonly tokens: Tokens
  /** The `originalUri` given to `loginUrl`, to send the member back to. */
  readonly originalUri: string
}

export interface OAuthFlowsShape {
  /** Creates a redirect session and returns the authorize page URL; the PKCE data goes to the store. */
  readonly loginUrl: (options: LoginUrlOptions) => Effect.Effect<LoginUrl, PlatformError>
  /** Reads the callback URL, checks its state and exchanges the code for member tokens. */
  readonly completeRedirect: (
    url: string,
    options?: { readonly responseMode?: "fragment" | "query" }
  ) => Effect.Effect<RedirectResult, OAuthError | PlatformError>
  /** Signs the member out: returns the logout page URL and clears both tokens. */
  readonly logout: (options: { readonly postFlowUrl: string }) => Effect.Effect<{ readonly logoutUrl: string }, PlatformError>
}

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
              reason: "AuthorizationFailed",
              message: callback.errorDescription ?? callback.error,
              error: callback.error,
              ...(callback.errorDescription === undefined ? {} : { errorDescription: callback.errorDescription })
            })
          }
          if (callback.code === undefined || callback.state === undefined) return yield* missingCodeOrState()
          if (stored === undefined) {
            return yield* new OAuthError({ reason: "NoLoginInProgress", message: "No login in progress: call loginUrl first" })
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

/**
 * The whole session as one service, for those who want all of it: the token service (SessionTokens),
 * the OAuth flows (OAuthFlows) and the member flows (MemberFlows), with the session's state as a stream
 * of changes. `Session.layer` provides the whole and each part, so code can ask for only the part it
 * uses; a page that only reads the session builds `SessionTokens.layer` (or `siteTokens`) alone.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import type { PlatformAuth } from "../http/PlatformClient.ts"
import type { PlatformConfig } from "../http/PlatformConfig.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import type { AuthorizeAgent } from "./AuthorizeAgent.ts"
import { MemberFlows, type MemberFlowsShape } from "./MemberFlows.ts"
import { OAuthFlows, type OAuthFlowsShape } from "./OAuthFlows.ts"
import { type SessionOptions, type SessionState, SessionTokens, type SessionTokensShape } from "./SessionTokens.ts"
import { stateChanges } from "./stateChanges.ts"
import { wireTokenEndpoint } from "./tokenEndpoint.ts"
import type { TokenStore } from "./TokenStore.ts"

export type { CaptchaTokens, Secret } from "./MemberFlows.ts"
export type { LoginUrl, LoginUrlOptions, RedirectResult } from "./OAuthFlows.ts"
export type { SessionOptions, SessionState } from "./SessionTokens.ts"
export { tokenFailureMessage } from "./codeGrant.ts"
export { isExpired } from "./tokenEndpoint.ts"
export { stateChanges } from "./stateChanges.ts"

/** Everything a session does: its tokens and state, the OAuth and member flows, and its changes as a stream. */
export interface SessionShape
  extends
    Omit<SessionTokensShape, "clientId" | "subscribe" | "clear">,
    OAuthFlowsShape,
    Omit<MemberFlowsShape, "clearPending">
{
  /** The current state, then every change (login, logout, fallback to a visitor). */
  readonly changes: Stream.Stream<SessionState>
}

/**
 * The whole session as one service, for an app that signs members in and reads who is signed in.
 *
 * @example
 * declare const password: string // what the member typed
 * const session = yield* Session
 * const result = yield* session.login({ email: "ada@example.com", password: Redacted.make(password) })
 * if (result.loginState === "SUCCESS") yield* session.completeDirectLogin(result.data.sessionToken)
 * else if (result.loginState === "FAILURE") console.log("refused:", result.errorCode ?? result.error)
 * const { loggedIn } = yield* session.state
 */
export class Session extends Context.Service<Session, SessionShape>()("sitefx/Session") {
  /**
   * The whole session, each of its parts, and the PlatformAuth every platform call uses. Needs the wire,
   * a TokenStore and an AuthorizeAgent (see `Site.layer` for everything at once).
   */
  static readonly layer = (
    options: SessionOptions = {}
  ): Layer.Layer<
    Session | SessionTokens | OAuthFlows | MemberFlows | PlatformAuth,
    never,
    PlatformHttp | PlatformConfig | TokenStore | AuthorizeAgent
  > =>
    Session.layerOnTokens().pipe(Layer.provideMerge(SessionTokens.layer.pipe(Layer.provide(wireTokenEndpoint(options)))))

  /**
   * The flows and the whole session on a token service built elsewhere (a page's first runtime), so
   * the page and its member area share one SessionTokens: a sign-in here shows wherever the tokens are read.
   */
  static readonly layerOnTokens = (): Layer.Layer<
    Session | OAuthFlows | MemberFlows,
    never,
    SessionTokens | PlatformAuth | PlatformHttp | TokenStore | AuthorizeAgent
  > => Layer.effect(Session, make).pipe(Layer.provideMerge(Layer.merge(OAuthFlows.layer, MemberFlows.layer)))
}

const make = Effect.gen(function*() {
  const tokens = yield* SessionTokens
  const oauth = yield* OAuthFlows
  const members = yield* MemberFlows
  const { clientId: _clientId, subscribe: _subscribe, clear: _clear, ...tokenCalls } = tokens
  const { clearPending, ...memberCalls } = members
  return Session.of({
    ...tokenCalls,
    changes: stateChanges(tokens),
    ...oauth,
    // signing out also ends a flow waiting for a code
    logout: (options) => Effect.tap(oauth.logout(options), () => clearPending),
    ...memberCalls
  })
})

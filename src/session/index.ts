/**
 * `sitefx/session`: a visitor's or member's session as Layers, in parts: the token service
 * (`SessionTokens`, over a `TokenEndpoint`; `siteTokens` for a page that only reads the session), the OAuth flows (`OAuthFlows`)
 * and the member flows (`MemberFlows`), and the whole (`Session`, `siteSession`); the token stores (and
 * the one a browser's tabs share), the authorize agent, and the session's typed errors and results.
 */
export {
  type CaptchaTokens,
  MemberFlows,
  type MemberFlowsShape,
  type Secret
} from "./MemberFlows.ts"
export { type LoginUrl, type LoginUrlOptions, OAuthFlows, type OAuthFlowsShape, type RedirectResult } from "./OAuthFlows.ts"
export { Session, type SessionShape, stateChanges } from "./Session.ts"
export { type SessionOptions, type SessionState, SessionTokens, type SessionTokensShape } from "./SessionTokens.ts"
export {
  type ClientServices,
  type FlowOptions,
  type FlowServices,
  memberFlows,
  type SessionServices,
  siteClient,
  siteSession,
  type SiteOptions,
  siteTokens,
  type TokenOptions,
  type TokenServices,
  type TokenStoreOption,
  type WireOptions
} from "./SiteSession.ts"
export {
  fetchTokenEndpoint,
  type FetchTokenEndpointOptions,
  TokenEndpoint,
  type TokenEndpointShape,
  wireTokenEndpoint
} from "./tokenEndpoint.ts"
export { type OAuthData, type StoredSession, TokenStore, type TokenStoreShape } from "./TokenStore.ts"
export {
  type Exclusive,
  followTabs,
  type LockManagerLike,
  SESSION_KEY,
  storageLock,
  type StorageLockOptions,
  tabLock,
  type TabOptions,
  tabTokenStore,
  webLock
} from "./tabs.ts"
export { AuthorizeAgent, type AuthorizeAgentShape, type AuthorizeResult, type FrameWindow } from "./AuthorizeAgent.ts"
export {
  AuthorizationFailed,
  InvalidState,
  MissingCodeOrState,
  NoBrowser,
  NoLoginInProgress,
  OAuthError,
  type OAuthErrorReason,
  OAuthErrorReasons,
  TimedOut,
  TokenRequestFailed
} from "./OAuthError.ts"
export type { LoginErrorCode, LoginResult, PendingStep } from "./LoginResult.ts"
/** PKCE for the authorization-code flow: the verifier, its challenge and the state of one login. */
export * as Pkce from "./Pkce.ts"
/** The weekly pre-warm that lets the platform's own pages share a browser's session. */
export * as Prewarm from "./prewarm.ts"
/** The session's wire shapes as Schemas: the token, redirect-session and identity calls' requests and answers. */
export * as SessionWire from "./wire/index.ts"
export { EMPTY_TOKENS } from "./TokenStore.ts"
export type { FactorType, Identity, TokenRole, Tokens } from "./wire/index.ts"
export { type MemberOptions, type MemberServices, siteMembers } from "./SiteMembers.ts"

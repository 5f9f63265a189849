/**
 * `sitefx/session`: a visitor's or member's session as a Layer. The Session service (tokens, refresh,
 * OAuth and member flows), `siteSession` for a page that needs only the session, the token stores (and
 * the one a browser's tabs share), the authorize agent, and the session's typed errors and results.
 */
export {
  type CaptchaTokens,
  type LoginUrl,
  type LoginUrlOptions,
  type RedirectResult,
  type Secret,
  Session,
  type SessionOptions,
  type SessionShape,
  type SessionState
} from "./Session.ts"
export { type SessionServices, siteSession, type SiteOptions, type WireOptions } from "./SiteSession.ts"
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
export { OAuthError, type OAuthErrorReason, OAuthErrorReasons } from "./OAuthError.ts"
export type { LoginErrorCode, LoginResult, PendingStep } from "./LoginResult.ts"
export * as Pkce from "./Pkce.ts"
export * as Prewarm from "./prewarm.ts"
export * as SessionWire from "./wire/index.ts"
export { EMPTY_TOKENS } from "./protocol.ts"
export type { FactorType, Identity, TokenRole, Tokens } from "./wire/index.ts"

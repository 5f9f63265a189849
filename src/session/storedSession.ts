/**
 * The session's document and the rules every reader of it follows, as plain values and functions (no
 * Effect): how a token store reads and writes the document, when an access token must be renewed, and
 * what the tabs sharing the document agree on (its refresh lock). The token service (SessionTokens,
 * TokenStore, tabTokenStore) and a page's first script (`sitefx/first-screen`) both read them here, so
 * the two cannot drift apart. The token endpoint's renewing grants are the first script's; the token
 * service writes the same bodies inline, which saves every page a few bytes, and
 * test/firstScreen/firstScreen.test.ts holds the two to the same bytes on the wire.
 */
import type { OAuthData as OAuthDataGuard } from "./guards/tokens.ts"
import { StoredSession as isStoredSession } from "./guards/tokens.ts"
import type * as G from "../http/guard.ts"
import type * as SessionWire from "./wire/index.ts"
import type { TokenRole, Tokens } from "./wire/tokens.ts"

/** The token set of no session at all: the next call gets fresh visitor tokens. */
export const EMPTY_TOKENS: Tokens = {
  accessToken: { value: "", expiresAt: 0 },
  refreshToken: { value: "", role: "none" }
}

/** The PKCE data of a login between `loginUrl` and `completeRedirect`. */
export type OAuthData = G.TypeOf<typeof OAuthDataGuard>

/** Everything a store persists; one JSON document. */
export type StoredSession = G.TypeOf<typeof isStoredSession>

/** Reads a stored document; anything unreadable counts as an empty session (fresh visitor tokens follow). */
export const parseStored = (text: string | null | undefined): StoredSession => {
  if (typeof text === "string") {
    try {
      const stored: unknown = JSON.parse(text)
      if (isStoredSession(stored) === undefined) return only(stored as StoredSession)
    } catch {
      // not JSON: an empty session
    }
  }
  return { tokens: EMPTY_TOKENS }
}

/** The stored fields alone (a document written by another version may hold more). */
const only = ({ tokens, oauthData }: StoredSession): StoredSession => ({
  tokens: { accessToken: { value: tokens.accessToken.value, expiresAt: tokens.accessToken.expiresAt }, refreshToken: { value: tokens.refreshToken.value, role: tokens.refreshToken.role } },
  ...(oauthData === undefined ? {} : {
    oauthData: {
      state: oauthData.state,
      codeVerifier: oauthData.codeVerifier,
      codeChallenge: oauthData.codeChallenge,
      redirectUri: oauthData.redirectUri,
      originalUri: oauthData.originalUri
    }
  })
})

/** The document as a store writes it. */
export const serializeStored = (session: StoredSession): string => JSON.stringify(only(session))

/** The access token is missing or its expiry has passed (the same rule the platform's own client uses). */
export const isExpired = (tokens: Tokens, now: number): boolean =>
  tokens.accessToken.value === "" || tokens.accessToken.expiresAt < now

/** The token set of an answer; a refresh keeps the refresh token it was made with. */
export const tokensFrom = (response: SessionWire.TokenResponse, role: TokenRole, now: number, keepRefresh?: string): Tokens => ({
  accessToken: { value: response.access_token, expiresAt: now + Number(response.expires_in) },
  refreshToken: { value: keepRefresh ?? response.refresh_token, role }
})

/** The token endpoint's body that asks for a visitor's tokens. */
export const anonymousGrant = (clientId: string): Record<string, string> => ({ clientId, grantType: "anonymous" })

/** The token endpoint's body that renews the access token with the refresh token. */
export const refreshGrant = (clientId: string, refreshToken: string): Record<string, string> => ({ clientId, refreshToken, grantType: "refresh_token" })

/** The lock the tabs sharing the document under `key` take turns renewing its tokens under. */
export const refreshLockName = (key: string): string => `${key}.refresh`

/**
 * How long a tab keeps the refresh lock after saving new tokens: a browser passes a tab's storage writes
 * to its other tabs a little later, and the next holder must see them.
 */
export const LOCK_HOLD_MILLIS = 100

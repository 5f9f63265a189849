/**
 * Where a session keeps its tokens and the PKCE data of a login in progress. Memory for scripts and
 * tests, localStorage for browsers (the data survives the login redirect), a JSON file for CLIs
 * (`FileTokenStore`, Node only).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as G from "../http/guard.ts"
import { type OAuthData as OAuthDataGuard, StoredSession as isStoredSession } from "./guards/tokens.ts"
import type { Tokens } from "./wire/tokens.ts"

/** The token set of no session at all: the next call gets fresh visitor tokens. */
export const EMPTY_TOKENS: Tokens = {
  accessToken: { value: "", expiresAt: 0 },
  refreshToken: { value: "", role: "none" }
}

/** The PKCE data of a login between `loginUrl` and `completeRedirect`. */
export type OAuthData = G.TypeOf<typeof OAuthDataGuard>

/** Everything a store persists; one JSON document. */
export type StoredSession = G.TypeOf<typeof isStoredSession>

/** What a token store does: load and save the session's document, and keep tabs from refreshing at once. */
export interface TokenStoreShape {
  /** The stored document; an empty session when nothing (or nothing readable) is stored. */
  readonly load: Effect.Effect<StoredSession>
  /** Replaces the stored document. */
  readonly save: (session: StoredSession) => Effect.Effect<void>
  /**
   * Runs a token refresh alone among everyone who shares this store (other browser tabs over one
   * localStorage: see `tabTokenStore` in `sitefx/session`, also exported by `sitefx/react`). A store only one session uses leaves it out.
   */
  readonly exclusive?: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/**
 * Where a session keeps its tokens between calls and page loads: pass one as `tokens` to `siteSession`
 * or `siteTokens`.
 *
 * @example
 * const BrowserLive = siteSession({ clientId: "my-client-id", tokens: TokenStore.localStorage({ key: "shop.session" }) })
 * const ScriptLive = siteTokens({ clientId: "my-client-id", tokens: TokenStore.memory() })
 */
export class TokenStore extends Context.Service<TokenStore, TokenStoreShape>()("sitefx/TokenStore") {
  /** In memory, optionally starting from known tokens. */
  static readonly memory = (initial: Tokens = EMPTY_TOKENS): Layer.Layer<TokenStore> =>
    Layer.sync(TokenStore, () => {
      let current: StoredSession = { tokens: initial }
      return TokenStore.of({
        load: Effect.sync(() => current),
        save: (session) => Effect.sync(() => { current = session })
      })
    })

  /**
   * In a `Storage` (browser localStorage by default) under one key. Where there is none (a page rendered
   * on a server), the session is kept in memory for that render and nothing is stored.
   */
  static readonly localStorage = (options: { readonly key?: string; readonly storage?: Storage } = {}): Layer.Layer<TokenStore> =>
    Layer.suspend(() => {
      const storage = options.storage ?? (globalThis as { localStorage?: Storage }).localStorage
      return storage === undefined ? TokenStore.memory() : TokenStore.inStorage(storage, options.key ?? "sitefx.session")
    })

  private static readonly inStorage = (storage: Storage, key: string): Layer.Layer<TokenStore> =>
    Layer.sync(TokenStore, () => {
      return TokenStore.of({
        load: Effect.sync(() => parseStored(storage.getItem(key))),
        save: (session) => Effect.sync(() => storage.setItem(key, serializeStored(session)))
      })
    })
}

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

export const serializeStored = (session: StoredSession): string => JSON.stringify(only(session))

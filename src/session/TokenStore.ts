/**
 * Where a session keeps its tokens and the PKCE data of a login in progress. Memory for scripts and
 * tests, localStorage for browsers (the data survives the login redirect), a JSON file for CLIs
 * (`FileTokenStore`, Node only).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { EMPTY_TOKENS, parseStored, serializeStored, type StoredSession } from "./storedSession.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import type { Tokens } from "./wire/tokens.ts"

export { EMPTY_TOKENS, type OAuthData, parseStored, serializeStored, type StoredSession } from "./storedSession.ts"

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
  /**
   * Renews the tokens in place of the token endpoint's grants, for a store whose refresh token the page
   * cannot read (sitefx/next's cookie store asks its own server, which holds it in an httpOnly cookie).
   * It answers the new token set, already stored.
   */
  readonly renew?: (tokens: Tokens) => Effect.Effect<Tokens, PlatformError>
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

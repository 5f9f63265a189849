/**
 * Where a session keeps its tokens and the PKCE data of a login in progress. Memory for scripts and
 * tests, localStorage for browsers (the data survives the login redirect), a JSON file for CLIs
 * (`FileTokenStore`, Node only).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { EMPTY_TOKENS, Tokens } from "./wire.ts"

/** The PKCE data of a login between `loginUrl` and `completeRedirect`. */
export const OAuthData = Schema.Struct({
  state: Schema.String,
  codeVerifier: Schema.String,
  codeChallenge: Schema.String,
  redirectUri: Schema.String,
  originalUri: Schema.String
})
export type OAuthData = typeof OAuthData.Type

/** Everything a store persists; one JSON document. */
export const StoredSession = Schema.Struct({
  tokens: Tokens,
  oauthData: Schema.optionalKey(OAuthData)
})
export type StoredSession = typeof StoredSession.Type

export interface TokenStoreShape {
  readonly load: Effect.Effect<StoredSession>
  readonly save: (session: StoredSession) => Effect.Effect<void>
}

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

  /** In a `Storage` (browser localStorage by default) under one key. */
  static readonly localStorage = (options: { readonly key?: string; readonly storage?: Storage } = {}): Layer.Layer<TokenStore> =>
    Layer.sync(TokenStore, () => {
      const key = options.key ?? "sitefx.session"
      const storage = options.storage ?? globalThis.localStorage
      return TokenStore.of({
        load: Effect.sync(() => parseStored(storage.getItem(key))),
        save: (session) => Effect.sync(() => storage.setItem(key, JSON.stringify(encodeStored(session))))
      })
    })
}

const decodeStored = Schema.decodeUnknownOption(Schema.fromJsonString(StoredSession))
const encodeStored = Schema.encodeSync(StoredSession)

/** Reads a stored document; anything unreadable counts as an empty session (fresh visitor tokens follow). */
export const parseStored = (text: string | null | undefined): StoredSession =>
  text === null || text === undefined ? { tokens: EMPTY_TOKENS } : Option.getOrElse(decodeStored(text), () => ({ tokens: EMPTY_TOKENS }))

export const serializeStored = (session: StoredSession): string => JSON.stringify(encodeStored(session))

/**
 * The session's access token for a page's first script, without Effect: the one the tabs' shared store
 * holds while it is usable, else new tokens from the token endpoint (a refresh, or a visitor's), saved in
 * that store's document under the same Web Lock `tabTokenStore` renews under. The token service that
 * loads later finds usable tokens there and asks for none. The document, the expiry rule, the grants and
 * the lock are the token service's own (session/storedSession.ts).
 */
import { DEFAULT_API_URL, trimSlash } from "../http/hosts.ts"
import { TokenResponse } from "../session/guards/tokens.ts"
import { SESSION_KEY, TOKEN_PATH } from "../session/protocol.ts"
import {
  anonymousGrant,
  isExpired,
  LOCK_HOLD_MILLIS,
  parseStored,
  refreshGrant,
  refreshLockName,
  serializeStored,
  type StoredSession,
  tokensFrom
} from "../session/storedSession.ts"
import type { LockManagerLike, StorageLike } from "../session/tabs.ts"
import type { TokenResponse as TokenAnswer } from "../session/wire/index.ts"
import type { Tokens } from "../session/wire/tokens.ts"

/** Where the site is and where its session is kept: what `firstScreen` and `sessionToken` take. */
export interface FirstScreenOptions {
  /** The headless app's client id. */
  readonly clientId: string
  /** One base URL for every host, e.g. the local platform `http://127.0.0.1:8787`. */
  readonly baseUrl?: string | undefined
  /** The API host (the token endpoint's), when it differs from `baseUrl`. */
  readonly apiUrl?: string | undefined
  /** The edge host of the session's calls, when it differs from `baseUrl`. */
  readonly edgeUrl?: string | undefined
  /** Whether the session's calls go to the edge host (true by default, as the client's). */
  readonly cdn?: boolean | undefined
  /** The shared store's key, as given to `tabTokenStore` (`sitefx.session` by default). */
  readonly key?: string | undefined
  /** The storage the tabs share; `localStorage` by default. */
  readonly storage?: StorageLike | undefined
  /** The Web Locks API; `navigator.locks` by default. Without it (or with `null`) only stored tokens are used. */
  readonly locks?: LockManagerLike | null | undefined
  /** The `fetch` requests go through; the global one by default. */
  readonly fetch?: typeof globalThis.fetch | undefined
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** The token endpoint answered, and not with tokens: its status (a refused refresh gives way to a visitor's tokens). */
class Refused {
  readonly status: number
  constructor(status: number) {
    this.status = status
  }
}

/** The page's localStorage, if it may use it. */
export const defaultStorage = (): StorageLike | undefined => {
  try {
    return (globalThis as { localStorage?: StorageLike }).localStorage
  } catch {
    // a sandboxed frame may refuse storage
    return undefined
  }
}

/** One grant, sent as the client sends it: POST JSON to the API host; anything but tokens with a 200 is refused. */
const grant = async (fetch: typeof globalThis.fetch, apiUrl: string, payload: Record<string, string>): Promise<TokenAnswer> => {
  const response = await fetch(`${apiUrl}${TOKEN_PATH}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) })
  if (response.status !== 200) throw new Refused(response.status)
  const body: unknown = JSON.parse(await response.text())
  if (TokenResponse(body) !== undefined) throw new Refused(response.status)
  return body as TokenAnswer
}

/** New tokens as the token service gets them: a refresh keeps its refresh token and role; a refused one (4xx) gives way to a visitor's. */
export const renew = async (fetch: typeof globalThis.fetch, apiUrl: string, clientId: string, old: Tokens): Promise<Tokens> => {
  if (old.refreshToken.value !== "") {
    try {
      return tokensFrom(await grant(fetch, apiUrl, refreshGrant(clientId, old.refreshToken.value)), old.refreshToken.role, nowSeconds(), old.refreshToken.value)
    } catch (e) {
      if (!(e instanceof Refused) || e.status < 400 || e.status >= 500) throw e
    }
  }
  return tokensFrom(await grant(fetch, apiUrl, anonymousGrant(clientId)), "visitor", nowSeconds())
}

/** The stored access token while it is usable: not expired, and not the one the platform just `rejected`. */
const usable = (session: StoredSession, rejected?: string): string | undefined =>
  isExpired(session.tokens, nowSeconds()) || session.tokens.accessToken.value === rejected ? undefined : session.tokens.accessToken.value

/**
 * A usable access token of the session the site's tabs share, saved where the token service reads it;
 * undefined when there is none to be had here (no storage, no Web Locks and nothing usable stored, the
 * token endpoint unreachable or refusing): the client then asks as it always does. It never rejects.
 *
 * @example
 * import { sessionToken } from "sitefx/first-screen"
 * const token = await sessionToken({ clientId: "my-client-id" })
 */
export const sessionToken = (options: FirstScreenOptions): Promise<string | undefined> => tokenOf(options)

/** `sessionToken`, where `rejected` (an access token the platform refused) counts as expired, as the token service counts it after a 401. */
export const tokenOf = async (options: FirstScreenOptions, rejected?: string): Promise<string | undefined> => {
  const storage = options.storage ?? defaultStorage()
  if (storage === undefined) return undefined
  const key = options.key ?? SESSION_KEY
  const read = (): StoredSession => parseStored(storage.getItem(key))
  try {
    const stored = usable(read(), rejected)
    if (stored !== undefined) return stored
    const locks = options.locks === null ? undefined : options.locks ?? (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks
    // the storage lock of browsers without Web Locks is the token service's to take
    if (locks === undefined) return undefined
    const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    const apiUrl = trimSlash(options.apiUrl ?? options.baseUrl ?? DEFAULT_API_URL)
    // as the token service does under its lock: look again (another tab may just have saved tokens),
    // renew, and keep tokens another tab stored meanwhile (a sign-in) over the renewed ones
    const renewed = async (): Promise<string | undefined> => {
      const latest = read()
      const now = usable(latest, rejected)
      if (now !== undefined) return now
      const fresh = await renew(fetch, apiUrl, options.clientId, latest.tokens)
      const current = read()
      if (current.tokens.refreshToken.value !== latest.tokens.refreshToken.value) return usable(current)
      storage.setItem(key, serializeStored({ ...current, tokens: fresh }))
      return fresh.accessToken.value
    }
    return await new Promise<string | undefined>((resolve, reject) => {
      locks.request(refreshLockName(key), () => {
        const work = renewed()
        work.then(resolve, reject)
        // held a little longer, as the token service holds it, so the next holder sees the saved tokens
        return work.then(() => undefined, () => undefined).then(() => new Promise<void>((release) => setTimeout(release, LOCK_HOLD_MILLIS)))
      }).catch(reject)
    })
  } catch {
    return undefined
  }
}

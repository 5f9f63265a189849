/**
 * The session's access token for the first screen, without Effect: the one the tabs' shared store holds
 * while it is fresh, else a new one from the token endpoint (a refresh, or visitor tokens), saved in that
 * same store in the same document, under the same Web Lock the full app's `tabTokenStore` refreshes
 * under. The full app's session then finds usable tokens and asks for none.
 */
import { CLIENT_ID, platformUrl } from "../platform.ts"
import { SESSION_KEY, StoredTokens, TOKEN_PATH, TokenResponse } from "./wire.ts"

interface Tokens {
  readonly accessToken: { readonly value: string; readonly expiresAt: number }
  readonly refreshToken: { readonly value: string; readonly role: string }
}

/** The stored document as it is (oauthData and all), and its tokens when they read as tokens. */
const load = (): { readonly doc: Record<string, unknown>; readonly tokens: Tokens | undefined } => {
  try {
    const doc = JSON.parse(localStorage.getItem(SESSION_KEY) ?? "null") as { tokens?: unknown } | null
    if (doc === null || typeof doc !== "object") return { doc: {}, tokens: undefined }
    return { doc, tokens: StoredTokens(doc.tokens) === undefined ? doc.tokens as Tokens : undefined }
  } catch {
    return { doc: {}, tokens: undefined }
  }
}

// the session's own rule (SessionTokens): missing or past its expiry, in epoch seconds
const usable = (t: Tokens | undefined): t is Tokens => t !== undefined && t.accessToken.value !== "" && t.accessToken.expiresAt >= Math.floor(Date.now() / 1000)

const grant = async (payload: Record<string, string>): Promise<{ access_token: string; expires_in: number; refresh_token: string }> => {
  const res = await fetch(`${platformUrl}${TOKEN_PATH}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) })
  if (!res.ok) throw Object.assign(new Error(`the token endpoint answered ${res.status}`), { status: res.status })
  const body: unknown = await res.json()
  if (TokenResponse(body) !== undefined) throw new Error("the token endpoint's answer is not tokens")
  return body as { access_token: string; expires_in: number; refresh_token: string }
}

/** New tokens as the session gets them: a refresh keeps its refresh token and role; a refused one (4xx) gives way to visitor tokens. */
const renew = async (old: Tokens | undefined): Promise<Tokens> => {
  const now = () => Math.floor(Date.now() / 1000)
  if (old !== undefined && old.refreshToken.value !== "") {
    try {
      const r = await grant({ clientId: CLIENT_ID, grantType: "refresh_token", refreshToken: old.refreshToken.value })
      return { accessToken: { value: r.access_token, expiresAt: now() + r.expires_in }, refreshToken: old.refreshToken }
    } catch (e) {
      const status = (e as { status?: number }).status
      if (status === undefined || status < 400 || status >= 500) throw e
    }
  }
  const r = await grant({ clientId: CLIENT_ID, grantType: "anonymous" })
  return { accessToken: { value: r.access_token, expiresAt: now() + r.expires_in }, refreshToken: { value: r.refresh_token, role: "visitor" } }
}

/** Looks again under the lock (another tab may have just saved tokens), renews, and saves in the shared store. */
const renewAndSave = async (): Promise<string> => {
  const { doc, tokens } = load()
  if (usable(tokens)) return tokens.accessToken.value
  const fresh = await renew(tokens)
  localStorage.setItem(SESSION_KEY, JSON.stringify({ ...doc, tokens: fresh }))
  return fresh.accessToken.value
}

/**
 * A usable access token, saved where the full app's session reads it. The Web Lock is `tabTokenStore`'s
 * (`<key>.refresh`), held 100 ms longer as it holds it, so other tabs see the saved tokens; without Web
 * Locks the bootstrap leaves the tokens to the full app (its storage lock is not worth copying here).
 */
export const visitorToken = (): Promise<string | undefined> => {
  const { tokens } = load()
  if (usable(tokens)) return Promise.resolve(tokens.accessToken.value)
  const locks = (navigator as { locks?: LockManager }).locks
  if (locks === undefined) return Promise.resolve(undefined)
  return new Promise((resolve, reject) => {
    void locks.request(`${SESSION_KEY}.refresh`, () =>
      renewAndSave().then(
        (token) => (resolve(token), new Promise((r) => setTimeout(r, 100))),
        (e: unknown) => reject(e)
      ))
  })
}

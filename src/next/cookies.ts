/**
 * A session kept in two cookies, read by the server and the browser alike (no Effect, no Next.js import):
 *
 * - `sitefx.session`, readable by the page: the access token, its expiry, the role, and the id of the
 *   refresh token it goes with (a random id, not the token). The page calls the platform with it.
 * - `sitefx.session.refresh`, httpOnly: the refresh token and a redirect login's PKCE data. Only the
 *   app's server reads and writes it (the proxy, the session route); the page never sees a refresh token
 *   after it is saved.
 *
 * Both are base64url JSON, so no character needs escaping in a cookie header.
 */
import { fromBase64url } from "../http/codec.ts"
import { OAuthData as OAuthDataGuard } from "../session/guards/tokens.ts"
import { base64url } from "../http/dotR.ts"
import { EMPTY_TOKENS, isExpired, type OAuthData, type StoredSession } from "../session/storedSession.ts"
import { TOKEN_ROLES } from "../session/protocol.ts"
import type { TokenRole, Tokens } from "../session/wire/tokens.ts"

/** The readable cookie's name by default; the httpOnly one adds `.refresh`. */
export const DEFAULT_COOKIE = "sitefx.session"

/** The httpOnly cookie that goes with the readable cookie `name`. */
export const refreshCookieName = (name: string): string => `${name}.refresh`

/** What the page can read: the access token, when it expires (epoch seconds), the role and the refresh token's id. */
export interface ReadableCookie {
  readonly a: string
  readonly e: number
  readonly r: TokenRole
  readonly s: string
}

/** What only the server reads: the refresh token, its role and id, and a redirect login in progress. */
export interface PrivateCookie {
  readonly t: string
  readonly r: TokenRole
  readonly s: string
  readonly o?: OAuthData | undefined
}

/** The refresh token's stand-in in a page's view of the session: it names the token without being it. */
export const REFRESH_STAND_IN = "sid:"

const isRole = (value: unknown): value is TokenRole => typeof value === "string" && (TOKEN_ROLES as ReadonlyArray<string>).includes(value)
const isString = (value: unknown): value is string => typeof value === "string"

const parse = (text: string | undefined): Record<string, unknown> | undefined => {
  if (text === undefined || text === "") return undefined
  try {
    const value: unknown = JSON.parse(fromBase64url(text))
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/** The readable cookie's value, or undefined when it is missing or not one of sitefx's. */
export const readReadable = (text: string | undefined): ReadableCookie | undefined => {
  const v = parse(text)
  if (v === undefined || !isString(v["a"]) || typeof v["e"] !== "number" || !isRole(v["r"]) || !isString(v["s"])) return undefined
  return { a: v["a"], e: v["e"], r: v["r"], s: v["s"] }
}

/** The PKCE data, checked by the guard the token stores read it with. */
const isOAuthData = (v: unknown): v is OAuthData => v !== undefined && OAuthDataGuard(v) === undefined

/** The httpOnly cookie's value, or undefined when it is missing or not one of sitefx's. */
export const readPrivate = (text: string | undefined): PrivateCookie | undefined => {
  const v = parse(text)
  if (v === undefined || !isString(v["t"]) || !isRole(v["r"]) || !isString(v["s"])) return undefined
  const o = v["o"]
  return { t: v["t"], r: v["r"], s: v["s"], ...(isOAuthData(o) ? { o } : {}) }
}

export const writeReadable = (cookie: ReadableCookie): string => base64url(JSON.stringify(cookie))
export const writePrivate = (cookie: PrivateCookie): string => base64url(JSON.stringify(cookie))

/**
 * The whole session, as the server sees it: the two cookies together. Cookies that do not belong
 * together (a refresh token of another id) count as no access token, so the next call renews it.
 */
export const sessionOfCookies = (readable: ReadableCookie | undefined, secret: PrivateCookie | undefined): StoredSession => {
  if (secret === undefined) return { tokens: EMPTY_TOKENS }
  const access = readable !== undefined && readable.s === secret.s ? { value: readable.a, expiresAt: readable.e } : EMPTY_TOKENS.accessToken
  return { tokens: { accessToken: access, refreshToken: { value: secret.t, role: secret.r } }, ...(secret.o === undefined ? {} : { oauthData: secret.o }) }
}

/** The session as the page sees it: the refresh token stands in as its id. */
export const pageSessionOf = (readable: ReadableCookie | undefined): StoredSession =>
  readable === undefined
    ? { tokens: EMPTY_TOKENS }
    : { tokens: { accessToken: { value: readable.a, expiresAt: readable.e }, refreshToken: { value: `${REFRESH_STAND_IN}${readable.s}`, role: readable.r } } }

const newId = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
}

/** The two cookies' values for a session; `previous` keeps the id when the refresh token is the same one. An empty session has none. */
export const cookiesOfSession = (
  session: StoredSession,
  previous: PrivateCookie | undefined
): { readonly readable: ReadableCookie; readonly secret: PrivateCookie } | undefined => {
  const { accessToken, refreshToken } = session.tokens
  if (refreshToken.value === "" && session.oauthData === undefined) return undefined
  const s = previous !== undefined && previous.t === refreshToken.value ? previous.s : newId()
  return {
    readable: { a: accessToken.value, e: accessToken.expiresAt, r: refreshToken.role, s },
    secret: { t: refreshToken.value, r: refreshToken.role, s, ...(session.oauthData === undefined ? {} : { o: session.oauthData }) }
  }
}

/**
 * A document a page sends to be saved, with the refresh token as the page knows it: its stand-in means
 * "the one the server holds" (when the ids agree), anything else is a token the page just received (a
 * login) or none (a logout).
 */
export const resolveStandIn = (sent: StoredSession, held: PrivateCookie | undefined): StoredSession => {
  const value = sent.tokens.refreshToken.value
  if (!value.startsWith(REFRESH_STAND_IN)) return sent
  if (held === undefined || value !== `${REFRESH_STAND_IN}${held.s}`) return { ...sent, tokens: EMPTY_TOKENS }
  return { ...sent, tokens: { ...sent.tokens, refreshToken: { value: held.t, role: held.r } } }
}

/** Renewal is due: no access token, or one that expires within `marginSeconds`. */
export const renewalDue = (tokens: Tokens, nowSeconds: number, marginSeconds: number): boolean =>
  isExpired(tokens, nowSeconds + marginSeconds)

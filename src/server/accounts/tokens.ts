/**
 * Signed access tokens: compact JWTs (HS256) with a per-database secret. The token carries everything
 * a request needs to know about its caller; expiry is judged by the server clock, not the wall clock.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto"

export type AccessRole = "visitor" | "member"

export interface AccessClaims {
  readonly sub: string
  readonly role: AccessRole
  readonly clientId: string
  readonly iat: number
  readonly exp: number
  readonly jti: string
}

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url")

const sign = (secret: Uint8Array, input: string): Buffer => createHmac("sha256", secret).update(input).digest()

/** Signs claims issued at `nowSeconds`, valid for `ttlSeconds`. */
export const signAccessToken = (
  secret: Uint8Array,
  subject: { readonly sub: string; readonly role: AccessRole; readonly clientId: string },
  nowSeconds: number,
  ttlSeconds: number
): { readonly token: string; readonly claims: AccessClaims } => {
  const claims: AccessClaims = { ...subject, iat: nowSeconds, exp: nowSeconds + ttlSeconds, jti: randomUUID() }
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`
  return { token: `${body}.${sign(secret, body).toString("base64url")}`, claims }
}

export type VerifyFailure = "malformed" | "signature" | "expired"

const isClaims = (u: unknown): u is AccessClaims => {
  if (typeof u !== "object" || u === null) return false
  const c = u as Record<string, unknown>
  return typeof c.sub === "string" && (c.role === "visitor" || c.role === "member") &&
    typeof c.clientId === "string" && typeof c.iat === "number" && typeof c.exp === "number" &&
    typeof c.jti === "string"
}

const parseJson = (segment: string): unknown => {
  try {
    return JSON.parse(Buffer.from(segment, "base64url").toString("utf8"))
  } catch {
    return undefined
  }
}

/** Checks the header, the signature (constant time) and the expiry, in that order. */
export const verifyAccessToken = (
  secret: Uint8Array,
  token: string,
  nowSeconds: number
): { readonly ok: true; readonly claims: AccessClaims } | { readonly ok: false; readonly reason: VerifyFailure } => {
  const parts = token.split(".")
  if (parts.length !== 3) return { ok: false, reason: "malformed" }
  const [header, payload, signature] = parts as [string, string, string]
  const head = parseJson(header) as { alg?: unknown } | undefined
  // only HS256: "none" and any other algorithm are refused before looking at the signature
  if (head === undefined || head.alg !== "HS256") return { ok: false, reason: "malformed" }
  const expected = sign(secret, `${header}.${payload}`)
  const actual = Buffer.from(signature, "base64url")
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return { ok: false, reason: "signature" }
  const claims = parseJson(payload)
  if (!isClaims(claims)) return { ok: false, reason: "malformed" }
  if (claims.exp <= nowSeconds) return { ok: false, reason: "expired" }
  return { ok: true, claims }
}

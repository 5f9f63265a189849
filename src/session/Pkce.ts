/**
 * PKCE for the authorization-code flow: a random verifier (43–128 chars of `A-Z a-z 0-9 - . _ ~`),
 * its S256 challenge, and a random `state`. Web Crypto only, so it runs in browsers and Node alike.
 */
import * as Effect from "effect/Effect"
import { base64url } from "../http/codec.ts"

/** The characters a PKCE code verifier is drawn from (RFC 7636's unreserved ones). */
export const VERIFIER_CHARSET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"

/** A uniformly random verifier; bytes that would bias the charset are drawn again. */
export const randomVerifier = (length = 43): string => {
  if (!Number.isInteger(length) || length < 43 || length > 128) {
    throw new RangeError(`a PKCE verifier has 43 to 128 characters, not ${length}`)
  }
  const n = VERIFIER_CHARSET.length
  const limit = 256 - (256 % n)
  let out = ""
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < limit && out.length < length) out += VERIFIER_CHARSET[byte % n]
    }
  }
  return out
}

const bytesToBase64url = (bytes: Uint8Array): string => base64url(String.fromCharCode(...bytes), "latin1")

/** base64url(SHA-256(verifier)), no padding. */
export const challengeOf = (verifier: string): Effect.Effect<string> =>
  Effect.promise(() => crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).pipe(
    Effect.map((digest) => bytesToBase64url(new Uint8Array(digest)))
  )

/** `challengeOf` as a Promise, for a page's first script (no Effect); written apart so neither page carries the other's. */
export const challengePromise = async (verifier: string): Promise<string> =>
  bytesToBase64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))))

/** A 43-character random base64url value (32 random bytes). */
export const randomState = (): string => bytesToBase64url(crypto.getRandomValues(new Uint8Array(32)))

/** One login's PKCE data: the secret verifier, the challenge sent in its place, and the state the callback must echo. */
export interface Pkce {
  /** Kept secret until the code exchange. */
  readonly codeVerifier: string
  /** base64url(SHA-256(codeVerifier)), sent with the login. */
  readonly codeChallenge: string
  readonly state: string
}

/** Fresh PKCE data for one login: a verifier of `length` characters (43 by default), its challenge and a state. */
export const makePkce = (length?: number): Effect.Effect<Pkce> =>
  Effect.suspend(() => {
    const codeVerifier = randomVerifier(length)
    return Effect.map(challengeOf(codeVerifier), (codeChallenge) => ({ codeVerifier, codeChallenge, state: randomState() }))
  })

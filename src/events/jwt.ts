/**
 * Verifies the compact JWS a webhook body is: RS256 (RSASSA-PKCS1-v1_5 with SHA-256) against the
 * site's SPKI public key, through WebCrypto only (`globalThis.crypto.subtle`), so it runs the same on
 * Node 22+, Deno, Bun, browsers and edge runtimes.
 *
 * What is refused, each with its own reason (reasons.ts): a token that is not three base64url parts
 * holding a JSON header and a JSON object of claims (`Malformed`); any algorithm but RS256, including
 * `none`, the HMAC family (where a public key would be misused as a shared secret), RS384/RS512 and the
 * PSS and elliptic-curve ones (`UnsupportedAlgorithm`); a header with critical extensions sitefx does
 * not know (`UnsupportedAlgorithm`); a signature that does not verify with the key (`BadSignature`); an
 * `exp` at or before now (`Expired`) and an `nbf` after now (`NotYetValid`), both with a small leeway.
 * `iat`, `iss` and `aud` are not checked (webhooks carry no audience); when present, `exp`, `nbf` and
 * `iat` must be numbers.
 *
 * The algorithm is checked before anything else is trusted, and the claims are parsed only after the
 * signature verified.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { BadSignature, Expired, InvalidKey, type JwtErrorReason, Malformed, NotYetValid, UnsupportedAlgorithm } from "./reasons.ts"

/** Why a token or key was refused (one of the tagged reasons of reasons.ts). */
export type JwtFailure = JwtErrorReason

/**
 * A refused token or key; `reason` says why. The message (the reason's) says what was wrong with the
 * token; it never quotes the key.
 */
export class JwtError extends Data.TaggedError("JwtError")<{ readonly reason: JwtErrorReason }> {
  override get message(): string {
    return this.reason.message
  }
}

/** The verified claims of a token. */
export type Claims = { readonly [claim: string]: unknown }

/** The only algorithm a webhook may be signed with. */
export const ALGORITHM = "RS256"

/** Leeway for `exp` and `nbf` when none is given, in seconds: clocks of sender and receiver differ a little. */
export const DEFAULT_LEEWAY_SECONDS = 30

/** How a webhook token's times are checked: the clock leeway and the current time. */
export interface VerifyOptions {
  /** Seconds of clock difference tolerated on `exp` and `nbf` (30 unless given; 0 is exact). */
  readonly leewaySeconds?: number
  /** The current time in milliseconds since the epoch (`Date.now` unless given; tests pass a fixed time). */
  readonly now?: () => number
}

const fail = (reason: JwtErrorReason) => new JwtError({ reason })

const RSA_PKCS1_SHA256 = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const

const subtle = (): SubtleCrypto | undefined => globalThis.crypto?.subtle

const BASE64URL = /^[A-Za-z0-9_-]*$/
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** base64url (no padding) to bytes, or undefined when it is not base64url. */
const fromBase64url = (part: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!BASE64URL.test(part) || part.length % 4 === 1) return undefined
  return fromBase64(part.replace(/-/g, "+").replace(/_/g, "/"))
}

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> | undefined => {
  const padded = text.length % 4 === 0 ? text : text + "=".repeat(4 - (text.length % 4))
  if (!BASE64.test(padded)) return undefined
  let binary: string
  try {
    binary = atob(padded)
  } catch {
    return undefined
  }
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** A base64url part holding a JSON object, or undefined. */
const jsonObject = (part: string): Record<string, unknown> | undefined => {
  const bytes = fromBase64url(part)
  if (bytes === undefined) return undefined
  try {
    const value: unknown = JSON.parse(utf8.decode(bytes))
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

const PEM = /-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----/

/**
 * The DER bytes of an SPKI public key given as PEM text, as the base64 of that PEM on one line (how an
 * app's dashboard hands it out), or as the bare base64 of the DER; undefined otherwise.
 */
const spkiBytes = (publicKey: string): Uint8Array<ArrayBuffer> | undefined => {
  const text = publicKey.trim()
  if (text.includes("-----BEGIN")) {
    const pem = PEM.exec(text)
    return pem === null ? undefined : fromBase64(pem[1]!.replace(/\s+/g, ""))
  }
  const decoded = fromBase64(text.replace(/\s+/g, ""))
  if (decoded === undefined) return undefined
  // the base64 of a PEM decodes to text starting with its armour; anything else is taken as DER
  let asText: string | undefined
  try {
    asText = utf8.decode(decoded)
  } catch {
    asText = undefined
  }
  return asText !== undefined && asText.trimStart().startsWith("-----BEGIN") ? spkiBytes(asText) : decoded
}

/**
 * Imports an RSA SPKI public key for RS256 verification. Fails with `InvalidKey` when the text is not
 * such a key (a private key, a PKCS#1 `RSA PUBLIC KEY`, an EC key, or not a key at all) or the runtime
 * has no WebCrypto.
 */
export const importPublicKey = (publicKey: string): Effect.Effect<CryptoKey, JwtError> =>
  Effect.suspend(() => {
    const crypto = subtle()
    if (crypto === undefined) return Effect.fail(fail(new InvalidKey({ message: "This runtime has no WebCrypto (globalThis.crypto.subtle)" })))
    const der = spkiBytes(publicKey)
    if (der === undefined) {
      return Effect.fail(fail(new InvalidKey({ message: "The public key is not an SPKI public key in PEM (or the base64 of one)" })))
    }
    return Effect.tryPromise({
      try: () => crypto.importKey("spki", der, RSA_PKCS1_SHA256, false, ["verify"]),
      catch: () => fail(new InvalidKey({ message: "The public key is not an RSA SPKI public key" }))
    })
  })

const numericDate = (claims: Claims, name: string): number | undefined | JwtError => {
  const value = claims[name]
  if (value === undefined) return undefined
  return typeof value === "number" && Number.isFinite(value) ? value : fail(new Malformed({ message: `The "${name}" claim is not a number` }))
}

/**
 * The claims of `token` once its header names RS256, its signature verifies with `key` (from
 * {@link importPublicKey}) and its `exp` and `nbf` allow now; a {@link JwtError} saying why not otherwise.
 */
export const verify = (token: string, key: CryptoKey, options: VerifyOptions = {}): Effect.Effect<Claims, JwtError> =>
  Effect.suspend(() => {
    const crypto = subtle()
    if (crypto === undefined) return Effect.fail(fail(new InvalidKey({ message: "This runtime has no WebCrypto (globalThis.crypto.subtle)" })))
    const parts = token.split(".")
    if (parts.length !== 3) return Effect.fail(fail(new Malformed({ message: "The token is not a compact JWS (three dot-separated parts)" })))
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
    const header = jsonObject(headerPart)
    if (header === undefined) return Effect.fail(fail(new Malformed({ message: "The token's header is not base64url JSON" })))
    const alg = header["alg"]
    if (alg !== ALGORITHM) {
      return Effect.fail(fail(new UnsupportedAlgorithm({ message: `The token's algorithm ${typeof alg === "string" ? `"${alg}"` : "(none given)"} is not ${ALGORITHM}` })))
    }
    if (header["crit"] !== undefined) return Effect.fail(fail(new UnsupportedAlgorithm({ message: "The token's header has critical extensions" })))
    const signature = fromBase64url(signaturePart)
    if (signature === undefined || signature.length === 0) return Effect.fail(fail(new Malformed({ message: "The token's signature is not base64url" })))
    if (!BASE64URL.test(payloadPart)) return Effect.fail(fail(new Malformed({ message: "The token's payload is not base64url" })))
    const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`)
    return Effect.tryPromise({
      try: () => crypto.verify(RSA_PKCS1_SHA256, key, signature, signed),
      catch: () => fail(new BadSignature({ message: "The token's signature could not be verified with the key" }))
    }).pipe(
      Effect.flatMap((valid) => {
        if (!valid) return Effect.fail(fail(new BadSignature({ message: "The token's signature does not verify with the key" })))
        const claims = jsonObject(payloadPart)
        if (claims === undefined) return Effect.fail(fail(new Malformed({ message: "The token's claims are not a base64url JSON object" })))
        return checkTimes(claims, options)
      })
    )
  })

const checkTimes = (claims: Claims, options: VerifyOptions): Effect.Effect<Claims, JwtError> => {
  const exp = numericDate(claims, "exp")
  if (exp instanceof JwtError) return Effect.fail(exp)
  const nbf = numericDate(claims, "nbf")
  if (nbf instanceof JwtError) return Effect.fail(nbf)
  const iat = numericDate(claims, "iat")
  if (iat instanceof JwtError) return Effect.fail(iat)
  const now = (options.now ?? Date.now)() / 1000
  const leeway = Math.max(0, options.leewaySeconds ?? DEFAULT_LEEWAY_SECONDS)
  if (exp !== undefined && exp <= now - leeway) return Effect.fail(fail(new Expired({ message: "The token has expired" })))
  if (nbf !== undefined && nbf > now + leeway) return Effect.fail(fail(new NotYetValid({ message: "The token is not valid yet" })))
  return Effect.succeed(claims)
}

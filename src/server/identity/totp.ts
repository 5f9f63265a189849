/**
 * One-time passwords for MFA: HOTP (RFC 4226) and TOTP (RFC 6238) with base32 secrets, as
 * authenticator apps expect them (SHA-1, 30-second steps, 6 digits by default).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** RFC 4648 base32 without padding. */
export const base32Encode = (bytes: Uint8Array): string => {
  let bits = 0
  let value = 0
  let out = ""
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

/** Accepts lower case, spaces and padding; undefined for anything else. */
export const base32Decode = (text: string): Buffer | undefined => {
  const clean = text.replace(/[\s=]/g, "").toUpperCase()
  let bits = 0
  let value = 0
  const out: Array<number> = []
  for (const char of clean) {
    const index = ALPHABET.indexOf(char)
    if (index < 0) return undefined
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

export type HashAlgorithm = "sha1" | "sha256" | "sha512"

export interface TotpOptions {
  readonly step?: number
  readonly digits?: number
  readonly algorithm?: HashAlgorithm
}

export const hotp = (secret: Uint8Array, counter: number, digits = 6, algorithm: HashAlgorithm = "sha1"): string => {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac(algorithm, secret).update(message).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
  return String(binary % 10 ** digits).padStart(digits, "0")
}

/** The code for a moment given in epoch seconds. */
export const totp = (secret: Uint8Array, epochSeconds: number, options: TotpOptions = {}): string =>
  hotp(secret, Math.floor(epochSeconds / (options.step ?? 30)), options.digits ?? 6, options.algorithm ?? "sha1")

/** True when `code` matches the current step or one step either side (clock drift). */
export const verifyTotp = (secret: Uint8Array, code: string, epochSeconds: number, options: TotpOptions = {}): boolean => {
  const digits = options.digits ?? 6
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return false
  const step = options.step ?? 30
  const counter = Math.floor(epochSeconds / step)
  let ok = false
  for (const c of [counter - 1, counter, counter + 1]) {
    if (c < 0) continue
    const expected = Buffer.from(hotp(secret, c, digits, options.algorithm ?? "sha1"))
    // no early exit: every candidate is compared
    if (timingSafeEqual(expected, Buffer.from(code))) ok = true
  }
  return ok
}

/** A fresh 160-bit secret, base32-encoded. */
export const generateTotpSecret = (): string => base32Encode(randomBytes(20))

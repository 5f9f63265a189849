/**
 * Opaque secrets (refresh tokens, codes, session and state tokens, API keys): random, prefixed so a
 * leaked value says what it is, and stored only as a SHA-256 digest. They are high-entropy, so a fast
 * digest is enough; passwords use scrypt instead (passwords.ts).
 */
import { createHash, createHmac, randomBytes } from "node:crypto"

/** `<prefix>_<43 base64url chars>` (256 random bits). */
export const opaqueToken = (prefix: string): string => `${prefix}_${randomBytes(32).toString("base64url")}`

/** What the database keeps instead of the secret. */
export const digest = (secret: string): string => createHash("sha256").update(secret).digest("base64url")

/** A value derived from a key and a label; stable for the same inputs. */
export const derive = (key: Uint8Array, label: string): string =>
  createHmac("sha256", key).update(label).digest("base64url")

/** A short numeric code for humans (e-mail and SMS verification). */
export const numericCode = (digits = 6): string => {
  const max = 10 ** digits
  // rejection sampling keeps every code equally likely
  const limit = Math.floor(0x1_0000_0000 / max) * max
  for (;;) {
    const n = randomBytes(4).readUInt32BE(0)
    if (n < limit) return String(n % max).padStart(digits, "0")
  }
}

/**
 * Member passwords: scrypt with a random salt per password. The stored string carries its own cost
 * parameters, so stronger settings can be introduced without invalidating existing hashes.
 */
import * as Effect from "effect/Effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

const N = 16384
const R = 8
const P = 1
const KEY_LENGTH = 32
const SALT_LENGTH = 16

const derive = (password: string, salt: Buffer, n: number, r: number, p: number, length: number) =>
  Effect.callback<Buffer>((resume) => {
    // the async variant keeps the event loop free while other requests are served
    scrypt(password.normalize("NFC"), salt, length, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (error, key) => {
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    })
  })

/** `scrypt$N$r$p$<salt base64url>$<key base64url>` */
export const hashPassword = (password: string): Effect.Effect<string> =>
  Effect.gen(function*() {
    const salt = randomBytes(SALT_LENGTH)
    const key = yield* derive(password, salt, N, R, P, KEY_LENGTH)
    return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`
  })

/** Compares in constant time; a malformed stored value never matches. */
export const verifyPassword = (password: string, stored: string): Effect.Effect<boolean> =>
  Effect.gen(function*() {
    const parts = stored.split("$")
    if (parts.length !== 6 || parts[0] !== "scrypt") return false
    const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
    if (![n, r, p].every((x) => Number.isInteger(x) && x > 0)) return false
    const salt = Buffer.from(parts[4] ?? "", "base64url")
    const expected = Buffer.from(parts[5] ?? "", "base64url")
    if (salt.length === 0 || expected.length === 0) return false
    const actual = yield* derive(password, salt, n, r, p, expected.length)
    return timingSafeEqual(actual, expected)
  })

/** The platform's minimum: at least 6 characters, not only spaces. */
export const passwordProblem = (password: string): string | undefined =>
  password.trim().length < 6 ? "Password must be at least 6 characters long" : undefined

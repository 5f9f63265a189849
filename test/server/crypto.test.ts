import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { hashPassword, verifyPassword } from "../../src/server/accounts/passwords.ts"
import { signAccessToken, verifyAccessToken } from "../../src/server/accounts/tokens.ts"
import { base32Decode, base32Encode, hotp, totp, verifyTotp } from "../../src/server/identity/totp.ts"

describe("TOTP (RFC 6238 appendix B vectors, 8 digits)", () => {
  const seeds = {
    sha1: Buffer.from("12345678901234567890"),
    sha256: Buffer.from("12345678901234567890123456789012"),
    sha512: Buffer.from("1234567890123456789012345678901234567890123456789012345678901234")
  } as const
  const vectors: ReadonlyArray<readonly [number, string, string, string]> = [
    [59, "94287082", "46119246", "90693936"],
    [1111111109, "07081804", "68084774", "25091201"],
    [1111111111, "14050471", "67062674", "99943326"],
    [1234567890, "89005924", "91819424", "93441116"],
    [2000000000, "69279037", "90698825", "38618901"],
    [20000000000, "65353130", "77737706", "47863826"]
  ]
  for (const [time, sha1, sha256, sha512] of vectors) {
    it(`T = ${time}`, () => {
      assert.strictEqual(totp(seeds.sha1, time, { digits: 8, algorithm: "sha1" }), sha1)
      assert.strictEqual(totp(seeds.sha256, time, { digits: 8, algorithm: "sha256" }), sha256)
      assert.strictEqual(totp(seeds.sha512, time, { digits: 8, algorithm: "sha512" }), sha512)
    })
  }

  it("HOTP matches RFC 4226 appendix D", () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
    expected.forEach((code, counter) => assert.strictEqual(hotp(seeds.sha1, counter), code))
  })

  it("accepts one step of drift either way, nothing further, and only 6 digits", () => {
    const secret = seeds.sha1
    const now = 1_700_000_000
    const code = totp(secret, now)
    assert.isTrue(verifyTotp(secret, code, now))
    assert.isTrue(verifyTotp(secret, code, now + 30))
    assert.isTrue(verifyTotp(secret, code, now - 30))
    assert.isFalse(verifyTotp(secret, code, now + 90))
    assert.isFalse(verifyTotp(secret, code, now - 90))
    assert.isFalse(verifyTotp(secret, `${code}0`, now))
    assert.isFalse(verifyTotp(secret, "abcdef", now))
  })

  it("base32 round-trips and reads the RFC 4648 vectors", () => {
    assert.strictEqual(base32Encode(Buffer.from("foobar")), "MZXW6YTBOI")
    assert.strictEqual(base32Encode(Buffer.from("f")), "MY")
    assert.strictEqual(base32Decode("mzxw6ytboi======")?.toString(), "foobar")
    assert.strictEqual(base32Decode("MZXW 6YTB OI")?.toString(), "foobar")
    assert.isUndefined(base32Decode("not base32!"))
    const bytes = Buffer.from([0, 1, 2, 250, 251, 255, 7])
    assert.deepStrictEqual(base32Decode(base32Encode(bytes)), bytes)
  })
})

describe("passwords", () => {
  it.effect("scrypt hashes carry their parameters and a random salt; the password is not in them", () =>
    Effect.gen(function*() {
      const a = yield* hashPassword("correct horse")
      const b = yield* hashPassword("correct horse")
      assert.match(a, /^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
      assert.notStrictEqual(a, b)
      assert.notInclude(a, "correct horse")
      assert.isTrue(yield* verifyPassword("correct horse", a))
      assert.isTrue(yield* verifyPassword("correct horse", b))
      assert.isFalse(yield* verifyPassword("correct horsE", a))
      assert.isFalse(yield* verifyPassword("", a))
      assert.isFalse(yield* verifyPassword("correct horse", "plain text"))
      assert.isFalse(yield* verifyPassword("correct horse", "scrypt$16384$8$1$$"))
    }))
})

describe("access tokens", () => {
  const secret = Buffer.from("0123456789abcdef0123456789abcdef")
  const subject = { sub: "m1", role: "member" as const, clientId: "c1" }

  it("verifies its own tokens until they expire", () => {
    const { token, claims } = signAccessToken(secret, subject, 1000, 60)
    assert.deepInclude(claims, { ...subject, iat: 1000, exp: 1060 })
    const ok = verifyAccessToken(secret, token, 1059)
    assert.isTrue(ok.ok)
    assert.deepStrictEqual(verifyAccessToken(secret, token, 1060), { ok: false, reason: "expired" })
  })

  it("refuses another secret, tampered claims, alg none and garbage", () => {
    const { token } = signAccessToken(secret, subject, 1000, 60)
    assert.deepStrictEqual(verifyAccessToken(Buffer.from("another secret"), token, 1000), { ok: false, reason: "signature" })
    const [header, payload, signature] = token.split(".") as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString())
    const forged = Buffer.from(JSON.stringify({ ...claims, role: "admin", sub: "m2" })).toString("base64url")
    assert.deepStrictEqual(verifyAccessToken(secret, `${header}.${forged}.${signature}`, 1000), { ok: false, reason: "signature" })
    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")
    assert.deepStrictEqual(verifyAccessToken(secret, `${none}.${payload}.`, 1000), { ok: false, reason: "malformed" })
    assert.deepStrictEqual(verifyAccessToken(secret, "not-a-token", 1000), { ok: false, reason: "malformed" })
  })
})

/**
 * PKCE: verifier length and charset, the S256 challenge checked against node:crypto, the state value,
 * and a uniformity check of the verifier's characters (no modulo bias).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as fc from "fast-check"
import { createHash } from "node:crypto"
import { challengeOf, makePkce, randomState, randomVerifier, VERIFIER_CHARSET } from "../../../src/session/Pkce.ts"

const sha256base64url = (s: string) => createHash("sha256").update(s, "utf8").digest("base64url")
const VERIFIER = /^[A-Za-z0-9\-._~]+$/

describe("verifier", () => {
  it("the charset is exactly A-Z a-z 0-9 - . _ ~ (66 characters)", () => {
    assert.strictEqual(VERIFIER_CHARSET.length, 66)
    assert.strictEqual(new Set(VERIFIER_CHARSET).size, 66)
    assert.match(VERIFIER_CHARSET, VERIFIER)
  })

  it("is 43 characters by default, of the charset only", () => {
    for (let i = 0; i < 50; i++) {
      const v = randomVerifier()
      assert.strictEqual(v.length, 43)
      assert.match(v, VERIFIER)
    }
  })

  it("accepts every length from 43 to 128", () => {
    for (let n = 43; n <= 128; n++) {
      const v = randomVerifier(n)
      assert.strictEqual(v.length, n)
      assert.match(v, VERIFIER)
    }
  })

  it("rejects 42, 129 and non-integers", () => {
    for (const n of [42, 129, 0, -1, 43.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => randomVerifier(n), RangeError, undefined, String(n))
    }
  })

  it.effect("makePkce dies on an invalid length and honours a valid one", () =>
    Effect.gen(function*() {
      const bad = yield* Effect.exit(makePkce(129))
      assert.isTrue(Exit.isFailure(bad) && Exit.hasDies(bad))
      const ok = yield* makePkce(128)
      assert.strictEqual(ok.codeVerifier.length, 128)
    }))

  it("has no modulo bias: each of the 66 characters appears about equally often", () => {
    // 512 000 characters: about 7758 of each, standard deviation about 87. The band is ±10% (about 9
    // standard deviations): plain `byte % 66` would leave the last 8 characters about 23% short.
    const counts = new Map<string, number>()
    for (let i = 0; i < 4000; i++) {
      for (const c of randomVerifier(128)) counts.set(c, (counts.get(c) ?? 0) + 1)
    }
    assert.strictEqual(counts.size, 66)
    const expected = (4000 * 128) / 66
    for (const c of VERIFIER_CHARSET) {
      const n = counts.get(c) ?? 0
      assert.isTrue(Math.abs(n - expected) < expected * 0.1, `${c}: ${n} vs ${expected.toFixed(0)}`)
    }
  })
})

describe("challenge", () => {
  it.effect("matches the RFC 7636 appendix B example", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* challengeOf("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }))

  it("equals base64url(SHA-256(verifier)) computed with node:crypto (property)", async () => {
    const verifier = fc.string({ unit: fc.constantFrom(...VERIFIER_CHARSET), minLength: 43, maxLength: 128 })
    await fc.assert(
      fc.asyncProperty(verifier, async (v) => {
        const challenge = await Effect.runPromise(challengeOf(v))
        assert.strictEqual(challenge, sha256base64url(v))
        assert.match(challenge, /^[A-Za-z0-9_-]{43}$/)
      }),
      { numRuns: 200 }
    )
  })

  it.effect("makePkce pairs a verifier with its own challenge and a separate state", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 20; i++) {
        const pkce = yield* makePkce()
        assert.strictEqual(pkce.codeVerifier.length, 43)
        assert.strictEqual(pkce.codeChallenge, sha256base64url(pkce.codeVerifier))
        assert.match(pkce.state, /^[A-Za-z0-9_-]{43}$/)
        assert.notStrictEqual(pkce.state, pkce.codeVerifier)
      }
    }))
})

describe("state", () => {
  it("is 43 base64url characters, different every time", () => {
    const seen = new Set<string>()
    for (let i = 0; i < 500; i++) {
      const s = randomState()
      assert.match(s, /^[A-Za-z0-9_-]{43}$/)
      seen.add(s)
    }
    assert.strictEqual(seen.size, 500)
    // 32 random bytes: the last character carries 2 padding bits, so it is one of A E I M Q U Y c g k o s w 0 4 8
    assert.match(randomState().slice(-1), /[AEIMQUYcgkosw048]/)
  })
})

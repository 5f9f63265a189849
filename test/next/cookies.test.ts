/**
 * The two cookies of sitefx/next's session (src/next/cookies.ts): what goes in each and back out, the
 * refresh token's stand-in in the page's view, cookies that do not belong together, cookies that are
 * not sitefx's, and when an access token is due for renewal.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  cookiesOfSession,
  pageSessionOf,
  type PrivateCookie,
  readPrivate,
  readReadable,
  REFRESH_STAND_IN,
  renewalDue,
  resolveStandIn,
  sessionOfCookies,
  writePrivate,
  writeReadable
} from "../../src/next/cookies.ts"
import { EMPTY_TOKENS, type StoredSession } from "../../src/session/storedSession.ts"

const oauthData = {
  state: "state-1",
  codeVerifier: "verifier-1",
  codeChallenge: "challenge-1",
  redirectUri: "https://shop.example.com/api/sitefx",
  // a path with characters a cookie value may not hold as they are
  originalUri: "/account?tab=orders&q=\"größe; 42\"#top"
}

const member: StoredSession = {
  tokens: { accessToken: { value: "access-1", expiresAt: 2_000_000_000 }, refreshToken: { value: "refresh-1", role: "member" } }
}

/** A cookie value's characters: base64url only, so no header needs escaping. */
const COOKIE_SAFE = /^[A-Za-z0-9_-]*$/

const encoded = (text: string) => Buffer.from(text).toString("base64url")

describe("sitefx/next's session cookies", () => {
  it("carry a session there and back: tokens and a redirect login's PKCE data", () => {
    const session: StoredSession = { ...member, oauthData }
    const cookies = cookiesOfSession(session, undefined)!
    const readable = writeReadable(cookies.readable)
    const secret = writePrivate(cookies.secret)
    assert.match(readable, COOKIE_SAFE)
    assert.match(secret, COOKIE_SAFE)
    assert.deepStrictEqual(readReadable(readable), cookies.readable)
    assert.deepStrictEqual(readPrivate(secret), cookies.secret)
    assert.deepStrictEqual(sessionOfCookies(readReadable(readable), readPrivate(secret)), session)
    // the page's cookie holds neither the refresh token nor the PKCE data
    const page = JSON.parse(Buffer.from(readable, "base64url").toString())
    assert.deepStrictEqual(Object.keys(page).sort(), ["a", "e", "r", "s"])
    assert.notInclude(JSON.stringify(page), "refresh-1")
    assert.notInclude(JSON.stringify(page), "verifier-1")
  })

  it("keep the refresh token's id while the token is the same, and give a new token a new id", () => {
    const first = cookiesOfSession(member, undefined)!
    assert.strictEqual(first.readable.s, first.secret.s)
    assert.match(first.secret.s, /^[0-9a-f]{24}$/)
    const renewed = cookiesOfSession({ tokens: { ...member.tokens, accessToken: { value: "access-2", expiresAt: 2_000_000_100 } } }, first.secret)!
    assert.strictEqual(renewed.secret.s, first.secret.s)
    assert.strictEqual(renewed.readable.a, "access-2")
    const other = cookiesOfSession({ tokens: { ...member.tokens, refreshToken: { value: "refresh-2", role: "member" } } }, first.secret)!
    assert.notStrictEqual(other.secret.s, first.secret.s)
    assert.notStrictEqual(cookiesOfSession(member, undefined)!.secret.s, first.secret.s)
  })

  it("are none for an empty session, and only the PKCE data for a login started before any token", () => {
    assert.isUndefined(cookiesOfSession({ tokens: EMPTY_TOKENS }, undefined))
    const starting = cookiesOfSession({ tokens: EMPTY_TOKENS, oauthData }, undefined)!
    assert.deepStrictEqual(starting.secret.o, oauthData)
    assert.strictEqual(starting.secret.t, "")
  })

  it("show the page the refresh token by its stand-in, which the server resolves to the token it holds", () => {
    const cookies = cookiesOfSession(member, undefined)!
    const page = pageSessionOf(cookies.readable)
    assert.strictEqual(page.tokens.refreshToken.value, `${REFRESH_STAND_IN}${cookies.secret.s}`)
    assert.strictEqual(page.tokens.refreshToken.role, "member")
    assert.deepStrictEqual(page.tokens.accessToken, member.tokens.accessToken)
    assert.deepStrictEqual(pageSessionOf(undefined), { tokens: EMPTY_TOKENS })

    // the page saves its view (a redirect login starting): the server puts the held token back
    assert.deepStrictEqual(resolveStandIn({ ...page, oauthData }, cookies.secret), { ...member, oauthData })
    // a token the page just received (a login) is taken as it is
    const login: StoredSession = { tokens: { ...member.tokens, refreshToken: { value: "refresh-new", role: "member" } } }
    assert.deepStrictEqual(resolveStandIn(login, cookies.secret), login)
    // a stand-in of another token, or with nothing held, names nothing: no tokens
    const otherHeld: PrivateCookie = { ...cookies.secret, s: "0".repeat(24) }
    assert.deepStrictEqual(resolveStandIn(page, otherHeld), { tokens: EMPTY_TOKENS })
    assert.deepStrictEqual(resolveStandIn({ ...page, oauthData }, undefined), { tokens: EMPTY_TOKENS, oauthData })
  })

  it("that do not belong together count as no access token, keeping the refresh token", () => {
    const cookies = cookiesOfSession(member, undefined)!
    const stale = { ...cookies.readable, s: "f".repeat(24), a: "access-of-another-session" }
    const session = sessionOfCookies(stale, cookies.secret)
    assert.deepStrictEqual(session.tokens.accessToken, EMPTY_TOKENS.accessToken)
    assert.deepStrictEqual(session.tokens.refreshToken, member.tokens.refreshToken)
    assert.isTrue(renewalDue(session.tokens, 0, 0))
    // a readable cookie alone is no session: the server holds no refresh token for it
    assert.deepStrictEqual(sessionOfCookies(cookies.readable, undefined), { tokens: EMPTY_TOKENS })
    // no access cookie at all: renewal is due, the refresh token is kept
    assert.deepStrictEqual(sessionOfCookies(undefined, cookies.secret).tokens.refreshToken, member.tokens.refreshToken)
  })

  it("that are garbage or another app's read as no cookie, and so as an empty session", () => {
    const readableGarbage = [
      undefined,
      "",
      "not base64 at all %%%",
      encoded("not json"),
      encoded("null"),
      encoded("[1,2]"),
      encoded("\"a string\""),
      encoded(JSON.stringify({ a: "x", e: "soon", r: "member", s: "id" })),
      encoded(JSON.stringify({ a: "x", e: 1, r: "admin", s: "id" })),
      encoded(JSON.stringify({ a: 1, e: 1, r: "member", s: "id" })),
      encoded(JSON.stringify({ a: "x", e: 1, r: "member" }))
    ]
    for (const text of readableGarbage) assert.isUndefined(readReadable(text), String(text))
    const privateGarbage = [
      undefined,
      "",
      "@@@",
      encoded("{"),
      encoded(JSON.stringify({ t: "x", r: "owner", s: "id" })),
      encoded(JSON.stringify({ t: null, r: "member", s: "id" })),
      encoded(JSON.stringify({ r: "member", s: "id" }))
    ]
    for (const text of privateGarbage) assert.isUndefined(readPrivate(text), String(text))
    assert.deepStrictEqual(sessionOfCookies(readReadable("garbage"), readPrivate("garbage")), { tokens: EMPTY_TOKENS })
    // PKCE data that is not whole is dropped, the tokens kept
    const partial = readPrivate(encoded(JSON.stringify({ t: "refresh-1", r: "member", s: "id", o: { state: "s" } })))
    assert.deepStrictEqual(partial, { t: "refresh-1", r: "member", s: "id" })
    // fields the codec does not know are not carried into the session
    const extra = readReadable(encoded(JSON.stringify({ a: "x", e: 5, r: "visitor", s: "id", evil: true })))
    assert.deepStrictEqual(extra, { a: "x", e: 5, r: "visitor", s: "id" })
  })

  it("call for renewal with no access token, or one that expires within the margin", () => {
    const at = (expiresAt: number, value = "access") => ({ accessToken: { value, expiresAt }, refreshToken: { value: "r", role: "visitor" as const } })
    const now = 1_000_000
    assert.isTrue(renewalDue(EMPTY_TOKENS, now, 60))
    assert.isTrue(renewalDue(at(now + 3600, ""), now, 60))
    assert.isTrue(renewalDue(at(now - 1), now, 0))
    assert.isTrue(renewalDue(at(now + 59), now, 60))
    assert.isFalse(renewalDue(at(now + 61), now, 60))
    assert.isFalse(renewalDue(at(now + 59), now, 0))
    assert.isFalse(renewalDue(at(now), now, 0))
  })
})

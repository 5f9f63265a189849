import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { LocalPlatform } from "../../src/server/index.ts"
import {
  apiKey,
  authUrl,
  call,
  codeOf,
  dev,
  get,
  login,
  pkce,
  post,
  randomState,
  REDIRECT_URI,
  registerMember,
  visitor,
  withSettings
} from "./support.ts"

const TOKEN = "/oauth2/token"
const MY = "/members/v1/members/my"

/** A fresh authorization code for a new member, with its PKCE verifier. */
const freshCode = (options: { readonly silent?: boolean } = {}) =>
  Effect.gen(function*() {
    const redirectUri = options.silent === true ? undefined : REDIRECT_URI
    const member = yield* registerMember()
    const guest = yield* visitor
    const { verifier, challenge } = pkce()
    const state = randomState()
    const url = yield* authUrl(
      guest.access_token,
      {
        ...(redirectUri === undefined ? { responseMode: "web_message" } : { redirectUri }),
        codeChallenge: challenge,
        state,
        sessionToken: member.response.sessionToken
      },
      "none"
    )
    const page = yield* call("GET", url)
    const code = redirectUri === undefined
      ? /"code":"([^"]+)"/.exec(page.text)?.[1]
      : new URL(page.headers.get("location") ?? "").searchParams.get("code")
    assert.isString(code)
    return { code: code!, verifier, member }
  })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("POST /oauth2/token", (it) => {
  it.effect("anonymous: visitor tokens, 4 h by default, a request id on the answer", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const res = yield* post(TOKEN, { clientId: platform.clientId, grantType: "anonymous" })
      assert.strictEqual(res.status, 200)
      assert.strictEqual(res.body.expires_in, 14400)
      assert.strictEqual(res.body.token_type, "Bearer")
      assert.match(res.body.refresh_token, /^sfxrt_/)
      assert.match(res.headers.get("x-wix-request-id") ?? "", /^[0-9a-f-]{36}$/)
      const who = yield* get("/_sitefx/whoami", res.body.access_token)
      assert.deepStrictEqual(who.body, { kind: "visitor", id: who.body.id, role: "visitor", clientId: platform.clientId })
    }))

  it.effect("anonymous with an unknown client, a bad body or an unknown grant: 400 in the platform's shape", () =>
    Effect.gen(function*() {
      const unknown = yield* post(TOKEN, { clientId: "nobody", grantType: "anonymous" })
      assert.strictEqual(unknown.status, 400)
      assert.strictEqual(codeOf(unknown), "invalid_client")
      assert.isString(unknown.headers.get("x-wix-request-id"))
      const missing = yield* post(TOKEN, { grantType: "anonymous" })
      assert.strictEqual(missing.status, 400)
      assert.deepInclude(missing.body.details.validationError.fieldViolations[0], { field: "clientId", violatedRule: "REQUIRED_FIELD" })
      const notJson = yield* post(TOKEN, "{nope")
      assert.strictEqual(notJson.status, 400)
      assert.strictEqual(notJson.body.details.validationError.fieldViolations[0].violatedRule, "FORMAT")
      const grant = yield* post(TOKEN, { clientId: "x", grantType: "password" })
      assert.strictEqual(codeOf(grant), "unsupported_grant_type")
    }))

  it.effect("refresh_token: a new access token and the same refresh token, for visitors and members", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const guest = yield* visitor
      const renewed = yield* post(TOKEN, { clientId: platform.clientId, grantType: "refresh_token", refreshToken: guest.refresh_token })
      assert.strictEqual(renewed.status, 200)
      assert.strictEqual(renewed.body.refresh_token, guest.refresh_token)
      assert.notStrictEqual(renewed.body.access_token, guest.access_token)
      const before = (yield* get("/_sitefx/whoami", guest.access_token)).body
      const after = (yield* get("/_sitefx/whoami", renewed.body.access_token)).body
      assert.strictEqual(after.id, before.id)

      const member = yield* registerMember()
      const tokens = yield* login(member.email, member.password)
      const again = yield* post(TOKEN, { clientId: platform.clientId, grantType: "refresh_token", refreshToken: tokens.refresh_token })
      assert.strictEqual(again.status, 200)
      assert.strictEqual(again.body.refresh_token, tokens.refresh_token)
      assert.strictEqual((yield* get(MY, again.body.access_token)).body.member.id, member.id)
    }))

  it.effect("refresh_token: bound to its client; unknown tokens refused", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const guest = yield* visitor
      const other = yield* post(TOKEN, { clientId: "another-client", grantType: "refresh_token", refreshToken: guest.refresh_token })
      assert.strictEqual(other.status, 400)
      assert.strictEqual(codeOf(other), "invalid_client")
      const unknown = yield* post(TOKEN, { clientId: platform.clientId, grantType: "refresh_token", refreshToken: "sfxrt_nope" })
      assert.strictEqual(unknown.status, 400)
      assert.strictEqual(codeOf(unknown), "invalid_grant")
    }))

  it.effect("authorization_code: member tokens once; reuse, a wrong verifier, redirect URI or client are refused", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const { code, verifier, member } = yield* freshCode()
      const exchange = (body: Record<string, unknown>) =>
        post(TOKEN, { clientId: platform.clientId, grantType: "authorization_code", code, codeVerifier: verifier, redirectUri: REDIRECT_URI, ...body })

      const wrongVerifier = yield* exchange({ codeVerifier: pkce().verifier })
      assert.strictEqual(wrongVerifier.status, 400)
      assert.strictEqual(codeOf(wrongVerifier), "invalid_grant")
      const wrongRedirect = yield* exchange({ redirectUri: "http://localhost:5173/elsewhere" })
      assert.strictEqual(codeOf(wrongRedirect), "invalid_grant")
      const noRedirect = yield* post(TOKEN, { clientId: platform.clientId, grantType: "authorization_code", code, codeVerifier: verifier })
      assert.strictEqual(codeOf(noRedirect), "invalid_grant")
      const wrongClient = yield* exchange({ clientId: "nobody" })
      assert.strictEqual(codeOf(wrongClient), "invalid_client")

      // the refused attempts changed nothing: the code still works, once
      const ok = yield* exchange({})
      assert.strictEqual(ok.status, 200)
      assert.strictEqual(ok.body.scope, "offline_access")
      assert.strictEqual((yield* get(MY, ok.body.access_token)).body.member.id, member.id)
      const reused = yield* exchange({})
      assert.strictEqual(reused.status, 400)
      assert.strictEqual(codeOf(reused), "invalid_grant")
    }))

  it.effect("codes and session tokens live 10 minutes of server time", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const { code, verifier } = yield* freshCode()
      const member = yield* registerMember()
      yield* dev("POST", "/clock", { skewSeconds: 10 * 60 + 1 })
      const late = yield* post(TOKEN, { clientId: platform.clientId, grantType: "authorization_code", code, codeVerifier: verifier, redirectUri: REDIRECT_URI })
      const guest = yield* visitor
      const url = yield* authUrl(guest.access_token, {
        redirectUri: REDIRECT_URI,
        codeChallenge: pkce().challenge,
        state: randomState(),
        sessionToken: member.response.sessionToken
      }, "none")
      const page = yield* call("GET", url)
      yield* dev("POST", "/clock", { skewSeconds: 0 })
      assert.strictEqual(codeOf(late), "invalid_grant")
      assert.strictEqual(new URL(page.headers.get("location")!).searchParams.get("error"), "login_required")
    }))

  it.effect("authorization_code without a redirect URI (silent login) needs none in the exchange", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const { code, verifier } = yield* freshCode({ silent: true })
      const ok = yield* post(TOKEN, { clientId: platform.clientId, grantType: "authorization_code", code, codeVerifier: verifier })
      assert.strictEqual(ok.status, 200, ok.text)
    }))

  it.effect("authorized_client: member tokens for an API key, with or without a session token", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const key = yield* apiKey
      const guest = yield* visitor
      const member = yield* registerMember()
      const grant = { grant_type: "authorized_client", scope: "offline_access", member_id: member.id }

      const noKey = yield* post(TOKEN, grant, guest.access_token)
      assert.strictEqual(noKey.status, 401)
      const badKey = yield* post(TOKEN, grant, `${guest.access_token},sfx_key_wrong`)
      assert.strictEqual(badKey.status, 401)
      const unknownMember = yield* post(TOKEN, { ...grant, member_id: "no-such-member" }, `${guest.access_token},${key}`)
      assert.strictEqual(unknownMember.status, 400)
      assert.strictEqual(codeOf(unknownMember), "invalid_grant")

      const ok = yield* post(TOKEN, grant, `${guest.access_token},${key}`)
      assert.strictEqual(ok.status, 200)
      const who = (yield* get("/_sitefx/whoami", ok.body.access_token)).body
      assert.deepStrictEqual(who, { kind: "member", id: member.id, role: "member", clientId: platform.clientId })
      // the official client may send an empty access token before it has one
      assert.strictEqual((yield* post(TOKEN, grant, `,${key}`)).status, 200)

      const signOn = yield* post("/_api/iam/authentication/v2/sign-on", { loginId: { email: member.email } }, `${guest.access_token},${key}`)
      assert.strictEqual(signOn.status, 200)
      const other = yield* registerMember()
      const mismatch = yield* post(TOKEN, { ...grant, member_id: other.id, session_token: signOn.body.sessionToken }, `,${key}`)
      assert.strictEqual(codeOf(mismatch), "invalid_grant")
      const withSession = yield* post(TOKEN, { ...grant, session_token: signOn.body.sessionToken }, `,${key}`)
      assert.strictEqual(withSession.status, 200)
      const reused = yield* post(TOKEN, { ...grant, session_token: signOn.body.sessionToken }, `,${key}`)
      assert.strictEqual(codeOf(reused), "invalid_grant")
    }))

  it.effect("blocked members get no tokens and lose their refresh tokens", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const member = yield* registerMember()
      const tokens = yield* login(member.email, member.password)
      yield* dev("POST", `/members/${member.id}/block`)
      const refresh = yield* post(TOKEN, { clientId: platform.clientId, grantType: "refresh_token", refreshToken: tokens.refresh_token })
      assert.strictEqual(codeOf(refresh), "invalid_grant")
      assert.strictEqual((yield* get(MY, tokens.access_token)).status, 403)
      const key = yield* apiKey
      const external = yield* post(TOKEN, { grant_type: "authorized_client", member_id: member.id }, `,${key}`)
      assert.strictEqual(external.status, 403)
    }))

  it.effect("the token lifetime follows the site setting", () =>
    withSettings({ accessTokenTtlSeconds: 60 }, Effect.gen(function*() {
      const guest = yield* visitor
      assert.strictEqual(guest.expires_in, 60)
    })))

  it.effect("the server clock decides expiry: skewing it past the lifetime makes tokens answer 401", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const member = yield* registerMember()
      const tokens = yield* login(member.email, member.password)
      assert.strictEqual((yield* get(MY, tokens.access_token)).status, 200)
      yield* dev("POST", "/clock", { skewSeconds: tokens.expires_in + 1 })
      const expired = yield* get(MY, tokens.access_token)
      yield* dev("POST", "/clock", { skewSeconds: 0 })
      assert.strictEqual(expired.status, 401)
      assert.strictEqual(codeOf(expired), "EXPIRED_TOKEN")
      // the refresh token outlives the access token
      yield* dev("POST", "/clock", { skewSeconds: tokens.expires_in + 1 })
      const renewed = yield* post(TOKEN, { clientId: platform.clientId, grantType: "refresh_token", refreshToken: tokens.refresh_token })
      const after = yield* get(MY, renewed.body.access_token)
      yield* dev("POST", "/clock", { skewSeconds: 0 })
      assert.strictEqual(after.status, 200)
    }))

  it.effect("GET /members/v1/members/my: 401 without or with a bad token, 403 for visitors", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* get(MY)).status, 401)
      assert.strictEqual((yield* get(MY, "garbage")).status, 401)
      const guest = yield* visitor
      const forged = guest.access_token.slice(0, -2) + (guest.access_token.endsWith("AA") ? "BB" : "AA")
      assert.strictEqual((yield* get(MY, forged)).status, 401)
      assert.strictEqual((yield* get(MY, guest.access_token)).status, 403)
      const member = yield* registerMember()
      const tokens = yield* login(member.email, member.password)
      const me = yield* get(MY, tokens.access_token)
      assert.strictEqual(me.status, 200)
      assert.deepInclude(me.body.member, { id: member.id, loginEmail: member.email, status: "APPROVED" })
      assert.isString(me.body.member.contactId)
      assert.isString(me.body.member.profile.nickname)
    }))
})

/**
 * The platform's official client (`@wix/sdk` OAuthStrategy and createClient), unchanged, against the
 * local platform. The client calls fixed hosts through the global fetch, so the test rewrites those
 * hosts to the local platform's address and records the paths it called.
 */
import { assert, describe, it } from "@effect/vitest"
import { createClient, OAuthStrategy } from "@wix/sdk"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { officialClientsOnLocalPlatform } from "../support/official.ts"

// the official clients' hosts point at a local platform for this file
const onLocal = officialClientsOnLocalPlatform()
const originalFetch = onLocal.fetch
const called = onLocal.called

// dev endpoints and pages are reached directly, not through the rewritten fetch
const local = async (method: string, path: string, body?: unknown) => {
  const res = await originalFetch(`${onLocal.platform.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } })
  })
  assert.strictEqual(res.status, 200, `${method} ${path}`)
  return res.json()
}
const settings = async (patch: Record<string, unknown>) => local("PATCH", "/_sitefx/settings", patch)
const lastMessage = async (to: string, kind: string) => {
  const { messages } = await local("GET", `/_sitefx/outbox?to=${encodeURIComponent(to)}`)
  return (messages as Array<any>).filter((m) => m.kind === kind).at(-1)
}
let counter = 0
const uniqueEmail = () => `sdk-${process.pid}-${counter++}@example.com`
const PASSWORD = "sdk password 1"
const REDIRECT = "http://localhost:5173/callback"

const newAuth = () => OAuthStrategy({ clientId: onLocal.platform.clientId })

/** The client's state-machine results are a union; tests read them as plain records. */
const result = (value: unknown) => value as Record<string, unknown>
const apiKey = () => Redacted.value(onLocal.platform.apiKey)

/** A protected call with whatever tokens the strategy holds. */
const myMember = async (auth: ReturnType<typeof OAuthStrategy>) => {
  const client = createClient({ auth })
  const res = await client.fetchWithAuth(`${onLocal.platform.url}/members/v1/members/my`)
  return { status: res.status, body: await res.json() }
}

describe("official OAuthStrategy against the local platform", () => {
  it("generateVisitorTokens and renewToken: visitor tokens, then a new access token with the same refresh token", async () => {
    const auth = newAuth()
    const tokens = await auth.generateVisitorTokens()
    assert.strictEqual(tokens.refreshToken.role, "visitor")
    assert.isAbove(tokens.accessToken.value.length, 20)
    assert.approximately(tokens.accessToken.expiresAt, Math.floor(Date.now() / 1000) + 14400, 5)
    const renewed = await auth.renewToken(tokens.refreshToken)
    assert.notStrictEqual(renewed.accessToken.value, tokens.accessToken.value)
    assert.deepStrictEqual(renewed.refreshToken, tokens.refreshToken)
    // still-valid tokens come back as they are
    assert.strictEqual(await auth.generateVisitorTokens(tokens), tokens)
    assert.include(called, "POST /oauth2/token")
  })

  it("an unknown client fails with the client's own message, carrying the request id", async () => {
    const auth = OAuthStrategy({ clientId: "no-such-client" })
    const error = await auth.generateVisitorTokens().then(() => undefined, (e: Error) => e)
    assert.match(error?.message ?? "", /^Failed to fetch tokens from OAuth API: .*request id: [0-9a-f-]{36}\. Response: .*invalid_client/)
  })

  it("getAuthUrl, the login form, parseFromUrl and getMemberTokens", async () => {
    const email = uniqueEmail()
    const auth = newAuth()
    assert.strictEqual((await auth.register({ email, password: PASSWORD })).loginState, "SUCCESS")
    const oauthData = auth.generateOAuthData(REDIRECT)
    const { authUrl } = await auth.getAuthUrl(oauthData, { prompt: "login", responseMode: "query" })
    assert.isTrue(authUrl.startsWith(`${onLocal.platform.url}/oauth2/authorize?`))
    assert.include(called, "POST /_api/redirects-api/v1/redirect-session")

    const form = await originalFetch(authUrl)
    const action = /action="([^"]+)"/.exec(await form.text())?.[1]
    assert.isString(action)
    const posted = await originalFetch(`${onLocal.platform.url}${action}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: PASSWORD })
    })
    assert.strictEqual(posted.status, 302)
    const { code, state } = auth.parseFromUrl(posted.headers.get("location")!, "query")
    const tokens = await auth.getMemberTokens(code!, state!, oauthData)
    assert.strictEqual(tokens.refreshToken.role, "member")
    auth.setTokens(tokens)
    assert.isTrue(auth.loggedIn())
    const me = await myMember(auth)
    assert.strictEqual(me.status, 200)
    assert.strictEqual(me.body.member.loginEmail, email)
  })

  it("direct login: login gives a session token; prompt none with it, fragment mode, then getMemberTokens", async () => {
    const email = uniqueEmail()
    const auth = newAuth()
    await auth.register({ email, password: PASSWORD })
    const result = await auth.login({ email, password: PASSWORD })
    assert.strictEqual(result.loginState, "SUCCESS")
    const sessionToken = (result as { data: { sessionToken: string } }).data.sessionToken
    const oauthData = auth.generateOAuthData(REDIRECT)
    // the client reads a session token from these options, though its types do not declare it
    const options = { prompt: "none" as const, responseMode: "fragment" as const, sessionToken }
    const { authUrl } = await auth.getAuthUrl(oauthData, options)
    const page = await originalFetch(authUrl, { redirect: "manual" })
    assert.strictEqual(page.status, 302)
    const { code, state } = auth.parseFromUrl(page.headers.get("location")!, "fragment")
    const tokens = await auth.getMemberTokens(code!, state!, oauthData)
    auth.setTokens(tokens)
    assert.strictEqual((await myMember(auth)).body.member.loginEmail, email)
    // a tampered state is refused by the client before any request
    const other = auth.generateOAuthData(REDIRECT)
    await auth.getMemberTokens(code!, "forged", other).then(() => assert.fail("accepted a forged state"), (e: Error) => {
      assert.strictEqual(e.message, "Invalid _state")
    })
  })

  it("register and login map the platform's refusals to the client's error codes", async () => {
    const auth = newAuth()
    const email = uniqueEmail()
    await auth.register({ email, password: PASSWORD })
    const exists = await auth.register({ email, password: PASSWORD })
    assert.deepInclude(result(exists), { loginState: "FAILURE", errorCode: "emailAlreadyExists" })
    const invalid = await auth.register({ email: "not-an-email", password: PASSWORD })
    assert.deepInclude(result(invalid), { loginState: "FAILURE", errorCode: "invalidEmail", error: "Email address is not valid" })
    assert.deepInclude(result(await auth.login({ email, password: "wrong password" })), { loginState: "FAILURE", errorCode: "invalidPassword" })
    assert.deepInclude(result(await auth.login({ email: uniqueEmail(), password: PASSWORD })), { loginState: "FAILURE", errorCode: "invalidEmail" })
    assert.includeMembers(called, ["POST /_api/iam/authentication/v2/register", "POST /_api/iam/authentication/v2/login"])

    const members = await local("GET", `/_sitefx/members?email=${encodeURIComponent(email)}`)
    await local("POST", `/_sitefx/members/${members.identities[0].id}/require-reset`)
    assert.deepInclude(result(await auth.login({ email, password: PASSWORD })), { loginState: "FAILURE", errorCode: "resetPassword" })
  })

  it("captcha: missing and invalid tokens, then a minted one", async () => {
    await settings({ captcha: true })
    try {
      const auth = newAuth()
      const email = uniqueEmail()
      assert.deepInclude(result(await auth.register({ email, password: PASSWORD })), { errorCode: "missingCaptchaToken" })
      assert.deepInclude(
        await auth.register({ email, password: PASSWORD, captchaTokens: { recaptchaToken: "made-up" } }),
        { errorCode: "invalidCaptchaToken" }
      )
      const { token } = await local("POST", "/_sitefx/captcha")
      const ok = await auth.register({ email, password: PASSWORD, captchaTokens: { recaptchaToken: token } })
      assert.strictEqual(ok.loginState, "SUCCESS")
      assert.deepInclude(result(await auth.login({ email, password: PASSWORD })), { errorCode: "missingCaptchaToken" })
      assert.deepInclude(
        await auth.login({ email, password: PASSWORD, captchaTokens: { invisibleRecaptchaToken: token } }),
        { errorCode: "invalidCaptchaToken" }
      )
    } finally {
      await settings({ captcha: false })
    }
  })

  it("e-mail verification: EMAIL_VERIFICATION_REQUIRED, the code from the outbox, processVerification", async () => {
    await settings({ emailVerification: true })
    try {
      const auth = newAuth()
      const email = uniqueEmail()
      const registered = await auth.register({ email, password: PASSWORD })
      assert.strictEqual(registered.loginState, "EMAIL_VERIFICATION_REQUIRED")
      const { code } = await lastMessage(email, "EMAIL_VERIFICATION")
      const verified = await auth.processVerification({ verificationCode: code })
      assert.strictEqual(verified.loginState, "SUCCESS")
      assert.include(called, "POST /_api/iam/verification/v1/auth/verify")
      assert.isString((verified as { data: { sessionToken: string } }).data.sessionToken)
    } finally {
      await settings({ emailVerification: false })
    }
  })

  it("owner approval: OWNER_APPROVAL_REQUIRED", async () => {
    await settings({ ownerApproval: true })
    try {
      const result = await newAuth().register({ email: uniqueEmail(), password: PASSWORD })
      assert.strictEqual(result.loginState, "OWNER_APPROVAL_REQUIRED")
    } finally {
      await settings({ ownerApproval: false })
    }
  })

  it("logout: a logout URL whose page revokes the member's tokens and returns to the app", async () => {
    const auth = newAuth()
    const email = uniqueEmail()
    await auth.register({ email, password: PASSWORD })
    const login = await auth.login({ email, password: PASSWORD })
    const oauthData = auth.generateOAuthData(REDIRECT)
    const options = {
      prompt: "none" as const,
      responseMode: "query" as const,
      sessionToken: (login as { data: { sessionToken: string } }).data.sessionToken
    }
    const { authUrl } = await auth.getAuthUrl(oauthData, options)
    const page = await originalFetch(authUrl, { redirect: "manual" })
    const { code, state } = auth.parseFromUrl(page.headers.get("location")!, "query")
    const tokens = await auth.getMemberTokens(code!, state!, oauthData)
    auth.setTokens(tokens)

    const { logoutUrl } = await auth.logout("http://localhost:5173/bye")
    assert.deepStrictEqual(auth.getTokens().refreshToken, { value: "", role: "none" })
    const out = await originalFetch(logoutUrl, { redirect: "manual" })
    assert.strictEqual(out.status, 302)
    assert.strictEqual(out.headers.get("location"), "http://localhost:5173/bye")
    const renewal = await auth.renewToken(tokens.refreshToken).then(() => "renewed", (e: Error) => e.message)
    assert.match(renewal, /invalid_grant/)
  })

  it("sendPasswordResetEmail puts a recovery link for the redirect URI in the outbox", async () => {
    const auth = newAuth()
    const email = uniqueEmail()
    await auth.register({ email, password: PASSWORD })
    await auth.sendPasswordResetEmail(email, "http://localhost:5173/reset")
    const message = await lastMessage(email, "RECOVERY")
    assert.isTrue(message.link.startsWith("http://localhost:5173/reset?recoveryToken="))
    assert.include(called, "POST /_api/iam/recovery/v1/send-email")
  })

  it("external login: member tokens for an API key, with and without sign-on", async () => {
    const auth = newAuth()
    const email = uniqueEmail()
    const registered = await auth.register({ email, password: PASSWORD })
    const memberId = (await local("GET", `/_sitefx/members?email=${encodeURIComponent(email)}`)).identities[0].id
    assert.strictEqual(registered.loginState, "SUCCESS")
    auth.setTokens(await auth.generateVisitorTokens())
    const external = await auth.getMemberTokensForExternalLogin(memberId, apiKey())
    assert.strictEqual(external.refreshToken.role, "member")
    auth.setTokens(external)
    assert.strictEqual((await myMember(auth)).body.member.id, memberId)

    const other = newAuth()
    const ssoEmail = uniqueEmail()
    const withSession = await other.getMemberTokensForExternalLoginWithSession(ssoEmail, apiKey())
    other.setTokens(withSession)
    assert.strictEqual((await myMember(other)).body.member.loginEmail, ssoEmail)
    assert.include(called, "POST /_api/iam/authentication/v2/sign-on")
  })
})

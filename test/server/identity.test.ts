import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { LocalPlatform } from "../../src/server/index.ts"
import { totp } from "../support/totp.ts"
import {
  apiKey,
  codeOf,
  dev,
  get,
  lastMessage,
  login,
  memberTokensFor,
  post,
  registerMember,
  uniqueEmail,
  visitor,
  withSettings
} from "./support.ts"

const AUTH = "/_api/iam/authentication"
const REGISTER = `${AUTH}/v2/register`
const LOGIN = `${AUTH}/v2/login`
const MY = "/members/v1/members/my"

const asVisitor = (path: string, body: unknown) => Effect.flatMap(visitor, (guest) => post(path, body, guest.access_token))

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("identity", (it) => {
  describe("register", () => {
    it.effect("SUCCESS with a session token and the identity", () =>
      Effect.gen(function*() {
        const email = uniqueEmail()
        const res = yield* asVisitor(REGISTER, {
          loginId: { email },
          password: "secret-pass",
          profile: { firstName: "Ada", nickname: "ada", customFields: [{ name: "team", value: { strValue: "blue" } }] }
        })
        assert.strictEqual(res.status, 200)
        assert.strictEqual(res.body.state, "SUCCESS")
        assert.match(res.body.sessionToken, /^sfxsess_/)
        const identity = res.body.identity
        assert.deepStrictEqual(identity.email, { address: email, isVerified: false })
        assert.deepStrictEqual(identity.status, { name: "ACTIVE", reasons: [] })
        assert.strictEqual(identity.identityProfile.customFields[0].value.strValue, "blue")
        assert.isFalse(Number.isNaN(Date.parse(identity.createdDate)))
        const tokens = yield* memberTokensFor(res.body.sessionToken)
        assert.strictEqual((yield* get(MY, tokens.access_token)).body.member.profile.nickname, "ada")
      }))

    it.effect("needs a visitor or member token", () =>
      Effect.gen(function*() {
        const res = yield* post(REGISTER, { loginId: { email: uniqueEmail() }, password: "secret-pass" })
        assert.strictEqual(res.status, 401)
      }))

    it.effect("an invalid e-mail is a FORMAT violation of loginId.email typed EMAIL; a short password is refused", () =>
      Effect.gen(function*() {
        const bad = yield* asVisitor(REGISTER, { loginId: { email: "not-an-email" }, password: "secret-pass" })
        assert.strictEqual(bad.status, 400)
        assert.deepStrictEqual(bad.body.details.validationError.fieldViolations, [{
          field: "loginId.email",
          description: "Email address is not valid",
          violatedRule: "FORMAT",
          data: { type: "EMAIL" }
        }])
        const email = uniqueEmail()
        const weak = yield* asVisitor(REGISTER, { loginId: { email }, password: "12345" })
        assert.strictEqual(weak.status, 400)
        assert.strictEqual(weak.body.details.validationError.fieldViolations[0].field, "password")
        // nothing was created: the e-mail is still free
        assert.strictEqual((yield* asVisitor(REGISTER, { loginId: { email }, password: "123456" })).status, 200)
      }))

    it.effect("an existing e-mail (any case) is 409 -19995", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        const res = yield* asVisitor(REGISTER, { loginId: { email: member.email.toUpperCase() }, password: "secret-pass" })
        assert.strictEqual(res.status, 409)
        assert.strictEqual(codeOf(res), "-19995")
      }))

    it.effect("REQUIRE_EMAIL_VERIFICATION: a code in the outbox, verified with the state token", () =>
      withSettings({ emailVerification: true }, Effect.gen(function*() {
        const email = uniqueEmail()
        const res = yield* asVisitor(REGISTER, { loginId: { email }, password: "secret-pass" })
        assert.strictEqual(res.body.state, "REQUIRE_EMAIL_VERIFICATION")
        assert.deepStrictEqual(res.body.identity.status, { name: "PENDING", reasons: ["PENDING_EMAIL_VERIFICATION_REQUIRED"] })
        const message = yield* lastMessage(email, "EMAIL_VERIFICATION")
        assert.match(message.code, /^\d{6}$/)
        assert.include(message.body, message.code)

        const wrong = yield* asVisitor("/_api/iam/verification/v1/auth/verify", {
          code: message.code === "000000" ? "111111" : "000000",
          stateToken: res.body.stateToken
        })
        assert.strictEqual(wrong.status, 400)
        assert.strictEqual(codeOf(wrong), "INVALID_VERIFICATION_CODE")
        const ok = yield* asVisitor("/_api/iam/verification/v1/auth/verify", { code: message.code, stateToken: res.body.stateToken })
        assert.strictEqual(ok.body.state, "SUCCESS")
        assert.deepStrictEqual(ok.body.identity.email, { address: email, isVerified: true })
        assert.strictEqual(ok.body.identity.status.name, "ACTIVE")
        const reused = yield* asVisitor("/_api/iam/verification/v1/auth/verify", { code: message.code, stateToken: res.body.stateToken })
        assert.strictEqual(codeOf(reused), "INVALID_STATE_TOKEN")
      })))

    it.effect("REQUIRE_OWNER_APPROVAL until the owner approves", () =>
      withSettings({ ownerApproval: true }, Effect.gen(function*() {
        const email = uniqueEmail()
        const res = yield* asVisitor(REGISTER, { loginId: { email }, password: "secret-pass" })
        assert.strictEqual(res.body.state, "REQUIRE_OWNER_APPROVAL")
        assert.deepStrictEqual(res.body.identity.status, { name: "PENDING", reasons: ["PENDING_ADMIN_APPROVAL_REQUIRED"] })
        assert.isUndefined(res.body.sessionToken)
        const pending = yield* asVisitor(LOGIN, { loginId: { email }, password: "secret-pass" })
        assert.strictEqual(pending.body.state, "REQUIRE_OWNER_APPROVAL")
        yield* dev("POST", `/members/${res.body.identity.id}/approve`)
        const approved = yield* asVisitor(LOGIN, { loginId: { email }, password: "secret-pass" })
        assert.strictEqual(approved.body.state, "SUCCESS")
      })))

    it.effect("captcha on: -19971 without a token, -19970 for an unknown or used one", () =>
      withSettings({ captcha: true }, Effect.gen(function*() {
        const email = uniqueEmail()
        const missing = yield* asVisitor(REGISTER, { loginId: { email }, password: "secret-pass" })
        assert.strictEqual(missing.status, 400)
        assert.strictEqual(codeOf(missing), "-19971")
        const empty = yield* asVisitor(REGISTER, { loginId: { email }, password: "secret-pass", captchaTokens: [{}] })
        assert.strictEqual(codeOf(empty), "-19971")
        const unknown = yield* asVisitor(REGISTER, { loginId: { email }, password: "secret-pass", captchaTokens: [{ Recaptcha: "made-up" }] })
        assert.strictEqual(codeOf(unknown), "-19970")
        const { token } = yield* dev("POST", "/captcha")
        const ok = yield* asVisitor(REGISTER, { loginId: { email }, password: "secret-pass", captchaTokens: [{ Recaptcha: token }] })
        assert.strictEqual(ok.body.state, "SUCCESS")
        const used = yield* asVisitor(LOGIN, { loginId: { email }, password: "secret-pass", captchaTokens: [{ InvisibleRecaptcha: token }] })
        assert.strictEqual(codeOf(used), "-19970")
        const { token: fresh } = yield* dev("POST", "/captcha")
        const loggedIn = yield* asVisitor(LOGIN, { loginId: { email }, password: "secret-pass", captchaTokens: [{ InvisibleRecaptcha: fresh }] })
        assert.strictEqual(loggedIn.body.state, "SUCCESS")
      })))

    it.effect("captcha off: tokens are not needed", () =>
      Effect.gen(function*() {
        const res = yield* asVisitor(REGISTER, { loginId: { email: uniqueEmail() }, password: "secret-pass" })
        assert.strictEqual(res.body.state, "SUCCESS")
      }))
  })

  describe("login", () => {
    it.effect("SUCCESS for the demo member", () =>
      Effect.gen(function*() {
        const res = yield* asVisitor(LOGIN, { loginId: { email: "DEMO@sitefx.dev" }, password: "sitefx-demo" })
        assert.strictEqual(res.body.state, "SUCCESS")
        assert.deepStrictEqual(res.body.identity.email, { address: "demo@sitefx.dev", isVerified: true })
      }))

    it.effect("-19999 for an unknown e-mail, -19976 for a wrong password, -19973 when a reset is required", () =>
      Effect.gen(function*() {
        const unknown = yield* asVisitor(LOGIN, { loginId: { email: uniqueEmail() }, password: "secret-pass" })
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(codeOf(unknown), "-19999")
        const member = yield* registerMember()
        const wrong = yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: "not-it" })
        assert.strictEqual(wrong.status, 401)
        assert.strictEqual(codeOf(wrong), "-19976")
        yield* dev("POST", `/members/${member.id}/require-reset`)
        const reset = yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: member.password })
        assert.strictEqual(codeOf(reset), "-19973")
      }))

    it.effect("ten wrong passwords from one address make it wait for that email (429, Retry-After) until the window passes", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        const attempt = (password: string) => asVisitor(LOGIN, { loginId: { email: member.email }, password })
        for (let i = 0; i < 10; i++) assert.strictEqual((yield* attempt("not-it")).status, 401)
        const locked = yield* attempt(member.password)
        assert.strictEqual(locked.status, 429)
        const retryAfter = Number(locked.headers.get("retry-after"))
        assert.isTrue(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`)
        // other emails are not affected
        const other = yield* registerMember()
        assert.strictEqual((yield* asVisitor(LOGIN, { loginId: { email: other.email }, password: other.password })).body.state, "SUCCESS")
        // the window passes: the right password works again and clears the count
        yield* dev("POST", "/clock", { skewSeconds: 16 * 60 })
        const after = yield* Effect.ensuring(
          Effect.flatMap(visitor, (guest) => post(LOGIN, { loginId: { email: member.email }, password: member.password }, guest.access_token)),
          Effect.orDie(dev("POST", "/clock", { skewSeconds: 0 }))
        )
        assert.strictEqual(after.body.state, "SUCCESS")
      }))

    it.effect("a blocked member is refused with 403", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        yield* dev("POST", `/members/${member.id}/block`)
        const res = yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: member.password })
        assert.strictEqual(res.status, 403)
        assert.strictEqual(codeOf(res), "MEMBER_BLOCKED")
      }))

    it.effect("an unverified member must verify when verification is on (a code per login)", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        yield* withSettings({ emailVerification: true }, Effect.gen(function*() {
          const res = yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: member.password })
          assert.strictEqual(res.body.state, "REQUIRE_EMAIL_VERIFICATION")
          const message = yield* lastMessage(member.email, "EMAIL_VERIFICATION")
          const ok = yield* asVisitor("/_api/iam/verification/v1/auth/verify", { code: message.code, stateToken: res.body.stateToken })
          assert.strictEqual(ok.body.state, "SUCCESS")
          const next = yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: member.password })
          assert.strictEqual(next.body.state, "SUCCESS")
        }))
      }))
  })

  describe("MFA", () => {
    const requireMfa = (email: string, password: string) =>
      Effect.gen(function*() {
        const res = yield* asVisitor(LOGIN, { loginId: { email }, password })
        assert.strictEqual(res.body.state, "REQUIRE_MFA", res.text)
        return res.body
      })

    it.effect("TOTP: REQUIRE_MFA, then /v2/totp/verify with the authenticator's code", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        const { secret, factorId } = yield* dev("POST", `/members/${member.id}/factors`, { type: "TOTP" })
        assert.match(secret, /^[A-Z2-7]{32}$/)
        const pending = yield* requireMfa(member.email, member.password)
        assert.deepStrictEqual(pending.requireMfaData.availableFactors, [{ factorType: "TOTP", factorStatus: "ENABLED" }])
        const now = Date.now()
        const wrongCode = totp(secret, now + 10 * 60_000)
        const wrong = yield* asVisitor(`${AUTH}/v2/totp/verify`, { stateToken: pending.stateToken, totpData: { code: wrongCode } })
        assert.strictEqual(codeOf(wrong), "INVALID_VERIFICATION_CODE")
        const ok = yield* asVisitor(`${AUTH}/v2/TOTP/verify`, { stateToken: pending.stateToken, totpData: { code: totp(secret, now) } })
        assert.strictEqual(ok.body.state, "SUCCESS")
        assert.deepStrictEqual(ok.body.identity.factors, [{ factorId, type: "TOTP", status: "ACTIVE" }])
        const tokens = yield* memberTokensFor(ok.body.sessionToken)
        assert.strictEqual((yield* get(MY, tokens.access_token)).body.member.id, member.id)
        const reused = yield* asVisitor(`${AUTH}/v2/totp/verify`, { stateToken: pending.stateToken, totpData: { code: totp(secret, now) } })
        assert.strictEqual(codeOf(reused), "INVALID_STATE_TOKEN")
      }))

    it.effect("EMAIL and SMS: codes are sent when the login asks for MFA; each verifies its own factor", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        yield* dev("POST", `/members/${member.id}/factors`, { type: "EMAIL" })
        yield* dev("POST", `/members/${member.id}/factors`, { type: "SMS", phone: "+15550100" })
        const pending = yield* requireMfa(member.email, member.password)
        assert.sameMembers(pending.requireMfaData.availableFactors.map((f: { factorType: string }) => f.factorType), ["EMAIL", "SMS"])
        const email = yield* lastMessage(member.email, "MFA_CODE")
        const sms = yield* lastMessage("+15550100", "MFA_CODE")
        assert.notStrictEqual(email.code, sms.code)
        const crossed = yield* asVisitor(`${AUTH}/v2/sms/verify`, { stateToken: pending.stateToken, smsData: { code: email.code } })
        assert.strictEqual(codeOf(crossed), "INVALID_VERIFICATION_CODE")
        const missing = yield* asVisitor(`${AUTH}/v2/sms/verify`, { stateToken: pending.stateToken, emailData: { code: sms.code } })
        assert.strictEqual(missing.status, 400)
        assert.strictEqual(missing.body.details.validationError.fieldViolations[0].field, "smsData.code")
        const ok = yield* asVisitor(`${AUTH}/v2/sms/verify`, { stateToken: pending.stateToken, smsData: { code: sms.code } })
        assert.strictEqual(ok.body.state, "SUCCESS")

        const second = yield* requireMfa(member.email, member.password)
        const emailCode = (yield* lastMessage(member.email, "MFA_CODE")).code
        const totpNotEnrolled = yield* asVisitor(`${AUTH}/v2/totp/verify`, { stateToken: second.stateToken, totpData: { code: "123456" } })
        assert.strictEqual(codeOf(totpNotEnrolled), "FACTOR_NOT_AVAILABLE")
        const byEmail = yield* asVisitor(`${AUTH}/v2/email/verify`, { stateToken: second.stateToken, emailData: { code: emailCode } })
        assert.strictEqual(byEmail.body.state, "SUCCESS")
      }))

    it.effect("wrong codes use up the state token after five attempts; unknown factor types are refused", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        yield* dev("POST", `/members/${member.id}/factors`, { type: "EMAIL" })
        const pending = yield* requireMfa(member.email, member.password)
        const code = (yield* lastMessage(member.email, "MFA_CODE")).code as string
        const wrong = code === "000000" ? "111111" : "000000"
        const unknownType = yield* asVisitor(`${AUTH}/v2/carrier-pigeon/verify`, { stateToken: pending.stateToken })
        assert.strictEqual(unknownType.status, 400)
        for (let i = 0; i < 5; i++) {
          const res = yield* asVisitor(`${AUTH}/v2/email/verify`, { stateToken: pending.stateToken, emailData: { code: wrong } })
          assert.strictEqual(codeOf(res), "INVALID_VERIFICATION_CODE")
        }
        const late = yield* asVisitor(`${AUTH}/v2/email/verify`, { stateToken: pending.stateToken, emailData: { code } })
        assert.strictEqual(codeOf(late), "INVALID_STATE_TOKEN")
      }))

    it.effect("state tokens expire with the server clock", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        yield* dev("POST", `/members/${member.id}/factors`, { type: "EMAIL" })
        const pending = yield* requireMfa(member.email, member.password)
        const code = (yield* lastMessage(member.email, "MFA_CODE")).code
        yield* dev("POST", "/clock", { skewSeconds: 11 * 60 })
        const late = yield* asVisitor(`${AUTH}/v2/email/verify`, { stateToken: pending.stateToken, emailData: { code } })
        yield* dev("POST", "/clock", { skewSeconds: 0 })
        assert.strictEqual(codeOf(late), "INVALID_STATE_TOKEN")
      }))

    it.effect("a site that requires MFA sends e-mail codes to members without a factor; removing a factor ends MFA", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        yield* withSettings({ mfaRequired: true }, Effect.gen(function*() {
          const pending = yield* requireMfa(member.email, member.password)
          assert.deepStrictEqual(pending.requireMfaData.availableFactors, [{ factorType: "EMAIL", factorStatus: "ENABLED_BY_RULE" }])
          const code = (yield* lastMessage(member.email, "MFA_CODE")).code
          const ok = yield* asVisitor(`${AUTH}/v2/email/verify`, { stateToken: pending.stateToken, emailData: { code } })
          assert.strictEqual(ok.body.state, "SUCCESS")
        }))
        const { factorId } = yield* dev("POST", `/members/${member.id}/factors`, { type: "EMAIL" })
        yield* requireMfa(member.email, member.password)
        yield* dev("DELETE", `/members/${member.id}/factors/${factorId}`)
        const plain = yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: member.password })
        assert.strictEqual(plain.body.state, "SUCCESS")
      }))
  })

  describe("verification, recovery, activation", () => {
    it.effect("verification start sends a code that auth/verify accepts with the verification id", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        const started = yield* asVisitor("/_api/iam/verification/v1/start", { identityId: member.id, target: "EMAIL" })
        assert.strictEqual(started.status, 200)
        const message = yield* lastMessage(member.email, "EMAIL_VERIFICATION")
        const ok = yield* asVisitor("/_api/iam/verification/v1/auth/verify", { code: message.code, stateToken: started.body.verificationId })
        assert.strictEqual(ok.body.state, "SUCCESS")
        assert.isTrue(ok.body.identity.email.isVerified)
        const unknown = yield* asVisitor("/_api/iam/verification/v1/start", { identityId: "nobody", target: "EMAIL" })
        assert.strictEqual(unknown.status, 404)
      }))

    it.effect("recovery: an e-mail with a one-time link; recover sets the password and answers SUCCESS; reuse is refused", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const member = yield* registerMember()
        const old = yield* login(member.email, member.password)
        const sent = yield* asVisitor("/_api/iam/recovery/v1/send-email", {
          email: member.email,
          redirect: { url: "http://localhost:5173/reset?lang=en", clientId: platform.clientId }
        })
        assert.strictEqual(sent.status, 200)
        assert.deepStrictEqual(sent.body, {})
        const message = yield* lastMessage(member.email, "RECOVERY")
        const link = new URL(message.link)
        assert.strictEqual(link.origin + link.pathname, "http://localhost:5173/reset")
        assert.strictEqual(link.searchParams.get("lang"), "en")
        assert.strictEqual(link.searchParams.get("recoveryToken"), message.token)

        const weak = yield* asVisitor("/_api/iam/recovery/v1/recover", { recoveryToken: message.token, password: "123" })
        assert.strictEqual(weak.status, 400)
        const ok = yield* asVisitor("/_api/iam/recovery/v1/recover", { recoveryToken: message.token, password: "brand-new-pass" })
        assert.strictEqual(ok.body.state, "SUCCESS")
        assert.isString(ok.body.sessionToken)
        const reused = yield* asVisitor("/_api/iam/recovery/v1/recover", { recoveryToken: message.token, password: "another-pass" })
        assert.strictEqual(reused.status, 400)
        assert.strictEqual(codeOf(reused), "INVALID_RECOVERY_TOKEN")
        assert.strictEqual(codeOf(yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: member.password })), "-19976")
        assert.strictEqual((yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: "brand-new-pass" })).body.state, "SUCCESS")
        // the recovery signed every device out
        const refresh = yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: old.refresh_token })
        assert.strictEqual(codeOf(refresh), "invalid_grant")
      }))

    it.effect("recovery answers {} for unknown e-mails and refuses foreign redirect origins", () =>
      Effect.gen(function*() {
        const email = uniqueEmail()
        const sent = yield* asVisitor("/_api/iam/recovery/v1/send-email", { email })
        assert.strictEqual(sent.status, 200)
        assert.deepStrictEqual(sent.body, {})
        assert.deepStrictEqual((yield* dev("GET", `/outbox?to=${encodeURIComponent(email)}`)).messages, [])
        const member = yield* registerMember()
        const foreign = yield* asVisitor("/_api/iam/recovery/v1/send-email", { email: member.email, redirect: { url: "https://evil.example/" } })
        assert.strictEqual(foreign.status, 400)
        assert.deepStrictEqual((yield* dev("GET", `/outbox?to=${encodeURIComponent(member.email)}`)).messages, [])
      }))

    it.effect("activation: a sign-on member without a password activates through the e-mailed token", () =>
      Effect.gen(function*() {
        const key = yield* apiKey
        const guest = yield* visitor
        const email = uniqueEmail("activate")
        const signOn = yield* post(`${AUTH}/v2/sign-on`, { loginId: { email } }, `${guest.access_token},${key}`)
        const id = signOn.body.identity.id
        assert.strictEqual(codeOf(yield* asVisitor(LOGIN, { loginId: { email }, password: "anything" })), "-19973")
        const sent = yield* asVisitor("/_api/iam/recovery/v1/activation-email", { identityId: id })
        assert.deepStrictEqual(sent.body, {})
        const message = yield* lastMessage(email, "ACTIVATION")
        const ok = yield* asVisitor("/_api/iam/recovery/v1/recover", { recoveryToken: message.token, password: "chosen-pass" })
        assert.strictEqual(ok.body.state, "SUCCESS")
        assert.strictEqual((yield* asVisitor(LOGIN, { loginId: { email }, password: "chosen-pass" })).body.state, "SUCCESS")
      }))
  })

  describe("sign-on and change password", () => {
    it.effect("sign-on needs an API key; it finds or creates the member and answers a session token", () =>
      Effect.gen(function*() {
        const key = yield* apiKey
        const guest = yield* visitor
        const email = uniqueEmail("sso")
        const noKey = yield* post(`${AUTH}/v2/sign-on`, { loginId: { email } }, guest.access_token)
        assert.strictEqual(noKey.status, 403)
        const created = yield* post(`${AUTH}/v2/sign-on`, {
          loginId: { email },
          profile: { nickname: "sso" },
          verifyEmail: true
        }, `${guest.access_token},${key}`)
        assert.strictEqual(created.status, 200)
        assert.deepStrictEqual(created.body.identity.email, { address: email, isVerified: true })
        const again = yield* post(`${AUTH}/v2/sign-on`, { loginId: { email } }, key)
        assert.strictEqual(again.body.identity.id, created.body.identity.id)
        assert.notStrictEqual(again.body.sessionToken, created.body.sessionToken)
        const tokens = yield* post("/oauth2/token", {
          grant_type: "authorized_client",
          member_id: created.body.identity.id,
          session_token: created.body.sessionToken
        }, `${guest.access_token},${key}`)
        assert.strictEqual(tokens.status, 200)
        assert.strictEqual((yield* get(MY, tokens.body.access_token)).body.member.loginEmail, email)
      }))

    it.effect("change password: members only; the old password stops working and refresh tokens are revoked", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const member = yield* registerMember()
        const tokens = yield* login(member.email, member.password)
        const guest = yield* visitor
        assert.strictEqual((yield* post(`${AUTH}/v2/change-password`, { newPassword: "changed-pass" }, guest.access_token)).status, 403)
        assert.strictEqual((yield* post(`${AUTH}/v2/change-password`, { newPassword: "x" }, tokens.access_token)).status, 400)
        const ok = yield* post(`${AUTH}/v2/change-password`, { newPassword: "changed-pass" }, tokens.access_token)
        assert.strictEqual(ok.status, 200)
        assert.deepStrictEqual(ok.body, {})
        assert.strictEqual(codeOf(yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: member.password })), "-19976")
        assert.strictEqual((yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: "changed-pass" })).body.state, "SUCCESS")
        const refresh = yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: tokens.refresh_token })
        assert.strictEqual(codeOf(refresh), "invalid_grant")
      }))
  })
})

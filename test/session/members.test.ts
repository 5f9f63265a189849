import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import type { LoginResult } from "../../src/session/LoginResult.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { Session } from "../../src/session/Session.ts"
import { dev, LocalPlatform, lastMessage, settings, stats, uniqueEmail, withSite } from "../support/platform.ts"
import { totp } from "../support/totp.ts"

const PASSWORD = "correct horse battery"

const defaults = { captcha: false, emailVerification: false, ownerApproval: false, mfaRequired: false }

/** Registers a member with the current site settings and returns the result. */
const register = (email: string, password = PASSWORD) =>
  Session.use((s) => s.register({ email, password, profile: { nickname: email.split("@")[0] ?? null } }))

/** The identity id a register result carries. */
const idOf = (result: LoginResult): string => {
  if (!("identity" in result) || result.identity === undefined) throw new Error(`no identity in ${JSON.stringify(result)}`)
  return result.identity.id
}

const loginAsMember = (email: string, password = PASSWORD) =>
  Effect.gen(function*() {
    const session = yield* Session
    const result = yield* session.login({ email, password })
    if (result.loginState !== "SUCCESS") throw new Error(`login: ${JSON.stringify(result)}`)
    return yield* session.completeDirectLogin(result.data.sessionToken)
  })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("members", (it) => {
  const fresh = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    settings(defaults).pipe(Effect.andThen(withSite(effect)), Effect.ensuring(Effect.orDie(settings(defaults))))

  it.effect("a login while a refresh is out keeps the member's tokens: the refreshed visitor's are dropped", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      // a visitor has signed up; the login that completes it comes while their visitor token is being
      // refreshed (as after a 401 that another call got), and the refresh takes a while to come back
      const registered = yield* register(uniqueEmail())
      if (registered.loginState !== "SUCCESS") return assert.fail(`register: ${registered.loginState}`)
      const visitor = yield* session.tokens
      assert.strictEqual(visitor.refreshToken.role, "visitor")
      const slowRefresh: typeof fetch = async (input, init) => {
        if (typeof init?.body === "string" && init.body.includes("\"refresh_token\"")) await new Promise((r) => setTimeout(r, 700))
        return fetch(input, init)
      }
      const refreshing = yield* Effect.forkChild(session.refresh.pipe(Effect.provideService(PlatformFetch, slowRefresh)))
      yield* Effect.sleep("150 millis")
      yield* session.completeDirectLogin(registered.data.sessionToken)
      const member = yield* session.tokens
      assert.strictEqual(member.refreshToken.role, "member", "after the login")
      const refreshed = yield* Fiber.join(refreshing)
      // the refresh that came back late changed nothing: the member is still logged in, and was answered
      assert.isTrue(yield* session.loggedIn)
      assert.deepStrictEqual(yield* session.tokens, member)
      assert.deepStrictEqual(refreshed, member)
    })))

  it.effect("register with nothing to confirm succeeds and logs in", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      const email = uniqueEmail()
      const result = yield* register(email)
      assert.strictEqual(result.loginState, "SUCCESS")
      if (result.loginState !== "SUCCESS") return
      assert.strictEqual(result.identity?.email?.address, email)
      assert.strictEqual(result.identity?.status?.name, "ACTIVE")
      assert.strictEqual(result.identity?.identityProfile?.nickname, email.split("@")[0])
      yield* session.completeDirectLogin(result.data.sessionToken)
      assert.isTrue(yield* session.loggedIn)
    })))

  it.effect("register refusals: taken email, malformed email", () =>
    fresh(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const taken = yield* register(platform.demoMember!.email)
      assert.deepInclude(taken, { loginState: "FAILURE", errorCode: "emailAlreadyExists" })
      const malformed = yield* register("not-an-email")
      assert.deepInclude(malformed, { loginState: "FAILURE", errorCode: "invalidEmail" })
      assert.isTrue(malformed.loginState === "FAILURE" && malformed.error.length > 0)
    })))

  it.effect("login refusals: wrong password, unknown email, password reset required", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      const email = uniqueEmail()
      const registered = yield* register(email)
      assert.deepInclude(yield* session.login({ email, password: "wrong password" }), {
        loginState: "FAILURE",
        errorCode: "invalidPassword"
      })
      assert.deepInclude(yield* session.login({ email: uniqueEmail("nobody"), password: PASSWORD }), {
        loginState: "FAILURE",
        errorCode: "invalidEmail"
      })
      yield* dev(`/members/${idOf(registered)}/require-reset`, { body: {} })
      assert.deepInclude(yield* session.login({ email, password: PASSWORD }), {
        loginState: "FAILURE",
        errorCode: "resetPassword"
      })
    })))

  it.effect("a client that must wait after ten wrong passwords gets an error (429, try later), not a login verdict", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      const email = uniqueEmail()
      yield* register(email)
      for (let i = 0; i < 10; i++) {
        assert.deepInclude(yield* session.login({ email, password: "wrong password" }), { errorCode: "invalidPassword" })
      }
      const locked = yield* Effect.flip(session.login({ email, password: PASSWORD }))
      assert.strictEqual(locked.status, 429)
    })))

  it.effect("captcha on: missing and invalid tokens are refused, a valid one passes", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      const email = uniqueEmail()
      yield* register(email)
      yield* settings({ captcha: true })
      assert.deepInclude(yield* session.login({ email, password: PASSWORD }), { errorCode: "missingCaptchaToken" })
      assert.deepInclude(yield* session.login({ email, password: PASSWORD, captchaTokens: { recaptchaToken: "forged" } }), {
        errorCode: "invalidCaptchaToken"
      })
      const { token } = yield* dev<{ token: string }>("/captcha", { body: {} })
      const ok = yield* session.login({ email, password: PASSWORD, captchaTokens: { recaptchaToken: token } })
      assert.strictEqual(ok.loginState, "SUCCESS")
      assert.deepInclude(yield* register(uniqueEmail()), { errorCode: "missingCaptchaToken" })
    })))

  it.effect("owner approval: registration waits until the owner approves", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      yield* settings({ ownerApproval: true })
      const email = uniqueEmail()
      const result = yield* register(email)
      assert.strictEqual(result.loginState, "OWNER_APPROVAL_REQUIRED")
      assert.strictEqual((yield* session.login({ email, password: PASSWORD })).loginState, "OWNER_APPROVAL_REQUIRED")
      yield* dev(`/members/${idOf(result)}/approve`, { body: {} })
      assert.strictEqual((yield* session.login({ email, password: PASSWORD })).loginState, "SUCCESS")
    })))

  it.effect("email verification: the code from the outbox completes the registration", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      yield* settings({ emailVerification: true })
      const email = uniqueEmail()
      const result = yield* register(email)
      assert.strictEqual(result.loginState, "EMAIL_VERIFICATION_REQUIRED")
      assert.isTrue(Option.isSome(yield* session.pending))
      const wrong = yield* session.verify({ code: "000000" === (yield* lastMessage(email)).code ? "111111" : "000000" })
      assert.strictEqual(wrong.loginState, "FAILURE")
      const message = yield* lastMessage(email, "EMAIL_VERIFICATION")
      const verified = yield* session.verify({ code: message.code! })
      assert.strictEqual(verified.loginState, "SUCCESS")
      if (verified.loginState !== "SUCCESS") return
      yield* session.completeDirectLogin(verified.data.sessionToken)
      assert.isTrue(yield* session.loggedIn)
    })))

  it.effect("verify outside EMAIL_VERIFICATION_REQUIRED fails without a request", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      yield* session.ensureTokens
      // the stats call itself counts: measure it, then check verify added nothing to it
      const first = yield* stats
      const before = yield* stats
      const result = yield* session.verify({ code: "123456" })
      const after = yield* stats
      assert.deepStrictEqual(result, { loginState: "FAILURE", error: "Unknown _state" })
      assert.strictEqual(after.requests - before.requests, before.requests - first.requests)
    })))

  for (const factor of ["TOTP", "EMAIL", "SMS"] as const) {
    it.effect(`MFA with a ${factor} factor`, () =>
      fresh(Effect.gen(function*() {
        const session = yield* Session
        const email = uniqueEmail("mfa")
        const registered = yield* register(email)
        const enrolled = yield* dev<{ factorId: string; secret?: string }>(`/members/${idOf(registered)}/factors`, {
          body: { type: factor, ...(factor === "SMS" ? { phone: "+15550100" } : {}) }
        })
        const result = yield* session.login({ email, password: PASSWORD })
        assert.strictEqual(result.loginState, "MFA_REQUIRED")
        if (result.loginState !== "MFA_REQUIRED") return
        assert.include(result.data.factors, factor)
        const bad = yield* session.verifyFactor({ factorType: factor, code: "999999" === totp("AAAA") ? "999998" : "999999" })
        assert.strictEqual(bad.loginState, "FAILURE")
        const inbox = factor === "SMS" ? "+15550100" : email
        const code = factor === "TOTP" ? totp(enrolled.secret!) : (yield* lastMessage(inbox, "MFA_CODE")).code!
        const verified = yield* session.verifyFactor({ factorType: factor, code })
        assert.strictEqual(verified.loginState, "SUCCESS")
        if (verified.loginState !== "SUCCESS") return
        yield* session.completeDirectLogin(verified.data.sessionToken)
        assert.isTrue(yield* session.loggedIn)
      })))
  }

  it.effect("password recovery: the emailed token sets a new password", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      const email = uniqueEmail()
      yield* register(email)
      yield* session.sendPasswordResetEmail(email, "http://127.0.0.1:5173/reset")
      const message = yield* lastMessage(email, "RECOVERY")
      assert.isTrue(message.link!.startsWith("http://127.0.0.1:5173/reset?"))
      const token = new URL(message.link!).searchParams.get("recoveryToken")!
      const recovered = yield* session.recover(token, "a brand new password")
      assert.strictEqual(recovered.loginState, "SUCCESS")
      assert.deepInclude(yield* session.login({ email, password: PASSWORD }), { errorCode: "invalidPassword" })
      assert.strictEqual((yield* session.login({ email, password: "a brand new password" })).loginState, "SUCCESS")
      // the token is single use
      assert.strictEqual((yield* session.recover(token, "yet another password")).loginState, "FAILURE")
    })))

  it.effect("activation email and start verification land in the outbox", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      const email = uniqueEmail()
      const registered = yield* register(email)
      yield* session.sendActivationEmail(idOf(registered), { redirectUri: "http://127.0.0.1:5173/activate" })
      assert.strictEqual((yield* lastMessage(email, "ACTIVATION")).to, email)
      const started = yield* session.startVerification(idOf(registered))
      assert.isTrue(started.verificationId.length > 0)
      assert.isString((yield* lastMessage(email, "EMAIL_VERIFICATION")).code)
    })))

  it.effect("change password, as a member", () =>
    fresh(Effect.gen(function*() {
      const session = yield* Session
      const email = uniqueEmail()
      yield* register(email)
      yield* loginAsMember(email)
      yield* session.changePassword("the changed password")
      assert.deepInclude(yield* session.login({ email, password: PASSWORD }), { errorCode: "invalidPassword" })
      assert.strictEqual((yield* session.login({ email, password: "the changed password" })).loginState, "SUCCESS")
    })))
})

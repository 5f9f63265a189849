import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { request } from "node:http"
import { Database } from "../../src/server/platform/Database.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { CAPTCHA_AFTER, LoginThrottle, MAX_FAILURES, MAX_TRACKED } from "../../src/server/accounts/LoginThrottle.ts"
import { ServerClock } from "../../src/server/platform/ServerClock.ts"
import { dev, registerMember, visitor } from "./support.ts"

const LOGIN = "/_api/iam/authentication/v2/login"

interface Answer {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly body: any
}

/**
 * A login sent from `address`: Linux routes all of 127.0.0.0/8 to the loopback device, so a socket bound
 * to 127.0.0.2 reaches the platform on 127.0.0.1 as another client.
 */
const loginFrom = (address: string, email: string, password: string, captcha?: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const guest = yield* visitor
    const url = new URL(platform.url)
    const body = JSON.stringify({ loginId: { email }, password, ...(captcha === undefined ? {} : { captchaTokens: [{ Recaptcha: captcha }] }) })
    return yield* Effect.promise(() =>
      new Promise<Answer>((resolve, reject) => {
        const req = request({
          host: url.hostname,
          port: url.port,
          path: LOGIN,
          method: "POST",
          localAddress: address,
          headers: { "content-type": "application/json", authorization: guest.access_token }
        }, (res) => {
          let text = ""
          res.setEncoding("utf8")
          res.on("data", (chunk: string) => (text += chunk))
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], body: JSON.parse(text) }))
        })
        req.on("error", reject)
        req.end(body)
      })
    )
  })

const codeOf = (answer: Answer) => answer.body?.details?.applicationError?.code

/** Runs `effect` with the server clock moved forward, then puts it back. */
const later = <A, E, R>(seconds: number, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(dev("POST", "/clock", { skewSeconds: seconds }), () => effect, () => Effect.orDie(dev("POST", "/clock", { skewSeconds: 0 })))

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("login throttling", (it) => {
  it.effect("wrong passwords from one address make that address wait; the member's own address gets in", () =>
    Effect.gen(function*() {
      const member = yield* registerMember()
      for (let i = 0; i < MAX_FAILURES; i++) assert.strictEqual((yield* loginFrom("127.0.0.1", member.email, "not-it")).status, 401)
      // the password is not checked while the address waits: the refusal tells a guesser nothing
      const waiting = yield* loginFrom("127.0.0.1", member.email, member.password)
      assert.strictEqual(waiting.status, 429)
      const retryAfter = Number(waiting.retryAfter)
      assert.isTrue(retryAfter > 0 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`)
      const own = yield* loginFrom("127.0.0.2", member.email, member.password)
      assert.strictEqual(own.status, 200)
      assert.strictEqual(own.body.state, "SUCCESS")
      // that success clears only its own address's count
      assert.strictEqual((yield* loginFrom("127.0.0.1", member.email, member.password)).status, 429)
      const afterWindow = yield* later(16 * 60, loginFrom("127.0.0.1", member.email, member.password))
      assert.strictEqual(afterWindow.body.state, "SUCCESS")
    }))

  it.effect("a correct password clears the address's count", () =>
    Effect.gen(function*() {
      const member = yield* registerMember()
      for (let i = 0; i < MAX_FAILURES - 1; i++) yield* loginFrom("127.0.0.3", member.email, "not-it")
      assert.strictEqual((yield* loginFrom("127.0.0.3", member.email, member.password)).body.state, "SUCCESS")
      for (let i = 0; i < MAX_FAILURES - 1; i++) assert.strictEqual((yield* loginFrom("127.0.0.3", member.email, "not-it")).status, 401)
      assert.strictEqual((yield* loginFrom("127.0.0.3", member.email, member.password)).body.state, "SUCCESS")
    }))

  it.effect("guessing from many addresses makes the email ask for a captcha, never a lockout", () =>
    Effect.gen(function*() {
      const member = yield* registerMember()
      const addresses = Array.from({ length: CAPTCHA_AFTER / MAX_FAILURES }, (_, i) => `127.0.1.${i + 1}`)
      for (const address of addresses) {
        for (let i = 0; i < MAX_FAILURES; i++) assert.strictEqual((yield* loginFrom(address, member.email, "not-it")).status, 401)
      }
      const bare = yield* loginFrom("127.0.2.1", member.email, member.password)
      assert.strictEqual(bare.status, 400)
      assert.strictEqual(codeOf(bare), "-19971", "missingCaptchaToken")
      assert.strictEqual(codeOf(yield* loginFrom("127.0.2.1", member.email, member.password, "made-up")), "-19970", "invalidCaptchaToken")
      const { token } = yield* dev("POST", "/captcha")
      const solved = yield* loginFrom("127.0.2.1", member.email, member.password, token)
      assert.strictEqual(solved.body.state, "SUCCESS")
      // other emails are not affected
      const other = yield* registerMember()
      assert.strictEqual((yield* loginFrom("127.0.2.1", other.email, other.password)).body.state, "SUCCESS")
    }))
})

it.effect("the throttle follows a bounded number of emails and addresses", () =>
  Effect.gen(function*() {
    const throttle = yield* LoginThrottle
    for (let i = 0; i < MAX_TRACKED + 500; i++) throttle.failed(`made-up-${i}@example.com`, "127.0.0.1")
    assert.isAtMost(throttle.tracked(), 2 * MAX_TRACKED)
    // the newest are the ones kept
    const newest = `made-up-${MAX_TRACKED + 499}@example.com`
    for (let i = 0; i < MAX_FAILURES - 1; i++) throttle.failed(newest, "127.0.0.1")
    assert.strictEqual((yield* Effect.exit(throttle.check(newest, "127.0.0.1")))._tag, "Failure")
  }).pipe(Effect.provide(LoginThrottle.layer.pipe(Layer.provide(ServerClock.layer.pipe(Layer.provideMerge(Database.layer(":memory:"))))))))

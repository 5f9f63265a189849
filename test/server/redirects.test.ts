import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { runInNewContext } from "node:vm"
import { LocalPlatform } from "../../src/server/index.ts"
import {
  type Answer,
  authRequestOf,
  authUrl,
  call,
  codeOf,
  get,
  pkce,
  post,
  randomState,
  REDIRECT_URI,
  registerMember,
  visitor
} from "./support.ts"

const SESSION = "/_api/redirects-api/v1/redirect-session"

/** The script of a web_message page, run with a fake parent window; returns what it posted. */
const runMessagePage = (page: string, referrer: string) => {
  const script = /<script>([\s\S]*)<\/script>/.exec(page)?.[1] ?? ""
  const posted: Array<{ message: unknown; target: string }> = []
  const parent = { postMessage: (message: unknown, target: string) => posted.push({ message, target }) }
  runInNewContext(script, { window: { parent }, document: { referrer }, URL })
  return posted
}

const cookieOf = (answer: Answer, name: string): string | undefined =>
  answer.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))

const exchange = (code: string, verifier: string, redirectUri?: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* post("/oauth2/token", {
      clientId: platform.clientId,
      grantType: "authorization_code",
      code,
      codeVerifier: verifier,
      ...(redirectUri === undefined ? {} : { redirectUri })
    })
  })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("redirect sessions and the authorize page", (it) => {
  describe("POST /_api/redirects-api/v1/redirect-session", () => {
    it.effect("answers a session whose full URL points at this platform", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const guest = yield* visitor
        const res = yield* post(SESSION, {
          auth: {
            authRequest: authRequestOf(platform.clientId, { responseMode: "fragment" }),
            prompt: "login"
          }
        }, guest.access_token)
        assert.strictEqual(res.status, 200)
        const session = res.body.redirectSession
        assert.strictEqual(session.fullUrl, `${platform.url}/oauth2/authorize?redirectSession=${session.id}`)
        assert.deepStrictEqual(session.urlDetails, {
          endpoint: `${platform.url}/oauth2/authorize`,
          searchParams: { redirectSession: session.id }
        })
      }))

    it.effect("needs a visitor or member token", () =>
      Effect.gen(function*() {
        const res = yield* post(SESSION, { login: {} })
        assert.strictEqual(res.status, 401)
      }))

    it.effect("refuses bad auth requests with field violations", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const guest = yield* visitor
        const base = authRequestOf(platform.clientId)
        const refused = (authRequest: Record<string, unknown>) =>
          Effect.map(post(SESSION, { auth: { authRequest: { ...base, ...authRequest }, prompt: "login" } }, guest.access_token), (res) => {
            assert.strictEqual(res.status, 400, res.text)
            return (res.body.details.validationError.fieldViolations as Array<{ field: string }>).map((v) => v.field)
          })
        assert.include(yield* refused({ clientId: "nobody" }), "auth.authRequest.clientId")
        assert.include(yield* refused({ redirectUri: "https://evil.example/callback" }), "auth.authRequest.redirectUri")
        assert.include(yield* refused({ redirectUri: "unused://" }), "auth.authRequest.redirectUri")
        assert.include(yield* refused({ redirectUri: undefined }), "auth.authRequest.redirectUri")
        assert.include(yield* refused({ state: "" }), "auth.authRequest.state")
        assert.include(yield* refused({ state: undefined }), "auth.authRequest.state")
        assert.include(yield* refused({ codeChallenge: "short" }), "auth.authRequest.codeChallenge")
        assert.include(yield* refused({ codeChallengeMethod: "plain" }), "auth.authRequest.codeChallengeMethod")
        const both = yield* post(SESSION, { auth: { authRequest: base }, login: {} }, guest.access_token)
        assert.strictEqual(both.status, 400)
        const logout = yield* post(SESSION, { logout: { clientId: platform.clientId }, callbacks: { postFlowUrl: "https://evil.example/" } }, guest.access_token)
        assert.strictEqual(logout.body.details.validationError.fieldViolations[0].field, "callbacks.postFlowUrl")
      }))
  })

  describe("GET /oauth2/authorize with a session token", () => {
    const start = (mode: "fragment" | "query" | "web_message", redirectUri: string | undefined, prompt = "none") =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        const guest = yield* visitor
        const { verifier, challenge } = pkce()
        const state = randomState()
        const url = yield* authUrl(guest.access_token, {
          ...(redirectUri === undefined ? {} : { redirectUri }),
          responseMode: mode,
          codeChallenge: challenge,
          state,
          sessionToken: member.response.sessionToken
        }, prompt)
        return { url, verifier, state, member }
      })

    it.effect("fragment: 302 to the redirect URI with #code and state", () =>
      Effect.gen(function*() {
        const { url, verifier, state } = yield* start("fragment", REDIRECT_URI)
        const page = yield* call("GET", url)
        assert.strictEqual(page.status, 302)
        const location = new URL(page.headers.get("location")!)
        assert.strictEqual(`${location.origin}${location.pathname}${location.search}`, REDIRECT_URI)
        const params = new URLSearchParams(location.hash.slice(1))
        assert.strictEqual(params.get("state"), state)
        assert.strictEqual((yield* exchange(params.get("code")!, verifier, REDIRECT_URI)).status, 200)
      }))

    it.effect("query: 302 with ?code and state, keeping the redirect URI's own query", () =>
      Effect.gen(function*() {
        const redirectUri = "http://127.0.0.1:3000/cb?from=app"
        const { url, verifier, state } = yield* start("query", redirectUri)
        const page = yield* call("GET", url)
        assert.strictEqual(page.status, 302)
        const location = new URL(page.headers.get("location")!)
        assert.strictEqual(location.searchParams.get("from"), "app")
        assert.strictEqual(location.searchParams.get("state"), state)
        assert.strictEqual(location.hash, "")
        assert.strictEqual((yield* exchange(location.searchParams.get("code")!, verifier, redirectUri)).status, 200)
      }))

    it.effect("web_message: a page that posts {code, state} to the Referer's origin only", () =>
      Effect.gen(function*() {
        const { url, verifier, state } = yield* start("web_message", undefined)
        const page = yield* call("GET", url, { headers: { referer: "http://localhost:5173/account?tab=1" } })
        assert.strictEqual(page.status, 200)
        assert.match(page.headers.get("content-type") ?? "", /^text\/html/)
        assert.include(page.text, `<link rel="icon" href="data:,">`)
        assert.include(page.text, `var target = "http://localhost:5173";`)
        assert.notInclude(page.text, `"*"`)
        const posted = runMessagePage(page.text, "http://localhost:5173/account?tab=1")
        assert.strictEqual(posted.length, 1)
        assert.strictEqual(posted[0]!.target, "http://localhost:5173")
        const message = posted[0]!.message as { code: string; state: string }
        assert.strictEqual(message.state, state)
        assert.strictEqual((yield* exchange(message.code, verifier)).status, 200)
      }))

    it.effect("web_message: a parent on a foreign origin gets nothing, and no code is issued", () =>
      Effect.gen(function*() {
        const { url } = yield* start("web_message", undefined)
        const page = yield* call("GET", url, { headers: { referer: "https://evil.example/" } })
        assert.strictEqual(page.status, 200)
        assert.notInclude(page.text, "sfxcode_")
        assert.deepStrictEqual(runMessagePage(page.text, "https://evil.example/"), [])
      }))

    it.effect("web_message without a Referer: the page checks document.referrer against the client's origins", () =>
      Effect.gen(function*() {
        const first = yield* start("web_message", undefined)
        const page = yield* call("GET", first.url)
        assert.include(page.text, "var target = null;")
        const posted = runMessagePage(page.text, "http://127.0.0.1:4321/")
        assert.deepStrictEqual(posted.map((p) => p.target), ["http://127.0.0.1:4321"])
        const second = yield* start("web_message", undefined)
        const foreign = yield* call("GET", second.url)
        assert.deepStrictEqual(runMessagePage(foreign.text, "https://evil.example/page"), [])
        assert.deepStrictEqual(runMessagePage(foreign.text, ""), [])
      }))

    it.effect("a completed session's URL cannot be used again; an unknown one neither", () =>
      Effect.gen(function*() {
        const { url } = yield* start("query", REDIRECT_URI)
        assert.strictEqual((yield* call("GET", url)).status, 302)
        const again = yield* call("GET", url)
        assert.strictEqual(again.status, 400)
        assert.include(again.text, "not valid")
        const platform = yield* LocalPlatform
        assert.strictEqual((yield* get(`${platform.url}/oauth2/authorize?redirectSession=nope`)).status, 400)
      }))
  })

  describe("without a session", () => {
    const startPlain = (mode: "query" | "web_message", prompt: string, extra: Record<string, unknown> = {}) =>
      Effect.gen(function*() {
        const guest = yield* visitor
        const { verifier, challenge } = pkce()
        const state = randomState()
        const url = yield* authUrl(guest.access_token, {
          ...(mode === "query" ? { redirectUri: REDIRECT_URI } : {}),
          responseMode: mode,
          codeChallenge: challenge,
          state,
          ...extra
        }, prompt)
        return { url, verifier, state }
      })

    it.effect("prompt none answers login_required (query and web_message), also for a bad session token", () =>
      Effect.gen(function*() {
        const { url, state } = yield* startPlain("query", "none")
        const page = yield* call("GET", url)
        assert.strictEqual(page.status, 302)
        const location = new URL(page.headers.get("location")!)
        assert.strictEqual(location.searchParams.get("error"), "login_required")
        assert.isString(location.searchParams.get("error_description"))
        assert.strictEqual(location.searchParams.get("state"), state)
        assert.isNull(location.searchParams.get("code"))

        const silent = yield* startPlain("web_message", "none", { sessionToken: "sfxsess_unknown" })
        const frame = yield* call("GET", silent.url, { headers: { referer: "http://localhost:5173/" } })
        const posted = runMessagePage(frame.text, "http://localhost:5173/")
        assert.deepStrictEqual(posted, [{
          message: { error: "login_required", error_description: "The member is not logged in", state: silent.state },
          target: "http://localhost:5173"
        }])
      }))

    it.effect("prompt login shows the login form; a wrong password shows it again and sets nothing", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        const { url } = yield* startPlain("query", "login")
        const form = yield* call("GET", url)
        assert.strictEqual(form.status, 200)
        assert.include(form.text, `<form method="post" action="/oauth2/authorize?redirectSession=`)
        assert.include(form.text, `name="password"`)
        assert.include(form.text, `<link rel="icon" href="data:,">`)
        assert.strictEqual(form.headers.get("x-frame-options"), "DENY")
        const wrong = yield* call("POST", url, { form: { email: member.email, password: "wrong-password" } })
        assert.strictEqual(wrong.status, 401)
        assert.include(wrong.text, "Wrong email or password")
        assert.include(wrong.text, `value="${member.email}"`)
        assert.deepStrictEqual(wrong.headers.getSetCookie(), [])
      }))

    it.effect("the login form signs in: a code, an HttpOnly cookie, and later silent logins through the cookie", () =>
      Effect.gen(function*() {
        const member = yield* registerMember()
        const first = yield* startPlain("query", "login")
        const done = yield* call("POST", first.url, { form: { email: member.email, password: member.password } })
        assert.strictEqual(done.status, 302)
        const code = new URL(done.headers.get("location")!).searchParams.get("code")!
        assert.strictEqual((yield* exchange(code, first.verifier, REDIRECT_URI)).status, 200)
        const setCookie = cookieOf(done, "sfx_member")!
        assert.match(setCookie, /HttpOnly/)
        assert.match(setCookie, /SameSite=Lax/)
        const cookie = setCookie.split(";")[0]!

        const silent = yield* startPlain("query", "none")
        const again = yield* call("GET", silent.url, { headers: { cookie } })
        assert.isString(new URL(again.headers.get("location")!).searchParams.get("code"))

        // prompt=login asks again even with a session
        const forced = yield* startPlain("query", "login")
        assert.strictEqual((yield* call("GET", forced.url, { headers: { cookie } })).status, 200)
      }))

    it.effect("the logout page ends the browser session, revokes the member's refresh tokens and returns to the app", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const member = yield* registerMember()
        const first = yield* startPlain("query", "login")
        const done = yield* call("POST", first.url, { form: { email: member.email, password: member.password } })
        const cookie = cookieOf(done, "sfx_member")!.split(";")[0]!
        const tokens = (yield* exchange(new URL(done.headers.get("location")!).searchParams.get("code")!, first.verifier, REDIRECT_URI)).body

        const session = yield* post(SESSION, {
          logout: { clientId: platform.clientId },
          callbacks: { postFlowUrl: "http://localhost:5173/signed-out" }
        }, tokens.access_token)
        assert.strictEqual(session.status, 200)
        const page = yield* call("GET", session.body.redirectSession.fullUrl, { headers: { cookie } })
        assert.strictEqual(page.status, 302)
        assert.strictEqual(page.headers.get("location"), "http://localhost:5173/signed-out")
        assert.match(cookieOf(page, "sfx_member") ?? "", /Max-Age=0|Expires=Thu, 01 Jan 1970/)

        const refresh = yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: tokens.refresh_token })
        assert.strictEqual(codeOf(refresh), "invalid_grant")
        const silent = yield* startPlain("query", "none")
        const after = yield* call("GET", silent.url, { headers: { cookie } })
        assert.strictEqual(new URL(after.headers.get("location")!).searchParams.get("error"), "login_required")
      }))

    it.effect("server logout: clears the cookie, revokes refresh tokens, redirects only to allowed origins", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const member = yield* registerMember()
        const first = yield* startPlain("query", "login")
        const done = yield* call("POST", first.url, { form: { email: member.email, password: member.password } })
        const tokens = (yield* exchange(new URL(done.headers.get("location")!).searchParams.get("code")!, first.verifier, REDIRECT_URI)).body
        const target = encodeURIComponent("http://localhost:5173/")
        const out = yield* get(`/_api/iam/authentication/v1/logout?clientId=${platform.clientId}&postLogoutRedirectUri=${target}`, tokens.access_token)
        assert.strictEqual(out.status, 302)
        assert.strictEqual(out.headers.get("location"), "http://localhost:5173/")
        const refresh = yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: tokens.refresh_token })
        assert.strictEqual(codeOf(refresh), "invalid_grant")
        const foreign = yield* get(`/_api/iam/authentication/v1/logout?clientId=${platform.clientId}&postLogoutRedirectUri=${encodeURIComponent("https://evil.example/")}`)
        assert.strictEqual(foreign.status, 200)
        assert.deepStrictEqual(foreign.body, {})
      }))

    it.effect("pre-warm: the login session's page sets the visitor cookie and shows a blank page", () =>
      Effect.gen(function*() {
        const guest = yield* visitor
        const session = yield* post(SESSION, { login: {} }, guest.access_token)
        assert.strictEqual(session.status, 200)
        const page = yield* call("GET", session.body.redirectSession.fullUrl)
        assert.strictEqual(page.status, 200)
        const who = (yield* get("/_sitefx/whoami", guest.access_token)).body
        assert.match(cookieOf(page, "sfx_visitor") ?? "", new RegExp(`^sfx_visitor=${who.id}\\.`))
        assert.include(page.text, `<link rel="icon" href="data:,">`)
      }))
  })
})

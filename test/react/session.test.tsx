// @vitest-environment jsdom
/**
 * The session atoms against the local platform (in-process), in React (jsdom) and through a registry:
 * the state and the member's profile follow a login and a logout; registration with an email code, an
 * MFA challenge, a captcha the site asks for, password recovery through the mailed link, login by
 * redirect (PKCE) and silent login each give their typed login states; errors come back typed. Flows
 * given an app's own state atoms (`sessionStateAtoms`, a header's) change those.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"
import { act } from "react"
import { createRoot } from "react-dom/client"
import { PlatformError } from "../../src/http/PlatformError.ts"
import { RegistryProvider, sessionAtoms, sessionStateAtoms, useAtomSet, useAtomValue } from "../../src/react/index.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { OAuthError } from "../../src/session/OAuthError.ts"
import { siteSession } from "../../src/session/SiteSession.ts"
import { Site } from "../../src/Site.ts"
import { dev, lastMessage, LocalPlatform, settings, stats, uniqueEmail } from "../support/platform.ts"
import { totp } from "../support/totp.ts"

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const waitFor = (check: () => boolean, what: string) =>
  Effect.promise(async () => {
    for (let i = 0; i < 300; i++) {
      if (check()) return
      await act(() => new Promise((r) => setTimeout(r, 10)))
    }
    throw new Error(`timed out waiting for ${what}`)
  })

/** Runs an effect inside React's act, for a call whose result updates components on screen. */
const inAct = <A,>(effect: Effect.Effect<A>) => Effect.promise(() => act(() => Effect.runPromise(effect)))

type Fn<Arg, A, E> = Atom.AtomResultFn<Arg, A, E>

/** Calls an atom function and waits for its result (a Success or a Failure, no longer waiting). */
const call = <Arg, A, E>(registry: AtomRegistry.AtomRegistry, fn: Fn<Arg, A, E>, arg: Arg) =>
  Effect.promise(() =>
    new Promise<AsyncResult.Success<A, E> | AsyncResult.Failure<A, E>>((resolve) => {
      registry.set(fn, arg)
      let unsubscribe: (() => void) | undefined
      let done = false
      unsubscribe = registry.subscribe(fn, (result) => {
        if (!done && result._tag !== "Initial" && !result.waiting) {
          done = true
          // the result may be there at once, before subscribe returns
          queueMicrotask(() => unsubscribe?.())
          resolve(result)
        }
      }, { immediate: true })
    })
  )

/** The value of a successful result (fails the test otherwise). */
const valueOf = <A, E>(result: AsyncResult.AsyncResult<A, E>): A => {
  if (!AsyncResult.isSuccess(result)) assert.fail(`expected a success, got ${result._tag}: ${String(AsyncResult.isFailure(result) ? result.cause : "")}`)
  return result.value
}

/** The typed error of a failed result. */
const errorOf = <A, E>(result: AsyncResult.AsyncResult<A, E>): E => {
  const error = AsyncResult.error(result)
  if (error._tag === "None") assert.fail(`expected a typed failure, got ${result._tag}`)
  return error.value
}

/** Fresh atoms over a fresh session (tokens in memory) on the platform; disposed with the registry. */
const fresh = (platform: LocalPlatform["Service"], agent = AuthorizeAgent.http()) => {
  const runtime = Atom.runtime(siteSession({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: agent }))
  return { session: sessionAtoms(runtime, { silentAgent: agent }), registry: AtomRegistry.make() }
}

/** Keeps the session state mounted (as a screen showing it would) and reads it. */
const watch = (registry: AtomRegistry.AtomRegistry, session: ReturnType<typeof fresh>["session"]) => {
  const stop = registry.mount(session.state)
  const current = () => {
    const state = registry.get(session.state)
    return AsyncResult.isSuccess(state) ? (state.value.loggedIn ? "member" : state.value.role) : state._tag
  }
  return { current, stop }
}

const password = "a long enough password 1"

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("sitefx/react session atoms", (it) => {
  it.effect("a component shows the session and signs a member in", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const runtime = Atom.runtime(Site.layer({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http() }))
      const session = sessionAtoms(runtime)

      function Account() {
        const state = useAtomValue(session.state)
        const signIn = useAtomSet(session.signIn)
        const result = useAtomValue(session.signIn)
        const label = AsyncResult.match(state, {
          onInitial: () => "loading",
          onFailure: () => "error",
          onSuccess: (s) => (s.value.loggedIn ? "member" : s.value.role)
        })
        const outcome = AsyncResult.isSuccess(result) ? result.value.loginState : "-"
        return (
          <div>
            <p id="state">{label}</p>
            <p id="outcome">{outcome}</p>
            <button id="wrong" onClick={() => signIn({ email: demo.email, password: "wrong password" })}>wrong</button>
            <button id="right" onClick={() => signIn({ email: demo.email, password: demo.password })}>sign in</button>
          </div>
        )
      }

      const registry = AtomRegistry.make()
      const el = document.createElement("div")
      const root = createRoot(el)
      const text = (id: string) => el.querySelector(`#${id}`)!.textContent
      yield* Effect.promise(() => act(async () => root.render(<RegistryProvider registry={registry}><Account /></RegistryProvider>)))
      yield* waitFor(() => text("state") === "none", "the initial state")

      yield* Effect.promise(() => act(async () => (el.querySelector("#wrong") as HTMLButtonElement).click()))
      yield* waitFor(() => text("outcome") === "FAILURE", "a refused login")
      assert.strictEqual(text("state"), "visitor")

      yield* Effect.promise(() => act(async () => (el.querySelector("#right") as HTMLButtonElement).click()))
      yield* waitFor(() => text("state") === "member", "the member state")
      assert.strictEqual(text("outcome"), "SUCCESS")
      yield* Effect.promise(() => act(async () => root.unmount()))
      registry.dispose()
    }))

  it.effect("the member's profile appears on login and goes on logout; the state follows both", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const { session, registry } = fresh(platform)

      function Profile() {
        const state = useAtomValue(session.state)
        const member = useAtomValue(session.member)
        const signOut = useAtomSet(session.signOut)
        const logout = useAtomValue(session.signOut)
        return (
          <div>
            <p id="state">{AsyncResult.isSuccess(state) ? String(state.value.loggedIn) : state._tag}</p>
            <p id="member">
              {AsyncResult.match(member, { onInitial: () => "loading", onFailure: () => "error", onSuccess: (m) => m.value?.loginEmail ?? "visitor" })}
            </p>
            <p id="logout">{AsyncResult.isSuccess(logout) ? new URL(logout.value.logoutUrl).pathname : "-"}</p>
            <button id="out" onClick={() => signOut(`${platform.url}/#/member`)}>Sign out</button>
          </div>
        )
      }
      const el = document.createElement("div")
      const root = createRoot(el)
      const text = (id: string) => el.querySelector(`#${id}`)!.textContent
      yield* Effect.promise(() => act(async () => root.render(<RegistryProvider registry={registry}><Profile /></RegistryProvider>)))
      yield* waitFor(() => text("member") === "visitor", "the visitor")
      assert.strictEqual(text("state"), "false")

      // the sign-in changes what Profile shows: it runs inside act, as a click on a button would
      const result = yield* inAct(call(registry, session.signIn, { email: demo.email, password: demo.password }))
      assert.strictEqual(valueOf(result).loginState, "SUCCESS")
      yield* waitFor(() => text("member") === demo.email, "the member's profile")
      assert.strictEqual(text("state"), "true")

      yield* Effect.promise(() => act(async () => (el.querySelector("#out") as HTMLButtonElement).click()))
      yield* waitFor(() => text("state") === "false", "the signed-out state")
      yield* waitFor(() => text("member") === "visitor", "no profile")
      // the logout page ends the platform's own session, then comes back to the app
      assert.match(text("logout")!, /logout|sign-?out/i)
      yield* Effect.promise(() => act(async () => root.unmount()))
      registry.dispose()
    }))

  it.effect("registration with an email code: the typed step, a wrong code kept pending, the right one signs in", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const { session, registry } = fresh(platform)
      const state = watch(registry, session)
      yield* settings({ emailVerification: true })
      const email = uniqueEmail("verify")
      yield* Effect.gen(function*() {
        const registered = valueOf(yield* call(registry, session.register, { email, password, profile: { nickname: "Verifier" } }))
        assert.strictEqual(registered.loginState, "EMAIL_VERIFICATION_REQUIRED")
        assert.strictEqual(registry.get(session.pending)?.kind, "EMAIL_VERIFICATION")

        const wrong = valueOf(yield* call(registry, session.verify, { code: "000000" }))
        assert.strictEqual(wrong.loginState, "FAILURE")
        assert.strictEqual(registry.get(session.pending)?.kind, "EMAIL_VERIFICATION")
        assert.strictEqual(state.current(), "visitor")

        const message = yield* lastMessage(email, "EMAIL_VERIFICATION")
        const right = valueOf(yield* call(registry, session.verify, { code: ` ${message.code!} ` }))
        assert.strictEqual(right.loginState, "SUCCESS")
        assert.isUndefined(registry.get(session.pending))
        yield* waitFor(() => state.current() === "member", "the member state")
      }).pipe(Effect.ensuring(settings({ emailVerification: false })))
      state.stop()
      registry.dispose()
    }))

  it.effect("an MFA challenge: MFA_REQUIRED with its factors, a wrong code refused, a TOTP code signs in", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail("mfa")
      {
        // a member with a TOTP factor
        const { session, registry } = fresh(platform)
        const made = valueOf(yield* call(registry, session.register, { email, password }))
        assert.strictEqual(made.loginState, "SUCCESS")
        registry.dispose()
      }
      const { identities } = yield* dev<{ identities: Array<{ id: string }> }>(`/members?email=${encodeURIComponent(email)}`)
      const { secret } = yield* dev<{ secret: string }>(`/members/${identities[0]!.id}/factors`, { body: { type: "TOTP" } })

      const { session, registry } = fresh(platform)
      const state = watch(registry, session)
      const challenged = valueOf(yield* call(registry, session.signIn, { email, password }))
      assert.strictEqual(challenged.loginState, "MFA_REQUIRED")
      if (challenged.loginState === "MFA_REQUIRED") assert.include(challenged.data.factors, "TOTP")
      assert.strictEqual(registry.get(session.pending)?.kind, "MFA")

      const wrong = valueOf(yield* call(registry, session.verifyFactor, { code: totp(secret, Date.now() - 10 * 60_000) }))
      assert.strictEqual(wrong.loginState, "FAILURE")
      assert.strictEqual(registry.get(session.pending)?.kind, "MFA")
      assert.strictEqual(state.current(), "visitor")

      const right = valueOf(yield* call(registry, session.verifyFactor, { code: totp(secret) }))
      assert.strictEqual(right.loginState, "SUCCESS")
      yield* waitFor(() => state.current() === "member", "the member state")
      state.stop()
      registry.dispose()
    }))

  it.effect("a site that asks for a captcha: missingCaptchaToken, invalidCaptchaToken, then a minted token signs in", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const { session, registry } = fresh(platform)
      yield* settings({ captcha: true })
      yield* Effect.gen(function*() {
        const missing = valueOf(yield* call(registry, session.signIn, { email: demo.email, password: demo.password }))
        assert.deepInclude(missing, { loginState: "FAILURE", errorCode: "missingCaptchaToken" })
        const invalid = valueOf(yield* call(registry, session.signIn, { email: demo.email, password: demo.password, captchaToken: "made-up" }))
        assert.deepInclude(invalid, { loginState: "FAILURE", errorCode: "invalidCaptchaToken" })
        const { token } = yield* dev<{ token: string }>("/captcha", { method: "POST" })
        const ok = valueOf(yield* call(registry, session.signIn, { email: demo.email, password: demo.password, captchaToken: token }))
        assert.strictEqual(ok.loginState, "SUCCESS")
      }).pipe(Effect.ensuring(settings({ captcha: false })))
      registry.dispose()
    }))

  it.effect("password recovery: the mailed link's token sets a new password and signs the member in", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail("recover")
      {
        const { session, registry } = fresh(platform)
        valueOf(yield* call(registry, session.register, { email, password }))
        registry.dispose()
      }
      const { session, registry } = fresh(platform)
      const state = watch(registry, session)
      const back = `${platform.url}/?reset#/member/reset`
      valueOf(yield* call(registry, session.sendRecovery, { email, redirectUri: back }))
      const link = new URL((yield* lastMessage(email, "RECOVERY")).link!)
      assert.strictEqual(link.hash, "#/member/reset")
      const token = link.searchParams.get("recoveryToken")!

      const changed = valueOf(yield* call(registry, session.recover, { token, password: Redacted.make("a brand new password 2") }))
      assert.strictEqual(changed.loginState, "SUCCESS")
      yield* waitFor(() => state.current() === "member", "the member state")
      // the token is used up
      const again = valueOf(yield* call(registry, session.recover, { token, password: "another new password 3" }))
      assert.strictEqual(again.loginState, "FAILURE")

      const old = valueOf(yield* call(registry, session.signIn, { email, password }))
      assert.deepInclude(old, { loginState: "FAILURE", errorCode: "invalidPassword" })
      const current = valueOf(yield* call(registry, session.signIn, { email, password: "a brand new password 2" }))
      assert.strictEqual(current.loginState, "SUCCESS")
      state.stop()
      registry.dispose()
    }))

  it.effect("login by redirect (PKCE) on the platform's page, then silent login where the platform remembers the browser", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const redirectUri = `${platform.url}/#/member/callback`
      let cookie = ""
      {
        const { session, registry } = fresh(platform)
        const state = watch(registry, session)
        const login = valueOf(yield* call(registry, session.redirectLogin, { redirectUri, originalUri: `${platform.url}/#/member` }))
        // the member signs in on the platform's own page; it sends the browser back with a code
        const page = yield* Effect.promise(() => fetch(login.url))
        assert.strictEqual(page.status, 200)
        const form = new URLSearchParams({ email: demo.email, password: Redacted.value(demo.password) })
        const answer = yield* Effect.promise(() =>
          fetch(login.url, { method: "POST", body: form, redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" } })
        )
        assert.strictEqual(answer.status, 302)
        cookie = answer.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ")
        const callback = answer.headers.get("location")!
        assert.isTrue(callback.startsWith(`${platform.url}/?`))

        // a callback whose state is not this login's is refused, typed
        const forged = new URL(callback)
        forged.searchParams.set("state", "not-the-state")
        const refused = errorOf(yield* call(registry, session.completeRedirect, forged.href))
        assert.instanceOf(refused, OAuthError)
        assert.strictEqual((refused as OAuthError).reason._tag, "InvalidState")

        const done = valueOf(yield* call(registry, session.completeRedirect, callback))
        assert.strictEqual(done.originalUri, `${platform.url}/#/member`)
        yield* waitFor(() => state.current() === "member", "the member state")
        state.stop()
        registry.dispose()
      }
      assert.include(cookie, "sfx_member=")

      // a browser the platform does not know: login_required, typed
      {
        const { session, registry } = fresh(platform)
        const error = errorOf(yield* call(registry, session.silentLogin, undefined))
        assert.instanceOf(error, OAuthError)
        assert.strictEqual((error as OAuthError).error, "login_required")
        // this page (jsdom's, at localhost) and the platform (at 127.0.0.1) are two sites: the message says so
        assert.strictEqual(new URL(window.location.origin).hostname, "localhost")
        assert.include(error.message, `this page (${window.location.origin}) and the platform (${platform.url}) are two sites`)
        registry.dispose()
      }
      // the same browser (its platform cookie), with no tokens: signed in without a form
      {
        const withCookie: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...init?.headers, cookie } })
        const { session, registry } = fresh(platform, AuthorizeAgent.http({ fetch: withCookie }))
        const state = watch(registry, session)
        const signedIn = valueOf(yield* call(registry, session.silentLogin, undefined))
        assert.isTrue(signedIn.loggedIn)
        yield* waitFor(() => state.current() === "member", "the member state")
        state.stop()
        registry.dispose()
      }
    }))

  it.effect("flows given the app's own state atoms (sessionStateAtoms) change those: the member shows on sign-in and goes on sign-out", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const runtime = Atom.runtime(siteSession({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http() }))
      const who = sessionStateAtoms(runtime)
      const session = sessionAtoms(runtime, { state: who })
      assert.strictEqual(session.state, who.state)
      assert.strictEqual(session.member, who.member)
      const registry = AtomRegistry.make()
      // a header mounts these alone; the flows' screen is not there
      const stop = registry.mount(who.member)
      const email = () => {
        const member = registry.get(who.member)
        return AsyncResult.isSuccess(member) ? member.value?.loginEmail ?? "visitor" : member._tag
      }
      yield* waitFor(() => email() === "visitor", "a visitor")
      assert.strictEqual(valueOf(yield* call(registry, session.signIn, { email: demo.email, password: demo.password })).loginState, "SUCCESS")
      yield* waitFor(() => email() === demo.email, "the member in the state atoms given")
      valueOf(yield* call(registry, session.signOut, platform.url))
      yield* waitFor(() => email() === "visitor", "a visitor again")
      stop()
      registry.dispose()
    }))

  it.effect("while its state is watched, the session renews its access token as it expires, with no call asking", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const { session, registry } = fresh(platform)
      const state = watch(registry, session)
      yield* settings({ accessTokenTtlSeconds: 1 })
      yield* Effect.gen(function*() {
        valueOf(yield* call(registry, session.signIn, { email: demo.email, password: demo.password }))
        yield* waitFor(() => state.current() === "member", "the member state")
        const before = (yield* stats).tokenRequests.refresh_token
        yield* Effect.sleep("2500 millis")
        assert.isAtLeast((yield* stats).tokenRequests.refresh_token - before, 1)
        // unwatched, it stops
        state.stop()
        yield* Effect.sleep("100 millis")
        const stopped = (yield* stats).tokenRequests.refresh_token
        yield* Effect.sleep("2500 millis")
        assert.strictEqual((yield* stats).tokenRequests.refresh_token, stopped)
      }).pipe(Effect.ensuring(settings({ accessTokenTtlSeconds: 14_400 })))
      registry.dispose()
    }), { timeout: 15_000 })

  it.effect("a platform that cannot be reached: the flow fails with a typed PlatformError", () =>
    Effect.gen(function*() {
      const runtime = Atom.runtime(siteSession({
        baseUrl: "http://127.0.0.1:9",
        clientId: "sitefx-local-client",
        retry: { base: "1 millis", cap: "5 millis", times: 1 }
      }))
      const session = sessionAtoms(runtime)
      const registry = AtomRegistry.make()
      const error = errorOf(yield* call(registry, session.signIn, { email: "someone@example.com", password }))
      assert.instanceOf(error, PlatformError)
      assert.strictEqual((error as PlatformError).reason._tag, "TransportError")
      registry.dispose()
    }))
})

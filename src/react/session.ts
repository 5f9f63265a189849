/**
 * Ready atoms for a visitor/member session, built on an atom runtime of a Site (or siteSession) layer:
 * the session state and the member's profile, which follow logins and logouts (in this tab and, through
 * the shared store, in the others) and keep themselves fresh; and every member flow as an atom function
 * whose result is the typed login state (`LoginResult`) or the typed error (`PlatformError`,
 * `OAuthError`): register, login (with a captcha token when the site asks), the email verification
 * code, an MFA factor code, password recovery, logout, login by redirect (PKCE) and silent login.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Atom } from "effect/reactivity"
import type { PlatformAuth, PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { AuthorizeAgent } from "../session/AuthorizeAgent.ts"
import { crossSite } from "../session/crossSite.ts"
import { type LoginResult, pendingOf, type PendingStep } from "../session/LoginResult.ts"
import { AuthorizationFailed, OAuthError } from "../session/OAuthError.ts"
import { prewarm as prewarmSession } from "../session/prewarm.ts"
import {
  type CaptchaTokens,
  type LoginUrl,
  type RedirectResult,
  type Secret,
  Session,
  type SessionState
} from "../session/Session.ts"
import type { FactorType, IdentityProfile } from "../session/wire/index.ts"
import type { SessionTokens } from "../session/SessionTokens.ts"
import { type SessionStateAtoms, sessionStateAtoms, type SessionStateOptions } from "./sessionState.ts"
import { knownRuntime } from "./hydration.ts"

/** What the `signIn` atom takes: the member's email and password, and a captcha token when the site asks. */
export interface SignInInput {
  readonly email: string
  readonly password: Secret
  /** A captcha token, when the site asks for one (a FAILURE with `missingCaptchaToken` says so). */
  readonly captchaToken?: string | undefined
}

/** What the `register` atom takes: a sign-in's fields and the new member's profile. */
export interface RegisterInput extends SignInInput {
  /** Names, phones, custom fields... of the new member. */
  readonly profile?: IdentityProfile | undefined
}

/** What the `verifyFactor` atom takes: the code of one MFA factor. */
export interface VerifyFactorInput {
  readonly code: string
  /** The factor the code belongs to; the pending step's first factor by default. */
  readonly factorType?: FactorType | undefined
  /** Skip MFA on this device next time. */
  readonly rememberThisDevice?: boolean | undefined
}

/** What the `recover` atom takes: the recovery link's token and the new password. */
export interface RecoverInput {
  /** The `recoveryToken` of the recovery email's link. */
  readonly token: string
  readonly password: Secret
}

/** What the `redirectLogin` atom takes: the page the platform sends the browser back to, and where to go after. */
export interface RedirectLoginInput {
  /** Where the platform sends the browser back with `code` and `state` in the query. */
  readonly redirectUri: string
  /** Where to go once the login is complete (given back by `completeRedirect`). */
  readonly originalUri?: string | undefined
}

/** What `sessionAtoms` takes: following other tabs, keeping the access token fresh, the silent login's agent. */
export interface SessionAtomsOptions<ER = never> extends SessionStateOptions {
  /** How the silent login reaches the authorize page: a hidden iframe by default. */
  readonly silentAgent?: Layer.Layer<AuthorizeAgent> | undefined
  /**
   * The state and member atoms to use, when the app already has them (`sessionStateAtoms`, mounted in a
   * header): the flows then read and change the very atoms the rest of the page shows, and `tabs` and
   * `keepFresh` are those atoms' own.
   */
  readonly state?: SessionStateAtoms<ER> | undefined
}

/** A flow keeps running when the screen that started it goes away (the login completes, the logout page opens). */
const flow = <A extends Atom.Atom<any>>(atom: A): A => Atom.keepAlive(atom)

const captchaOf = (token: string | undefined): { captchaTokens?: CaptchaTokens } =>
  token === undefined || token.trim() === "" ? {} : { captchaTokens: { recaptchaToken: token.trim() } }

/**
 * Atoms of one session. `runtime` comes from `Atom.runtime(Site.layer(...))` (or `siteSession`), with
 * `tokens: tabTokenStore()` in a browser so the tabs share one session.
 *
 * @example
 * import { siteSession, tabTokenStore } from "sitefx/session"
 *
 * const runtime = Atom.runtime(siteSession({ clientId: "my-client-id", baseUrl: "http://127.0.0.1:8787", tokens: tabTokenStore() }))
 * export const session = sessionAtoms(runtime)
 * // in a component:
 * const state = useAtomValue(session.state)            // AsyncResult<SessionState>
 * const signIn = useAtomSet(session.signIn)            // signIn({ email, password })
 * const outcome = useAtomValue(session.signIn)         // AsyncResult<LoginResult, PlatformError | OAuthError>
 */
export const sessionAtoms = <R, ER>(runtime: Atom.AtomRuntime<R | Session | SessionTokens | PlatformClient | PlatformAuth, ER>, options: SessionAtomsOptions<ER> = {}) => {
  knownRuntime(runtime)
  /** The step the last flow left for the member: an email code or an MFA code, or none. */
  const pending = Atom.keepAlive(Atom.make<PendingStep | undefined>(undefined))

  /** A flow's result: completes a SUCCESS into member tokens and records the step it leaves pending. */
  const settle = (result: LoginResult, set: (step: PendingStep | undefined) => void, keepOnFailure = false) =>
    Effect.gen(function*() {
      if (result.loginState === "SUCCESS") {
        const session = yield* Session
        yield* session.completeDirectLogin(result.data.sessionToken)
      }
      if (!(keepOnFailure && result.loginState === "FAILURE")) set(pendingOf(result))
      return result
    })

  // the state and the member's record: the ones given (built once for the whole app), or these flows' own
  const { state, member } = options.state ?? sessionStateAtoms(runtime, options)

  const signIn = flow(runtime.fn((input: SignInInput, get) =>
    Effect.gen(function*() {
      const session = yield* Session
      const result = yield* session.login({ email: input.email, password: input.password, ...captchaOf(input.captchaToken) })
      return yield* settle(result, (step) => get.set(pending, step))
    })
  ))

  const register = flow(runtime.fn((input: RegisterInput, get) =>
    Effect.gen(function*() {
      const session = yield* Session
      const result = yield* session.register({
        email: input.email,
        password: input.password,
        ...(input.profile === undefined ? {} : { profile: input.profile }),
        ...captchaOf(input.captchaToken)
      })
      return yield* settle(result, (step) => get.set(pending, step))
    })
  ))

  /** The email code of an EMAIL_VERIFICATION_REQUIRED step; a wrong code is a FAILURE and the step stays. */
  const verify = flow(runtime.fn((input: { readonly code: string }, get) =>
    Effect.gen(function*() {
      const session = yield* Session
      const result = yield* session.verify({ code: input.code.trim() })
      return yield* settle(result, (step) => get.set(pending, step), true)
    })
  ))

  /** A code for one factor of an MFA_REQUIRED step; a wrong code is a FAILURE and the step stays. */
  const verifyFactor = flow(runtime.fn((input: VerifyFactorInput, get) =>
    Effect.gen(function*() {
      const session = yield* Session
      const step = get(pending)
      const factorType = input.factorType ?? (step?.kind === "MFA" ? step.factors[0] : undefined) ?? "TOTP"
      const result = yield* session.verifyFactor({
        factorType,
        code: input.code.trim(),
        ...(input.rememberThisDevice === undefined ? {} : { rememberThisDevice: input.rememberThisDevice })
      })
      return yield* settle(result, (next) => get.set(pending, next), true)
    })
  ))

  /** Mails a recovery link that leads to `redirectUri` with `recoveryToken` added to its query. */
  const sendRecovery = flow(runtime.fn((input: { readonly email: string; readonly redirectUri: string }) =>
    Session.use((session) => session.sendPasswordResetEmail(input.email.trim(), input.redirectUri))
  ))

  /** Sets the new password with the link's token; a SUCCESS signs the member in. */
  const recover = flow(runtime.fn((input: RecoverInput, get) =>
    Effect.gen(function*() {
      const session = yield* Session
      const result = yield* session.recover(input.token, input.password)
      return yield* settle(result, (step) => get.set(pending, step))
    })
  ))

  /** Signs out here; the result's `logoutUrl` ends the platform's own session too (send the browser there). */
  const signOut = flow(runtime.fn((postFlowUrl: string, get) =>
    Effect.gen(function*() {
      const session = yield* Session
      const answer = yield* session.logout({ postFlowUrl })
      get.set(pending, undefined)
      return answer
    })
  ))

  /** The platform's login page for this login (PKCE data kept in the token store): send the browser to `url`. */
  const redirectLogin = flow(runtime.fn((input: RedirectLoginInput) =>
    Session.use((session): Effect.Effect<LoginUrl, PlatformError> =>
      session.loginUrl({
        redirectUri: input.redirectUri,
        responseMode: "query",
        ...(input.originalUri === undefined ? {} : { originalUri: input.originalUri })
      })
    )
  ))

  /** Completes a redirect login from the callback URL (checks its state, exchanges the code). */
  const completeRedirect = flow(runtime.fn((url: string, get) =>
    Effect.gen(function*() {
      const session = yield* Session
      const result: RedirectResult = yield* session.completeRedirect(url, { responseMode: "query" })
      get.set(pending, undefined)
      return result
    })
  ))

  /**
   * Signs in without a page or a form when the browser still has a session with the platform (a hidden
   * iframe asks the authorize page with `prompt=none`). Fails with OAuthError `login_required` when it
   * has none, whose message names the likely cause when the page and the platform are two sites (a dev
   * server at localhost with the platform at 127.0.0.1). Gives the new state.
   */
  const silentLogin = flow(runtime.fn((redirectUri: string | void) =>
    Effect.gen(function*() {
      const session = yield* Session
      const agent = yield* AuthorizeAgent
      const target = typeof redirectUri === "string" ? redirectUri : agent.redirectUri ?? defaultRedirectUri()
      const login = yield* session.loginUrl({ redirectUri: target, responseMode: agent.responseMode, prompt: "none" })
      const answer = yield* agent.authorize(login.url, login.state).pipe(Effect.mapError(withLikelyCause(login.url)))
      const callback = new URL(target)
      callback.hash = ""
      callback.search = new URLSearchParams({ code: answer.code, state: answer.state }).toString()
      yield* session.completeRedirect(callback.href, { responseMode: "query" })
      return yield* session.state
    }).pipe(Effect.provide(options.silentAgent ?? AuthorizeAgent.iframe()))
  ))

  /**
   * The weekly pre-warm: while mounted in a browser, a hidden iframe opens a session with the platform's
   * own pages unless one was opened in the last seven days. True when it ran now.
   */
  const prewarm = runtime.atom(Effect.suspend(() =>
    typeof (globalThis as { document?: unknown }).document === "object" ? prewarmSession() : Effect.succeed(false)
  ))

  return {
    /** The current session state (role, loggedIn), then every change. */
    state,
    /** The signed-in member's own record, `undefined` for a visitor. */
    member,
    /** The step the last flow left pending (`EMAIL_VERIFICATION` or `MFA`), `undefined` when none. */
    pending,
    signIn,
    register,
    verify,
    verifyFactor,
    sendRecovery,
    recover,
    signOut,
    redirectLogin,
    completeRedirect,
    silentLogin,
    prewarm
  }
}

/** A `login_required` that the page and the platform being two sites explains, with that said in its message. */
const withLikelyCause = (platformUrl: string) => (error: OAuthError): OAuthError => {
  const page = (globalThis as { location?: { origin: string } }).location?.origin
  const cause = error.reason._tag === "AuthorizationFailed" && error.error === "login_required" && page !== undefined
    ? crossSite(page, platformUrl)
    : undefined
  if (cause === undefined) return error
  const description = error.errorDescription
  return new OAuthError({
    reason: new AuthorizationFailed({ message: `${error.message}; ${cause}`, error: "login_required", ...(description === undefined ? {} : { errorDescription: description }) })
  })
}

/** The page's own origin, where the platform may send a code. */
const defaultRedirectUri = (): string => {
  const location = (globalThis as { location?: { origin: string } }).location
  return location === undefined ? "http://127.0.0.1/" : `${location.origin}/`
}

/** The atoms `sessionAtoms` builds. */
export type SessionAtoms = ReturnType<typeof sessionAtoms>

/** The errors a member flow atom can end with. */
export type SessionFlowError = PlatformError | OAuthError

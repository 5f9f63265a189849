/**
 * The session of a site visitor or member, as a Layer. It provides:
 * - the token service: anonymous visitor tokens when none are usable, refresh when the access token
 *   is missing or expired, fresh visitor tokens when a refresh is refused, one refresh in flight however
 *   many callers, and a refresh-and-retry when any call answers 401 (it also provides PlatformAuth);
 * - OAuth: login URLs with PKCE, completing a redirect, direct login, logout, external login;
 * - members: register, login, verification, MFA factors, password change and recovery.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Queue from "effect/Queue"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import { PlatformConfig } from "../http/PlatformConfig.ts"
import { PlatformError } from "../http/PlatformError.ts"
import type { Guard } from "../http/guard.ts"
import { authorized, checkBody, PlatformAuth, type PlatformAuthShape } from "../http/PlatformClient.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import * as G from "../http/guard.ts"
import { AuthorizeAgent, parseCallback } from "./AuthorizeAgent.ts"
import {
  fromState,
  type LoginResult,
  loginFailure,
  pendingOf,
  type PendingStep,
  registerFailure,
  unknownState,
  verifyFailure
} from "./LoginResult.ts"
import { invalidState, missingCodeOrState, OAuthError } from "./OAuthError.ts"
import { makePkce } from "./Pkce.ts"
import { type OAuthData, TokenStore } from "./TokenStore.ts"
import { SignOnResponse, StartVerificationResponse, StateMachineResponse } from "./guards/identity.ts"
import { RedirectSessionResponse } from "./guards/redirects.ts"
import { TokenResponse } from "./guards/tokens.ts"
import { EMPTY_TOKENS, Paths } from "./protocol.ts"
import type {
  CaptchaToken,
  FactorType,
  IdentityProfile,
  Prompt,
  RedirectSessionRequest,
  ResponseMode,
  TokenResponse as TokenAnswer,
  TokenRole,
  Tokens
} from "./wire/index.ts"

const EmptyAnswer = G.object

export type Secret = string | Redacted.Redacted<string>
const reveal = (secret: Secret): string => (Redacted.isRedacted(secret) ? Redacted.value(secret) : secret)

export interface SessionState {
  readonly role: TokenRole
  readonly loggedIn: boolean
}

export interface CaptchaTokens {
  readonly recaptchaToken?: string | undefined
  readonly invisibleRecaptchaToken?: string | undefined
}

export interface LoginUrlOptions {
  readonly redirectUri: string
  /** Where to send the member after the login completes (kept with the PKCE data). */
  readonly originalUri?: string | undefined
  readonly responseMode?: ResponseMode | undefined
  readonly prompt?: Prompt | undefined
  readonly sessionToken?: string | undefined
  readonly idp?: string | undefined
}

export interface LoginUrl {
  readonly url: string
  readonly authorizationEndpoint: string
  readonly state: string
}

export interface RedirectResult {
  readonly tokens: Tokens
  /** The `originalUri` given to `loginUrl`, to send the member back to. */
  readonly originalUri: string
}

export interface SessionShape {
  /** The stored tokens as they are (no refresh). */
  readonly tokens: Effect.Effect<Tokens>
  /** Replaces the stored tokens (e.g. tokens restored from a cookie). */
  readonly setTokens: (tokens: Tokens) => Effect.Effect<void>
  /** A usable token set: refreshed or renewed first when needed (one refresh in flight at a time). */
  readonly ensureTokens: Effect.Effect<Tokens, PlatformError>
  /** The `Authorization` value of the next call. */
  readonly accessToken: Effect.Effect<Redacted.Redacted<string>, PlatformError>
  /** Forces a refresh (the access token was rejected or the role changed on the server). */
  readonly refresh: Effect.Effect<Tokens, PlatformError>
  /** True only when the refresh token's role is `member`. */
  readonly loggedIn: Effect.Effect<boolean>
  readonly state: Effect.Effect<SessionState>
  /** The current state, then every change (login, logout, fallback to a visitor). */
  readonly changes: Stream.Stream<SessionState>

  /** Creates a redirect session and returns the authorize page URL; the PKCE data goes to the store. */
  readonly loginUrl: (options: LoginUrlOptions) => Effect.Effect<LoginUrl, PlatformError>
  /** Reads the callback URL, checks its state and exchanges the code for member tokens. */
  readonly completeRedirect: (
    url: string,
    options?: { readonly responseMode?: "fragment" | "query" }
  ) => Effect.Effect<RedirectResult, OAuthError | PlatformError>
  /** Turns the session token of a SUCCESS login into member tokens, on the authorize page, without UI. */
  readonly completeDirectLogin: (sessionToken: string) => Effect.Effect<Tokens, OAuthError | PlatformError>
  /** Signs the member out: returns the logout page URL and clears both tokens. */
  readonly logout: (options: { readonly postFlowUrl: string }) => Effect.Effect<{ readonly logoutUrl: string }, PlatformError>
  /** Member tokens for a member id, vouched for by an API key (server-side login). */
  readonly externalLogin: (memberId: string, apiKey: Secret) => Effect.Effect<Tokens, OAuthError | PlatformError>
  /** Signs a member on by email with an API key (creating them if needed), then logs them in. */
  readonly externalLoginWithSession: (
    email: string,
    apiKey: Secret,
    options?: { readonly profile?: IdentityProfile; readonly verifyEmail?: boolean; readonly mergeExistingContact?: boolean }
  ) => Effect.Effect<Tokens, OAuthError | PlatformError>

  readonly register: (input: {
    readonly email: string
    readonly password: Secret
    readonly profile?: IdentityProfile | undefined
    readonly captchaTokens?: CaptchaTokens | undefined
  }) => Effect.Effect<LoginResult, PlatformError>
  readonly login: (input: {
    readonly email: string
    readonly password: Secret
    readonly captchaTokens?: CaptchaTokens | undefined
  }) => Effect.Effect<LoginResult, PlatformError>
  /** The email code of an EMAIL_VERIFICATION_REQUIRED step (the pending one unless a state token is given). */
  readonly verify: (input: { readonly code: string; readonly stateToken?: string }) => Effect.Effect<LoginResult, PlatformError>
  /** Verifies one MFA factor of an MFA_REQUIRED step. */
  readonly verifyFactor: (input: {
    readonly factorType: FactorType
    readonly code: string
    readonly stateToken?: string
    readonly rememberThisDevice?: boolean
  }) => Effect.Effect<LoginResult, PlatformError>
  /** Sends a new verification code to the identity's email. */
  readonly startVerification: (identityId: string) => Effect.Effect<{ readonly verificationId: string }, PlatformError>
  readonly changePassword: (newPassword: Secret) => Effect.Effect<void, PlatformError>
  readonly sendPasswordResetEmail: (
    email: string,
    redirectUri: string,
    options?: { readonly language?: string }
  ) => Effect.Effect<void, PlatformError>
  readonly sendActivationEmail: (
    identityId: string,
    options?: { readonly redirectUri?: string; readonly language?: string }
  ) => Effect.Effect<void, PlatformError>
  /** Sets a new password with the token of a recovery email; a SUCCESS carries a session token. */
  readonly recover: (recoveryToken: string, password: Secret) => Effect.Effect<LoginResult, PlatformError>
  /** The step the last member call left pending (email verification or MFA), if any. */
  readonly pending: Effect.Effect<Option.Option<PendingStep>>
}

export interface SessionOptions {
  /** The headless app's client id; defaults to PlatformConfig's. */
  readonly clientId?: string | undefined
}

export class Session extends Context.Service<Session, SessionShape>()("sitefx/Session") {
  /**
   * The session and the PlatformAuth every platform call uses. Needs the wire, a TokenStore and an
   * AuthorizeAgent (see `Site.layer` for everything at once).
   */
  static readonly layer = (
    options: SessionOptions = {}
  ): Layer.Layer<Session | PlatformAuth, never, PlatformHttp | PlatformConfig | TokenStore | AuthorizeAgent> =>
    Layer.effectContext(Effect.gen(function*() {
      const session = yield* make(options)
      return Context.make(Session, session.service).pipe(Context.add(PlatformAuth, session.auth))
    }))
}

const nowSeconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

/** The access token is missing or its expiry has passed (the same rule the platform's own client uses). */
export const isExpired = (tokens: Tokens, now: number): boolean =>
  tokens.accessToken.value === "" || tokens.accessToken.expiresAt < now

const stateOf = (tokens: Tokens): SessionState => ({
  role: tokens.refreshToken.role,
  loggedIn: tokens.refreshToken.role === "member"
})

const tokensFrom = (response: TokenAnswer, role: TokenRole, now: number, keepRefresh?: string): Tokens => ({
  accessToken: { value: response.access_token, expiresAt: now + Number(response.expires_in) },
  refreshToken: { value: keepRefresh ?? response.refresh_token, role }
})

const captchaPayload = (tokens: CaptchaTokens | undefined): { captchaTokens?: ReadonlyArray<CaptchaToken> } => {
  if (tokens === undefined) return {}
  const token: { Recaptcha?: string; InvisibleRecaptcha?: string } = {}
  if (tokens.recaptchaToken !== undefined) token.Recaptcha = tokens.recaptchaToken
  if (tokens.invisibleRecaptchaToken !== undefined) token.InvisibleRecaptcha = tokens.invisibleRecaptchaToken
  return { captchaTokens: [token] }
}

/** The token endpoint's failure text, the same as the platform's own client reports it. */
export const tokenFailureMessage = (error: PlatformError): string => {
  const r = error.reason
  if (r._tag === "TransportError") return `Failed to fetch tokens from OAuth API: ${r.message}`
  const body = r._tag === "SystemError" ? { message: r.message } : r._tag === "ApplicationError"
    ? { message: r.message, details: { applicationError: { code: r.code, description: r.description, data: r.data } } }
    : { message: r.message, details: { validationError: { fieldViolations: r.fieldViolations } } }
  return `Failed to fetch tokens from OAuth API: ${r.message}. request id: ${r.requestId ?? null}. Response: ${JSON.stringify(body)}`
}

const toOAuthError = (error: PlatformError) =>
  new OAuthError({ reason: "TokenRequestFailed", message: tokenFailureMessage(error), cause: error })

const make = (options: SessionOptions) =>
  Effect.gen(function*() {
    const config = yield* PlatformConfig
    const http = yield* PlatformHttp
    const store = yield* TokenStore
    const agent = yield* AuthorizeAgent
    const clientId = options.clientId ?? Option.getOrUndefined(config.clientId)
    if (clientId === undefined) {
      return yield* Effect.die(new Error("sitefx: a session needs a clientId (Site.layer({ clientId }) or SITEFX_CLIENT_ID)"))
    }

    const initial = yield* store.load
    // the state and whoever follows its changes (a Set of listeners: lighter in a browser than a PubSub)
    let state = stateOf(initial.tokens)
    const listeners = new Set<(state: SessionState) => void>()
    const setState = (next: SessionState) =>
      Effect.sync(() => {
        state = next
        for (const listener of listeners) listener(next)
      })
    const lock = yield* Semaphore.make(1)
    // and across everyone sharing the store (tabs), when the store can tell
    const exclusive = store.exclusive ?? (<A, E, R>(effect: Effect.Effect<A, E, R>) => effect)
    let pendingStep: PendingStep | undefined

    const loadTokens = Effect.map(store.load, (s) => s.tokens)
    const saveTokens = (tokens: Tokens) =>
      store.load.pipe(
        Effect.flatMap((s) => store.save({ ...s, tokens })),
        Effect.andThen(setState(stateOf(tokens)))
      )
    const saveOAuthData = (oauthData: OAuthData | undefined) =>
      Effect.flatMap(store.load, (s) => {
        const { oauthData: _previous, ...rest } = s
        return store.save(oauthData === undefined ? rest : { ...rest, oauthData })
      })

    // ---- the token endpoint ------------------------------------------------------------------------
    const tokenCall = (payload: Record<string, unknown>, extra: { idempotent: boolean; headers?: Record<string, string> }) => {
      const req: PlatformRequest = {
        method: "POST",
        path: Paths.token,
        host: "api",
        payload,
        idempotent: extra.idempotent,
        ...(extra.headers === undefined ? {} : { headers: extra.headers })
      }
      return http.send(req).pipe(Effect.flatMap((res) => checkBody(req, res, TokenResponse)))
    }

    const anonymous = Effect.gen(function*() {
      const response = yield* tokenCall({ clientId, grantType: "anonymous" }, { idempotent: true })
      return tokensFrom(response, "visitor", yield* nowSeconds)
    })

    const renew = (refreshToken: Tokens["refreshToken"]) =>
      Effect.gen(function*() {
        const response = yield* tokenCall(
          { clientId, refreshToken: refreshToken.value, grantType: "refresh_token" },
          { idempotent: true }
        )
        return tokensFrom(response, refreshToken.role, yield* nowSeconds, refreshToken.value)
      })

    // A refused refresh (revoked, unknown) falls back to a fresh visitor; a refresh that never got a
    // verdict (network, 5xx after retries) fails instead, so a blip does not sign a member out.
    const renewOrAnonymous = (tokens: Tokens) =>
      tokens.refreshToken.value === ""
        ? anonymous
        : renew(tokens.refreshToken).pipe(
          Effect.catchIf(
            (e) => e.status !== undefined && e.status >= 400 && e.status < 500,
            () => anonymous
          )
        )

    /**
     * Usable tokens. The fast path takes no lock; otherwise one caller at a time re-checks and
     * refreshes, so concurrent callers at expiry share a single token request. `rejected` is an access
     * token the platform refused: it counts as expired, unless someone already replaced it.
     */
    const ensure = (rejected?: string): Effect.Effect<Tokens, PlatformError> =>
      Effect.gen(function*() {
        const now = yield* nowSeconds
        const current = yield* loadTokens
        const stale = (t: Tokens) => isExpired(t, now) || (rejected !== undefined && t.accessToken.value === rejected)
        if (!stale(current)) return current
        const refreshed = Effect.gen(function*() {
          const latest = yield* loadTokens
          if (!stale(latest)) return latest
          const fresh = yield* renewOrAnonymous(latest)
          // tokens stored while the refresh was out (a login, a logout, another tab's) win over it
          const now = yield* loadTokens
          if (now.refreshToken.value !== latest.refreshToken.value) return now
          yield* saveTokens(fresh)
          return fresh
        })
        return yield* lock.withPermits(1)(exclusive(refreshed))
      })

    const auth: PlatformAuthShape = {
      headers: Effect.map(ensure(), (t) => ({ Authorization: t.accessToken.value })),
      unauthorized: (rejected) => Effect.asVoid(ensure(rejected["Authorization"] ?? "")),
      host: "module"
    }
    // identity, redirects and token calls go to the API host whatever the CDN setting
    const apiAuth: PlatformAuthShape = { ...auth, host: "api" }
    const call = <A>(req: PlatformRequest, guard: Guard<A>) =>
      authorized(http, apiAuth, req).pipe(Effect.flatMap((res) => checkBody(req, res, guard)))
    const post = (path: string, payload: Record<string, unknown>) => ({ method: "POST" as const, path, payload })

    // ---- OAuth -------------------------------------------------------------------------------------
    const createRedirectSession = (payload: RedirectSessionRequest) =>
      call(post(Paths.redirectSession, payload as Record<string, unknown>), RedirectSessionResponse).pipe(
        Effect.map((r) => r.redirectSession)
      )

    const authRequest = (
      pkce: { codeChallenge: string; state: string },
      opts: { redirectUri: string | undefined; responseMode: ResponseMode; prompt: Prompt; sessionToken?: string | undefined; idp?: string | undefined }
    ): RedirectSessionRequest => ({
      auth: {
        authRequest: {
          ...(opts.redirectUri === undefined ? {} : { redirectUri: opts.redirectUri }),
          clientId,
          codeChallenge: pkce.codeChallenge,
          codeChallengeMethod: "S256",
          responseMode: opts.responseMode,
          responseType: "code",
          scope: "offline_access",
          state: pkce.state,
          ...(opts.sessionToken === undefined ? {} : { sessionToken: opts.sessionToken }),
          ...(opts.idp === undefined ? {} : { idp: opts.idp })
        },
        prompt: opts.prompt
      }
    })

    const exchangeCode = (code: string, data: { codeVerifier: string; redirectUri: string | undefined }) =>
      Effect.gen(function*() {
        const response = yield* tokenCall({
          clientId,
          grantType: "authorization_code",
          ...(data.redirectUri === undefined || data.redirectUri === "" ? {} : { redirectUri: data.redirectUri }),
          code,
          codeVerifier: data.codeVerifier
        }, { idempotent: false }).pipe(Effect.mapError(toOAuthError))
        const tokens = tokensFrom(response, "member", yield* nowSeconds)
        yield* saveTokens(tokens)
        return tokens
      })

    const loginUrl = (opts: LoginUrlOptions) =>
      Effect.gen(function*() {
        const pkce = yield* makePkce()
        yield* saveOAuthData({ ...pkce, redirectUri: opts.redirectUri, originalUri: opts.originalUri ?? "" })
        const session = yield* createRedirectSession(authRequest(pkce, {
          redirectUri: opts.redirectUri,
          responseMode: opts.responseMode ?? "fragment",
          prompt: opts.prompt ?? "login",
          sessionToken: opts.sessionToken,
          idp: opts.idp
        }))
        return { url: session.fullUrl, authorizationEndpoint: session.urlDetails.endpoint, state: pkce.state }
      })

    const completeRedirect = (url: string, opts: { readonly responseMode?: "fragment" | "query" } = {}) =>
      Effect.gen(function*() {
        const callback = parseCallback(url, opts.responseMode ?? "fragment")
        const stored = (yield* store.load).oauthData
        if (callback.error !== undefined) {
          return yield* new OAuthError({
            reason: "AuthorizationFailed",
            message: callback.errorDescription ?? callback.error,
            error: callback.error,
            ...(callback.errorDescription === undefined ? {} : { errorDescription: callback.errorDescription })
          })
        }
        if (callback.code === undefined || callback.state === undefined) return yield* missingCodeOrState()
        if (stored === undefined) {
          return yield* new OAuthError({ reason: "NoLoginInProgress", message: "No login in progress: call loginUrl first" })
        }
        if (callback.state !== stored.state) return yield* invalidState()
        const tokens = yield* exchangeCode(callback.code, stored)
        yield* saveOAuthData(undefined)
        return { tokens, originalUri: stored.originalUri }
      })

    const completeDirectLogin = (sessionToken: string) =>
      Effect.gen(function*() {
        const pkce = yield* makePkce()
        const session = yield* createRedirectSession(authRequest(pkce, {
          redirectUri: agent.redirectUri,
          responseMode: agent.responseMode,
          prompt: "none",
          sessionToken
        }))
        const answer = yield* agent.authorize(session.fullUrl, pkce.state)
        if (answer.state !== pkce.state) return yield* invalidState()
        pendingStep = undefined
        return yield* exchangeCode(answer.code, { codeVerifier: pkce.codeVerifier, redirectUri: agent.redirectUri })
      })

    const logout = (opts: { readonly postFlowUrl: string }) =>
      Effect.gen(function*() {
        const session = yield* createRedirectSession({ logout: { clientId }, callbacks: { postFlowUrl: opts.postFlowUrl } })
        yield* saveTokens(EMPTY_TOKENS)
        pendingStep = undefined
        return { logoutUrl: session.fullUrl }
      })

    const externalGrant = (payload: Record<string, unknown>, apiKey: Secret) =>
      Effect.gen(function*() {
        const visitor = yield* ensure()
        const response = yield* tokenCall(payload, {
          idempotent: false,
          headers: { Authorization: `${visitor.accessToken.value},${reveal(apiKey)}` }
        }).pipe(Effect.mapError(toOAuthError))
        const tokens = tokensFrom(response, "member", yield* nowSeconds)
        yield* saveTokens(tokens)
        return tokens
      })

    const externalLogin = (memberId: string, apiKey: Secret) =>
      externalGrant({ grant_type: "authorized_client", scope: "offline_access", member_id: memberId }, apiKey)

    const externalLoginWithSession: SessionShape["externalLoginWithSession"] = (email, apiKey, opts = {}) =>
      Effect.gen(function*() {
        const visitor = yield* ensure()
        const req = post(Paths.signOn, { loginId: { email }, ...opts })
        const signOn = yield* http.send({
          ...req,
          host: "api",
          headers: { Authorization: `${visitor.accessToken.value},${reveal(apiKey)}` }
        }).pipe(Effect.flatMap((res) => checkBody(req, res, SignOnResponse)))
        return yield* externalGrant(
          { grant_type: "authorized_client", member_id: signOn.identity.id, session_token: signOn.sessionToken },
          apiKey
        )
      })

    // ---- members -----------------------------------------------------------------------------------
    // A new flow (login, register, recover) replaces the pending step; a refused code keeps it, so
    // the member can try again.
    const settle = (result: LoginResult): LoginResult => {
      pendingStep = pendingOf(result)
      return result
    }
    const settleStep = (result: LoginResult): LoginResult => (result.loginState === "FAILURE" ? result : settle(result))
    const stateCall = (path: string, payload: Record<string, unknown>) => call(post(path, payload), StateMachineResponse)

    const register: SessionShape["register"] = (input) =>
      stateCall(Paths.register, {
        loginId: { email: input.email },
        password: reveal(input.password),
        ...(input.profile === undefined ? {} : { profile: input.profile }),
        ...captchaPayload(input.captchaTokens)
      }).pipe(Effect.map(fromState), Effect.catch(registerFailure), Effect.map(settle))

    const login: SessionShape["login"] = (input) =>
      stateCall(Paths.login, {
        loginId: { email: input.email },
        password: reveal(input.password),
        ...captchaPayload(input.captchaTokens)
      }).pipe(Effect.map(fromState), Effect.catch(loginFailure), Effect.map(settle))

    const verify: SessionShape["verify"] = (input) => {
      const stateToken = input.stateToken ?? (pendingStep?.kind === "EMAIL_VERIFICATION" ? pendingStep.stateToken : undefined)
      // verification only makes sense in EMAIL_VERIFICATION_REQUIRED: no request otherwise
      if (stateToken === undefined) return Effect.succeed(unknownState)
      return stateCall(Paths.verifyDuringAuth, { code: input.code, stateToken }).pipe(
        Effect.map(fromState),
        Effect.catch(verifyFailure),
        Effect.map(settleStep)
      )
    }

    const factorData: Record<FactorType, string> = {
      PASSWORD: "passwordData",
      SMS: "smsData",
      CALL: "callData",
      EMAIL: "emailData",
      TOTP: "totpData",
      PUSH: "pushData",
      WEBAUTHN: "webauthnData",
      RECOVERY_CODE: "recoveryCodeData"
    }
    const factorPayload = (factorType: FactorType, code: string): Record<string, unknown> => {
      switch (factorType) {
        case "PASSWORD":
          return { passwordData: { password: code } }
        case "PUSH":
          return { pushData: { transactionId: code } }
        case "WEBAUTHN":
          return { webauthnData: { credential: code } }
        default:
          return { [factorData[factorType]]: { code } }
      }
    }

    const verifyFactor: SessionShape["verifyFactor"] = (input) => {
      const stateToken = input.stateToken ?? (pendingStep?.kind === "MFA" ? pendingStep.stateToken : undefined)
      if (stateToken === undefined) return Effect.succeed(unknownState)
      return stateCall(Paths.verifyFactor(input.factorType), {
        stateToken,
        ...(input.rememberThisDevice === undefined ? {} : { rememberThisDevice: input.rememberThisDevice }),
        ...factorPayload(input.factorType, input.code)
      }).pipe(Effect.map(fromState), Effect.catch(verifyFailure), Effect.map(settleStep))
    }

    const startVerification = (identityId: string) =>
      call(post(Paths.startVerification, { identityId, target: "EMAIL" }), StartVerificationResponse)

    const changePassword = (newPassword: Secret) =>
      Effect.asVoid(call(post(Paths.changePassword, { newPassword: reveal(newPassword) }), EmptyAnswer))

    const sendPasswordResetEmail: SessionShape["sendPasswordResetEmail"] = (email, redirectUri, opts = {}) =>
      Effect.asVoid(call(post(Paths.sendRecoveryEmail, {
        email,
        ...(opts.language === undefined ? {} : { language: opts.language }),
        redirect: { url: redirectUri, clientId }
      }), EmptyAnswer))

    const sendActivationEmail: SessionShape["sendActivationEmail"] = (identityId, opts = {}) =>
      Effect.asVoid(call(post(Paths.activationEmail, {
        identityId,
        ...(opts.redirectUri === undefined && opts.language === undefined ? {} : {
          emailOptions: {
            ...(opts.language === undefined ? {} : { language: opts.language }),
            ...(opts.redirectUri === undefined ? {} : { redirect: { url: opts.redirectUri, clientId } })
          }
        })
      }), EmptyAnswer))

    const recover = (recoveryToken: string, password: Secret) =>
      stateCall(Paths.recover, { recoveryToken, password: reveal(password) }).pipe(
        Effect.map(fromState),
        Effect.catch(verifyFailure),
        Effect.map(settle)
      )

    const service: SessionShape = {
      tokens: loadTokens,
      setTokens: saveTokens,
      ensureTokens: ensure(),
      accessToken: Effect.map(ensure(), (t) => Redacted.make(t.accessToken.value, { label: "access token" })),
      refresh: Effect.flatMap(loadTokens, (t) => ensure(t.accessToken.value === "" ? "\u0000" : t.accessToken.value)),
      loggedIn: Effect.map(loadTokens, (t) => t.refreshToken.role === "member"),
      state: Effect.sync(() => state),
      changes: Stream.callback<SessionState>((queue) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            const listener = (next: SessionState) => void Queue.offerUnsafe(queue, next)
            listener(state)
            listeners.add(listener)
            return listener
          }),
          (listener) => Effect.sync(() => listeners.delete(listener))
        ), { strategy: "sliding", bufferSize: 16 }),
      loginUrl,
      completeRedirect,
      completeDirectLogin,
      logout,
      externalLogin,
      externalLoginWithSession,
      register,
      login,
      verify,
      verifyFactor,
      startVerification,
      changePassword,
      sendPasswordResetEmail,
      sendActivationEmail,
      recover,
      pending: Effect.sync(() => Option.fromUndefinedOr(pendingStep))
    }
    return { service, auth }
  })


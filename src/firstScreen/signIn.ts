/**
 * A member's sign-in on a page's first script, without Effect: the direct login the member flows send
 * (`MemberFlows.login`, then `completeDirectLogin` on a SUCCESS), with the session's token of
 * `sessionToken`, and the member's tokens saved in the document the tabs share, where `tabTokenStore`
 * reads them. The bodies, the PKCE data, the state check and the token set are the member flows' own
 * (session/loginPayload.ts, LoginResult.ts, Pkce.ts, codeGrant.ts, storedSession.ts), so the two send
 * the same requests; test/firstScreen/signIn.test.ts holds them to it.
 */
import type { Guard } from "../http/guard.ts"
import { DEFAULT_API_URL, trimSlash } from "../http/hosts.ts"
import { authRequest } from "../session/codeGrant.ts"
import { AuthorizeMessage, RedirectSessionResponse, StateMachineResponse, TokenResponse } from "../session/guards/index.ts"
import { fromState, type LoginResult, loginRefusal } from "../session/LoginResult.ts"
import { type CaptchaTokens, loginPayload } from "../session/loginPayload.ts"
import { challengePromise, randomState, randomVerifier } from "../session/Pkce.ts"
import { HTTP_CALLBACK_URI, Paths, SESSION_KEY, TOKEN_PATH } from "../session/protocol.ts"
import { anonymousGrant, parseStored, serializeStored, tokensFrom } from "../session/storedSession.ts"
import type { Identity } from "../session/wire/index.ts"
import { defaultStorage, type FirstScreenOptions, tokenOf } from "./sessionToken.ts"

/** What the member typed in the sign-in form. */
export interface SignInInput {
  readonly email: string
  /** Sent in the login call's body only: never kept, logged or put in a result. */
  readonly password: string
  /** The captcha answers, when the site asks for one. */
  readonly captchaTokens?: CaptchaTokens | undefined
}

/** The call of a sign-in that failed: the session's token, the login, the redirect session, the authorize page, or the code's exchange. */
export type SignInStep = "token" | "login" | "redirectSession" | "authorize" | "exchange"

/**
 * A sign-in that came to no verdict: no storage to keep the member's tokens in, a call that got no
 * answer (`unreachable`: the network, a page that timed out), an answer with an error status
 * (`refused`: its status, the platform's code and message), a 200 of another shape (`unreadable`), or
 * the authorize page's refusal (`authorize`: its OAuth error, `Invalid _state`, ...).
 */
export type SignInError =
  | { readonly loginState: "ERROR"; readonly reason: "noStorage"; readonly step: "token"; readonly message: string }
  | { readonly loginState: "ERROR"; readonly reason: "unreachable" | "unreadable"; readonly step: SignInStep; readonly message: string }
  | { readonly loginState: "ERROR"; readonly reason: "refused"; readonly step: SignInStep; readonly status: number; readonly code?: string; readonly message: string }
  | { readonly loginState: "ERROR"; readonly reason: "authorize"; readonly step: "authorize"; readonly error: string; readonly message: string }

/**
 * Where a sign-in stands. SUCCESS: the member's tokens are saved where the client reads them. A step
 * left (EMAIL_VERIFICATION_REQUIRED or MFA_REQUIRED with its `stateToken`, OWNER_APPROVAL_REQUIRED) or a
 * FAILURE (a wrong password, a captcha to show) as `MemberFlows.login` reports it: the member flows go on
 * from it (`verify({ code, stateToken })`, `verifyFactor({ factorType, code, stateToken })`). ERROR: no
 * verdict (see {@link SignInError}).
 */
export type SignInResult =
  | { readonly loginState: "SUCCESS"; readonly identity?: Identity }
  | Exclude<LoginResult, { readonly loginState: "SUCCESS" }>
  | SignInError

/** How long the hidden frame may take to answer, as the client's iframe agent waits. */
const FRAME_MILLIS = 120_000

const json = { "content-type": "application/json" }

/** A thrown SignInError: `signIn` catches it and resolves with it. */
class Stop {
  readonly error: SignInError
  constructor(error: SignInError) {
    this.error = error
  }
}

const stop = (error: SignInError): never => {
  throw new Stop(error)
}

const authorizeError = (error: string, message = error): SignInError => ({ loginState: "ERROR", reason: "authorize", step: "authorize", error, message })

/** What the authorize page answers: a code, or an OAuth error, with the login's state. */
interface Answer {
  readonly code?: string | undefined
  readonly state?: string | undefined
  readonly error?: string | undefined
  readonly error_description?: string | undefined
}

/** The part of a browser window the hidden frame needs. */
interface FrameHost {
  readonly document?: { createElement(tag: "iframe"): HTMLIFrameElement; readonly body: { appendChild(node: HTMLIFrameElement): unknown } }
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void
}

/** The authorize page in a hidden frame, answering by a message from its own origin for this login's state (`web_message`). */
const frameAnswer = (host: FrameHost, fullUrl: string, state: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const frame = host.document!.createElement("iframe")
    const done = () => {
      clearTimeout(timer)
      host.removeEventListener("message", listener)
      frame.remove()
    }
    const listener = (event: MessageEvent) => {
      if (event.origin !== new URL(fullUrl).origin || AuthorizeMessage(event.data) !== undefined || event.data.state !== state) return
      done()
      resolve(event.data)
    }
    const timer = setTimeout(() => {
      done()
      reject(new Stop(authorizeError("timeout", "OAuth flow timed out")))
    }, FRAME_MILLIS)
    frame.style.display = "none"
    frame.src = fullUrl
    host.addEventListener("message", listener)
    host.document!.body.appendChild(frame)
  })

/**
 * Signs a member in with the site's own form, before the client has loaded: the login call with the
 * session's token, and on a SUCCESS the member's tokens (a redirect session for the authorize page with
 * the login's session token and PKCE, its code from a hidden frame in a browser or from its redirect
 * elsewhere, exchanged at the token endpoint), saved in the document the tabs share: `siteSession` or
 * `siteMembers` over `tabTokenStore`, in this tab or another, starts as the member and asks for no
 * token. Any other state comes back as `MemberFlows.login` gives it, to go on with the member flows.
 * It never rejects: a call that got no verdict is an ERROR.
 *
 * @example
 * import { signIn } from "sitefx/first-screen"
 *
 * const form = document.querySelector("form")!
 * form.addEventListener("submit", async (event) => {
 *   event.preventDefault()
 *   const data = new FormData(form)
 *   const result = await signIn({ clientId: "my-client-id" }, { email: data.get("email") as string, password: data.get("password") as string })
 *   if (result.loginState === "SUCCESS") location.assign("/account")
 *   else if (result.loginState === "FAILURE") console.log(result.errorCode ?? result.error)
 * })
 */
export const signIn = async (options: FirstScreenOptions, input: SignInInput): Promise<SignInResult> => {
  const storage = options.storage ?? defaultStorage()
  if (storage === undefined) return { loginState: "ERROR", reason: "noStorage", step: "token", message: "no storage to keep the member's tokens in" }
  const fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init))
  const apiUrl = trimSlash(options.apiUrl ?? options.baseUrl ?? DEFAULT_API_URL)
  const key = options.key ?? SESSION_KEY
  const { clientId } = options
  // the call under way, for a failure no call reports (no frame to load the authorize page in, a full storage)
  let step: SignInStep = "token"

  /** One POST of JSON to the API host, its 200 answer checked with `guard`; anything else stops the sign-in. */
  const post = async <A>(at: SignInStep, path: string, payload: Record<string, unknown>, guard: Guard<A>, headers: Record<string, string> = json): Promise<A> => {
    let status: number
    // the platform's error body, or the answer `guard` checks
    let body: { readonly message?: string; readonly details?: { readonly applicationError?: { readonly code?: unknown } } } | undefined
    step = at
    try {
      const response = await fetch(`${apiUrl}${path}`, { method: "POST", headers, body: JSON.stringify(payload) })
      status = response.status
      const text = await response.text()
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
    } catch (e) {
      return stop({ loginState: "ERROR", reason: "unreachable", step, message: String(e) })
    }
    if (status !== 200) {
      const code = body?.details?.applicationError?.code
      return stop({ loginState: "ERROR", reason: "refused", step, status, ...(code === undefined ? {} : { code: String(code) }), message: body?.message ?? `HTTP ${status}` })
    }
    const wrong = guard(body)
    return wrong === undefined ? body as A : stop({ loginState: "ERROR", reason: "unreadable", step, message: `Unexpected response body: ${wrong}` })
  }

  /**
   * A call with the session's token; a 401 that rejects the token itself (no application code, or a
   * generic one) renews it once and sends again, as the client's authenticated calls do.
   */
  let token: string | undefined
  const authed = async <A>(at: SignInStep, path: string, payload: Record<string, unknown>, guard: Guard<A>): Promise<A> => {
    // where the tabs' lock is out of reach (no Web Locks), a visitor's tokens for this sign-in alone, left unsaved
    const visitor = async () =>
      (await tokenOf(options, token)) ??
        (await post("token", TOKEN_PATH, anonymousGrant(clientId), TokenResponse)).access_token
    token ??= await visitor()
    try {
      return await post(at, path, payload, guard, { ...json, Authorization: token })
    } catch (e) {
      const error = e instanceof Stop ? e.error : undefined
      if (error?.reason !== "refused" || error.status !== 401 || !/^(401|UNAUTHENTICATED|UNAUTHORIZED|INVALID_TOKEN|EXPIRED_TOKEN|TOKEN_EXPIRED)?$/i.test(error.code ?? "")) throw e
      const rejected = token
      token = await visitor()
      if (token === rejected) throw e
      return post(at, path, payload, guard, { ...json, Authorization: token })
    }
  }

  try {
    let answer
    try {
      answer = await authed("login", Paths.login, loginPayload(input.email, input.password, input.captchaTokens), StateMachineResponse)
    } catch (e) {
      // a refusal (4xx but 429) is the login's verdict, as the member flows read it
      const error = e instanceof Stop ? e.error : undefined
      if (error?.reason === "refused" && error.step === "login" && error.status < 500 && error.status !== 429) return loginRefusal(error.message, error.code)
      throw e
    }
    const result = fromState(answer)
    if (result.loginState !== "SUCCESS") return result
    const codeVerifier = randomVerifier()
    const pkce = { codeChallenge: await challengePromise(codeVerifier), state: randomState() }
    const host = globalThis as unknown as FrameHost
    // the client's default agent: a hidden frame where there is a page, the page's redirect elsewhere
    const inFrame = typeof host.document === "object"
    const redirectUri = inFrame ? undefined : HTTP_CALLBACK_URI
    const session = await authed("redirectSession", Paths.redirectSession, authRequest(clientId, pkce, {
      redirectUri,
      responseMode: inFrame ? "web_message" : "query",
      prompt: "none",
      sessionToken: result.data.sessionToken
    }) as Record<string, unknown>, RedirectSessionResponse)
    const { fullUrl } = session.redirectSession
    let back: Answer
    step = "authorize"
    if (inFrame) {
      back = await frameAnswer(host, fullUrl, pkce.state)
    } else {
      let location: string | null
      try {
        location = (await fetch(fullUrl, { redirect: "manual" })).headers.get("location")
      } catch (e) {
        return stop({ loginState: "ERROR", reason: "unreachable", step: "authorize", message: String(e) })
      }
      if (location === null) return authorizeError("no_redirect")
      back = Object.fromEntries(new URL(location, fullUrl).searchParams)
    }
    if (back.error !== undefined) return authorizeError(back.error, back.error_description === undefined ? back.error : `${back.error}: ${back.error_description}`)
    if (back.code === undefined || back.state === undefined) return authorizeError("missing_code", "Missing code or _state")
    if (back.state !== pkce.state) return authorizeError("invalid_state", "Invalid _state")
    const tokens = tokensFrom(
      await post("exchange", TOKEN_PATH, {
        clientId,
        grantType: "authorization_code",
        ...(redirectUri === undefined ? {} : { redirectUri }),
        code: back.code,
        codeVerifier
      }, TokenResponse),
      "member",
      Math.floor(Date.now() / 1000)
    )
    // as the token service's setTokens: the member's tokens over whatever the document holds
    storage.setItem(key, serializeStored({ ...parseStored(storage.getItem(key)), tokens }))
    return result.identity === undefined ? { loginState: "SUCCESS" } : { loginState: "SUCCESS", identity: result.identity }
  } catch (e) {
    return e instanceof Stop ? e.error : { loginState: "ERROR", reason: "unreachable", step, message: String(e) }
  }
}

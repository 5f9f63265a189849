/**
 * Completes a login on the platform's authorize page without user interaction and hands back the
 * code. In a browser a hidden iframe loads the page and it posts `{code, state}` back (`web_message`);
 * elsewhere (scripts, servers, tests) the page is fetched and its redirect read (`query`).
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { inputMillis, sleepMillis } from "../http/time.ts"
import { AuthorizationFailed, missingCodeOrState, NoBrowser, OAuthError, timedOut } from "./OAuthError.ts"
import { AuthorizeMessage } from "./guards/redirects.ts"
import type { AuthorizeMessage as Message, ResponseMode } from "./wire/index.ts"

/** What the authorize page gave back: the code to exchange for member tokens, and the state it carried. */
export interface AuthorizeResult {
  readonly code: string
  readonly state: string
}

/** What an authorize agent does: load the authorize page without UI and hand back its code. */
export interface AuthorizeAgentShape {
  /** The response mode the agent asks the authorize page for. */
  readonly responseMode: ResponseMode
  /** The redirect URI sent with the request (`web_message` sends none). */
  readonly redirectUri: string | undefined
  /** Loads the authorize page at `fullUrl` and waits for the code that answers `state`. */
  readonly authorize: (fullUrl: string, state: string) => Effect.Effect<AuthorizeResult, OAuthError>
}

/** How a direct login reaches the authorize page: a hidden iframe in browsers, an HTTP fetch elsewhere. */
export class AuthorizeAgent extends Context.Service<AuthorizeAgent, AuthorizeAgentShape>()("sitefx/AuthorizeAgent") {
  /** Fetches the authorize page and reads the code from its redirect. */
  static readonly http = (options: { readonly redirectUri?: string; readonly fetch?: typeof globalThis.fetch } = {}) =>
    Layer.succeed(AuthorizeAgent, httpAgent(options))

  /**
   * Loads the authorize page in a hidden iframe and waits for its message (browsers). Messages are
   * taken from the authorize page's own origin, plus `trustedOrigins` when the platform answers from
   * another host ("any" accepts every origin: the state check and PKCE still protect the exchange).
   */
  static readonly iframe = (options: {
    readonly window?: FrameWindow
    readonly timeout?: Duration.Input
    readonly trustedOrigins?: ReadonlyArray<string> | "any"
  } = {}) =>
    Layer.sync(AuthorizeAgent, () =>
      iframeAgent(options.window ?? (globalThis as unknown as FrameWindow), options.timeout, options.trustedOrigins ?? []))

  /** The iframe agent where there is a DOM, the HTTP agent elsewhere. */
  static readonly auto = Layer.suspend(() =>
    typeof (globalThis as { document?: unknown }).document === "object" ? AuthorizeAgent.iframe() : AuthorizeAgent.http()
  )
}

/** Parses `code`, `state`, `error`, `error_description` from a callback URL's fragment or query. */
export const parseCallback = (url: string, responseMode: "fragment" | "query" = "fragment") => {
  const parsed = new URL(url)
  const params = responseMode === "query" ? parsed.searchParams : new URLSearchParams(parsed.hash.slice(1))
  const get = (k: string) => Option.getOrUndefined(Option.fromNullishOr(params.get(k)))
  return { code: get("code"), state: get("state"), error: get("error"), errorDescription: get("error_description") }
}

const authorizationFailed = (error: string, description: string | undefined) =>
  new OAuthError({
    reason: new AuthorizationFailed({
      message: description === undefined ? error : `${error}: ${description}`,
      error,
      ...(description === undefined ? {} : { errorDescription: description })
    })
  })

const httpAgent = (options: { readonly redirectUri?: string; readonly fetch?: typeof globalThis.fetch }): AuthorizeAgentShape => {
  const redirectUri = options.redirectUri ?? "http://127.0.0.1/sitefx/callback"
  return {
    responseMode: "query",
    redirectUri,
    authorize: (fullUrl, state) =>
      Effect.tryPromise({
        try: () => (options.fetch ?? globalThis.fetch)(fullUrl, { redirect: "manual" }),
        catch: (cause) => new OAuthError({ reason: new AuthorizationFailed({ message: `authorize page unreachable: ${String(cause)}` }), cause })
      }).pipe(
        Effect.flatMap((res) => {
          const location = res.headers.get("location")
          if (location === null) {
            return Effect.fail(authorizationFailed("no_redirect", `the authorize page answered ${res.status} without a redirect`))
          }
          const cb = parseCallback(new URL(location, fullUrl).href, "query")
          if (cb.error !== undefined) return Effect.fail(authorizationFailed(cb.error, cb.errorDescription))
          if (cb.code === undefined || cb.state === undefined) {
            return Effect.fail(missingCodeOrState())
          }
          return Effect.succeed({ code: cb.code, state: cb.state })
        })
      )
  }
}

/** The part of `window` the iframe flow touches; tests inject their own. */
export interface FrameWindow {
  readonly document: {
    createElement(tag: "iframe"): { style: { display: string }; src: string; remove(): void; onload?: unknown }
    readonly body: { appendChild<T>(node: T): T }
  }
  addEventListener(type: "message", listener: (event: { readonly data: unknown; readonly origin: string }) => void): void
  removeEventListener(type: "message", listener: (event: { readonly data: unknown; readonly origin: string }) => void): void
}

const decodeMessage = (data: unknown): Option.Option<Message> =>
  AuthorizeMessage(data) === undefined ? Option.some(data as Message) : Option.none()

const iframeAgent = (
  win: FrameWindow,
  timeout: Duration.Input = "120 seconds",
  trustedOrigins: ReadonlyArray<string> | "any"
): AuthorizeAgentShape => ({
  responseMode: "web_message",
  redirectUri: undefined,
  authorize: (fullUrl, state) =>
    Effect.suspend(() => {
      // no page to put the frame in (a server, a test runner): a typed failure, not a TypeError
      if (win.document?.body == null) return Effect.fail(new OAuthError({ reason: new NoBrowser({ message: "no page to open the login frame in" }) }))
      const origin = new URL(fullUrl).origin
      const frame = win.document.createElement("iframe")
      frame.style.display = "none"
      frame.src = fullUrl
      let listener: ((event: { readonly data: unknown; readonly origin: string }) => void) | undefined
      const answer = Effect.callback<AuthorizeResult, OAuthError>((resume) => {
        listener = (event) => {
          // only the authorize page (or an origin the app trusts) may answer, and only for this login's state
          if (trustedOrigins !== "any" && event.origin !== origin && !trustedOrigins.includes(event.origin)) return
          const message = Option.getOrUndefined(decodeMessage(event.data))
          if (message === undefined || message.state !== state) return
          if (message.code !== undefined) resume(Effect.succeed({ code: message.code, state: message.state }))
          else resume(Effect.fail(authorizationFailed(message.error ?? "unknown_error", message.error_description)))
        }
        win.addEventListener("message", listener)
        win.document.body.appendChild(frame)
      })
      return answer.pipe(
        // not Effect.timeoutOrElse: it reads the duration with effect/Duration (about 2 KB gzip in every page with a session)
        Effect.raceFirst(Effect.andThen(sleepMillis(inputMillis(timeout)), Effect.fail(timedOut()))),
        Effect.ensuring(Effect.sync(() => {
          if (listener !== undefined) win.removeEventListener("message", listener)
          frame.remove()
        }))
      )
    })
})

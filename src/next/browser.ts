/**
 * The browser's half of sitefx/next's cookie session: a TokenStore over the cookies the app's server
 * keeps. The page reads the access token from the readable cookie and calls the platform with it; it
 * saves a session (a sign-in, a sign-out, a redirect login under way) and renews its tokens through the
 * app's session route, which keeps the refresh token in an httpOnly cookie the page never reads.
 *
 * @example
 * import { Site } from "sitefx"
 * import { cookieTokenStore } from "sitefx/next/browser"
 * import { Atom } from "sitefx/react"
 * const runtime = Atom.runtime(Site.layer({ clientId: "my-client-id", tokens: cookieTokenStore() }))
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PlatformError } from "../http/PlatformError.ts"
import { SystemError, TransportError } from "../http/reasons.ts"
import { serializeStored, type StoredSession } from "../session/storedSession.ts"
import { TokenStore } from "../session/TokenStore.ts"
import type { Tokens } from "../session/wire/tokens.ts"
import { DEFAULT_COOKIE, pageSessionOf, readReadable } from "./cookies.ts"

/** What `cookieTokenStore` takes: the cookie's name and the session route, as given to `nextSite`. */
export interface CookieTokenStoreOptions {
  /** The readable cookie's name (`sitefx.session` by default). */
  readonly cookie?: string | undefined
  /** The path of the app's session route (`/api/sitefx` by default). */
  readonly route?: string | undefined
  /** The `fetch` the route is called with; the global one by default. */
  readonly fetch?: typeof globalThis.fetch | undefined
}

/** The value of the cookie `name` in `document.cookie`, if set. */
export const readCookie = (cookieHeader: string, name: string): string | undefined => {
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=")
    if (eq === -1) continue
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/**
 * A session kept by the app's server in cookies (see `nextSite` in `sitefx/next`). Where there is no
 * document (a client component rendered on the server), it reads nothing and saves nothing.
 */
export const cookieTokenStore = (options: CookieTokenStoreOptions = {}): Layer.Layer<TokenStore> =>
  Layer.sync(TokenStore, () => {
    const name = options.cookie ?? DEFAULT_COOKIE
    const route = options.route ?? "/api/sitefx"
    const doc = (globalThis as { document?: { cookie: string } }).document
    // a session the route has not taken yet (it was out of reach): this page goes on with it
    let unsaved: StoredSession | undefined
    const fromCookie = (): StoredSession => pageSessionOf(doc === undefined ? undefined : readReadable(readCookie(doc.cookie, name)))
    const load = Effect.sync(() => unsaved ?? fromCookie())

    const post = (body: unknown): Effect.Effect<StoredSession, PlatformError> =>
      Effect.tryPromise({
        try: async (signal) => {
          const fetch = options.fetch ?? globalThis.fetch
          const response = await fetch(route, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
            credentials: "same-origin",
            signal
          })
          const text = await response.text()
          return { status: response.status, text }
        },
        catch: (cause) => new PlatformError({ method: "POST", path: route, reason: new TransportError({ message: `the session route did not answer: ${String(cause)}`, cause }) })
      }).pipe(Effect.flatMap(({ status, text }) => {
        let answer: unknown
        try {
          answer = JSON.parse(text)
        } catch {
          answer = undefined
        }
        const session = (answer as { session?: StoredSession } | undefined)?.session
        if (status === 200 && session !== undefined) return Effect.succeed(session)
        const message = (answer as { message?: unknown } | undefined)?.message
        const said = typeof message === "string" ? message : `the session route answered HTTP ${status}`
        return Effect.fail(new PlatformError({ method: "POST", path: route, reason: new SystemError({ status, message: said, description: said }) }))
      }))

    return TokenStore.of({
      load,
      save: (session) =>
        Effect.suspend(() => {
          if (doc === undefined) return Effect.void
          if (unsaved === undefined && serializeStored(session) === serializeStored(fromCookie())) return Effect.void
          unsaved = session
          return post({ save: session }).pipe(
            Effect.tap(() => Effect.sync(() => void (unsaved = undefined))),
            Effect.ignore
          )
        }),
      renew: (tokens: Tokens) =>
        doc === undefined
          ? Effect.fail(new PlatformError({ method: "POST", path: route, reason: new TransportError({ message: "sitefx/next: the cookie session renews in a browser; on the server, use nextSite's proxy" }) }))
          : Effect.map(post({ renew: tokens.accessToken.value }), (session) => {
            unsaved = undefined
            return session.tokens
          })
    })
  })

/**
 * sitefx in a Next.js app's server (App Router): one session per visitor in cookies, kept fresh by the
 * app's proxy, read by server components, written by a route handler; and one visitor session per server
 * process for public pages that Next caches.
 *
 * @example
 * // lib/site.ts
 * import * as DataItems from "sitefx/data/items"
 * import { nextSite } from "sitefx/next"
 * export const site = nextSite({ clientId: process.env.SITEFX_CLIENT_ID!, baseUrl: process.env.SITEFX_BASE_URL })
 * // proxy.ts:                    export const proxy = site.proxy
 * // app/api/sitefx/route.ts:     export const { GET, POST } = site.route
 * // a server component (inside <Suspense>: it reads the request's cookies):
 * const posts = await site.run(DataItems.query("Posts").limit(10).find)
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import type { Atom } from "effect/reactivity"
import { AtomRegistry } from "effect/reactivity"
import { cookies, headers } from "next/headers"
import { type NextRequest, NextResponse } from "next/server"
import { renew } from "../firstScreen/sessionToken.ts"
import { DEFAULT_API_URL, trimSlash } from "../http/hosts.ts"
import type { PlatformConfigOptions } from "../http/PlatformConfig.ts"
import { type DehydratedQueries, dehydrate as dehydrateQueries, prefetch } from "../react/hydration.ts"
import { StoredSession as isStoredSession } from "../session/guards/tokens.ts"
import { PlatformClient } from "../http/PlatformClient.ts"
import { MyMemberResponse } from "../session/guards/members.ts"
import { OAuthFlows } from "../session/OAuthFlows.ts"
import { Paths } from "../session/protocol.ts"
import { SessionTokens } from "../session/SessionTokens.ts"
import type { Member } from "../session/wire/index.ts"
import { siteSession, type SessionServices } from "../session/SiteSession.ts"
import { type StoredSession } from "../session/storedSession.ts"
import { TokenStore } from "../session/TokenStore.ts"
import {
  cookiesOfSession,
  DEFAULT_COOKIE,
  pageSessionOf,
  type PrivateCookie,
  readPrivate,
  readReadable,
  refreshCookieName,
  renewalDue,
  resolveStandIn,
  sessionOfCookies,
  writePrivate,
  writeReadable
} from "./cookies.ts"

export { DEFAULT_COOKIE }

/** What `nextSite` takes: the site, where its session's cookies live, and the session route's path. */
export interface NextSiteOptions extends Pick<PlatformConfigOptions, "baseUrl" | "apiUrl" | "edgeUrl"> {
  /** The headless app's client id. */
  readonly clientId: string
  /** The readable cookie's name (`sitefx.session`); the httpOnly one adds `.refresh`. */
  readonly cookie?: string | undefined
  /** How long the cookies live, in seconds (90 days by default; the platform's refresh token decides the rest). */
  readonly maxAgeSeconds?: number | undefined
  /** Renew an access token that expires within this many seconds (60 by default), so a page's calls never meet an expired one. */
  readonly renewMarginSeconds?: number | undefined
  /** `Secure` cookies; by default when the request came over https. */
  readonly secure?: boolean | undefined
}

/** What a site's session gives a Next.js server: see `nextSite`. */
export interface NextSite {
  /** The app's proxy (`proxy.ts`): visitor tokens for a new visitor, a renewal before expiry, the cookies set for the page and its render. */
  readonly proxy: (request: NextRequest) => Promise<NextResponse>
  /** The session route (`app/api/sitefx/route.ts`): POST saves or renews the page's session; GET completes a redirect login. */
  readonly route: {
    readonly GET: (request: NextRequest) => Promise<Response>
    readonly POST: (request: NextRequest) => Promise<Response>
  }
  /** The request's site (its visitor or member, from the cookies): a layer for this request. */
  readonly layer: () => Promise<Layer.Layer<SessionServices>>
  /** Runs an effect as the request's visitor or member. Reads the request's cookies: under Cache Components, call it inside `<Suspense>`. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, SessionServices>) => Promise<A>
  /**
   * The request's signed-in member (their own record), or undefined for a visitor, who costs no call.
   * Reads the request's cookies: under Cache Components, call it inside `<Suspense>`.
   */
  readonly member: () => Promise<Member | undefined>
  /** Runs an effect as the server's own visitor (one visitor session per server process): for public data in `"use cache"` functions. */
  readonly runPublic: <A, E>(effect: Effect.Effect<A, E, SessionServices>) => Promise<A>
  /**
   * Loads these query atoms as the request's visitor or member (or the server's visitor with
   * `{ public: true }`) and answers their results for `<RegistryProvider dehydrated>`: the page's client
   * components show them at once and ask the platform nothing for them.
   */
  readonly dehydrate: <R, ER>(
    runtime: Atom.AtomRuntime<R, ER>,
    atoms: ReadonlyArray<Parameters<typeof prefetch>[1][number]>,
    options?: { readonly public?: boolean | undefined; readonly timeout?: number | undefined }
  ) => Promise<DehydratedQueries>
}

/** A cookie jar that can be written: a response's, or (in a route handler or server action) the request's. */
interface CookieWriter {
  set(options: { name: string; value: string; httpOnly?: boolean; secure?: boolean; sameSite?: "lax"; path?: string; maxAge?: number }): unknown
}

interface CookieReader {
  get(name: string): { readonly value: string } | undefined
}

const DAY = 24 * 60 * 60

/** The largest body the session route reads (a session document is a few KB). */
const MAX_BODY_BYTES = 32 * 1024

/** The server processes' visitor sessions for public data, by site: kept across module reloads in `next dev`. */
const publicRuntimes: Map<string, ManagedRuntime.ManagedRuntime<SessionServices, never>> =
  ((globalThis as { [key: symbol]: unknown })[Symbol.for("sitefx/next/public")] ??= new Map()) as never

const nowSeconds = () => Math.floor(Date.now() / 1000)

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } })

/**
 * A site's session in a Next.js app: the proxy that keeps it fresh in cookies, the route the page saves
 * it through, and the server's ways to run effects as the request's visitor or member.
 */
export const nextSite = (options: NextSiteOptions): NextSite => {
  const name = options.cookie ?? DEFAULT_COOKIE
  const secretName = refreshCookieName(name)
  const apiUrl = trimSlash(options.apiUrl ?? options.baseUrl ?? DEFAULT_API_URL)
  const maxAge = options.maxAgeSeconds ?? 90 * DAY
  const margin = options.renewMarginSeconds ?? 60
  const siteOptions = {
    clientId: options.clientId,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.apiUrl === undefined ? {} : { apiUrl: options.apiUrl }),
    ...(options.edgeUrl === undefined ? {} : { edgeUrl: options.edgeUrl })
  }
  const fetchPlatform: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, { ...init, cache: "no-store" })

  const read = (jar: CookieReader) => {
    const secret = readPrivate(jar.get(secretName)?.value)
    return { secret, session: sessionOfCookies(readReadable(jar.get(name)?.value), secret) }
  }

  /** Writes the two cookies' values (or their removal, for none) into a jar. */
  const setCookies = (jar: CookieWriter, next: ReturnType<typeof cookiesOfSession>, secure: boolean): void => {
    const common = { path: "/", sameSite: "lax" as const, secure, maxAge: next === undefined ? 0 : maxAge }
    jar.set({ name, value: next === undefined ? "" : writeReadable(next.readable), ...common })
    jar.set({ name: secretName, value: next === undefined ? "" : writePrivate(next.secret), httpOnly: true, ...common })
  }

  /** Writes a session's cookies (or their removal) into a jar; answers the page's view of the session. */
  const write = (jar: CookieWriter, session: StoredSession, previous: PrivateCookie | undefined, secure: boolean): StoredSession => {
    const next = cookiesOfSession(session, previous)
    setCookies(jar, next, secure)
    return pageSessionOf(next?.readable)
  }

  /** The route's answer: the page's view of the session saved, with its cookies. */
  const answer = (session: StoredSession, previous: PrivateCookie | undefined, secure: boolean): Response => {
    const cookies: Array<Parameters<CookieWriter["set"]>[0]> = []
    const page = write({ set: (c) => cookies.push(c) }, session, previous, secure)
    const response = NextResponse.json({ session: page }, { headers: { "cache-control": "no-store" } })
    for (const c of cookies) response.cookies.set(c)
    return response
  }

  const isSecure = (request: NextRequest) => options.secure ?? request.nextUrl.protocol === "https:"

  const proxy = async (request: NextRequest): Promise<NextResponse> => {
    const { secret, session } = read(request.cookies)
    if (!renewalDue(session.tokens, nowSeconds(), margin)) return NextResponse.next()
    let tokens
    try {
      tokens = await renew(fetchPlatform, apiUrl, options.clientId, session.tokens)
    } catch {
      // the platform is out of reach: the page renders, and its own calls renew when they can
      return NextResponse.next()
    }
    const renewed: StoredSession = { ...session, tokens }
    const next = cookiesOfSession(renewed, secret)!
    // the render of this request reads the new cookies, and the browser keeps them
    request.cookies.set(name, writeReadable(next.readable))
    request.cookies.set(secretName, writePrivate(next.secret))
    const response = NextResponse.next({ request: { headers: request.headers } })
    // the same values (a new session's id is drawn once), so the page and its render agree
    setCookies(response.cookies, next, isSecure(request))
    return response
  }

  /** Only the app's own pages may write its session: a form or script of another site is refused. */
  const sameOrigin = (request: NextRequest): boolean => {
    const site = request.headers.get("sec-fetch-site")
    if (site !== null && site !== "same-origin") return false
    const origin = request.headers.get("origin")
    if (origin === null) return site === "same-origin"
    // the host the browser asked (behind a proxy, the one it forwarded)
    const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host")
    try {
      return host !== null && new URL(origin).host === host
    } catch {
      return false
    }
  }

  const POST = async (request: NextRequest): Promise<Response> => {
    if (!sameOrigin(request)) return json(403, { message: "sitefx: the session route takes requests from the app's own pages only" })
    if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
      return json(415, { message: "sitefx: the session route takes application/json" })
    }
    // a session document is a few KB: anything far larger is not one, and is not read
    if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) {
      return json(413, { message: `sitefx: the session route takes at most ${MAX_BODY_BYTES} bytes` })
    }
    let body: unknown
    try {
      const text = await request.text()
      if (text.length > MAX_BODY_BYTES) return json(413, { message: `sitefx: the session route takes at most ${MAX_BODY_BYTES} bytes` })
      body = JSON.parse(text)
    } catch {
      return json(400, { message: "sitefx: the session route's body is not JSON" })
    }
    const { secret, session } = read(request.cookies)
    const secure = isSecure(request)
    if (body !== null && typeof body === "object" && "save" in body) {
      const sent = (body as { save: unknown }).save
      if (isStoredSession(sent) !== undefined) return json(400, { message: "sitefx: `save` is not a session document" })
      return answer(resolveStandIn(sent as StoredSession, secret), secret, secure)
    }
    if (body !== null && typeof body === "object" && "renew" in body) {
      const rejected = (body as { renew: unknown }).renew
      if (typeof rejected !== "string") return json(400, { message: "sitefx: `renew` names the access token to replace" })
      const current = session.tokens.accessToken.value
      const due = renewalDue(session.tokens, nowSeconds(), 0) || (rejected !== "" && rejected === current)
      let tokens = session.tokens
      if (due) {
        try {
          tokens = await renew(fetchPlatform, apiUrl, options.clientId, session.tokens)
        } catch (e) {
          const status = (e as { status?: unknown }).status
          return json(502, { message: `sitefx: the platform's token endpoint did not renew the session${typeof status === "number" ? ` (HTTP ${status})` : ""}` })
        }
      }
      return answer({ ...session, tokens }, secret, secure)
    }
    return json(400, { message: "sitefx: the session route takes { save } or { renew }" })
  }

  /**
   * Where a completed sign-in sends the browser: the page it started from, on this site only, as a path
   * the browser resolves against the host it is on (Next's URLs name every loopback host `localhost`,
   * whose cookies are not 127.0.0.1's).
   */
  const backTo = (request: NextRequest, originalUri: string): string => {
    const here = new URL(request.url)
    const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? here.host
    let target: URL
    try {
      target = new URL(originalUri === "" ? "/" : originalUri, here)
    } catch {
      return "/"
    }
    const own = target.origin === here.origin || (target.protocol === here.protocol && target.host === host)
    // one leading slash: `//host/...` would name another site
    return own ? `${target.pathname.replace(/^\/+/, "/")}${target.search}${target.hash}` : "/"
  }

  const GET = async (request: NextRequest): Promise<Response> => {
    const { secret, session } = read(request.cookies)
    if (session.oauthData === undefined) {
      return new Response("sitefx: no sign-in is under way in this browser (its cookies may have been cleared); sign in again.", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } })
    }
    let current = session
    const store = Layer.succeed(TokenStore, TokenStore.of({ load: Effect.sync(() => current), save: (s) => Effect.sync(() => void (current = s)) }))
    const exit = await Effect.runPromiseExit(
      OAuthFlows.use((flows) => flows.completeRedirect(request.url, { responseMode: "query" })).pipe(Effect.provide(siteSession({ ...siteOptions, tokens: store })))
    )
    if (exit._tag === "Failure") {
      const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
      const message = reason !== undefined && reason._tag === "Fail" ? String((reason.error as { message?: unknown }).message ?? reason.error) : "the sign-in failed"
      return new Response(`sitefx: the sign-in could not be completed: ${message}`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } })
    }
    const response = new NextResponse(null, { status: 303, headers: { location: backTo(request, exit.value.originalUri) } })
    const { oauthData: _done, ...signedIn } = current
    write(response.cookies, signedIn, secret, isSecure(request))
    return response
  }

  const requestLayer = async (): Promise<Layer.Layer<SessionServices>> => {
    const [jar, asked] = await Promise.all([cookies(), headers()])
    const { secret, session } = read(jar)
    // Secure cookies when the browser came over https (behind a proxy, as it forwarded)
    const secure = options.secure ?? (asked.get("x-forwarded-proto") ?? "").split(",")[0]!.trim() === "https"
    let current = session
    const store = Layer.succeed(TokenStore, TokenStore.of({
      load: Effect.sync(() => current),
      save: (s) =>
        Effect.sync(() => {
          current = s
          try {
            // a route handler or server action keeps what changed; a server component cannot set cookies
            write(jar as unknown as CookieWriter, s, secret, secure)
          } catch {
            // rendering: the proxy renews before the next render
          }
        })
    }))
    return siteSession({ ...siteOptions, tokens: store })
  }

  const publicRuntime = () => {
    const key = `${options.clientId} ${apiUrl} ${options.edgeUrl ?? options.baseUrl ?? ""}`
    let runtime = publicRuntimes.get(key)
    if (runtime === undefined) publicRuntimes.set(key, runtime = ManagedRuntime.make(siteSession({ ...siteOptions, tokens: "memory" })))
    return runtime
  }

  return {
    proxy,
    route: { GET, POST },
    layer: requestLayer,
    run: async (effect) => Effect.runPromise(Effect.provide(effect, await requestLayer())),
    member: async () => {
      const own = Effect.gen(function*() {
        if (!(yield* SessionTokens.use((s) => s.loggedIn))) return undefined
        const client = yield* PlatformClient
        const answer = yield* client.json({ method: "GET", path: Paths.myMember }, MyMemberResponse)
        return answer.member as Member
      })
      return Effect.runPromise(Effect.provide(own, await requestLayer()))
    },
    runPublic: (effect) => publicRuntime().runPromise(effect),
    dehydrate: async (runtime, atoms, opts = {}) => {
      const layer = opts.public === true ? Layer.succeedContext(await publicRuntime().context()) : await requestLayer()
      const registry = AtomRegistry.make({ initialValues: [[runtime.layer, layer]] })
      try {
        await prefetch(registry, atoms, opts.timeout === undefined ? {} : { timeout: opts.timeout })
        return dehydrateQueries(registry, atoms)
      } finally {
        registry.dispose()
      }
    }
  }
}

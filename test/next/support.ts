/**
 * Test support for sitefx/next: a Next.js app's requests as `NextRequest`s, the cookies a response sets
 * as the browser reads them (`Set-Cookie` parsed with its attributes), and a browser's cookie jar that
 * keeps them.
 */
import { NextRequest } from "next/server"
import { readPrivate, readReadable } from "../../src/next/cookies.ts"

/** The app's origin in these tests: a Next.js app on its own port (a loopback origin, which the local platform's client allows). */
export const APP = "http://127.0.0.1:3000"

/** A cookie as a `Set-Cookie` header sets it. */
export interface SetCookie {
  readonly name: string
  readonly value: string
  readonly httpOnly: boolean
  readonly secure: boolean
  readonly maxAge: number | undefined
  readonly path: string | undefined
  readonly sameSite: string | undefined
}

/** The cookies a response sets, by name, from its real `Set-Cookie` headers. */
export const setCookies = (response: Response): Map<string, SetCookie> => {
  const found = new Map<string, SetCookie>()
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(";").map((s) => s.trim())
    const eq = pair!.indexOf("=")
    const attribute = (key: string) => {
      const hit = attributes.find((a) => a.toLowerCase().split("=")[0] === key)
      return hit === undefined ? undefined : hit.includes("=") ? hit.slice(hit.indexOf("=") + 1) : ""
    }
    const maxAge = attribute("max-age")
    found.set(pair!.slice(0, eq), {
      name: pair!.slice(0, eq),
      value: decodeURIComponent(pair!.slice(eq + 1)),
      httpOnly: attribute("httponly") !== undefined,
      secure: attribute("secure") !== undefined,
      maxAge: maxAge === undefined ? undefined : Number(maxAge),
      path: attribute("path"),
      sameSite: attribute("samesite")
    })
  }
  return found
}

/** A browser's cookies for the app: what responses set, sent back with every request, the httpOnly ones hidden from scripts. */
export class Jar {
  readonly cookies = new Map<string, { value: string; httpOnly: boolean }>()

  /** Keeps what a response sets; a cookie set with Max-Age=0 is removed. */
  apply(response: Response): this {
    for (const c of setCookies(response).values()) {
      if (c.maxAge !== undefined && c.maxAge <= 0) this.cookies.delete(c.name)
      else this.cookies.set(c.name, { value: c.value, httpOnly: c.httpOnly })
    }
    return this
  }

  /** The `Cookie` header the browser sends. */
  get header(): string {
    return [...this.cookies].map(([name, c]) => `${name}=${c.value}`).join("; ")
  }

  /** `document.cookie`: the cookies a script may read. */
  get script(): string {
    return [...this.cookies].filter(([, c]) => !c.httpOnly).map(([name, c]) => `${name}=${c.value}`).join("; ")
  }

  get(name: string): string | undefined {
    return this.cookies.get(name)?.value
  }

  set(name: string, value: string, httpOnly = false): this {
    this.cookies.set(name, { value, httpOnly })
    return this
  }
}

/** The session the two default cookies hold in a jar or a response. */
export const sessionIn = (value: (name: string) => string | undefined) => ({
  readable: readReadable(value("sitefx.session")),
  secret: readPrivate(value("sitefx.session.refresh"))
})

/** A page request of the app, with the browser's cookies. */
export const pageRequest = (path: string, cookie = ""): NextRequest =>
  new NextRequest(`${APP}${path}`, { headers: cookie === "" ? {} : { cookie } })

/** The headers a browser sends with a same-origin `fetch` from one of the app's pages. */
export const SAME_ORIGIN = { host: "127.0.0.1:3000", origin: APP, "sec-fetch-site": "same-origin" } as const

/** A POST to the session route, as the page's `cookieTokenStore` sends it (unless `headers` say otherwise). */
export const routePost = (body: unknown, cookie = "", headers: Record<string, string> = { ...SAME_ORIGIN }): NextRequest =>
  new NextRequest(`${APP}/api/sitefx`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers, ...(cookie === "" ? {} : { cookie }) },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

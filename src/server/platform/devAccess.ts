/**
 * Who may reach the dev endpoints (`/_sitefx/*`). They can wipe the database and read the outbox
 * (recovery links, MFA codes), and the platform runs beside the developer's browser, where any page
 * can send requests to 127.0.0.1. CORS only decides whether a page may read an answer: a page can
 * still send a simple POST or load a GET through an image, and a page whose host name resolves to
 * 127.0.0.1 (DNS rebinding) is same-origin with the platform in the browser's eyes. So the guard looks
 * at every dev request before its handler runs:
 *
 * - the Host must be a loopback name or the host the platform listens on (no rebound names);
 * - an `Origin`, when sent, must be the platform's own or one the developer allowed (`devOrigins`,
 *   `sitefx serve --dev-origin`), such as a Vite dev server;
 * - without an `Origin`, `Sec-Fetch-Site` must not say the request came from another site.
 *
 * Requests with neither header (scripts, tests, the sitefx CLI, curl) are not from a page and pass.
 *
 * A refused page may read its refusal (the origin it sent is granted on that answer, and on the
 * preflight before it): the answer is the same whatever the endpoint and says only which rule refused
 * and how to allow the origin, so sitefx/dev in that page fails with the message instead of a bare
 * network error. The guard, not CORS, is what keeps the endpoints closed: a granted preflight lets the
 * browser send the request, and the guard refuses it before any handler runs.
 */
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { originMatches, originOf } from "./origins.ts"

/** Where the dev endpoints live. */
export const DEV_PREFIX = "/_sitefx"

export interface DevAccessOptions {
  /** Origins allowed besides the platform's own (`http://localhost:*` allows every port). */
  readonly origins: ReadonlyArray<string>
  /** The host the platform listens on, also accepted as a Host name. */
  readonly host: string
}

export type DevAccess =
  | { readonly ok: true; readonly origin: string | undefined }
  | {
    readonly ok: false
    readonly reason: string
    /** The rule's id: which of the checks refused. */
    readonly rule: string
    /** The page's origin, granted the refusal alone so it can read why (only a well-formed http(s) origin). */
    readonly origin: string | undefined
  }

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/

/** The host name of a Host header (`[::1]:8787` → `[::1]`), lower-cased. */
const hostName = (host: string): string => {
  const lower = host.toLowerCase()
  if (lower.startsWith("[")) return lower.slice(0, lower.indexOf("]") + 1)
  const colon = lower.indexOf(":")
  return colon < 0 ? lower : lower.slice(0, colon)
}

/** The port of a Host header, "" when it names none. */
const portOf = (host: string): string => {
  const from = host.startsWith("[") ? host.indexOf("]") + 1 : 0
  const colon = host.indexOf(":", from)
  return colon < 0 ? "" : host.slice(colon + 1)
}

const hostAllowed = (host: string | undefined, listening: string): boolean => {
  if (host === undefined || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return false
  const name = hostName(host)
  return LOOPBACK.test(name) || (listening !== "0.0.0.0" && listening !== "::" && name === hostName(listening))
}

/** The names a page of the platform itself is served at: the usual loopback names and the host it listens on. */
const OWN_NAMES = ["localhost", "127.0.0.1", "[::1]"]

/**
 * A page of the platform itself: served over http at one of its own names and the port the request
 * reached. Other loopback addresses (127.0.0.2, ...) are other servers the platform does not know.
 */
const isOwn = (origin: string, host: string, listening: string): boolean => {
  const match = /^http:\/\/([^/]+)$/.exec(origin)
  if (match === null) return false
  const name = hostName(match[1]!)
  const own = OWN_NAMES.includes(name) || (listening !== "0.0.0.0" && listening !== "::" && name === hostName(listening))
  return own && portOf(match[1]!) === portOf(host)
}

/**
 * Whether the router could send this URL to a dev endpoint. It reads paths loosely: it decodes escapes,
 * ignores case and repeated slashes and stops at `;`, so `/%5Fsitefx/site`, `/_SITEFX/site` and
 * `//_sitefx/site` all reach `/_sitefx/site`. A guard that compared the raw text would let those
 * through, so the path is read at least as loosely here: every escape decoded, even ones the router
 * keeps (a path this calls dev and no dev route matches only meets a stricter answer).
 */
export const isDevPath = (url: string): boolean => {
  const path = url.replace(/^https?:\/\/[^/]*/i, "").split(/[?;#]/, 1)[0]!
  const read = path
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\/{2,}/g, "/")
    .toLowerCase()
  return read.startsWith(DEV_PREFIX)
}

/** Whether this request may reach a dev endpoint, and the origin to grant CORS to when it came from a page. */
export const devAccess = (request: HttpServerRequest.HttpServerRequest, options: DevAccessOptions): DevAccess => {
  const host = request.headers["host"]
  const origin = request.headers["origin"]
  // reflected only as a browser sends it (`scheme://host[:port]`): any other text never reaches a header
  const readableBy = origin !== undefined && originOf(origin) === origin ? origin : undefined
  if (!hostAllowed(host, options.host)) {
    return {
      ok: false,
      rule: "dev.access.host",
      reason: `Dev endpoints answer only at a loopback address, not at host ${JSON.stringify(host ?? "")}`,
      origin: readableBy
    }
  }
  if (origin !== undefined) {
    if (isOwn(origin, host!, options.host) || options.origins.some((pattern) => originMatches(pattern, origin))) return { ok: true, origin }
    return {
      ok: false,
      rule: "dev.access.origin",
      reason: `Dev endpoints do not answer pages from ${origin}; allow it with \`sitefx serve --dev-origin ${origin}\``,
      origin: readableBy
    }
  }
  const site = request.headers["sec-fetch-site"]
  if (site === "cross-site" || site === "same-site") {
    return { ok: false, rule: "dev.access.cross-site", reason: "Dev endpoints do not answer requests that another site's page made", origin: undefined }
  }
  return { ok: true, origin: undefined }
}

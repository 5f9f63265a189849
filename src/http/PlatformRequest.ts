/**
 * A platform call described as data: method, path, payload, and the wire rules it follows. The
 * PlatformHttp service turns it into an HTTP request; nothing here performs I/O.
 */
import { encodeDates, flattenParams, isComplexPayload } from "./codec.ts"
import { dotRWire } from "./dotR.ts"

/** An HTTP method a platform call uses. */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/** Which host a call goes to: the API host, or a visitor/member module host (the CDN when it is on). */
export type Host = "api" | "module"

/** When a GET query is too long it is sent as a POST with the same JSON body. */
export interface QueryFallback {
  readonly path: string
  /** `url`: the whole URL must be at most `max` chars (data queries, 2048); `query`: the query string (catalog, 4000). */
  readonly limit: { readonly kind: "url" | "query"; readonly max: number }
}

/** A platform call as data, for `PlatformClient.request`: method, path, payload and the wire rules it follows. */
export interface PlatformRequest {
  readonly method: Method
  /** The path on the host, `/members/v1/members/my`. */
  readonly path: string
  /** The host; the authentication's (module host for a session, API host for an API key) by default. */
  readonly host?: Host | undefined
  /** JSON body for POST/PUT/PATCH; query parameters (or `.r`) for GET/DELETE. */
  readonly payload?: Record<string, unknown> | undefined
  /**
   * POST/PUT/PATCH: the body already written as JSON, sent as it is (`payload` and `dates` do not apply).
   * Bulk writes send their items this way: encoded once, and not held as objects while the request is
   * under way.
   */
  readonly json?: string | undefined
  /** GET only: send the payload as `.r`, optionally falling back to POST when too long. */
  readonly complex?: { readonly fallback?: QueryFallback | undefined } | undefined
  /** Extra headers; they win over the authentication's. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Safe to send twice. Defaults to true for GET, PUT and DELETE. Only idempotent calls are retried. */
  readonly idempotent?: boolean | undefined
  /** Encode `Date` as `{"$date"}` in the body and decode it back in the answer (data items). */
  readonly dates?: boolean | undefined
  /** Answer a 200 with its text, unparsed: the caller parses it when it wants to. */
  readonly raw?: boolean | undefined
}

export const isIdempotent = (req: PlatformRequest): boolean =>
  req.idempotent ?? (req.method === "GET" || req.method === "PUT" || req.method === "DELETE")

/** What actually goes on the wire for a request, given the host's base URL. */
export interface WireRequest {
  readonly method: Method
  readonly url: string
  readonly body: string | undefined
}

/** Builds the wire form of a request: `.r` or flattened params for GET, JSON body otherwise. */
export const toWire = (req: PlatformRequest, baseUrl: string): WireRequest => {
  if (req.json !== undefined && req.method !== "GET" && req.method !== "DELETE") {
    return { method: req.method, url: `${baseUrl}${req.path}`, body: req.json }
  }
  const payload = req.payload === undefined ? {} : (req.dates === true ? encodeDates(req.payload) as Record<string, unknown> : req.payload)
  if (req.method === "GET" && req.complex !== undefined && (isComplexPayload(payload) || req.complex.fallback !== undefined)) {
    return dotRWire(baseUrl, req.path, payload, req.complex.fallback)
  }
  const base = `${baseUrl}${req.path}`
  if (req.method === "GET" || req.method === "DELETE") {
    const params = new URLSearchParams(flattenParams(payload) as Array<[string, string]>).toString()
    return { method: req.method, url: params === "" ? base : `${base}${base.includes("?") ? "&" : "?"}${params}`, body: undefined }
  }
  return { method: req.method, url: base, body: JSON.stringify(payload) }
}

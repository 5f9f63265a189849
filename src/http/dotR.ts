/**
 * The `.r` query encoding, on its own: a GET whose payload travels as base64url JSON in the `.r`
 * parameter, or, past its fallback's limit, as a POST of the same JSON. `toWire` (PlatformRequest.ts)
 * sends complex GETs with it; a page's first script (`sitefx/first-screen`) sends its queries with it
 * alone, so its bundle carries neither the rest of the wire nor the `$date` encoding.
 */
import type { QueryFallback, WireRequest } from "./PlatformRequest.ts"

/** base64url without padding, as the platform's `.r` parameter wants it (`latin1`: the text holds raw bytes). */
export const base64url = (text: string, encoding: "utf8" | "latin1" = "utf8"): string => {
  const b64 = typeof Buffer !== "undefined"
    ? Buffer.from(text, encoding).toString("base64")
    : btoa(encoding === "latin1" ? text : bytesToBinary(new TextEncoder().encode(text)))
  return b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

const bytesToBinary = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return out
}

/** The wire form of a GET whose payload travels as `.r`, or as a POST of the same JSON to the fallback's path when too long. */
export const dotRWire = (baseUrl: string, path: string, payload: unknown, fallback: QueryFallback | undefined): WireRequest => {
  const json = JSON.stringify(payload)
  const query = `.r=${base64url(json)}`
  const base = `${baseUrl}${path}`
  const url = `${base}${base.includes("?") ? "&" : "?"}${query}`
  if (fallback !== undefined) {
    const length = fallback.limit.kind === "url" ? url.length : query.length
    if (length > fallback.limit.max) return { method: "POST", url: `${baseUrl}${fallback.path}`, body: json }
  }
  return { method: "GET", url, body: undefined }
}

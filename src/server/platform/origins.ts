/**
 * Origin patterns for OAuth clients: `http://localhost:*` allows any port of a loopback host, anything
 * else is an exact origin. The authorize page ships the same rule to the browser (see pages.ts).
 */

/** The origins a local client may redirect to and post messages to. */
export const LOOPBACK_ORIGINS: ReadonlyArray<string> = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]

/** The origin of `url`, or undefined when it is not an absolute http(s) URL. */
export const originOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url)
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined
  } catch {
    return undefined
  }
}

export const originMatches = (pattern: string, origin: string): boolean => {
  if (!pattern.endsWith(":*")) return pattern === origin
  const base = pattern.slice(0, -2)
  if (origin === base) return true
  if (!origin.startsWith(`${base}:`)) return false
  return /^\d{1,5}$/.test(origin.slice(base.length + 1))
}

/** True when `url` is an absolute http(s) URL whose origin one of `patterns` allows. */
export const urlAllowed = (patterns: ReadonlyArray<string>, url: string): boolean => {
  const origin = originOf(url)
  return origin !== undefined && patterns.some((p) => originMatches(p, origin))
}

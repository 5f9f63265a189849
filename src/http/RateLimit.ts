/**
 * Client-side pacing of API-key calls: a sliding window of at most N calls in any W milliseconds, shared
 * by every call of a site's layer, and a hold on every call while a 429's `Retry-After` runs. The
 * platform limits an app's REST calls to 200 a minute per instance, and answers 429 past that; a batch
 * job that paces itself to the limit never meets the 429s, and one that meets them (another app of the
 * site spent the window) waits them out instead of failing.
 *
 * By default calls to the platform's own hosts are paced at its documented 200 a minute, and calls to
 * any other host (the local platform) are not, unless an answer announces a limit with
 * `X-Sitefx-Rate-Limit: <N>/<W>s` (the local platform's production profile does): then that one.
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DEFAULT_API_URL, DEFAULT_EDGE_URL } from "./hosts.ts"
import { PlatformConfig } from "./PlatformConfig.ts"
import { OPERATION_TIME_LIMIT } from "./PlatformError.ts"
import { PlatformHttp } from "./PlatformHttp.ts"
import type { TransportError } from "./reasons.ts"
import type { Transport, TransportResponse } from "./transport.ts"
import { currentTimeMillis, inputMillis, sleepMillis } from "./time.ts"

/**
 * How an API key's calls are paced: `"none"`, a number of calls a minute, or a number of calls per any
 * window (`{ requests: 20, per: "2 seconds" }`). Left out, the platform's 200 a minute on its own hosts,
 * and elsewhere the limit the answers announce (none when they announce none).
 */
export type RateLimit = "none" | { readonly perMinute: number } | { readonly requests: number; readonly per: Duration.Input }

/** A limit in force: at most `requests` calls in any `windowMillis`. */
export interface Pace {
  readonly requests: number
  readonly windowMillis: number
}

/** The platform's documented limit of an app's REST calls: 200 a minute per instance. */
export const PLATFORM_RATE_LIMIT: Pace = { requests: 200, windowMillis: 60_000 }

/** The header an answer announces its caller's limit with (`5/60s`); the local platform's production profile sends it. */
export const RATE_LIMIT_HEADER = "x-sitefx-rate-limit"

/** A 429 without `Retry-After` holds calls this long. */
const DEFAULT_HOLD_MILLIS = 1000
/** No `Retry-After` holds calls longer than this (a garbled header does not stall a job for a day). */
const MAX_HOLD_MILLIS = 5 * 60_000
/** How many 429 answers in a row one attempt waits out before the wire gets the last one (and its retry policy decides). */
export const MAX_THROTTLED = 10
/** Grant times kept while no limit is known, so a limit adopted later counts the calls already made. */
const UNPACED_HISTORY = 1000

/** The pace a limit stands for (undefined for "none"), or why it is not a limit (a message). */
export const paceOf = (limit: RateLimit): Pace | undefined | string => {
  if (limit === "none") return undefined
  const [requests, windowMillis] = "perMinute" in limit ? [limit.perMinute, 60_000] : [limit.requests, inputMillis(limit.per)]
  if (!Number.isSafeInteger(requests) || requests < 1) return `a rate limit's number of calls must be a whole number of at least 1, not ${String(requests)}`
  if (!(windowMillis > 0) || !Number.isFinite(windowMillis)) return "a rate limit's window must be a positive, finite duration"
  return { requests, windowMillis }
}

/**
 * A limit written as text: `none`, `200` (a minute), or `20/2s` (calls per window: `ms`, `s` or `m`; `s`
 * when left out). The form of `--rate-limit`, `SITEFX_RATE_LIMIT` and the `X-Sitefx-Rate-Limit` header.
 */
export const parseRateLimit = (text: string): RateLimit | undefined => {
  const trimmed = text.trim().toLowerCase()
  if (trimmed === "none") return "none"
  const match = /^(\d+)(?:\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?)?$/.exec(trimmed)
  if (match === null) return undefined
  const requests = Number(match[1])
  if (match[2] === undefined) return { perMinute: requests }
  const amount = Number(match[2])
  const millis = match[3] === "ms" ? amount : match[3] === "m" ? amount * 60_000 : amount * 1000
  return { requests, per: millis }
}

/** What a site's limiter tells of itself: the limit in force, the calls it let through, the 429s it met, until when it holds calls. */
export interface PacingStats {
  readonly limit: Pace | undefined
  readonly calls: number
  readonly throttled: number
  /** Epoch milliseconds until which calls wait for slots or a `Retry-After` (0 when none wait). */
  readonly waitingUntil: number
}

/**
 * A site's pacer: the wire hands it each attempt, which it sends when a slot is free, reading every
 * answer (a limit announced, a 429's `Retry-After`) and sending a 429'd attempt again once the hold is
 * over (the platform did nothing with it, so even a write is safe to resend; the retry policy is not
 * spent on waiting out a limit). It tells a progress line what it is doing.
 */
export interface RateLimiter {
  /** The transport, paced: each exchange waits for its slot, and a 429 is waited out and sent again. */
  readonly pace: (transport: Transport) => Transport
  /** Waits until an attempt to `url` may go (a free slot of the window, no `Retry-After` pending). */
  readonly take: (url: string) => Effect.Effect<void>
  /** Reads an answer: adopts a limit the platform announces; a 429 holds every call until its `Retry-After`. */
  readonly answered: (status: number, headers: Readonly<Record<string, string>>) => Effect.Effect<void>
  readonly stats: () => PacingStats
}

const isPlatformHost = (url: string) => url === DEFAULT_API_URL || url === DEFAULT_EDGE_URL || url.startsWith(`${DEFAULT_API_URL}/`) || url.startsWith(`${DEFAULT_EDGE_URL}/`)

/**
 * A limiter for one site's API-key calls: `limit` when given, else the default of the module comment.
 * Its time is Effect's Clock (a TestClock moves it). A call reserves its slot when it asks, so calls keep
 * their order, and one interrupted while it waits leaves its slot unused.
 */
export const makeRateLimiter = (limit?: Pace | "none"): RateLimiter => {
  const fixed = limit !== undefined
  let limitNow: Pace | undefined = limit === "none" ? undefined : limit
  let adopted = false
  // times of the latest grants (some maybe still ahead), ascending
  let log: Array<number> = []
  let holdUntil = 0
  let calls = 0
  let throttled = 0

  const keep = () => Math.max(limitNow?.requests ?? 0, UNPACED_HISTORY)

  const reserve = (now: number): number => {
    let at = Math.max(now, holdUntil, log.length === 0 ? 0 : log[log.length - 1]!)
    if (limitNow !== undefined && log.length >= limitNow.requests) at = Math.max(at, log[log.length - limitNow.requests]! + limitNow.windowMillis)
    log.push(at)
    if (log.length > 2 * keep()) log = log.slice(-keep())
    return at
  }

  const release = (at: number) => {
    const i = log.lastIndexOf(at)
    if (i >= 0) log.splice(i, 1)
  }

  const take = (url: string): Effect.Effect<void> =>
    Effect.flatMap(currentTimeMillis, (now) => {
      if (!fixed && !adopted && limitNow === undefined && isPlatformHost(url)) limitNow = PLATFORM_RATE_LIMIT
      const at = reserve(now)
      if (at <= now) {
        calls += 1
        return Effect.void
      }
      return sleepMillis(at - now).pipe(
        Effect.andThen(currentTimeMillis),
        // a 429 met while this call waited holds it too: it asks again, after the hold
        Effect.flatMap((woke) => {
          if (woke >= holdUntil) {
            calls += 1
            return Effect.void
          }
          release(at)
          return take(url)
        })
      )
    })

  const answered = (status: number, headers: Readonly<Record<string, string>>): Effect.Effect<void> => {
    const announced = headers[RATE_LIMIT_HEADER]
    const adopt = fixed || announced === undefined ? undefined : parseRateLimit(announced)
    const throttledNow = status === 429
    if (adopt === undefined && !throttledNow) return Effect.void
    return Effect.map(currentTimeMillis, (now) => {
      if (adopt !== undefined && adopt !== "none") {
        const next = paceOf(adopt)
        if (typeof next === "object") {
          limitNow = next
          adopted = true
        }
      }
      if (throttledNow) {
        throttled += 1
        holdUntil = Math.max(holdUntil, now + holdMillis(headers["retry-after"], now))
      }
    })
  }

  const pace: RateLimiter["pace"] = (transport) => (request) => {
    const loop = (throttledInARow: number): Effect.Effect<TransportResponse, TransportError> =>
      take(request.url).pipe(
        Effect.andThen(transport(request)),
        Effect.flatMap((response) => {
          // a data call past its time limit is answered 429 too, but sending it again would not help
          if (response.status === 429 && pastTimeLimit(response.text)) return Effect.succeed(response)
          return answered(response.status, response.headers).pipe(
            Effect.andThen(response.status === 429 && throttledInARow < MAX_THROTTLED ? loop(throttledInARow + 1) : Effect.succeed(response))
          )
        })
      )
    return loop(0)
  }

  return {
    take,
    answered,
    pace,
    stats: () => ({ limit: limitNow, calls, throttled, waitingUntil: Math.max(holdUntil, log.length === 0 ? 0 : log[log.length - 1]!) })
  }
}

/** Whether a 429's body is the data API's refusal of a call past its time limit (its code, `WDE0028`), not a throttle. */
const pastTimeLimit = (text: string): boolean => text.includes(`"${OPERATION_TIME_LIMIT}"`)

/** How long a 429's `Retry-After` (seconds or an HTTP date) holds calls; a second when it has none. */
const holdMillis = (header: string | undefined, now: number): number => {
  if (header === undefined) return DEFAULT_HOLD_MILLIS
  const seconds = Number(header)
  const millis = header.trim() !== "" && Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now
  return Number.isFinite(millis) ? Math.min(MAX_HOLD_MILLIS, Math.max(0, millis)) : DEFAULT_HOLD_MILLIS
}

/**
 * PlatformHttp over a transport, paced by the config's `pacer` when it has one (the wire of
 * `Site.apiKey`): how a wire of one's own keeps an API key's rate limit.
 *
 * @example
 * import { Site } from "sitefx"
 * import { fetchTransport, pacedTransport } from "sitefx/http"
 * const SiteLive = Site.apiKey({ transport: pacedTransport(fetchTransport) })
 */
export const pacedTransport = (transport: Transport): Layer.Layer<PlatformHttp, never, PlatformConfig> =>
  Layer.unwrap(Effect.map(PlatformConfig, (config) => PlatformHttp.layerTransport(config.pacer?.pace(transport) ?? transport)))

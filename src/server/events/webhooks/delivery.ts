/**
 * One webhook delivery: POST the signed body to the receiver, with a timeout per attempt and retries
 * with exponential backoff and jitter while a retry may help (a network error, a timeout, a 5xx, 408 or
 * 429); any other answer below 200 or from 300 up is final. Redirects are not followed: a receiver that
 * moved answers 3xx, and that is a final failure naming where it points.
 */
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/** How the platform retries a webhook delivery: attempts, backoff and the timeout of one attempt. */
export interface DeliveryPolicy {
  /** Attempts per delivery, the first included (default 5). */
  readonly attempts: number
  /** The wait after the first failed attempt; each next wait doubles (default 1 s). */
  readonly retryBaseMillis: number
  /** The longest wait between attempts, also for a receiver's `Retry-After` (default 60 s). */
  readonly retryCapMillis: number
  /** How long one attempt may take, the answer's headers and first bytes included (default 10 s). */
  readonly timeoutMillis: number
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  attempts: 5,
  retryBaseMillis: 1000,
  retryCapMillis: 60_000,
  timeoutMillis: 10_000
}

/** A policy from options a user gave (missing or unusable numbers take the defaults). */
export const deliveryPolicy = (options: Partial<DeliveryPolicy> = {}): DeliveryPolicy => {
  const pick = (value: number | undefined, fallback: number, min: number) =>
    value !== undefined && Number.isFinite(value) && value >= min ? Math.floor(value) : fallback
  return {
    attempts: pick(options.attempts, DEFAULT_DELIVERY_POLICY.attempts, 1),
    retryBaseMillis: pick(options.retryBaseMillis, DEFAULT_DELIVERY_POLICY.retryBaseMillis, 0),
    retryCapMillis: pick(options.retryCapMillis, DEFAULT_DELIVERY_POLICY.retryCapMillis, 0),
    timeoutMillis: pick(options.timeoutMillis, DEFAULT_DELIVERY_POLICY.timeoutMillis, 1)
  }
}

/** What one attempt sends. */
export interface Outgoing {
  readonly url: string
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
}

/** An attempt that did not reach a 2xx answer. */
export class AttemptFailed extends Data.TaggedError("AttemptFailed")<{
  readonly message: string
  /** The receiver's status, when it answered. */
  readonly status?: number
  /** Whether another attempt may succeed. */
  readonly retryable: boolean
  /** The receiver's `Retry-After`, when it sent one. */
  readonly retryAfterMillis?: number
}> {}

/** A delivery that ran out of attempts, or met a final answer. */
export class Undelivered extends Data.TaggedError("Undelivered")<{
  readonly attempts: number
  readonly last: AttemptFailed
}> {}

/** The first characters of an answer, for the dead letter's error; reading stops there. */
const SNIPPET_CHARS = 200

const snippet = async (response: Response): Promise<string> => {
  if (response.body === null) return ""
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ""
  try {
    while (text.length < SNIPPET_CHARS) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return text.slice(0, SNIPPET_CHARS).replace(/\s+/g, " ").trim()
}

/** `Retry-After` as milliseconds: delay seconds or an HTTP date. */
const retryAfter = (value: string | null, now: number): number | undefined => {
  if (value === null) return undefined
  if (/^\d{1,9}$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** The network error's own words (`connect ECONNREFUSED 127.0.0.1:9`), not fetch's wrapper. */
const networkMessage = (cause: unknown): string => {
  const inner = (cause as { readonly cause?: unknown } | undefined)?.cause
  const source = inner instanceof Error ? inner : cause instanceof Error ? cause : undefined
  return source === undefined ? "The receiver could not be reached" : `The receiver could not be reached: ${source.message}`
}

const classify = (status: number, text: string, response: Response): AttemptFailed => {
  const said = text === "" ? "" : `: ${text}`
  if (status >= 300 && status < 400) {
    const location = response.headers.get("location")
    return new AttemptFailed({
      message: `HTTP ${status}, a redirect${location === null ? "" : ` to ${location.slice(0, SNIPPET_CHARS)}`} (not followed)`,
      status,
      retryable: false
    })
  }
  const retryable = status >= 500 || status === 408 || status === 429
  const after = retryAfter(response.headers.get("retry-after"), Date.now())
  return new AttemptFailed({ message: `HTTP ${status}${said}`, status, retryable, ...(after === undefined ? {} : { retryAfterMillis: after }) })
}

/** One POST of `outgoing`: succeeds on a 2xx answer within `timeoutMillis`. */
export const attempt = (outgoing: Outgoing, timeoutMillis: number): Effect.Effect<number, AttemptFailed> =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(outgoing.url, {
        method: "POST",
        body: outgoing.body,
        headers: outgoing.headers,
        redirect: "manual",
        signal
      })
      const text = await snippet(response).catch(() => "")
      return { response, text }
    },
    catch: (cause) => new AttemptFailed({ message: networkMessage(cause), retryable: true })
  }).pipe(
    Effect.timeoutOrElse({
      duration: Duration.millis(timeoutMillis),
      orElse: () => Effect.fail(new AttemptFailed({ message: `No answer within ${timeoutMillis} ms`, retryable: true }))
    }),
    Effect.flatMap(({ response, text }) =>
      response.status >= 200 && response.status < 300
        ? Effect.succeed(response.status)
        : Effect.fail(classify(response.status, text, response))
    )
  )

/**
 * The wait after `failed` attempts: the base doubled per attempt, capped, with jitter (between half and
 * all of it), or the receiver's `Retry-After` when that is longer (still capped).
 */
export const backoffMillis = (policy: DeliveryPolicy, failed: number, retryAfterMillis?: number, random: () => number = Math.random): number => {
  const exponential = Math.min(policy.retryCapMillis, policy.retryBaseMillis * 2 ** Math.min(failed - 1, 30))
  const jittered = Math.round(exponential * (0.5 + random() / 2))
  return Math.min(policy.retryCapMillis, Math.max(jittered, retryAfterMillis ?? 0))
}

/**
 * Delivers with retries: `outgoing(n)` makes attempt n's request (1 for the first; each is signed
 * afresh). Succeeds with the number of attempts made; fails with {@link Undelivered} after a final
 * answer or the last attempt.
 */
export const deliver = (policy: DeliveryPolicy, outgoing: (attempt: number) => Outgoing): Effect.Effect<number, Undelivered> =>
  Effect.gen(function*() {
    for (let n = 1;; n++) {
      const result = yield* Effect.result(attempt(outgoing(n), policy.timeoutMillis))
      if (result._tag === "Success") return n
      const failure = result.failure
      if (!failure.retryable || n >= policy.attempts) return yield* new Undelivered({ attempts: n, last: failure })
      yield* Effect.sleep(Duration.millis(backoffMillis(policy, n, failure.retryAfterMillis)))
    }
  })

/**
 * Slows password guessing without handing anyone a way to lock a member out.
 *
 * - Failures count per email and client address (the TCP peer: a header such as X-Forwarded-For is
 *   anyone's to write). After {@link MAX_FAILURES} wrong passwords from one address within the window,
 *   that address gets 429 with `Retry-After` for that email, its password not even checked (so the
 *   refusal tells a guesser nothing). The member, signing in from their own address, gets in.
 * - Guessing from many addresses is bounded per email: after {@link CAPTCHA_AFTER} failures from any
 *   addresses within the window, logins for the email must carry a valid captcha token (the site's
 *   captcha, `missingCaptchaToken` / `invalidCaptchaToken` as clients already handle). A person can
 *   always solve it; a guessing script cannot, and it is never locked out itself either.
 * - A correct password clears that address's count for the email, not the others'.
 *
 * Kept in memory (a restart forgives everyone, which is fine locally), forgotten with a database reset,
 * and bounded: at most {@link MAX_TRACKED} emails and pairs are followed, the least recently failing
 * dropped first, so a flood of invented emails cannot grow it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "../platform/Database.ts"
import { type Reject, tooManyRequests } from "../platform/responses.ts"
import { ServerClock } from "../platform/ServerClock.ts"

/** Wrong passwords from one address for one email before that address waits. */
export const MAX_FAILURES = 10
/** Wrong passwords for one email, from all addresses, before its logins need a captcha. */
export const CAPTCHA_AFTER = 50
export const WINDOW_SECONDS = 15 * 60
/** Emails and email-address pairs followed at once. */
export const MAX_TRACKED = 10_000

export interface LoginGuard {
  /** The email has failed so often, from so many places, that a login must carry a captcha token. */
  readonly captchaRequired: boolean
}

export interface LoginThrottleShape {
  /** Fails with 429 while this address waits for this email; otherwise says whether a captcha is needed. */
  readonly check: (email: string, address: string) => Effect.Effect<LoginGuard, Reject>
  readonly failed: (email: string, address: string) => void
  readonly succeeded: (email: string, address: string) => void
  /** How many emails and pairs are followed (for tests of the bound). */
  readonly tracked: () => number
}

/** Failure times per key, newest last, the least recently failing key first. */
class Failures {
  private readonly times = new Map<string, Array<number>>()
  private readonly keep: number
  constructor(keep: number) {
    this.keep = keep
  }

  recent(key: string, since: number): Array<number> {
    const all = this.times.get(key)
    if (all === undefined) return []
    const kept = all.filter((at) => at > since)
    if (kept.length === 0) this.times.delete(key)
    else if (kept.length !== all.length) this.times.set(key, kept)
    return kept
  }

  add(key: string, at: number, since: number): void {
    const kept = [...this.recent(key, since), at].slice(-this.keep)
    this.times.delete(key)
    this.times.set(key, kept)
    while (this.times.size > MAX_TRACKED) this.times.delete(this.times.keys().next().value as string)
  }

  delete(key: string): void {
    this.times.delete(key)
  }

  clear(): void {
    this.times.clear()
  }

  get size(): number {
    return this.times.size
  }
}

const normalize = (email: string) => email.trim().toLowerCase()
const pairKey = (email: string, address: string) => `${normalize(email)}\n${address}`

export class LoginThrottle extends Context.Service<LoginThrottle, LoginThrottleShape>()("sitefx/server/LoginThrottle") {
  static readonly layer: Layer.Layer<LoginThrottle, never, ServerClock | Database> = Layer.effect(
    LoginThrottle,
    Effect.gen(function*() {
      const clock = yield* ServerClock
      const db = yield* Database
      const pairs = new Failures(MAX_FAILURES)
      const emails = new Failures(CAPTCHA_AFTER)
      db.onReset(() => {
        pairs.clear()
        emails.clear()
      })
      const since = () => clock.seconds() - WINDOW_SECONDS
      return LoginThrottle.of({
        check: (email, address) => {
          const kept = pairs.recent(pairKey(email, address), since())
          if (kept.length >= MAX_FAILURES) {
            const retryAfter = Math.max(1, (kept[0] ?? 0) + WINDOW_SECONDS - clock.seconds())
            return Effect.fail(
              tooManyRequests("Too many failed logins for this email from this address; try again later", retryAfter, "identity.login.throttle")
            )
          }
          return Effect.succeed({ captchaRequired: emails.recent(normalize(email), since()).length >= CAPTCHA_AFTER })
        },
        failed: (email, address) => {
          const now = clock.seconds()
          pairs.add(pairKey(email, address), now, since())
          emails.add(normalize(email), now, since())
        },
        succeeded: (email, address) => pairs.delete(pairKey(email, address)),
        tracked: () => pairs.size + emails.size
      })
    })
  )
}

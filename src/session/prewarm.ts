/**
 * Session pre-warm for browsers: once a week a hidden iframe loads a login redirect session so the
 * platform's own pages share the visitor's session. Skipped while the last pre-warm is younger than
 * seven days (kept in localStorage under the platform's key).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { checkBody, PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { RedirectSessionResponse } from "./guards/redirects.ts"
import { Paths } from "./protocol.ts"

/** The localStorage key of the last pre-warm's time (the platform's own, so its pages agree). */
export const PREWARM_KEY = "wixRedirectSessionLastPreWarm"
/** How long a pre-warm holds: seven days, in milliseconds. */
export const PREWARM_MAX_AGE_MS = 604_800_000

/** The parts of a browser window a pre-warm uses (its localStorage and document); a test passes its own. */
export interface PrewarmWindow {
  readonly localStorage: Pick<Storage, "getItem" | "setItem" | "removeItem">
  readonly document: {
    createElement(tag: "iframe"): { style: { display: string }; src: string; onload: (() => void) | null }
    readonly body: { appendChild<T>(node: T): T }
  }
}

/** True when a pre-warm happened less than seven days ago. */
export const isPrewarmed = (win: Pick<PrewarmWindow, "localStorage">, now: number): boolean => {
  const last = win.localStorage.getItem(PREWARM_KEY)
  if (last === null) return false
  const at = Number.parseInt(last, 10)
  return Number.isFinite(at) && now - at < PREWARM_MAX_AGE_MS
}

/** Pre-warms unless done within the week (or `force`). Returns whether a pre-warm ran. */
export const prewarm = (options: { readonly window?: PrewarmWindow; readonly force?: boolean } = {}): Effect.Effect<
  boolean,
  PlatformError,
  PlatformClient
> =>
  Effect.gen(function*() {
    const win = options.window ?? (globalThis as unknown as PrewarmWindow)
    const now = yield* Clock.currentTimeMillis
    if (options.force !== true && isPrewarmed(win, now)) return false
    win.localStorage.removeItem(PREWARM_KEY)
    const client = yield* PlatformClient
    const req = { method: "POST" as const, path: Paths.redirectSession, host: "api" as const, payload: { login: {} } }
    const res = yield* client.request(req).pipe(Effect.flatMap((r) => checkBody(req, r, RedirectSessionResponse)))
    yield* Effect.callback<void>((resume) => {
      const frame = win.document.createElement("iframe")
      frame.style.display = "none"
      frame.src = res.redirectSession.fullUrl
      frame.onload = () => resume(Effect.void)
      win.document.body.appendChild(frame)
    })
    win.localStorage.setItem(PREWARM_KEY, String(yield* Clock.currentTimeMillis))
    return true
  })

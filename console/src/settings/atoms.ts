/**
 * The settings panel's atoms: the site's switches and the production profile, and a change to some of
 * them, shown at once (the switch moves when clicked) and put back if the platform refuses it.
 */
import * as Effect from "effect/Effect"
import { AsyncResult, Atom } from "effect/reactivity"
import { Profile, Settings } from "sitefx/dev"
import { runtime } from "../runtime.ts"
import type { Outcome } from "../shell/Result.tsx"

/** A change of some settings, and a sentence saying what it changes. */
export interface Change {
  readonly patch: Settings.SiteSettingsPatch
  readonly said: string
}

export const settingsAtom = Atom.optimistic(runtime.atom(Settings.get))

/** Changes the settings named; the panel shows them changed while the platform takes the change. */
export const changeSettings = Atom.optimisticFn(settingsAtom, {
  reducer: (current, change: Change) => AsyncResult.map(current, (s) => ({ ...s, ...change.patch })),
  fn: runtime.fn((change: Change) => Effect.as(Settings.update(change.patch), { message: change.said } satisfies Outcome))
})

/** A change of the production profile, and a sentence saying what it changes. */
export interface ProfileChange {
  readonly patch: Profile.ProfilePatch
  readonly said: string
}

export const profileAtom = Atom.optimistic(runtime.atom(Profile.get))

/** Changes the profile; the panel shows it changed while the platform takes the change, and puts it back if refused. */
export const changeProfile = Atom.optimisticFn(profileAtom, {
  reducer: (current, change: ProfileChange) => AsyncResult.map(current, (p) => ({ ...p, ...change.patch })),
  fn: runtime.fn((change: ProfileChange) => Effect.as(Profile.set(change.patch), { message: change.said } satisfies Outcome))
})

const counted = new Intl.NumberFormat("en-US")

/** A count with its thousands grouped: "2,500,000". */
export const count = (n: number): string => counted.format(n)

/** A window in words: "60 seconds", "1 second", "0.5 seconds". */
export const describeWindow = (seconds: number): string => `${count(seconds)} second${seconds === 1 ? "" : "s"}`

/** The rate limit in words: "200 calls every 60 seconds". */
export const describeLimit = (p: Pick<Profile.ProfileState, "rateLimit" | "rateLimitWindowSeconds">): string =>
  `${count(p.rateLimit)} call${p.rateLimit === 1 ? "" : "s"} every ${describeWindow(p.rateLimitWindowSeconds)}`

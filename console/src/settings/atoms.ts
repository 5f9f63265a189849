/**
 * The settings panel's atoms: the site's switches, and a change to some of them, shown at once (the
 * switch moves when clicked) and put back if the platform refuses it.
 */
import * as Effect from "effect/Effect"
import { AsyncResult, Atom } from "effect/reactivity"
import { Settings } from "sitefx/dev"
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

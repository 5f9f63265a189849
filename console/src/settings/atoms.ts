/** The settings panel's atoms: the site's switches, and a change to some of them. */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import { Settings } from "sitefx/dev"
import { runtime } from "../runtime.ts"
import type { Outcome } from "../shell/Result.tsx"

const KEYS = ["settings"]

export const settingsAtom = runtime.atom(Settings.get).pipe(Atom.withReactivity(KEYS))

/** Changes the settings named, with a sentence saying what changed. */
export const changeSettings = runtime.fn(
  (change: { readonly patch: Settings.SiteSettingsPatch; readonly said: string }) =>
    Effect.as(Settings.update(change.patch), { message: change.said } satisfies Outcome),
  { reactivityKeys: KEYS }
)

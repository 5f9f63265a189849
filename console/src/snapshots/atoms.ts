/** The snapshots panel's atoms: the saved snapshots, and saving, restoring and deleting one. */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import { Snapshots } from "sitefx/dev"
import type { PlatformHttp } from "sitefx/http"
import { runtime } from "../runtime.ts"
import type { Outcome } from "../shell/Result.tsx"

const KEYS = ["snapshots"]

export const snapshotsAtom = runtime.atom(Snapshots.list).pipe(Atom.withReactivity(KEYS))

/** A name already taken, said as what to do about it. */
class NameTaken extends Error {}

export type SnapshotAction =
  | { readonly kind: "save"; readonly name: string; readonly overwrite: boolean }
  | { readonly kind: "restore" | "delete"; readonly name: string }

export const snapshotAction = runtime.fn((action: SnapshotAction): Effect.Effect<Outcome, unknown, PlatformHttp> => {
  switch (action.kind) {
    case "save":
      return Snapshots.save(action.name, { overwrite: action.overwrite }).pipe(
        Effect.map((s): Outcome => ({ message: `Saved ${s.name} (${s.counts.members} members, ${s.counts.items} items).` })),
        Effect.mapError((e) => e.status === 409 ? new NameTaken(`A snapshot is named ${action.name} already: tick "Replace it" to save over it.`) : e)
      )
    case "restore":
      return Effect.map(Snapshots.restore(action.name), (r): Outcome => ({ message: `Restored ${r.snapshot.name} in ${Math.round(r.tookMs)} ms.` }))
    case "delete":
      return Effect.as(Snapshots.remove(action.name), { message: `Deleted ${action.name}.` })
  }
}, { reactivityKeys: KEYS })

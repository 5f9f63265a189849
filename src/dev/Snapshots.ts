/**
 * Snapshots of the local platform's state (members, data, store, events), saved by name and restored
 * later: a test starts from a known state, a demo goes back to where it was. The file of a snapshot can
 * be downloaded (`filePath`) and kept elsewhere.
 *
 * @example
 * import { Snapshots } from "sitefx/dev"
 * yield* Snapshots.save("before-import")
 * // ... an import goes wrong
 * yield* Snapshots.restore("before-import")
 */
import * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { DEV_PREFIX, devSend, devCall, segment } from "./call.ts"
import { RestoreSnapshotResponse, SnapshotResponse, SnapshotsResponse } from "./guards/platform.ts"
import type { Snapshot } from "./wire/platform.ts"

export type { Snapshot }

const PATH = `${DEV_PREFIX}/snapshots`
const named = (name: string, rest = "") => `${PATH}/${segment(name)}${rest}`

/** The saved snapshots. */
export const list: Effect.Effect<ReadonlyArray<Snapshot>, PlatformError, PlatformHttp> = Effect.map(
  devCall({ method: "GET", path: PATH }, SnapshotsResponse),
  (r) => r.snapshots
)

/** Saves the platform's state under `name`; a name already taken is a 409 unless `overwrite` is set. */
export const save = (name: string, options: { readonly overwrite?: boolean | undefined } = {}): Effect.Effect<Snapshot, PlatformError, PlatformHttp> =>
  Effect.map(
    devCall({ method: "POST", path: PATH, payload: { name, ...(options.overwrite === undefined ? {} : { overwrite: options.overwrite }) } }, SnapshotResponse),
    (r) => r.snapshot
  )

/** Puts the platform back in the state the snapshot holds; the snapshot, and how long the restore took. */
export const restore = (name: string): Effect.Effect<{ readonly snapshot: Snapshot; readonly tookMs: number }, PlatformError, PlatformHttp> =>
  devCall({ method: "POST", path: named(name, "/restore") }, RestoreSnapshotResponse)

/** Deletes a snapshot. */
export const remove = (name: string): Effect.Effect<void, PlatformError, PlatformHttp> => devSend({ method: "DELETE", path: named(name) })

/** The path (on the platform) of a snapshot's file, for a download link or a fetch of its bytes. */
export const filePath = (name: string): string => named(name, "/file")

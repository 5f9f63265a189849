/**
 * `sitefx data backups [create|restore|delete]`: the site's data backups (sitefx/data/backups). `create`
 * waits until the backup is READY (`--no-wait` returns at once); `restore` puts back every collection,
 * or those named with `--collection` (`C` or `C:DESTINATION`), asks first as a removal does (`--yes`
 * when not on a terminal), and waits until it has ended, exiting 1 when it failed (nothing was changed
 * then); `delete` frees a backup's space.
 */
import * as Effect from "effect/Effect"
import * as Backups from "../../data/Backups.ts"
import type { DataFailure } from "../../data/calls.ts"
import { failed, type OutputMode, printResult, usage } from "../output.ts"
import { confirm } from "./admin.ts"

const describeBackup = (b: Backups.Backup) =>
  `${b.id}  ${b.status.padEnd(8)} ${b.requestedDate ?? ""}  ${b.sizeInBytes === undefined || b.sizeInBytes === null ? "" : `${(Number(b.sizeInBytes) / 1e6).toFixed(1)} MB  `}${(b.collections ?? []).length} collections`

/** A backup id the platform does not know: a usage error saying where the ids are. */
const knownBackup = <A, R>(id: string, effect: Effect.Effect<A, DataFailure, R>) =>
  effect.pipe(Effect.catchIf(
    (e: DataFailure) => e._tag === "DataError" && e.code === "NOT_FOUND",
    () => Effect.fail(usage(`there is no backup ${JSON.stringify(id)}; \`sitefx data backups\` lists them`))
  ))

export const runBackupsList = (options: { readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const page = yield* Backups.list({ limit: Backups.MAX_PAGE })
    yield* printResult(options.mode, { backups: page.items }, page.items.length === 0 ? "no backups" : page.items.map(describeBackup).join("\n"))
  })

export const runBackupsCreate = (options: { readonly wait: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const asked = yield* Backups.create
    if (!options.wait) return yield* printResult(options.mode, { backup: asked }, `asked for backup ${asked.id}: ${asked.status}`)
    const backup = yield* Backups.awaitReady(asked.id).pipe(
      Effect.catchIf((e: DataFailure) => e._tag === "DataError" && e.code.startsWith("BACKUP_"), (e) => Effect.fail(failed(`backup ${asked.id} was not taken: ${e.message}`)))
    )
    const size = backup.sizeInBytes === undefined || backup.sizeInBytes === null ? "" : `${(Number(backup.sizeInBytes) / 1e6).toFixed(1)} MB, `
    yield* printResult(options.mode, { backup }, `backup ${backup.id} is READY: ${size}${(backup.collections ?? []).length} collections`)
  })

/** `C` or `C:DESTINATION`. */
const restorationCollection = (spec: string): Effect.Effect<Backups.RestorationCollection, ReturnType<typeof usage>> => {
  const [from, to, ...rest] = spec.split(":")
  if (from === undefined || from === "" || to === "" || rest.length > 0) return Effect.fail(usage(`--collection takes COLLECTION or COLLECTION:DESTINATION, not ${JSON.stringify(spec)}`))
  return Effect.succeed(to === undefined ? { dataCollectionId: from } : { dataCollectionId: from, restoreDestination: { dataCollectionId: to } })
}

export const runBackupsRestore = (options: { readonly id: string; readonly collections: ReadonlyArray<string>; readonly yes: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const named = yield* Effect.forEach(options.collections, restorationCollection)
    const what = named.length === 0
      ? "every collection"
      : named.map((c) => (c.restoreDestination?.dataCollectionId === undefined ? c.dataCollectionId : `${c.dataCollectionId} into ${c.restoreDestination.dataCollectionId}`)).join(", ")
    yield* confirm(options.yes, `replace the items of ${what} with those of backup ${options.id}`)
    const asked = yield* knownBackup(options.id, named.length === 0 ? Backups.restore(options.id) : Backups.restorePartial(options.id, named))
    const done = yield* Backups.awaitRestored(asked.id).pipe(
      Effect.catchIf((e: DataFailure) => e._tag === "DataError" && e.code === "RESTORATION_FAILED", () =>
        Effect.fail(failed(`the restoration from backup ${options.id} failed; nothing was changed`)))
    )
    yield* printResult(options.mode, { restoration: done }, `restored ${what} from backup ${options.id}`)
  })

export const runBackupsDelete = (options: { readonly id: string; readonly yes: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    yield* confirm(options.yes, `delete backup ${options.id}`)
    yield* knownBackup(options.id, Backups.remove(options.id))
    yield* printResult(options.mode, { deleted: options.id }, `deleted backup ${options.id}`)
  })

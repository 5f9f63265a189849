/**
 * sitefx/data/backups: backups of a site's data, with an API key. A backup holds every collection's
 * items as they were when it was taken; restoring it puts them back (ids, dates and references), all of
 * them or the collections named, into themselves or into other collections. The platform works in the
 * background: `create` and the restores answer PENDING, `awaitReady` and `awaitRestored` wait for the
 * end, and `watch` follows a backup's state as a Stream.
 *
 * @example
 * import * as Backups from "sitefx/data/backups"
 *
 * const backup = yield* Backups.create.pipe(Effect.flatMap((b) => Backups.awaitReady(b.id)))
 * // ... a migration goes wrong ...
 * const restoration = yield* Backups.restorePartial(backup.id, [{ dataCollectionId: "Posts" }])
 * yield* Backups.awaitRestored(restoration.id)
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { unlessInvalid } from "../http/checks.ts"
import * as G from "../http/guard.ts"
import { offsetPaging } from "../http/paging.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { call, checkOffset, checkPageLimit, type DataFailure } from "./calls.ts"
import { badAnswer, type DataError, invalid, WDE } from "./DataError.ts"
import { withClient } from "./withClient.ts"
import { BackupResponse, ListBackupsResponse, ListRestorationsResponse, RestorationResponse } from "./guards/backups.ts"
import { BACKUP_STATUSES, BACKUP_TYPES, DataPaths, RESTORATION_STATUSES } from "./protocol.ts"
import type * as W from "./wire/index.ts"

export { BACKUP_STATUSES, BACKUP_TYPES, RESTORATION_STATUSES }

/** A backup: its status (PENDING, READY, FAILED, DELETED, CANCELED), its dates, size and collections. */
export type Backup = W.Backup
/** A restoration: the backup it restores, its status (PENDING, COMPLETED, FAILED), the collections it names. */
export type Restoration = W.Restoration
/** A collection to restore, into itself or into `restoreDestination.dataCollectionId`. */
export type RestorationCollection = W.RestorationCollection
/** PENDING (being taken), READY, FAILED, DELETED or CANCELED. */
export type BackupStatus = Backup["status"]
/** PENDING (waiting or running), COMPLETED or FAILED. */
export type RestorationStatus = Restoration["status"]

/** The most backups or restorations a page lists. */
export const MAX_PAGE = 100

/** One page of backups or restorations: the items, the total when the platform counts it, whether more follow. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number | undefined
  readonly hasNext: boolean
}

const checkId = (id: unknown): DataError | undefined =>
  typeof id === "string" && id.trim() !== "" ? undefined : invalid(WDE.emptyString, "A backup id must be a non-empty string.", "backupId")

/** Asks for a backup of every collection; the platform answers it PENDING and takes it in the background. */
export const create: Effect.Effect<Backup, DataFailure, PlatformClient> = withClient((client) =>
  Effect.map(call(client, undefined, { method: "POST", path: DataPaths.backups, payload: {} }, BackupResponse), (r) => r.backup)
)

/** One page of a list the platform pages by offset: backups or restorations. */
const pageOfList = <K extends "backups" | "restorations", A>(
  path: string,
  key: K,
  filters: Record<string, unknown>,
  options: { readonly limit?: number; readonly offset?: number },
  guard: G.Guard<{ readonly [k in K]: ReadonlyArray<A> } & { readonly pagingMetadata?: W.PagingMetadata | undefined }>
): Effect.Effect<Page<A>, DataFailure, PlatformClient> => {
  const offset = options.offset ?? 0
  return unlessInvalid(checkPageLimit(options.limit, MAX_PAGE) ?? checkOffset(options.offset), () =>
    withClient((client) =>
      // only the paging given: the platform pages by 50 otherwise
      call(client, undefined, { method: "GET", path, payload: { ...filters, ...offsetPaging(options) }, idempotent: true }, guard).pipe(
        Effect.map((r) => {
          const items = r[key]
          return { items, total: r.pagingMetadata?.total ?? undefined, hasNext: r.pagingMetadata?.hasNext ?? offset + items.length < (r.pagingMetadata?.total ?? 0) }
        })
      )
    ))
}

/** One page of backups, newest first; `status` and `type` keep only those. */
export const list = (
  options: { readonly status?: ReadonlyArray<BackupStatus>; readonly type?: ReadonlyArray<Backup["type"]>; readonly limit?: number; readonly offset?: number } = {}
): Effect.Effect<Page<Backup>, DataFailure, PlatformClient> =>
  pageOfList(DataPaths.backups, "backups", {
    ...(options.status === undefined ? {} : { status: options.status }),
    ...(options.type === undefined ? {} : { type: options.type })
  }, options, ListBackupsResponse)

/** Every item of a paged list, page after page. */
const allOf = <A>(page: (offset: number) => Effect.Effect<Page<A>, DataFailure, PlatformClient>): Stream.Stream<A, DataFailure, PlatformClient> =>
  Stream.paginate(0, (offset: number) =>
    Effect.map(page(offset), (p) => [p.items, p.hasNext && p.items.length > 0 ? Option.some(offset + p.items.length) : Option.none()] as const))

/** Every backup (of these statuses), page after page. */
export const stream = (options: { readonly status?: ReadonlyArray<BackupStatus> } = {}): Stream.Stream<Backup, DataFailure, PlatformClient> =>
  allOf((offset) => list({ ...options, limit: MAX_PAGE, offset }))

/** The backup with this id, none when there is no such backup. */
export const get = (id: string): Effect.Effect<Option.Option<Backup>, DataFailure, PlatformClient> =>
  unlessInvalid(checkId(id), () => stream().pipe(Stream.filter((b) => b.id === id), Stream.runHead))

/** Restores every collection of a READY backup as it holds them; answered PENDING. */
export const restore = (id: string): Effect.Effect<Restoration, DataFailure, PlatformClient> =>
  unlessInvalid(checkId(id), () =>
    withClient((client) =>
      Effect.map(call(client, undefined, { method: "POST", path: DataPaths.restoreBackup(id), payload: { backupId: id } }, RestorationResponse), (r) => r.restoration)
    ))

/** Restores only these collections of a READY backup, each into itself or into its `restoreDestination`; answered PENDING. */
export const restorePartial = (id: string, collections: ReadonlyArray<RestorationCollection>): Effect.Effect<Restoration, DataFailure, PlatformClient> =>
  unlessInvalid(
    checkId(id) ?? (collections.length > 0 ? undefined : invalid(WDE.arityAtLeastOne, "A partial restoration names at least one collection.", "restorationCollections")),
    () =>
      withClient((client) =>
        Effect.map(
          call(client, undefined, { method: "POST", path: DataPaths.restorePartialBackup(id), payload: { backupId: id, restorationCollections: collections } }, RestorationResponse),
          (r) => r.restoration
        )
      )
  )

/** One page of restorations, newest first. */
export const restorations = (
  options: { readonly status?: ReadonlyArray<RestorationStatus>; readonly limit?: number; readonly offset?: number } = {}
): Effect.Effect<Page<Restoration>, DataFailure, PlatformClient> =>
  pageOfList(DataPaths.restorations, "restorations", options.status === undefined ? {} : { status: options.status }, options, ListRestorationsResponse)

/** Deletes a backup and frees its space; it stays listed as DELETED. */
export const remove = (id: string): Effect.Effect<void, DataFailure, PlatformClient> =>
  unlessInvalid(checkId(id), () =>
    withClient((client) =>
      // the platform answers a delete with an empty object
      Effect.asVoid(call(client, undefined, { method: "DELETE", path: DataPaths.backup(id), payload: { backupId: id } }, G.object))
    ))

interface Wait {
  /** How long to wait in all (default 10 minutes). */
  readonly timeout?: Duration.Input
  /** The first pause between two looks (default 100 ms); the pauses grow up to 5 s. */
  readonly interval?: Duration.Input
}

/** Looks at `look` until `done` says it has ended; fails with `code` after the timeout. */
const waitFor = <A>(look: Effect.Effect<A, DataFailure, PlatformClient>, ended: (a: A) => boolean, options: Wait, late: (after: string) => DataError) => {
  const timeout = Duration.fromInputUnsafe(options.timeout ?? "10 minutes")
  const again = Schedule.min([Schedule.exponential(options.interval ?? "100 millis", 1.5), Schedule.spaced("5 seconds")])
  return look.pipe(
    Effect.repeat({ schedule: again, until: ended }),
    Effect.timeoutOrElse({ duration: timeout, orElse: () => Effect.fail(late(Duration.format(timeout))) })
  )
}

const found = (id: string) => (o: Option.Option<Backup>): Effect.Effect<Backup, DataFailure> =>
  Option.isSome(o) ? Effect.succeed(o.value) : Effect.fail(badAnswer("NOT_FOUND", `There is no backup ${id}.`, undefined))

/**
 * Waits until the backup is READY and gives it; fails with a DataError when it ends otherwise (its
 * status as the code: `BACKUP_FAILED`, ...), when there is no such backup (`NOT_FOUND`), or after the
 * timeout (`BACKUP_NOT_READY`).
 */
export const awaitReady = (id: string, options: Wait = {}): Effect.Effect<Backup, DataFailure, PlatformClient> =>
  waitFor(Effect.flatMap(get(id), found(id)), (b) => b.status !== "PENDING", options, (after) => badAnswer("BACKUP_NOT_READY", `The backup ${id} is not ready after ${after}.`, undefined)).pipe(
    Effect.flatMap((b) => (b.status === "READY" ? Effect.succeed(b) : Effect.fail(badAnswer(`BACKUP_${b.status}`, `The backup ${id} ended ${b.status}.`, undefined))))
  )

const restorationById = (id: string) =>
  allOf((offset) => restorations({ limit: MAX_PAGE, offset })).pipe(
    Stream.filter((r) => r.id === id),
    Stream.runHead,
    Effect.flatMap((o) => (Option.isSome(o) ? Effect.succeed(o.value) : Effect.fail(badAnswer("NOT_FOUND", `There is no restoration ${id}.`, undefined))))
  )

/**
 * Waits until the restoration is COMPLETED and gives it; fails with a DataError `RESTORATION_FAILED`
 * when it failed (nothing was changed then), `NOT_FOUND`, or `RESTORATION_NOT_DONE` after the timeout.
 */
export const awaitRestored = (id: string, options: Wait = {}): Effect.Effect<Restoration, DataFailure, PlatformClient> =>
  waitFor(restorationById(id), (r) => r.status !== "PENDING", options, (after) => badAnswer("RESTORATION_NOT_DONE", `The restoration ${id} has not ended after ${after}.`, undefined)).pipe(
    Effect.flatMap((r) => (r.status === "COMPLETED" ? Effect.succeed(r) : Effect.fail(badAnswer("RESTORATION_FAILED", `The restoration ${id} failed; nothing was changed.`, undefined))))
  )

/**
 * The backup's states as they change, the first as it is now, ending with a final one (READY, FAILED,
 * DELETED or CANCELED): a progress line, a UI that follows a backup. Looks every `interval` (default 500 ms).
 */
export const watch = (id: string, options: { readonly interval?: Duration.Input } = {}): Stream.Stream<Backup, DataFailure, PlatformClient> =>
  Stream.paginate(true, (first: boolean) =>
    Effect.gen(function*() {
      if (!first) yield* Effect.sleep(options.interval ?? "500 millis")
      const backup = yield* Effect.flatMap(get(id), found(id))
      return [[backup], backup.status === "PENDING" ? Option.some(false) : Option.none()] as const
    })).pipe(Stream.changesWith((a, b) => a.status === b.status && a.startedDate === b.startedDate && a.finishedDate === b.finishedDate))

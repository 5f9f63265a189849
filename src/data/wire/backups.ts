/** Backups of a site's data (`/wix-data/v2/backups`): taking, listing, restoring and deleting them. */
import * as Schema from "effect/Schema"
import { BACKUP_STATUSES, BACKUP_TYPES, RESTORATION_STATUSES } from "../protocol.ts"
import { Paging, PagingMetadata } from "./common.ts"

/** Where a backup stands: PENDING, READY, FAILED, DELETED or CANCELED. */
export const BackupStatus = Schema.Literals(BACKUP_STATUSES)
/** ON_DEMAND (asked for) or AUTO (the platform's schedule). */
export const BackupType = Schema.Literals(BACKUP_TYPES)
/** Where a restoration stands: PENDING, COMPLETED or FAILED. */
export const RestorationStatus = Schema.Literals(RESTORATION_STATUSES)

const Time = Schema.optionalKey(Schema.NullOr(Schema.String))

/** A backup: its state, when it was asked for, taken and deleted, its size, and the collections it holds. */
export const Backup = Schema.Struct({
  id: Schema.String,
  status: BackupStatus,
  type: BackupType,
  requestedDate: Time,
  startedDate: Time,
  finishedDate: Time,
  deletedDate: Time,
  /** Bytes, as a decimal string (an int64 on the wire). */
  sizeInBytes: Schema.optionalKey(Schema.NullOr(Schema.String)),
  collections: Schema.optionalKey(Schema.Array(Schema.Struct({ id: Schema.String, displayName: Schema.optionalKey(Schema.NullOr(Schema.String)) })))
})
export type Backup = typeof Backup.Type

/** A collection to restore, and where to (by default into itself). */
export const RestorationCollection = Schema.Struct({
  dataCollectionId: Schema.String,
  restoreDestination: Schema.optionalKey(Schema.Struct({
    dataCollectionId: Schema.optionalKey(Schema.String),
    displayName: Schema.optionalKey(Schema.NullOr(Schema.String))
  }))
})
export type RestorationCollection = typeof RestorationCollection.Type

/** A restoration from a backup: the backup, its state, and the collections it restores (all of them when none are named). */
export const Restoration = Schema.Struct({
  id: Schema.String,
  backup: Backup,
  status: RestorationStatus,
  requestedDate: Time,
  startedDate: Time,
  finishedDate: Time,
  restorationCollections: Schema.optionalKey(Schema.Array(RestorationCollection))
})
export type Restoration = typeof Restoration.Type

/** `POST /backups` takes an empty object; the answer is the backup, PENDING. */
export const CreateBackupRequest = Schema.Struct({})
/** The answer of `POST /backups`: the backup asked for. */
export const BackupResponse = Schema.Struct({ backup: Backup })
/** `GET /backups?status=&type=&paging.limit=&paging.offset=`: status and type repeat for several. */
export const ListBackupsRequest = Schema.Struct({
  status: Schema.optionalKey(Schema.Array(BackupStatus)),
  type: Schema.optionalKey(Schema.Array(BackupType)),
  paging: Schema.optionalKey(Paging)
})
/** The answer of `GET /backups`: a page of backups, newest first. */
export const ListBackupsResponse = Schema.Struct({ backups: Schema.Array(Backup), pagingMetadata: Schema.optionalKey(PagingMetadata) })
/** `POST /backups/{backupId}/restore`. */
export const RestoreBackupRequest = Schema.Struct({ backupId: Schema.optionalKey(Schema.String) })
/** `POST /backups/{backupId}/partial-restore`. */
export const RestorePartialBackupRequest = Schema.Struct({
  backupId: Schema.optionalKey(Schema.String),
  restorationCollections: Schema.optionalKey(Schema.Array(RestorationCollection))
})
/** The answer of a restore or partial restore: the restoration asked for. */
export const RestorationResponse = Schema.Struct({ restoration: Restoration })
/** `GET /backups/restorations?status=&paging.limit=&paging.offset=`. */
export const ListRestorationsRequest = Schema.Struct({
  status: Schema.optionalKey(Schema.Array(RestorationStatus)),
  paging: Schema.optionalKey(Paging)
})
/** The answer of `GET /backups/restorations`: a page of restorations, newest first. */
export const ListRestorationsResponse = Schema.Struct({ restorations: Schema.Array(Restoration), pagingMetadata: Schema.optionalKey(PagingMetadata) })

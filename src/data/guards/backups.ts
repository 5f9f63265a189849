/** Guards of the answers about a site's data backups and their restorations. */
import * as G from "../../http/guard.ts"
import { BACKUP_STATUSES, BACKUP_TYPES, RESTORATION_STATUSES } from "../protocol.ts"
import { paging } from "./common.ts"

const opt = G.optional
const time = opt(G.nullOr(G.string))

export const Backup = G.struct({
  id: G.string,
  status: G.literals(BACKUP_STATUSES),
  type: G.literals(BACKUP_TYPES),
  requestedDate: time,
  startedDate: time,
  finishedDate: time,
  deletedDate: time,
  sizeInBytes: opt(G.nullOr(G.string)),
  collections: opt(G.array(G.struct({ id: G.string, displayName: opt(G.nullOr(G.string)) })))
})
export const RestorationCollection = G.struct({
  dataCollectionId: G.string,
  restoreDestination: opt(G.struct({ dataCollectionId: opt(G.string), displayName: opt(G.nullOr(G.string)) }))
})
export const Restoration = G.struct({
  id: G.string,
  backup: Backup,
  status: G.literals(RESTORATION_STATUSES),
  requestedDate: time,
  startedDate: time,
  finishedDate: time,
  restorationCollections: opt(G.array(RestorationCollection))
})
export const BackupResponse = G.struct({ backup: Backup })
export const ListBackupsResponse = G.struct({ backups: G.array(Backup), pagingMetadata: paging })
export const RestorationResponse = G.struct({ restoration: Restoration })
export const ListRestorationsResponse = G.struct({ restorations: G.array(Restoration), pagingMetadata: paging })

/**
 * The data engine's administration into the site's event log: an index created, built (or failed) and
 * dropped (`wix.data.v2.index_created`, `_updated`, `_deleted`, the index as the entity), and every state
 * a backup or a restoration goes through (`wix.data.v2.backup_backup_state_changed`,
 * `wix.data.v2.backup_restoration_state_changed`, action events whose body holds it as it is now), each
 * logged in the transaction that made the change.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DataAdminEventTypes } from "../../events/protocol.ts"
import { domainEventLog } from "../store/domainLog.ts"
import { SiteEvents } from "../store/SiteEvents.ts"
import { Backups } from "./Backups.ts"
import { publicId } from "./environments.ts"
import { Indexes } from "./Indexes.ts"

const CODEC = "data-admin/1"

const INDEX_EVENT = { created: DataAdminEventTypes.indexCreated, updated: DataAdminEventTypes.indexUpdated, deleted: DataAdminEventTypes.indexDeleted } as const

export const DataAdminEvents: Layer.Layer<never, never, SiteEvents | Indexes | Backups> = Layer.effectDiscard(Effect.gen(function*() {
  const record = domainEventLog(yield* SiteEvents, CODEC)
  const indexes = yield* Indexes
  const backups = yield* Backups

  indexes.onChange((change) => {
    const entity = { ...change.index, dataCollectionId: publicId(change.collectionId) } as Record<string, unknown>
    const id = change.index.id ?? `${change.collectionId}:${change.index.name}`
    record([{
      _tag: "Domain",
      type: INDEX_EVENT[change.kind],
      entityFqdn: "wix.data.v2.index",
      entityId: id,
      change: change.kind === "updated" ? { kind: "updated", entity, modifiedFields: ["status"] } : { kind: change.kind, entity },
      actor: change.actor
    }])
  })

  backups.onChange((change) => {
    record([
      change._tag === "Backup"
        ? {
          _tag: "Domain",
          type: DataAdminEventTypes.backupStateChanged,
          entityFqdn: "wix.data.v2.backup",
          entityId: change.backup.id,
          change: { kind: "action", body: { backup: change.backup } },
          actor: change.actor
        }
        : {
          _tag: "Domain",
          type: DataAdminEventTypes.restorationStateChanged,
          entityFqdn: "wix.data.v2.backup",
          entityId: change.restoration.id,
          change: { kind: "action", body: { restoration: change.restoration } },
          actor: change.actor
        }
    ])
  })
}))

/**
 * The local platform's data engine: collections, items, queries, aggregations, references, bulk
 * writes, async jobs and indexes on node:sqlite, speaking `/wix-data/v2/*`, and data movement jobs
 * (`/data-mover/v1/*`) and what a caller may do (`/wix-data/v1/permissions`), with its dev endpoints
 * (`/_sitefx/data/*`).
 */
import * as Layer from "effect/Layer"
import type { PlatformModule } from "../platform/PlatformModule.ts"
import type { Database } from "../platform/Database.ts"
import type { SiteEvents } from "../store/SiteEvents.ts"
import type { MemberStore } from "../accounts/MemberStore.ts"
import type { Seeder } from "../accounts/seed.ts"
import type { ServerClock } from "../platform/ServerClock.ts"
import type { Profile } from "../platform/Profile.ts"
import type { SiteRegistry } from "../platform/SiteRegistry.ts"
import { Aggregations } from "./Aggregations.ts"
import { AsyncJobs } from "./AsyncJobs.ts"
import { backupRoutes } from "./backupRoutes.ts"
import { Backups } from "./Backups.ts"
import { bulkRoutes } from "./bulkRoutes.ts"
import { collectionRoutes } from "./collectionRoutes.ts"
import { DataAdminEvents } from "./DataAdminEvents.ts"
import { DataCollections } from "./DataCollections.ts"
import { DataEvents } from "./DataEvents.ts"
import { DataHooks } from "./DataHooks.ts"
import { DataSettings } from "./DataSettings.ts"
import { dataDevRoutes } from "./dataDevRoutes.ts"
import { Indexes } from "./Indexes.ts"
import { itemRoutes } from "./itemRoutes.ts"
import { ItemStore } from "./ItemStore.ts"
import { movementRoutes } from "./movement/movementRoutes.ts"
import { MovementJobs } from "./movement/MovementJobs.ts"
import { permissionRoutes } from "./permissionRoutes.ts"
import { Reads } from "./Reads.ts"
import { referenceRoutes } from "./referenceRoutes.ts"
import { References } from "./References.ts"
import { Sandboxes } from "./Sandboxes.ts"
import { Scans } from "./Scans.ts"
import { dataSeed } from "./seed.ts"
import { ItemWrites } from "./Writes.ts"

type DataServices =
  | DataCollections
  | ItemStore
  | References
  | Indexes
  | DataHooks
  | DataEvents
  | Scans
  | DataSettings
  | ItemWrites
  | Reads
  | Aggregations
  | AsyncJobs
  | Sandboxes
  | Backups
  | MovementJobs

/** The platform options the data module reads. */
export interface DataModuleOptions {
  /** Data request bodies above this size get 413 (default 5 MB). */
  readonly dataMaxPayloadBytes?: number | undefined
}

export const module = {
  name: "data",
  layer: (options: DataModuleOptions) => dataLayer(options.dataMaxPayloadBytes),
  routes: Layer.mergeAll(itemRoutes, bulkRoutes, referenceRoutes, collectionRoutes, backupRoutes, movementRoutes, permissionRoutes),
  devRoutes: dataDevRoutes
} satisfies PlatformModule

/** The data engine's services, on top of the kernel. */
const dataLayer = (
  maxPayloadBytes: number | undefined
): Layer.Layer<DataServices, never, Database | ServerClock | Seeder | MemberStore | SiteEvents | SiteRegistry | Profile> => {
  const base = Layer.mergeAll(
    DataCollections.layer,
    DataHooks.layer,
    DataSettings.layer(maxPayloadBytes === undefined ? {} : { maxPayloadBytes })
  )
  const storage = Layer.mergeAll(ItemStore.layer, References.layer, Indexes.layer).pipe(Layer.provideMerge(base))
  const logged = Layer.mergeAll(DataEvents.layer, Scans.layer).pipe(Layer.provideMerge(storage))
  const engine = Layer.mergeAll(ItemWrites.layer, Reads.layer, Aggregations.layer).pipe(Layer.provideMerge(logged))
  const jobs = Layer.mergeAll(AsyncJobs.layer, Sandboxes.layer, Backups.layer, MovementJobs.layer).pipe(Layer.provideMerge(engine))
  return Layer.mergeAll(jobs, dataSeed.pipe(Layer.provide(jobs)), DataAdminEvents.pipe(Layer.provide(jobs)))
}


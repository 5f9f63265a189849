/**
 * Movement jobs into the site's event log (see SiteEvents): `wix.hub.v1.job_created` when a job is
 * submitted, `wix.hub.v1.job_updated` each time its status changes, and `wix.hub.v1.job_deleted` when
 * it is terminated, each logged in the transaction that made the change. The entity is the job as the
 * API answers it, without the download URL of a file destination (an answer builds it for the host
 * the caller reached).
 */
import { DataAdminEventTypes } from "../../../events/protocol.ts"
import type { DataMovementJob } from "../../../data/wire/index.ts"
import { domainEventLog } from "../../store/domainLog.ts"
import type { SiteEventsShape } from "../../store/SiteEvents.ts"
import type { Caller } from "../../platform/Caller.ts"

const CODEC = "data/movement-jobs/2"
const FQDN = "wix.hub.v1.job"

export type JobChange = "created" | "updated" | "deleted"

const TYPES = {
  created: DataAdminEventTypes.jobCreated,
  updated: DataAdminEventTypes.jobUpdated,
  deleted: DataAdminEventTypes.jobDeleted
} as const

const withoutUrl = (job: DataMovementJob): DataMovementJob => {
  const file = job.destination.file
  if (file?.url === undefined) return job
  const { url: _url, ...rest } = file
  return { ...job, destination: { ...job.destination, file: rest } }
}

/** Registers the decoder of the jobs' events; the answer logs one change of a job (inside the caller's transaction). */
export const jobEvents = (log: SiteEventsShape) => {
  const record = domainEventLog(log, CODEC)
  return (change: JobChange, job: DataMovementJob, actor: Caller): void => {
    const entity = withoutUrl(job) as unknown as Record<string, unknown>
    record([{
      _tag: "Domain",
      type: TYPES[change],
      entityFqdn: FQDN,
      entityId: job.id,
      change: change === "updated" ? { kind: "updated", entity, modifiedFields: [] } : { kind: change, entity },
      actor
    }])
  }
}

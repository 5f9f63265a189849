/**
 * Movement jobs into the site's event log (see SiteEvents): `wix.hub.v1.job_created` when a job is
 * submitted, `wix.hub.v1.job_updated` each time its status changes, and `wix.hub.v1.job_deleted` when
 * it is terminated, each logged in the transaction that made the change. The entity is the job as the
 * API answers it, without the download URL of a file destination (an answer builds it for the host
 * the caller reached).
 */
import type { DataMovementJob } from "../../../data/wire/index.ts"
import { domainEventText, envelopeJson, identityOf } from "../../events/envelopes.ts"
import { lazyEvent, type SiteEventsShape } from "../../events/SiteEvents.ts"
import type { Caller } from "../../oauth/Callers.ts"

const CODEC = "data/movement-jobs/1"
const FQDN = "wix.hub.v1.job"

export type JobChange = "created" | "updated" | "deleted"

const TYPES: Record<JobChange, string> = {
  created: "wix.hub.v1.job_created",
  updated: "wix.hub.v1.job_updated",
  deleted: "wix.hub.v1.job_deleted"
}

interface Logged {
  readonly change: JobChange
  readonly job: DataMovementJob
  readonly identity: unknown
}

const withoutUrl = (job: DataMovementJob): DataMovementJob => {
  const file = job.destination.file
  if (file?.url === undefined) return job
  const { url: _url, ...rest } = file
  return { ...job, destination: { ...job.destination, file: rest } }
}

/** Registers the decoder of the jobs' events; the answer logs one change of a job (inside the caller's transaction). */
export const jobEvents = (log: SiteEventsShape) => {
  log.decoder(CODEC, (batch, stamp) => {
    const e = JSON.parse(batch.body) as Logged
    const at = stamp(0)
    const type = TYPES[e.change]
    return [
      lazyEvent(at.id, type, () => {
        const value = e.change === "created"
          ? { entity: e.job }
          : e.change === "updated"
          ? { currentEntity: e.job }
          : { deletedEntity: e.job }
        const key = e.change === "created" ? "createdEvent" : e.change === "updated" ? "updatedEvent" : "deletedEvent"
        return envelopeJson(at, JSON.stringify(e.identity), type, domainEventText(at, FQDN, e.job.id, e.change, key, JSON.stringify(value)))
      })
    ]
  })
  return (change: JobChange, job: DataMovementJob, actor: Caller): void => {
    const logged: Logged = { change, job: withoutUrl(job), identity: identityOf(actor) }
    log.append(CODEC, 1, "", JSON.stringify(logged))
  }
}

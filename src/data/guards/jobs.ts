/** Guards of the answers about asynchronous jobs (patch and remove by filter). */
import * as G from "../../http/guard.ts"
import { ASYNC_JOB_STATUSES } from "../protocol.ts"

export const AsyncJobResponse = G.struct({ jobId: G.string })
export const AsyncJobStatusResponse = G.struct({ status: G.literals(ASYNC_JOB_STATUSES), successCount: G.optional(G.number) })

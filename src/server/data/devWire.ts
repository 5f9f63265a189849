/**
 * Wire shapes of the data engine's dev endpoints (`/_sitefx/data/*`): hooks that fail writes and
 * reads the way a site's data hook code would, a hold on movement jobs, and collections' sandboxes.
 */
import * as Schema from "effect/Schema"

/** The error a data hook throws (the client's DataError carries it as `hook`). */
const HookError = Schema.Struct({
  name: Schema.String,
  message: Schema.String,
  code: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number]))
})

export const DataHookName = Schema.Literals(["beforeInsert", "beforeUpdate", "beforeRemove", "beforeGet", "beforeQuery", "beforeCount"])
export type DataHookName = typeof DataHookName.Type

/** `POST /_sitefx/data/hooks`: matching calls on the collection fail with WDE0078 carrying `error`. */
export const RegisterHookRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  hook: DataHookName,
  error: HookError
})

/** `POST /_sitefx/data/movement-jobs/hold`: running movement jobs run this many more batches, then wait until released. */
export const HoldMovementJobsRequest = Schema.Struct({ batches: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)) })

export const DATA_DEV_PREFIX = "/_sitefx/data"

/** A collection's sandbox: how many items each environment holds. */
export const SandboxState = Schema.Struct({
  dataCollectionId: Schema.String,
  liveItems: Schema.Number,
  sandboxItems: Schema.Number
})
/** `GET /_sitefx/data/sandboxes`: the collections whose sandbox is enabled. */
export const ListSandboxesResponse = Schema.Struct({ sandboxes: Schema.Array(SandboxState) })
/** `POST /_sitefx/data/sandboxes`: enables a collection's sandbox, a copy of its live items unless `empty`. */
export const EnableSandboxRequest = Schema.Struct({ dataCollectionId: Schema.String, empty: Schema.optionalKey(Schema.Boolean) })
export const SandboxResponse = Schema.Struct({ sandbox: SandboxState })
/** `POST /_sitefx/data/sandboxes/{id}/sync`: one environment's items replace the other's (default: sandbox to live). */
export const SyncSandboxRequest = Schema.Struct({ direction: Schema.optionalKey(Schema.Literals(["SANDBOX_TO_LIVE", "LIVE_TO_SANDBOX"])) })
export const SyncSandboxResponse = Schema.Struct({ sandbox: SandboxState, itemsCopied: Schema.Number })

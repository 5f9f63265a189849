/**
 * Wire shapes of the data engine's dev endpoints (`/_sitefx/data/*`): hooks that fail writes and
 * reads the way a site's data hook code would, and a hold on movement jobs (collections' sandboxes,
 * which sitefx/data/sandbox calls too, are in src/data/wire/sandboxes.ts).
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

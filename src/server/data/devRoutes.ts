/**
 * The data engine's dev endpoints (dev mode only): `POST /_sitefx/data/hooks` registers a hook that
 * fails matching calls on one collection with WDE0078; `DELETE /_sitefx/data/hooks` removes them all
 * (or, with `?dataCollectionId=`, those of one collection). `POST /_sitefx/data/movement-jobs/hold`
 * lets running movement jobs run `batches` more batches and then holds them, so a test can terminate
 * or restart a job at a known point; `DELETE` on it releases them.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { body, query, route } from "../platform/routing.ts"
import { reply, replyEmpty } from "../platform/responses.ts"
import { Health } from "../platform/devWire.ts"
import { DataHooks } from "./DataHooks.ts"
import { DATA_DEV_PREFIX, HoldMovementJobsRequest, RegisterHookRequest } from "./devWire.ts"
import { MovementJobs } from "./movement/MovementJobs.ts"

export const dataDevRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const hooks = yield* DataHooks
  const movementJobs = yield* MovementJobs
  return [
    route(
      "POST",
      `${DATA_DEV_PREFIX}/hooks`,
      Effect.gen(function*() {
        const request = yield* body(RegisterHookRequest)
        hooks.register(request.dataCollectionId, request.hook, request.error)
        return reply(Health, { ok: true })
      })
    ),
    route(
      "DELETE",
      `${DATA_DEV_PREFIX}/hooks`,
      Effect.map(query, (params) => {
        hooks.clear(params.get("dataCollectionId") ?? undefined)
        return replyEmpty()
      })
    ),
    route(
      "POST",
      `${DATA_DEV_PREFIX}/movement-jobs/hold`,
      Effect.gen(function*() {
        const request = yield* body(HoldMovementJobsRequest)
        movementJobs.hold(request.batches)
        return reply(Health, { ok: true })
      })
    ),
    route(
      "DELETE",
      `${DATA_DEV_PREFIX}/movement-jobs/hold`,
      Effect.sync(() => {
        movementJobs.hold(undefined)
        return replyEmpty()
      })
    )
  ]
}))

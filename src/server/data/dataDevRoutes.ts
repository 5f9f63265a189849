/**
 * The data engine's dev endpoints (dev mode only):
 * - `POST /_sitefx/data/hooks` registers a hook that fails matching calls on one collection with
 *   WDE0078; `DELETE /_sitefx/data/hooks` removes them all (or, with `?dataCollectionId=`, those of one
 *   collection).
 * - `GET /_sitefx/data/sandboxes` lists the collections with a sandbox; `POST` enables one;
 *   `DELETE /_sitefx/data/sandboxes/{id}` disables it; `POST /_sitefx/data/sandboxes/{id}/sync` copies
 *   one environment onto the other (Sandboxes.ts). The platform's own API has no call for these: a
 *   site's owner does them in the dashboard.
 * - `POST /_sitefx/data/movement-jobs/hold` lets running movement jobs run `batches` more batches and
 *   then holds them, so a test can terminate or restart a job at a known point; `DELETE` on it
 *   releases them.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { body, pathParam, query, route } from "../platform/routing.ts"
import { reply, replyEmpty } from "../platform/responses.ts"
import { Health } from "../../dev/wire/platform.ts"
import { DataHooks } from "./DataHooks.ts"
import { EnableSandboxRequest, ListSandboxesResponse, SandboxResponse, SyncSandboxRequest, SyncSandboxResponse } from "../../data/wire/index.ts"
import { DATA_DEV_PREFIX, HoldMovementJobsRequest, RegisterHookRequest } from "../../dev/wire/data.ts"
import { attempt } from "../store/engineFailures.ts"
import { MovementJobs } from "./movement/MovementJobs.ts"
import { Sandboxes } from "./Sandboxes.ts"

export const dataDevRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const hooks = yield* DataHooks
  const sandboxes = yield* Sandboxes
  const movementJobs = yield* MovementJobs
  return [
    route("GET", `${DATA_DEV_PREFIX}/sandboxes`, Effect.sync(() => reply(ListSandboxesResponse, { sandboxes: sandboxes.list() }))),
    route(
      "POST",
      `${DATA_DEV_PREFIX}/sandboxes`,
      Effect.gen(function*() {
        const request = yield* body(EnableSandboxRequest)
        const sandbox = yield* attempt(() => sandboxes.enable(request.dataCollectionId, { empty: request.empty }))
        return reply(SandboxResponse, { sandbox })
      })
    ),
    route(
      "DELETE",
      `${DATA_DEV_PREFIX}/sandboxes/:dataCollectionId`,
      Effect.gen(function*() {
        const id = yield* pathParam("dataCollectionId")
        yield* attempt(() => sandboxes.disable(id))
        return replyEmpty()
      })
    ),
    route(
      "POST",
      `${DATA_DEV_PREFIX}/sandboxes/:dataCollectionId/sync`,
      Effect.gen(function*() {
        const id = yield* pathParam("dataCollectionId")
        const request = yield* body(SyncSandboxRequest)
        const synced = yield* attempt(() => sandboxes.sync(id, request.direction ?? "SANDBOX_TO_LIVE"))
        return reply(SyncSandboxResponse, { sandbox: synced.state, itemsCopied: synced.itemsCopied })
      })
    ),
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

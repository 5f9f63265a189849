/**
 * Backup routes (`/wix-data/v2/backups`), an API key's only: take a backup, list backups, restore one
 * (whole or some collections), list restorations, delete a backup (see Backups.ts).
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import { DataPaths } from "../../data/protocol.ts"
import {
  BackupResponse,
  CreateBackupRequest,
  ListBackupsRequest,
  ListBackupsResponse,
  ListRestorationsRequest,
  ListRestorationsResponse,
  RestorationResponse,
  RestoreBackupRequest,
  RestorePartialBackupRequest
} from "../../data/wire/index.ts"
import { Callers } from "../accounts/Callers.ts"
import { reply, replyEmpty } from "../platform/responses.ts"
import { pathParam, route } from "../platform/routing.ts"
import { Backups } from "./Backups.ts"
import { pageOf } from "./collectionRoutes.ts"
import { DataSettings } from "./DataSettings.ts"
import { attempt } from "../store/engineFailures.ts"
import { dataBody } from "./requests.ts"
import { getPayload } from "../store/payload.ts"

const V2 = "/wix-data/v2"

export const backupRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const backups = yield* Backups
  const settings = yield* DataSettings

  const body = <A, I>(schema: Schema.Codec<A, I>) => Effect.provideService(dataBody(schema), DataSettings, settings)

  return [
    route(
      "POST",
      DataPaths.backups,
      Effect.gen(function*() {
        const actor = yield* callers.admin
        yield* body(CreateBackupRequest)
        return reply(BackupResponse, { backup: yield* attempt(() => backups.create(actor)) })
      })
    ),
    route(
      "GET",
      DataPaths.backups,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* getPayload(ListBackupsRequest, { arrays: ["status", "type"], numbers: ["paging.limit", "paging.offset"] })
        const page = yield* pageOf(backups.list({ status: request.status, type: request.type }), request.paging)
        return reply(ListBackupsResponse, { backups: page.items, pagingMetadata: page.pagingMetadata })
      })
    ),
    route(
      "GET",
      DataPaths.restorations,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* getPayload(ListRestorationsRequest, { arrays: ["status"], numbers: ["paging.limit", "paging.offset"] })
        const page = yield* pageOf(backups.restorations(request.status), request.paging)
        return reply(ListRestorationsResponse, { restorations: page.items, pagingMetadata: page.pagingMetadata })
      })
    ),
    route(
      "POST",
      `${V2}/backups/:backupId/restore`,
      Effect.gen(function*() {
        const actor = yield* callers.admin
        const id = yield* pathParam("backupId")
        yield* body(RestoreBackupRequest)
        return reply(RestorationResponse, { restoration: yield* attempt(() => backups.restore(id, undefined, actor)) })
      })
    ),
    route(
      "POST",
      `${V2}/backups/:backupId/partial-restore`,
      Effect.gen(function*() {
        const actor = yield* callers.admin
        const id = yield* pathParam("backupId")
        const request = yield* body(RestorePartialBackupRequest)
        return reply(RestorationResponse, { restoration: yield* attempt(() => backups.restore(id, request.restorationCollections ?? [], actor)) })
      })
    ),
    route(
      "DELETE",
      `${V2}/backups/:backupId`,
      Effect.gen(function*() {
        const actor = yield* callers.admin
        const id = yield* pathParam("backupId")
        yield* attempt(() => backups.remove(id, actor))
        return replyEmpty()
      })
    )
  ]
}))

/**
 * The snapshot dev endpoints (`/_sitefx/snapshots`): list, save, describe, restore, delete and download
 * the platform's saved states (see {@link Snapshots}).
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { readFileSync } from "node:fs"
import {
  RestoreSnapshotResponse,
  SaveSnapshotRequest,
  SnapshotResponse,
  SnapshotsResponse
} from "../../dev/wire/platform.ts"
import { application, invalidField, type Reject, reply, replyEmpty } from "../platform/responses.ts"
import { DEV_PREFIX } from "../platform/devAccess.ts"
import { body, pathParam, route } from "../platform/routing.ts"
import { type SnapshotError, Snapshots } from "./Snapshots.ts"

const PATH = `${DEV_PREFIX}/snapshots`

export const snapshotRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const snapshots = yield* Snapshots
  const named = pathParam("name")
  return [
    route("GET", PATH, Effect.map(attempt(snapshots.list), (list) => reply(SnapshotsResponse, { snapshots: list }))),
    route(
      "POST",
      PATH,
      Effect.gen(function*() {
        const request = yield* body(SaveSnapshotRequest)
        const snapshot = yield* snapshots.save(request.name, { overwrite: request.overwrite === true }).pipe(Effect.mapError(refusal))
        return reply(SnapshotResponse, { snapshot })
      })
    ),
    route(
      "GET",
      `${PATH}/:name`,
      Effect.gen(function*() {
        const name = yield* named
        return reply(SnapshotResponse, { snapshot: yield* attempt(() => snapshots.get(name)) })
      })
    ),
    route(
      "POST",
      `${PATH}/:name/restore`,
      Effect.gen(function*() {
        const restored = yield* snapshots.restore(yield* named).pipe(Effect.mapError(refusal))
        return reply(RestoreSnapshotResponse, restored)
      })
    ),
    route(
      "DELETE",
      `${PATH}/:name`,
      Effect.gen(function*() {
        const name = yield* named
        yield* attempt(() => snapshots.remove(name))
        return replyEmpty()
      })
    ),
    route(
      "GET",
      `${PATH}/:name/file`,
      Effect.gen(function*() {
        const name = yield* named
        const bytes = yield* attempt(() => readFileSync(snapshots.file(name)))
        return HttpServerResponse.uint8Array(bytes, {
          status: 200,
          contentType: "application/vnd.sqlite3",
          headers: { "content-disposition": `attachment; filename="${name}.sqlite"`, "cache-control": "no-store" }
        })
      })
    )
  ]
}))

/** A snapshot's failure as the platform's refusal: none is the platform's own fault, so none is a 5xx. */
const refusal = (error: SnapshotError): Reject => {
  switch (error.reason) {
    case "InvalidName":
      return invalidField("name", error.message, "INVALID_NAME")
    case "NotFound":
      return application(404, "SNAPSHOT_NOT_FOUND", error.message)
    case "AlreadyExists":
      return application(409, "SNAPSHOT_EXISTS", error.message)
    case "Incompatible":
      return application(409, "SNAPSHOT_INCOMPATIBLE", error.message)
    case "Unreadable":
      return application(400, "SNAPSHOT_UNREADABLE", error.message)
    case "WriteFailed":
      return application(409, "SNAPSHOT_WRITE_FAILED", error.message)
    case "RestoreFailed":
      return application(409, "SNAPSHOT_RESTORE_FAILED", error.message)
  }
}

/** Runs a synchronous snapshot call, its SnapshotError a refusal. */
const attempt = <A>(f: () => A): Effect.Effect<A, Reject> =>
  Effect.try({ try: f, catch: (error) => error as SnapshotError }).pipe(Effect.mapError(refusal))

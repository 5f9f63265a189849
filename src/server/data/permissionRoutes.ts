/**
 * Data permissions (`/wix-data/v1/permissions`): `GET .../current?dataCollectionId=` answers what the
 * caller may do with a collection's items, by the collection's permissions as every data call reads them
 * (access.ts): an API key everything, a member what its role allows (an author's update and remove: the
 * items it wrote), a visitor or a caller without a token what anyone may. A collection that does not
 * exist is refused with WDE0025.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { PermissionPaths } from "../../data/protocol.ts"
import { GetMyPermissionsRequest, MyPermissionsResponse } from "../../data/wire/index.ts"
import { Callers } from "../accounts/Callers.ts"
import { reply } from "../platform/responses.ts"
import { route } from "../platform/routing.ts"
import { attempt } from "../store/engineFailures.ts"
import { getPayload } from "../store/payload.ts"
import { allows } from "./access.ts"
import { DataCollections } from "./DataCollections.ts"

export const permissionRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const collections = yield* DataCollections
  return [
    route(
      "GET",
      PermissionPaths.mine,
      Effect.gen(function*() {
        const caller = yield* callers.current
        const request = yield* getPayload(GetMyPermissionsRequest)
        const collection = yield* attempt(() => collections.require(request.dataCollectionId))
        return reply(MyPermissionsResponse, {
          itemRead: allows(collection, "read", caller),
          itemInsert: allows(collection, "insert", caller),
          itemUpdate: allows(collection, "update", caller),
          itemRemove: allows(collection, "remove", caller)
        })
      })
    )
  ]
}))

/** What the caller may do with a collection's items, as the platform's data permissions API answers it. */
import * as Effect from "effect/Effect"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { unlessInvalid } from "../http/checks.ts"
import { call, checkCollection, type DataFailure } from "./calls.ts"
import { MyPermissionsResponse } from "./guards/permissions.ts"
import { PermissionPaths } from "./protocol.ts"
import { withClient } from "./withClient.ts"

/** Whether the caller may read, insert, update and remove a collection's items (an item author's role: its own items). */
export interface MyPermissions {
  readonly read: boolean
  readonly insert: boolean
  readonly update: boolean
  readonly remove: boolean
}

/**
 * What the caller (the session's visitor or member, or the API key) may do with a collection's items,
 * by the collection's permissions: to show a page's write controls only to those they would work for.
 * A collection that does not exist fails with WDE0025.
 *
 * @example
 * import { DataItems } from "sitefx"
 * const { insert } = yield* DataItems.myPermissions("Posts")
 */
export const myPermissions = (collection: string): Effect.Effect<MyPermissions, DataFailure, PlatformClient> =>
  unlessInvalid(checkCollection(collection), () =>
    withClient((client) =>
      call(client, collection, { method: "GET", path: PermissionPaths.mine, payload: { dataCollectionId: collection } }, MyPermissionsResponse).pipe(
        Effect.map((r) => ({ read: r.itemRead === true, insert: r.itemInsert === true, update: r.itemUpdate === true, remove: r.itemRemove === true }))
      )
    ))

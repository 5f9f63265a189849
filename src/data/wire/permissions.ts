/** Data permissions (`/wix-data/v1/permissions`): what the caller may do with a collection's items. */
import * as Schema from "effect/Schema"

/** `GET /wix-data/v1/permissions/current?dataCollectionId=`. */
export const GetMyPermissionsRequest = Schema.Struct({ dataCollectionId: Schema.String })

/**
 * The answer of `GET /wix-data/v1/permissions/current`: whether the caller may read, insert, update and
 * remove the collection's items (where the items' author is the role, a member's own items). The platform
 * may leave out a `false`.
 */
export const MyPermissionsResponse = Schema.Struct({
  itemRead: Schema.optionalKey(Schema.Boolean),
  itemInsert: Schema.optionalKey(Schema.Boolean),
  itemUpdate: Schema.optionalKey(Schema.Boolean),
  itemRemove: Schema.optionalKey(Schema.Boolean)
})

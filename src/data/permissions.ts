/**
 * What a collection's permissions let a caller do, read from the collection's metadata (its
 * `permissions`, as `DataItems.collections.get` returns it) the way the platform applies them: for a
 * page to offer only the actions its visitor or member may take. The platform still decides each call.
 *
 * Each action names the least role allowed: `ANYONE` lets in every caller, `SITE_MEMBER` a signed-in
 * member, `SITE_MEMBER_AUTHOR` a member on the items it owns (`_owner`: its id; it may insert), and
 * `CMS_EDITOR`, `PRIVILEGED` and `ADMIN` the site's owner alone (an API key). The owner may do everything.
 *
 * @example
 * import { collectionAccess, type DataWire, type Item, itemAllowed, type PermissionCaller } from "sitefx/data"
 *
 * declare const collection: DataWire.DataCollection // as DataItems.collections.get gives it
 * declare const memberId: string
 * declare const item: Item
 * const member: PermissionCaller = { kind: "member", id: memberId }
 * const adding = collectionAccess(collection.permissions, member, "insert") // "all", "own" or "none"
 * const editing = itemAllowed(collection.permissions, member, "update", item) // this item
 */
import type { Permissions, Role } from "./wire/collections.ts"

/** An action on a collection's items. */
export type PermissionAction = "read" | "insert" | "update" | "remove"

/** Who asks: a visitor (nobody signed in), a signed-in member (by its id), or the site's owner. */
export type PermissionCaller =
  | { readonly kind: "visitor" }
  | { readonly kind: "member"; readonly id: string }
  | { readonly kind: "owner" }

/** On which items the caller may take an action: every item, only the items it owns, or none. */
export type PermissionAccess = "all" | "own" | "none"

/** The role of an action a collection's permissions leave out: reading open to anyone, writing to the owner alone. */
const DEFAULT_ROLES: { readonly [A in PermissionAction]: Role } = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" }

/** On which items `caller` may take `action`, by the collection's permissions. */
export const collectionAccess = (permissions: Permissions | undefined, caller: PermissionCaller, action: PermissionAction): PermissionAccess => {
  const role = permissions?.[action] ?? DEFAULT_ROLES[action]
  if (caller.kind === "owner" || role === "ANYONE") return "all"
  if (caller.kind === "visitor") return "none"
  if (role === "SITE_MEMBER") return "all"
  if (role === "SITE_MEMBER_AUTHOR") return action === "insert" ? "all" : "own"
  return "none"
}

/** Whether `caller` may take `action` on `item`: an author's access covers the items whose `_owner` is its id. */
export const itemAllowed = (
  permissions: Permissions | undefined,
  caller: PermissionCaller,
  action: PermissionAction,
  item: { readonly _owner?: unknown }
): boolean => {
  const access = collectionAccess(permissions, caller, action)
  return access === "all" || (access === "own" && caller.kind === "member" && item._owner === caller.id)
}

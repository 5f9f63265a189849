/**
 * Collection permissions from the caller, by the rule the client's `collectionAccess` states (one rule
 * for the pages that offer actions and for the platform that decides them): each action (read, insert,
 * update, remove) names the least role allowed: ANYONE (any caller, even without a token), SITE_MEMBER
 * (a member or an API key), SITE_MEMBER_AUTHOR (a member, on the items it owns; an API key on all), and
 * CMS_EDITOR / PRIVILEGED / ADMIN, which only an API key holds here (the local platform has no editors).
 */
import { collectionAccess, type PermissionCaller } from "../../data/permissions.ts"
import type { DataCollection, Role } from "../../data/wire/index.ts"
import type { Caller } from "../platform/Caller.ts"
import { DEFAULT_PERMISSIONS } from "./DataCollections.ts"
import { permissionDenied } from "./dataFailures.ts"

export type Action = "read" | "insert" | "update" | "remove"

/** What a caller may touch: every item, or only the items it owns. */
export type Access = { readonly kind: "all" } | { readonly kind: "own"; readonly ownerId: string }

const ALL: Access = { kind: "all" }

const VERB: Record<Action, string> = { read: "read", insert: "insert", update: "update", remove: "remove" }

export const roleOf = (collection: DataCollection, action: Action): Role =>
  collection.permissions?.[action] ?? DEFAULT_PERMISSIONS[action]

/** Who the caller is to the permission rule: an API key is the site's owner; a caller without a member is a visitor. */
const asPermissionCaller = (caller: Caller): PermissionCaller =>
  caller.kind === "admin" ? { kind: "owner" } : caller.kind === "member" ? { kind: "member", id: caller.id } : { kind: "visitor" }

/** The caller's access for `action`, or a 403 WDE0027 (thrown). */
export const accessFor = (collection: DataCollection, action: Action, caller: Caller): Access => {
  const who = asPermissionCaller(caller)
  switch (collectionAccess(collection.permissions, who, action)) {
    case "all":
      return ALL
    case "own":
      if (who.kind === "member") return { kind: "own", ownerId: who.id }
      break
    case "none":
      break
  }
  throw permissionDenied(VERB[action], collection.id, roleOf(collection, action), caller.kind)
}

/** Whether an access covers an item with this owner. */
export const covers = (access: Access, owner: string | undefined): boolean => access.kind === "all" || access.ownerId === owner

/** Throws 403 unless the access covers the item (only an author's access is limited: a member's, to the items it owns). */
export const requireCovers = (access: Access, owner: string | undefined, action: Action, collection: string): void => {
  if (!covers(access, owner)) throw permissionDenied(VERB[action], collection, "SITE_MEMBER_AUTHOR", "member")
}

/** The id recorded as `_owner` of what this caller inserts (an API key may set it explicitly). */
export const ownerFor = (caller: Caller, given: unknown): string | undefined => {
  switch (caller.kind) {
    case "admin":
      return typeof given === "string" ? given : caller.session?.id
    case "member":
    case "visitor":
      return caller.id
    case "none":
      return undefined
  }
}

/** Whether the caller may do `action` on some of the collection's items (an author's, on its own). */
export const allows = (collection: DataCollection, action: Action, caller: Caller): boolean =>
  collectionAccess(collection.permissions, asPermissionCaller(caller), action) !== "none"

export const canRead = (collection: DataCollection, caller: Caller): boolean => allows(collection, "read", caller)

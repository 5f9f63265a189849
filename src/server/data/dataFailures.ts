/**
 * The data API's own refusals, thrown as the store's {@link EngineFailure}: a collection or item that
 * does not exist, an item that does, a collection's permission, a data hook's error.
 */
import { WDE } from "../../data/DataError.ts"
import type { HookError } from "../../data/DataError.ts"
import type { CallerRole } from "../../http/wire.ts"
import { EngineFailure } from "../store/engineFailures.ts"
import { describeCollection } from "./environments.ts"

export const collectionNotFound = (id: string) =>
  new EngineFailure({
    status: 404,
    code: WDE.collectionNotFound,
    description: `WDE0025: The ${id} collection does not exist. You cannot work with a collection using its display name.`,
    rule: { kind: "not-found", id: "data.collection.not-found" }
  })

export const itemNotFound = (id: string, collection: string) =>
  new EngineFailure({
    status: 404,
    code: WDE.itemNotFound,
    description: `WDE0073: Item [${id}] does not exist in collection [${describeCollection(collection)}].`,
    rule: { kind: "not-found", id: "data.item.not-found" }
  })

export const itemExists = (id: string, collection: string) =>
  new EngineFailure({
    status: 409,
    code: WDE.itemAlreadyExists,
    description: `WDE0074: An item with _id [${id}] already exists in collection [${describeCollection(collection)}].`,
    rule: { kind: "conflict", id: "data.item.exists" }
  })

const CALLERS: Record<CallerRole, string> = {
  none: "the caller has no credentials",
  visitor: "the caller is a visitor",
  member: "the caller is a member",
  admin: "the caller is an admin"
}

/**
 * 403 WDE0027: the caller's role is not the one the collection's permission for `operation` requires.
 * The answer's rule names the collection, the operation, the required role and the caller's.
 */
export const permissionDenied = (operation: string, collection: string, required: string, caller: CallerRole) =>
  new EngineFailure({
    status: 403,
    code: WDE.permissionDenied,
    description: `WDE0027: The current user does not have permissions to ${operation} on the ${describeCollection(collection)} collection.`,
    rule: {
      kind: "permission",
      id: "data.permission",
      message: `${operation} on the ${collection} collection requires ${required}; ${CALLERS[caller]}`,
      collection,
      operation,
      required,
      caller
    }
  })

/** A hook's error reaches the client as WDE0078 with the thrown value under `data.jsErrorValue`. */
export const hookFailed = (error: HookError) =>
  new EngineFailure({
    status: 400,
    code: WDE.hookError,
    description: error.message,
    data: { jsErrorValue: error },
    rule: { kind: "validation", id: "data.hook", message: `A data hook refused the call: ${error.message}`, fields: [] }
  })

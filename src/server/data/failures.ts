/**
 * The data engine's refusals. Storage code runs synchronously on node:sqlite (often inside a
 * transaction it must roll back), so it throws a {@link DataFailure}; {@link attempt} turns that into
 * the platform's error answer at the route, and bulk calls turn it into one item's error instead.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { WDE } from "../../data/DataError.ts"
import type { HookError } from "../../data/DataError.ts"
import type { ItemError } from "../../data/wire.ts"
import { application, type Reject } from "../responses.ts"

export class DataFailure extends Data.TaggedError("DataFailure")<{
  readonly status: number
  readonly code: string
  readonly description: string
  readonly data?: unknown
}> {}

export const collectionNotFound = (id: string) =>
  new DataFailure({ status: 404, code: WDE.collectionNotFound, description: `WDE0025: The ${id} collection does not exist. You cannot work with a collection using its display name.` })

export const itemNotFound = (id: string, collection: string) =>
  new DataFailure({ status: 404, code: WDE.itemNotFound, description: `WDE0073: Item [${id}] does not exist in collection [${collection}].` })

export const itemExists = (id: string, collection: string) =>
  new DataFailure({ status: 409, code: WDE.itemAlreadyExists, description: `WDE0074: An item with _id [${id}] already exists in collection [${collection}].` })

export const permissionDenied = (action: string, collection: string) =>
  new DataFailure({ status: 403, code: WDE.permissionDenied, description: `WDE0027: The current user does not have permissions to ${action} on the ${collection} collection.` })

/** A hook's error reaches the client as WDE0078 with the thrown value under `data.jsErrorValue`. */
export const hookFailed = (error: HookError) =>
  new DataFailure({ status: 400, code: WDE.hookError, description: error.message, data: { jsErrorValue: error } })

export const badRequest = (code: string, description: string) => new DataFailure({ status: 400, code, description })

export const toReject = (failure: DataFailure): Reject => application(failure.status, failure.code, failure.description, failure.data)

export const toItemError = (failure: DataFailure): ItemError => ({
  code: failure.code,
  description: failure.description,
  ...(failure.data === undefined ? {} : { data: failure.data })
})

/** Runs synchronous storage code; a thrown DataFailure becomes the platform's error answer. */
export const attempt = <A>(f: () => A): Effect.Effect<A, Reject> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(f())
    } catch (e) {
      if (e instanceof DataFailure) return Effect.fail(toReject(e))
      throw e
    }
  })

/** One item's fate in a bulk call. */
export type Outcome<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly failure: DataFailure }

/** Runs `f` for one item of a bulk call: its DataFailure becomes that item's error. */
export const catchFailure = <A>(f: () => A): Outcome<A> => {
  try {
    return { ok: true, value: f() }
  } catch (e) {
    if (e instanceof DataFailure) return { ok: false, failure: e }
    throw e
  }
}

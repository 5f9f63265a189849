/**
 * What every data call shares: the platform client it goes through, how a failure becomes a DataError,
 * the checks made before anything is sent, and items to and from their wire form. Each operation module
 * (queryItems.ts, itemCalls.ts, bulkWrites.ts, ...) builds on this, so a program carries only the
 * operations it uses.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Guard } from "../http/guard.ts"
import type { PlatformClientShape } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { type DataError, fromPlatformError, invalid, WDE } from "./DataError.ts"
import { DATA_ENVIRONMENTS, type DataEnvironment } from "./protocol.ts"
import type * as W from "./wire/index.ts"

/** A stored item: its fields plus the system fields the platform maintains. */
export interface Item {
  readonly _id: string
  readonly _createdDate?: Date
  readonly _updatedDate?: Date
  readonly _owner?: string
  readonly [field: string]: unknown
}

/** An item to write: `_id` optional (assigned when missing). */
export type ItemInput = { readonly _id?: string; readonly [field: string]: unknown }

/** How a data call fails: a DataError when sitefx's checks or the platform refused it, a PlatformError when the platform was unavailable (no answer, 429, 502–504). */
export type DataFailure = DataError | PlatformError

/** Options of a write: `suppressHooks` skips the collection's data hooks; `environment` (default: the DataEnvironment in effect) where it writes. */
export interface WriteOptions {
  readonly suppressHooks?: boolean
  readonly environment?: DataEnvironment
}
/** Options of a read: a consistent read (after a write), the language of translated fields, the environment it reads. */
export interface ReadOptions {
  readonly consistentRead?: boolean
  readonly language?: string
  readonly environment?: DataEnvironment
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date)

export const checkCollection = (collection: unknown): DataError | undefined =>
  typeof collection === "string" ? undefined : invalid(WDE.collectionNameNotString, "Collection name must be a string.", "collection")

export const checkId = (id: unknown): DataError | undefined =>
  typeof id === "string" ? undefined : invalid(WDE.itemIdNotString, "ItemId must be a string.", "id")

/** Whether an option's value is one it may take: a boolean, a language's name, an environment. */
const validOption = (key: string, value: unknown): boolean =>
  value === undefined || typeof value === "boolean" || (key === "language" && typeof value === "string") ||
  (key === "environment" && (DATA_ENVIRONMENTS as ReadonlyArray<unknown>).includes(value))

/** `allowed` lists the boolean options (and `language`); `environment` is allowed everywhere. */
export const checkOptions = (options: unknown, allowed: ReadonlyArray<string>): DataError | undefined =>
  options === undefined || (isObject(options) && Object.entries(options).every(([k, v]) => (allowed.includes(k) || k === "environment") && validOption(k, v)))
    ? undefined
    : invalid(
      WDE.optionsNotBooleans,
      `Options must be an object with one or all of the following boolean properties: ${allowed.join(", ")} (and environment: ${DATA_ENVIRONMENTS.join(", ")}).`,
      "options"
    )

/** A page size of the admin lists (indexes, backups, jobs): a whole number from 1 to `max`; none given is fine. */
export const checkPageLimit = (limit: number | undefined, max: number): DataError | undefined =>
  limit === undefined || (Number.isInteger(limit) && limit > 0 && limit <= max)
    ? undefined
    : invalid(WDE.notPositive, `limit must be a whole number from 1 to ${max}, not ${limit}.`, "limit")

/** An offset of the admin lists: a whole number of at least 0; none given is fine. */
export const checkOffset = (offset: number | undefined): DataError | undefined =>
  offset === undefined || (Number.isInteger(offset) && offset >= 0) ? undefined : invalid(WDE.negative, `offset must be a whole number of at least 0, not ${offset}.`, "offset")

/** Unavailability (no answer, 429, 502–504) stays a PlatformError: it is about the platform, not the data. */
export const failure = (collection: string | undefined) => (e: PlatformError): DataFailure => fromPlatformError(e, collection)

/** A data call: dates travel as `{"$date"}` both ways, the answer is checked, failures are DataErrors. */
export const call = <A>(client: PlatformClientShape, collection: string | undefined, req: PlatformRequest, guard: Guard<A>): Effect.Effect<A, DataFailure> =>
  client.json({ ...req, dates: true }, guard).pipe(Effect.mapError(failure(collection)))

export const post = <A>(client: PlatformClientShape, collection: string | undefined, path: string, payload: Record<string, unknown>, guard: Guard<A>, idempotent = false) =>
  call(client, collection, { method: "POST", path, payload, idempotent }, guard)

/** Not found (the given code) as none. */
export const notFoundIsNone = <A>(effect: Effect.Effect<A, DataFailure>, code: string = WDE.itemNotFound) =>
  effect.pipe(
    Effect.map(Option.some),
    Effect.catchIf((e) => e._tag === "DataError" && e.code === code, () => Effect.succeed(Option.none<A>()))
  )

/** The stored fields of a wire item, with `_id` filled from the item id. */
export const itemOf = (item: W.DataItem | undefined): Item => {
  const data = item?.data ?? {}
  return { ...data, _id: typeof data["_id"] === "string" ? data["_id"] : item?.id ?? "" } as Item
}

export const wireItem = (item: ItemInput): W.DataItem =>
  typeof item._id === "string" ? { id: item._id, data: item } : { data: item }


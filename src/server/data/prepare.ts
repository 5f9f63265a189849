/**
 * A bulk insert's items made ready for the database: each item's id taken or generated, its own errors
 * found (an `_id` that is not a string, data that is not an object), its dates normalized and its
 * stored JSON written, system fields included. None of it needs the database or the caller, and it is
 * most of a bulk insert's work outside SQLite, so {@link BulkPreparer} runs it on a worker thread while
 * the request thread runs the statements of the request before.
 *
 * The result is column by column (one array per field), which costs little to copy between threads.
 */
import { randomUUID } from "node:crypto"
import { type BulkItemsRequest, isBulkItemsRequest, MAX_BULK_ITEMS } from "../../data/wire.ts"
import { badRequest, DataFailure } from "./failures.ts"
import { isObject, type Json, normalizeDates } from "./values.ts"

/** An item's own refusal, as plain data (it may cross a thread). */
export interface FailureBody {
  readonly status: number
  readonly code: string
  readonly description: string
}

export interface PreparedBulk {
  readonly collectionId: string
  readonly suppressHooks: boolean | undefined
  readonly returnEntity: boolean | undefined
  /** The id each item came with (`id`, else a string `data._id`), for its result. */
  readonly given: Array<string | undefined>
  /** The id each item is stored under; undefined for an item refused here. */
  readonly ids: Array<string | undefined>
  /**
   * Each item's stored JSON without its owner: its fields, then `_id`, `_createdDate` and
   * `_updatedDate` (set in place where the item had them). The owner depends on the caller and comes
   * last ({@link withOwner}).
   */
  readonly texts: Array<string | undefined>
  /** The `_owner` each item named, which only an API key may set. */
  readonly owners: Array<string | undefined>
  readonly failures: Array<FailureBody | undefined>
}

/**
 * A bulk insert request's items prepared, all stamped `now` (ISO text). A request that is not a
 * well-formed bulk request of at most {@link MAX_BULK_ITEMS} items is `undefined`: the request thread
 * reads it the usual way, which names what is wrong.
 */
export const prepareBulkText = (text: string, now: string): PreparedBulk | undefined => {
  let json: unknown
  try {
    json = text.trim() === "" ? {} : JSON.parse(text)
  } catch {
    return undefined
  }
  return isBulkItemsRequest(json) && json.dataItems.length <= MAX_BULK_ITEMS ? prepareBulk(json, now) : undefined
}

/** The request's items prepared; their objects become the stored items in place (nothing else holds them). */
export const prepareBulk = (request: BulkItemsRequest, now: string): PreparedBulk => {
  const n = request.dataItems.length
  const given = new Array<string | undefined>(n)
  const ids = new Array<string | undefined>(n)
  const texts = new Array<string | undefined>(n)
  const owners = new Array<string | undefined>(n)
  const failures = new Array<FailureBody | undefined>(n)
  // one bulk write, one time: every item of it is created at the same instant
  const date = { $date: now }
  for (let i = 0; i < n; i++) {
    const item = request.dataItems[i]!
    const fromData = item.data?.["_id"]
    given[i] = item.id ?? (typeof fromData === "string" ? fromData : undefined)
    if (fromData !== undefined && fromData !== null && typeof fromData !== "string") {
      failures[i] = failureOf(badRequest("WDE0002", "ItemId must be a string."))
      continue
    }
    const data = item.data ?? {}
    if (!isObject(data)) {
      failures[i] = failureOf(badRequest("WDE0004", "Items must be JavaScript objects."))
      continue
    }
    const stored = normalizeDates(data) as Json
    const id = given[i] ?? randomUUID()
    const owner = stored["_owner"]
    if (typeof owner === "string") owners[i] = owner
    // measured: a delete makes the object a slow dictionary; `_owner` is rare in a request
    if (Object.hasOwn(stored, "_owner")) delete stored["_owner"]
    stored["_id"] = id
    stored["_createdDate"] = date
    stored["_updatedDate"] = date
    ids[i] = id
    texts[i] = JSON.stringify(stored)
  }
  return {
    collectionId: request.dataCollectionId,
    suppressHooks: request.suppressHooks,
    returnEntity: request.returnEntity,
    given,
    ids,
    texts,
    owners,
    failures
  }
}

const failureOf = (failure: DataFailure): FailureBody => ({ status: failure.status, code: failure.code, description: failure.description })

export const toFailure = (body: FailureBody): DataFailure => new DataFailure(body)

/** A prepared item's stored JSON with its owner last (the text is `JSON.stringify`'s: it ends in its closing brace). */
export const withOwner = (text: string, owner: string | undefined): string =>
  owner === undefined ? text : `${text.slice(0, -1)},"_owner":${JSON.stringify(owner)}}`

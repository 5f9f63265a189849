/**
 * Bulk writes: inserts, updates, saves, removals and patches of any number of items, as an array (one
 * request, at most 1000) or a Stream of any length (chunked, a few chunks at a time, transient failures
 * retried by the config's retry policy, ids given before the first attempt so a retry never writes twice).
 * Each gives a report of every item's fate, or fails with the refusal of a request refused as a whole.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { first, unlessInvalid } from "../http/checks.ts"
import { checkBody, type PlatformClient, type PlatformClientShape } from "../http/PlatformClient.ts"
import type { PlatformConfig } from "../http/PlatformConfig.ts"
import { encodeDates } from "../http/codec.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { type BulkKind, type BulkOptions, type BulkReport, type Indexed, runBulk } from "./Bulk.ts"
import { checkCollection, type DataFailure, failure, isObject, type Item, type ItemInput } from "./calls.ts"
import { argumentError } from "../http/Refusal.ts"
import { DataError, invalid, WDE } from "./DataError.ts"
import { withClientAndConfig } from "./withClient.ts"
import { BulkResponse } from "./guards/bulk.ts"
import { bulkItemId, isBulkKey, MAX_BULK_POSITION, newItemId } from "./ids.ts"
import { JsonItem, withId } from "./JsonItem.ts"
import { Patch } from "./Patch.ts"
import { DataPaths, MAX_BULK_ITEMS } from "./protocol.ts"
import { checkLimit } from "./Query.ts"
import type * as W from "./wire/index.ts"

/** What a bulk write needs from the environment: the client it sends with, the config whose retry policy it follows. */
export type BulkServices = PlatformClient | PlatformConfig

/**
 * A bulk write's resume key and start position, checked before anything is sent. An insert or save that
 * resumes (`startAt` past 0) needs the key of the run it resumes: without it, the items without an `_id`
 * that landed after the last progress would get new ids and be written a second time.
 */
const checkResume = (kind: BulkKind, options: BulkOptions): DataError | undefined => {
  const { resumeKey, startAt } = options
  if (resumeKey !== undefined && !isBulkKey(resumeKey)) {
    return new DataError({
      reason: argumentError("INVALID_RESUME_KEY", "INVALID_RESUME_KEY: resumeKey must be a key made by newBulkKey (a version 7 UUID).", "resumeKey")
    })
  }
  if (startAt === undefined) return undefined
  if ((kind === "insert" || kind === "save") && resumeKey === undefined && typeof startAt === "number" && startAt > 0) {
    return new DataError({
      reason: argumentError(
        "MISSING_RESUME_KEY",
        `MISSING_RESUME_KEY: a ${kind} resumed at startAt ${startAt} needs the resumeKey of the run it resumes (give every run newBulkKey()'s key and keep it with the checkpoint); without it, items without an _id that landed after the checkpoint would be written twice.`,
        "resumeKey"
      )
    })
  }
  // a start position is checked as a skip is; a keyed write's ids hold positions up to MAX_BULK_POSITION
  return checkLimit("startAt", startAt, false) ??
    (startAt > MAX_BULK_POSITION ? invalid(WDE.tooLarge, `Invalid startAt parameter [${startAt}]. startAt parameter cannot exceed ${MAX_BULK_POSITION}.`, "startAt") : undefined)
}

const bulkPaths: Record<Exclude<BulkKind, "patch">, string> = {
  insert: DataPaths.bulkInsert,
  update: DataPaths.bulkUpdate,
  save: DataPaths.bulkSave,
  remove: DataPaths.bulkRemove
}

/** One bulk request; its per-item results. A string body is JSON written already (dates encoded). */
const bulkCall = (
  client: PlatformClientShape,
  collection: string,
  path: string,
  body: Record<string, unknown> | string,
  dates = false
): Effect.Effect<ReadonlyArray<W.BulkItemResult>, DataFailure> => {
  const req: PlatformRequest = typeof body === "string"
    ? { method: "POST", path, json: body, idempotent: false }
    : { method: "POST", path, payload: body, idempotent: false, dates }
  return client.request(req).pipe(
    Effect.flatMap((res) => checkBody(req, res, BulkResponse)),
    Effect.map((r) => r.results),
    Effect.mapError(failure(collection))
  )
}

/**
 * An item's wire form: its dates as `{"$date"}`, and the id sitefx gave it as `_id`. At most one copy
 * of the item, made as it is sent; the caller's item is never changed.
 */
const wireData = (e: Indexed<ItemInput>): Record<string, unknown> => {
  const encoded = encodeDates(e.value) as Record<string, unknown>
  if (!e.generatedId) return encoded
  const data = encoded === e.value ? { ...encoded } : encoded
  data["_id"] = e.id
  return data
}

/** One entry of `dataItems` as JSON text; a {@link JsonItem}'s text goes as it is. */
const wireEntry = (e: Indexed<BulkItem>): string => {
  const value = e.value
  const data = value instanceof JsonItem
    ? (e.generatedId ? withId(value.json, e.id!) : value.json)
    : JSON.stringify(wireData(e as Indexed<ItemInput>))
  return e.id === undefined ? `{"data":${data}}` : `{"id":${JSON.stringify(e.id)},"data":${data}}`
}

const sendItems = (
  client: PlatformClientShape,
  kind: "insert" | "update" | "save",
  collection: string,
  chunk: ReadonlyArray<Indexed<BulkItem>>,
  options: BulkOptions
) =>
  chunk.length === 0
    ? Effect.succeed([] as ReadonlyArray<W.BulkItemResult>)
    : Effect.suspend(() => {
      // written out at once, item by item: the encoded copies are gone before the request leaves, only the text travels
      let body = `{"dataCollectionId":${JSON.stringify(collection)},"dataItems":[`
      for (let i = 0; i < chunk.length; i++) body += (i === 0 ? "" : ",") + wireEntry(chunk[i]!)
      // no returnEntity: results carry no items by default, and the official client never asks for them either
      body += "]"
      if (options.suppressHooks !== undefined) body += `,"suppressHooks":${JSON.stringify(options.suppressHooks)}`
      if (options.environment !== undefined) body += `,"environment":${JSON.stringify(options.environment)}`
      return bulkCall(client, collection, bulkPaths[kind], `${body}}`)
    })

/** Fills in per-item results for a chunk of which only `sent` went to the platform. */
const remapPartial = (
  chunk: ReadonlyArray<Indexed<BulkItem>>,
  sent: ReadonlyArray<Indexed<BulkItem>>,
  results: ReadonlyArray<W.BulkItemResult>,
  kind: BulkKind
): ReadonlyArray<W.BulkItemResult> => {
  const bySent = new Map(results.map((r) => [r.itemMetadata.originalIndex, r]))
  return chunk.map((entry, i) => {
    const at = sent.indexOf(entry)
    const result = at < 0 ? undefined : bySent.get(at)
    if (result !== undefined) return { ...result, itemMetadata: { ...result.itemMetadata, originalIndex: i } }
    const error = kind === "update" && isObject(entry.value)
      ? { code: WDE.updateWithoutId, description: "Invalid update. Updated object must have a string _id property." }
      : { code: WDE.bulkItemsNotObjects, description: "Items must be JavaScript objects and itemIds must be strings if present." }
    return { itemMetadata: { originalIndex: i, success: false, error } }
  })
}

/** What a bulk write of items takes: items, or items whose JSON text is written already. */
export type BulkItem = ItemInput | JsonItem

/**
 * A bulk insert, update or save of items, some of which may be {@link JsonItem}s (sent as their text):
 * what `bulkInsert`, `bulkUpdate` and `bulkSave` run, and what a batch job that reads JSONL calls.
 */
export const bulkItems = <E>(
  kind: "insert" | "update" | "save",
  collection: string,
  items: ReadonlyArray<BulkItem> | Stream.Stream<BulkItem, E>,
  options: BulkOptions = {}
): Effect.Effect<BulkReport, DataFailure | E, BulkServices> => {
  const isArray = Array.isArray(items)
  const arrayCheck = isArray
    ? first(
      items.length > MAX_BULK_ITEMS
        ? invalid(WDE.tooManyBulkItems, `Failed to bulk save items into [${collection}].\nCannot insert more than 1000 items in one request`, "items")
        : undefined,
      items.every((i) => isObject(i) && (i["_id"] === undefined || typeof i["_id"] === "string"))
        ? undefined
        : invalid(WDE.bulkItemsNotObjects, `Failed to bulk save items into [${collection}].\nItems must be an array of JavaScript objects and itemIds must be strings if present.`, "items"),
      kind === "update" && !items.every((i) => typeof i["_id"] === "string")
        ? invalid(WDE.updateWithoutId, "Invalid update. Updated object must have a string _id property.", "_id")
        : undefined
    )
    : undefined
  return unlessInvalid(first(checkCollection(collection), arrayCheck, checkResume(kind, options)), () =>
    withClientAndConfig((client, config) => {
      const stream = isArray ? Stream.fromIterable(items) : items as Stream.Stream<BulkItem, E>
      const key = options.resumeKey
      const prepare = (value: BulkItem, index: number): Indexed<BulkItem> => {
        // ids are given before the first attempt, so a retried chunk inserts nothing twice
        // a malformed item keeps its shape, so it is refused alone instead of being coerced into an object
        if (!isObject(value)) return { index, id: undefined, generatedId: false, value }
        // the item itself is kept (it is what an error reports); its id joins it when it is sent
        const given = typeof value["_id"] === "string" ? value["_id"] : undefined
        const id = given ?? (kind === "update" ? undefined : key === undefined ? newItemId() : bulkItemId(key, index))
        return { index, id, generatedId: given === undefined && id !== undefined, value }
      }
      return runBulk(kind, stream, prepare, (chunk) => {
        const invalidItem = chunk.find((e) => !isObject(e.value) || (kind === "update" && e.id === undefined))
        if (invalidItem !== undefined) {
          // a malformed item in a stream fails alone, not its whole chunk
          const good = chunk.filter((e) => isObject(e.value) && !(kind === "update" && e.id === undefined))
          return sendItems(client, kind, collection, good, options).pipe(Effect.map((results) => remapPartial(chunk, good, results, kind)))
        }
        return sendItems(client, kind, collection, chunk, options)
      }, config.retry, options)
    }))
}

const bulkIds = <E>(
  kind: "remove" | "patch",
  collection: string,
  ids: ReadonlyArray<string> | Stream.Stream<string, E>,
  options: BulkOptions,
  send: (client: PlatformClientShape, chunk: ReadonlyArray<Indexed<string>>) => Effect.Effect<ReadonlyArray<W.BulkItemResult>, DataFailure>
): Effect.Effect<BulkReport, DataFailure | E, BulkServices> => {
  const isArray = Array.isArray(ids)
  const arrayCheck = isArray
    ? first(
      ids.every((i) => typeof i === "string") ? undefined : invalid(WDE.idsNotStrings, "Item ids must be an array of strings", "ids"),
      kind === "remove" && ids.length > MAX_BULK_ITEMS
        ? invalid(WDE.tooManyIdsToRemove, `Failed to remove items from [${collection}].\nCannot remove more than 1000 items in one request`, "ids")
        : undefined
    )
    : undefined
  return unlessInvalid(first(checkCollection(collection), arrayCheck, checkResume(kind, options)), () =>
    withClientAndConfig((client, config) => {
      const stream = isArray ? Stream.fromIterable(ids) : ids as Stream.Stream<string, E>
      return runBulk(kind, stream, (value, index): Indexed<string> => ({ index, id: value, generatedId: false, value }), (chunk) => send(client, chunk), config.retry, options)
    }))
}

/** Inserts many items: an array (one request, at most 1000) or a Stream of any length (chunked); a report of every item. */
export const bulkInsert = <E = never>(
  collection: string,
  items: ReadonlyArray<ItemInput> | Stream.Stream<ItemInput, E>,
  options?: BulkOptions
): Effect.Effect<BulkReport, DataFailure | E, BulkServices> => bulkItems("insert", collection, items, options)

/** Replaces many stored items (each found by its `_id`); a report of every item. */
export const bulkUpdate = <E = never>(
  collection: string,
  items: ReadonlyArray<Item> | Stream.Stream<Item, E>,
  options?: BulkOptions
): Effect.Effect<BulkReport, DataFailure | E, BulkServices> => bulkItems("update", collection, items, options)

/** Inserts or replaces many items; a report of every item. */
export const bulkSave = <E = never>(
  collection: string,
  items: ReadonlyArray<ItemInput> | Stream.Stream<ItemInput, E>,
  options?: BulkOptions
): Effect.Effect<BulkReport, DataFailure | E, BulkServices> => bulkItems("save", collection, items, options)

/** Removes many items by id; a report of every item. */
export const bulkRemove = <E = never>(
  collection: string,
  ids: ReadonlyArray<string> | Stream.Stream<string, E>,
  options: BulkOptions = {}
): Effect.Effect<BulkReport, DataFailure | E, BulkServices> =>
  bulkIds("remove", collection, ids, options, (client, chunk) =>
    bulkCall(client, collection, DataPaths.bulkRemove, {
      dataCollectionId: collection,
      dataItemIds: chunk.map((e) => e.value),
      ...(options.suppressHooks === undefined ? {} : { suppressHooks: options.suppressHooks }),
      ...(options.environment === undefined ? {} : { environment: options.environment })
    }))

/** The same field modifications on many items; `run` sends them and gives a report of every item. */
export const bulkPatch = (
  collection: string,
  ids: ReadonlyArray<string> | Stream.Stream<string>,
  options: BulkOptions = {}
): Patch<BulkReport, BulkServices> =>
  new Patch((fieldModifications) =>
    bulkIds("patch", collection, ids, options, (client, chunk) =>
      bulkCall(client, collection, DataPaths.bulkPatch, {
        dataCollectionId: collection,
        patches: chunk.map((e) => ({ dataItemId: e.value, fieldModifications })),
        ...(options.suppressHooks === undefined ? {} : { suppressHooks: options.suppressHooks }),
        ...(options.environment === undefined ? {} : { environment: options.environment })
      }, true))
  )

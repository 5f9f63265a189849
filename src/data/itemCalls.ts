/**
 * One item at a time: get, insert, update, save, remove, patch, truncate and count. Each takes the
 * platform client from the environment when it runs and is checked before anything is sent.
 *
 * A write is retried after a transient failure only when sending it twice cannot write twice: an item
 * without an `_id` gets one on the client before the first attempt (as bulk writes do), so an insert or
 * save of it is idempotent by id; update, save with an id, remove, truncate, and a patch that only sets,
 * removes fields or removes from arrays are idempotent as they are. An insert of an item with an `_id` of
 * its caller's, and a patch that increments or appends, are sent once; their failure says whether the
 * platform may have carried them out (`mayHaveApplied`).
 */
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import { first, unlessInvalid } from "../http/checks.ts"
import * as G from "../http/guard.ts"
import type { PlatformClient, PlatformClientShape } from "../http/PlatformClient.ts"
import {
  call,
  checkCollection,
  checkId,
  checkOptions,
  type DataFailure,
  isObject,
  type Item,
  itemOf,
  type ItemInput,
  notFoundIsNone,
  post,
  type ReadOptions,
  wireItem,
  type WriteOptions
} from "./calls.ts"
import { invalid, WDE } from "./DataError.ts"
import { withClient } from "./withClient.ts"
import type { Filter } from "./Filter.ts"
import { DataItemResponse, SaveDataItemResponse } from "./guards/items.ts"
import { CountDataItemsResponse } from "./guards/queries.ts"
import { Patch } from "./Patch.ts"
import { newItemId } from "./ids.ts"
import { DataPaths } from "./protocol.ts"

const itemChecks = (collection: string, item: unknown, options: unknown) =>
  first(
    checkCollection(collection),
    isObject(item) ? undefined : invalid(WDE.itemNotObject, `Failed to save [${String(item)}] into [${collection}].\nItems must be JavaScript objects.`, "item"),
    isObject(item) && item["_id"] !== undefined && typeof item["_id"] !== "string" ? invalid(WDE.itemIdNotString, "ItemId must be a string.", "_id") : undefined,
    checkOptions(options, ["suppressHooks"])
  )

const single = (client: PlatformClientShape, path: string, collection: string, item: ItemInput, options: WriteOptions | undefined, idempotent: boolean) =>
  post(client, collection, path, { dataCollectionId: collection, dataItem: wireItem(item), ...options }, DataItemResponse, idempotent).pipe(
    Effect.map((r) => itemOf(r.dataItem))
  )

/** The item with an id of sitefx's own when it has none: `generated` says which. */
const withOwnId = (item: ItemInput): { readonly item: ItemInput; readonly generated: boolean } =>
  typeof item._id === "string" ? { item, generated: false } : { item: { ...item, _id: newItemId() }, generated: true }

/** The item with this id, or none when there is none. */
export const get = (collection: string, id: string, options?: ReadOptions): Effect.Effect<Option.Option<Item>, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), checkId(id), checkOptions(options, ["consistentRead", "language"])), () =>
    withClient((client) =>
      notFoundIsNone(call(client, collection, {
        method: "GET",
        path: DataPaths.item(id),
        payload: { dataCollectionId: collection, dataItemId: id, ...options }
      }, DataItemResponse).pipe(Effect.map((r) => itemOf(r.dataItem))))
    ))

/**
 * Inserts an item (with an `_id` sitefx makes when it has none, so that a retry cannot insert it twice);
 * the item as stored.
 */
export const insert = (collection: string, item: ItemInput, options?: WriteOptions): Effect.Effect<Item, DataFailure, PlatformClient> =>
  unlessInvalid(itemChecks(collection, item, options), () =>
    withClient((client) => {
      const own = withOwnId(item)
      const sent = single(client, DataPaths.insert, collection, own.item, options, own.generated)
      if (!own.generated) return sent
      // an id made here a moment ago can only exist because an earlier attempt of this insert landed
      const id = own.item._id as string
      return Effect.catchIf(sent, (e) => e._tag === "DataError" && e.code === WDE.itemAlreadyExists, () =>
        Effect.map(
          notFoundIsNone(call(client, collection, { method: "GET", path: DataPaths.item(id), payload: { dataCollectionId: collection, dataItemId: id, consistentRead: true } }, DataItemResponse)),
          (found) => found._tag === "Some" ? itemOf(found.value.dataItem) : own.item as Item
        ))
    }))

/** Replaces a stored item (found by its `_id`); the item as stored. */
export const update = (collection: string, item: Item, options?: WriteOptions): Effect.Effect<Item, DataFailure, PlatformClient> =>
  unlessInvalid(
    first(
      itemChecks(collection, item, options),
      isObject(item) && typeof item._id === "string" ? undefined : invalid(WDE.updateWithoutId, "Invalid update. Updated object must have a string _id property.", "_id")
    ),
    () => withClient((client) => single(client, DataPaths.update, collection, item, options, true))
  )

/** Inserts or replaces (an item without an `_id` gets one of sitefx's, so a retry cannot insert it twice); `action` says which. */
export const save = (
  collection: string,
  item: ItemInput,
  options?: WriteOptions
): Effect.Effect<{ readonly item: Item; readonly action: "INSERTED" | "UPDATED" }, DataFailure, PlatformClient> =>
  unlessInvalid(itemChecks(collection, item, options), () =>
    withClient((client) => {
      const own = withOwnId(item)
      return post(client, collection, DataPaths.save, { dataCollectionId: collection, dataItem: wireItem(own.item), ...options }, SaveDataItemResponse, true).pipe(
        // an item with an id made here was new: a retry that found it there replaced what an earlier attempt inserted
        Effect.map((r) => ({ item: itemOf(r.dataItem), action: r.action === "INSERTED" || own.generated ? "INSERTED" as const : "UPDATED" as const }))
      )
    }))

/** The removed item, or none when it did not exist (WDE0073; after a retry, an earlier attempt may have removed it). */
export const remove = (collection: string, id: string, options?: WriteOptions): Effect.Effect<Option.Option<Item>, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), checkId(id), checkOptions(options, ["suppressHooks"])), () =>
    withClient((client) =>
      notFoundIsNone(post(client, collection, DataPaths.remove, { dataCollectionId: collection, dataItemId: id, ...options }, DataItemResponse, true).pipe(
        Effect.map((r) => itemOf(r.dataItem))
      ))
    ))

/** Removes every item of a collection. */
export const truncate = (collection: string): Effect.Effect<void, DataFailure, PlatformClient> =>
  unlessInvalid(checkCollection(collection), () =>
    withClient((client) => Effect.asVoid(post(client, collection, DataPaths.truncate, { dataCollectionId: collection }, G.object, true))))

/** Modifications that leave the same item when applied twice (increments and appends do not). */
const REPEATABLE: ReadonlySet<string> = new Set(["SET_FIELD", "REMOVE_FIELD", "REMOVE_FROM_ARRAY"])

/** What a patch checks before it is sent. */
const patchChecks = (collection: unknown, id: unknown) => first(checkCollection(collection), checkId(id))

/** Field modifications on one item, applied on the platform without reading the item first; `run` sends them. */
export const patch = (collection: string, id: string, options?: WriteOptions): Patch<Item, PlatformClient> =>
  new Patch(
    (fieldModifications) =>
      withClient((client) =>
        post(
          client,
          collection,
          DataPaths.patch,
          { dataCollectionId: collection, patch: { dataItemId: id, fieldModifications }, ...options },
          DataItemResponse,
          fieldModifications.every((m) => REPEATABLE.has(m.action))
        ).pipe(
          Effect.map((r) => itemOf(r.dataItem))
        )
      ),
    [],
    patchChecks(collection, id)
  )

/** The number of items the filter matches (all items without one). */
export const count = (collection: string, filter?: Filter, options?: ReadOptions): Effect.Effect<number, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), filter?.error, checkOptions(options, ["consistentRead", "language"])), () =>
    withClient((client) =>
      Effect.map(
        post(client, collection, DataPaths.count, { dataCollectionId: collection, ...(filter === undefined ? {} : { filter: filter.tree }), ...options }, CountDataItemsResponse, true),
        (r) => r.totalCount
      )
    ))

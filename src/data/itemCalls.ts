/**
 * One item at a time: get, insert, update, save, remove, patch, truncate and count. Each takes the
 * platform client from the environment when it runs and is checked before anything is sent.
 */
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as G from "../http/guard.ts"
import type { PlatformClient, PlatformClientShape } from "../http/PlatformClient.ts"
import {
  call,
  checkCollection,
  checkId,
  checkOptions,
  type DataFailure,
  first,
  isObject,
  type Item,
  itemOf,
  type ItemInput,
  notFoundIsNone,
  post,
  type ReadOptions,
  unlessInvalid,
  wireItem,
  type WriteOptions
} from "./calls.ts"
import { invalid, WDE } from "./DataError.ts"
import { withClient } from "./withClient.ts"
import type { Filter } from "./Filter.ts"
import { DataItemResponse, SaveDataItemResponse } from "./guards/items.ts"
import { CountDataItemsResponse } from "./guards/queries.ts"
import { Patch } from "./Patch.ts"
import { DataPaths } from "./protocol.ts"

const itemChecks = (collection: string, item: unknown, options: unknown) =>
  first(
    checkCollection(collection),
    isObject(item) ? undefined : invalid(WDE.itemNotObject, `Failed to save [${String(item)}] into [${collection}].\nItems must be JavaScript objects.`, "item"),
    isObject(item) && item["_id"] !== undefined && typeof item["_id"] !== "string" ? invalid(WDE.itemIdNotString, "ItemId must be a string.", "_id") : undefined,
    checkOptions(options, ["suppressHooks"])
  )

const single = (client: PlatformClientShape, path: string, collection: string, item: ItemInput, options: WriteOptions | undefined) =>
  post(client, collection, path, { dataCollectionId: collection, dataItem: wireItem(item), ...options }, DataItemResponse).pipe(
    Effect.map((r) => itemOf(r.dataItem))
  )

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

/** Inserts an item (its `_id` given by the platform when it has none); the item as stored. */
export const insert = (collection: string, item: ItemInput, options?: WriteOptions): Effect.Effect<Item, DataFailure, PlatformClient> =>
  unlessInvalid(itemChecks(collection, item, options), () => withClient((client) => single(client, DataPaths.insert, collection, item, options)))

/** Replaces a stored item (found by its `_id`); the item as stored. */
export const update = (collection: string, item: Item, options?: WriteOptions): Effect.Effect<Item, DataFailure, PlatformClient> =>
  unlessInvalid(
    first(
      itemChecks(collection, item, options),
      isObject(item) && typeof item._id === "string" ? undefined : invalid(WDE.updateWithoutId, "Invalid update. Updated object must have a string _id property.", "_id")
    ),
    () => withClient((client) => single(client, DataPaths.update, collection, item, options))
  )

/** Inserts or replaces; `action` says which. */
export const save = (
  collection: string,
  item: ItemInput,
  options?: WriteOptions
): Effect.Effect<{ readonly item: Item; readonly action: "INSERTED" | "UPDATED" }, DataFailure, PlatformClient> =>
  unlessInvalid(itemChecks(collection, item, options), () =>
    withClient((client) =>
      post(client, collection, DataPaths.save, { dataCollectionId: collection, dataItem: wireItem(item), ...options }, SaveDataItemResponse).pipe(
        Effect.map((r) => ({ item: itemOf(r.dataItem), action: r.action === "INSERTED" ? "INSERTED" as const : "UPDATED" as const }))
      )
    ))

/** The removed item, or none when it did not exist (WDE0073). */
export const remove = (collection: string, id: string, options?: WriteOptions): Effect.Effect<Option.Option<Item>, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), checkId(id), checkOptions(options, ["suppressHooks"])), () =>
    withClient((client) =>
      notFoundIsNone(post(client, collection, DataPaths.remove, { dataCollectionId: collection, dataItemId: id, ...options }, DataItemResponse).pipe(
        Effect.map((r) => itemOf(r.dataItem))
      ))
    ))

/** Removes every item of a collection. */
export const truncate = (collection: string): Effect.Effect<void, DataFailure, PlatformClient> =>
  unlessInvalid(checkCollection(collection), () =>
    withClient((client) => Effect.asVoid(post(client, collection, DataPaths.truncate, { dataCollectionId: collection }, G.object))))

/** What a patch checks before it is sent. */
const patchChecks = (collection: unknown, id: unknown) => first(checkCollection(collection), checkId(id))

/** Field modifications on one item, applied on the platform without reading the item first; `run` sends them. */
export const patch = (collection: string, id: string, options?: WriteOptions): Patch<Item, PlatformClient> =>
  new Patch(
    (fieldModifications) =>
      withClient((client) =>
        post(client, collection, DataPaths.patch, { dataCollectionId: collection, patch: { dataItemId: id, fieldModifications }, ...options }, DataItemResponse).pipe(
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

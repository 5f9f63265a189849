/**
 * One item at a time: get, insert, update, save, remove, patch, truncate and count, each a function of
 * the platform client, checked before anything is sent.
 */
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as G from "../http/guard.ts"
import type { PlatformClientShape } from "../http/PlatformClient.ts"
import {
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
  call,
  type ReadOptions,
  unlessInvalid,
  wireItem,
  type WriteOptions
} from "./calls.ts"
import { invalid, WDE } from "./DataError.ts"
import type { Filter } from "./Filter.ts"
import { Patch } from "./Patch.ts"
import { CountDataItemsResponse, DataItemResponse, DataPaths, SaveDataItemResponse } from "./protocol.ts"

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

export const getItem = (client: PlatformClientShape, collection: string, id: string, options?: ReadOptions): Effect.Effect<Option.Option<Item>, DataFailure> =>
  unlessInvalid(first(checkCollection(collection), checkId(id), checkOptions(options, ["consistentRead", "language"])), () =>
    notFoundIsNone(call(client, collection, {
      method: "GET",
      path: DataPaths.item(id),
      payload: { dataCollectionId: collection, dataItemId: id, ...options }
    }, DataItemResponse).pipe(Effect.map((r) => itemOf(r.dataItem)))))

export const insertItem = (client: PlatformClientShape, collection: string, item: ItemInput, options?: WriteOptions): Effect.Effect<Item, DataFailure> =>
  unlessInvalid(itemChecks(collection, item, options), () => single(client, DataPaths.insert, collection, item, options))

export const updateItem = (client: PlatformClientShape, collection: string, item: Item, options?: WriteOptions): Effect.Effect<Item, DataFailure> =>
  unlessInvalid(
    first(
      itemChecks(collection, item, options),
      isObject(item) && typeof item._id === "string" ? undefined : invalid(WDE.updateWithoutId, "Invalid update. Updated object must have a string _id property.", "_id")
    ),
    () => single(client, DataPaths.update, collection, item, options)
  )

/** Inserts or replaces; `action` says which. */
export const saveItem = (
  client: PlatformClientShape,
  collection: string,
  item: ItemInput,
  options?: WriteOptions
): Effect.Effect<{ readonly item: Item; readonly action: "INSERTED" | "UPDATED" }, DataFailure> =>
  unlessInvalid(itemChecks(collection, item, options), () =>
    post(client, collection, DataPaths.save, { dataCollectionId: collection, dataItem: wireItem(item), ...options }, SaveDataItemResponse).pipe(
      Effect.map((r) => ({ item: itemOf(r.dataItem), action: r.action === "INSERTED" ? "INSERTED" as const : "UPDATED" as const }))
    ))

/** The removed item, or none when it did not exist (WDE0073). */
export const removeItem = (client: PlatformClientShape, collection: string, id: string, options?: WriteOptions): Effect.Effect<Option.Option<Item>, DataFailure> =>
  unlessInvalid(first(checkCollection(collection), checkId(id), checkOptions(options, ["suppressHooks"])), () =>
    notFoundIsNone(post(client, collection, DataPaths.remove, { dataCollectionId: collection, dataItemId: id, ...options }, DataItemResponse).pipe(
      Effect.map((r) => itemOf(r.dataItem))
    )))

export const truncateItems = (client: PlatformClientShape, collection: string): Effect.Effect<void, DataFailure> =>
  unlessInvalid(checkCollection(collection), () => Effect.asVoid(post(client, collection, DataPaths.truncate, { dataCollectionId: collection }, G.object)))

/** What a patch checks before it is sent. */
export const patchChecks = (collection: unknown, id: unknown) => first(checkCollection(collection), checkId(id))

export const patchItem = (client: PlatformClientShape, collection: string, id: string, options?: WriteOptions): Patch<Item> =>
  new Patch(
    (fieldModifications) =>
      unlessInvalid(patchChecks(collection, id), () =>
        post(client, collection, DataPaths.patch, { dataCollectionId: collection, patch: { dataItemId: id, fieldModifications }, ...options }, DataItemResponse).pipe(
          Effect.map((r) => itemOf(r.dataItem))
        )),
    [],
    patchChecks(collection, id)
  )

export const countItems = (client: PlatformClientShape, collection: string, filter?: Filter, options?: ReadOptions): Effect.Effect<number, DataFailure> =>
  unlessInvalid(first(checkCollection(collection), filter?.error, checkOptions(options, ["consistentRead", "language"])), () =>
    Effect.map(
      post(client, collection, DataPaths.count, { dataCollectionId: collection, ...(filter === undefined ? {} : { filter: filter.tree }), ...options }, CountDataItemsResponse, true),
      (r) => r.totalCount
    ))

/**
 * References between items: the items a reference field points to, whether it points to one, and
 * changes to what it points to (one item's field, or many references in one request).
 */
import * as Effect from "effect/Effect"
import { first, unlessInvalid } from "../http/checks.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { checkCollection, checkId, type DataFailure, type Item, itemOf, post } from "./calls.ts"
import { invalid, WDE } from "./DataError.ts"
import { withClient } from "./withClient.ts"
import { BulkReferencesResponse } from "./guards/bulk.ts"
import { IsReferencedResponse, QueryReferencedResponse, ReplaceReferencesResponse } from "./guards/references.ts"
import { type DataEnvironment, DataPaths, DEFAULT_PAGE_SIZE } from "./protocol.ts"
import type * as W from "./wire/index.ts"

/** A page of the items a reference field points to. */
export interface ReferencedPage {
  readonly items: ReadonlyArray<Item>
  readonly totalCount: number | undefined
  readonly hasNext: boolean
}

/** The items an item's reference field points to, a page at a time. */
export const queryReferenced = (
  collection: string,
  itemId: string,
  field: string,
  options: {
    readonly limit?: number
    readonly skip?: number
    readonly order?: "ASC" | "DESC"
    readonly withTotalCount?: boolean
    readonly environment?: DataEnvironment
  } = {}
): Effect.Effect<ReferencedPage, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), checkId(itemId)), () =>
    withClient((client) =>
      post(client, collection, DataPaths.queryReferenced, {
        dataCollectionId: collection,
        referringItemId: itemId,
        referringItemFieldName: field,
        paging: { limit: options.limit ?? DEFAULT_PAGE_SIZE, offset: options.skip ?? 0 },
        ...(options.order === undefined ? {} : { order: options.order }),
        ...(options.withTotalCount === undefined ? {} : { returnTotalCount: options.withTotalCount }),
        ...(options.environment === undefined ? {} : { environment: options.environment })
      }, QueryReferencedResponse, true).pipe(Effect.map((r) => ({
        items: r.results.flatMap((x) => (x.dataItem === undefined ? [] : [itemOf(x.dataItem)])),
        totalCount: r.pagingMetadata?.total ?? undefined,
        hasNext: r.pagingMetadata?.hasNext === true
      })))
    ))

/** Whether an item's reference field points to the item `referencedId`. */
export const isReferenced = (collection: string, field: string, itemId: string, referencedId: string): Effect.Effect<boolean, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), checkId(itemId), checkId(referencedId)), () =>
    withClient((client) =>
      post(client, collection, DataPaths.isReferenced, {
        dataCollectionId: collection,
        referringItemFieldName: field,
        referringItemId: itemId,
        referencedItemId: referencedId
      }, IsReferencedResponse, true).pipe(Effect.map((r) => r.isReferenced))
    ))

const references = (path: string, collection: string, field: string, itemId: string, referencedIds: ReadonlyArray<string>) =>
  unlessInvalid(
    first(
      checkCollection(collection),
      checkId(itemId),
      Array.isArray(referencedIds) && referencedIds.every((r) => typeof r === "string") ? undefined : invalid(WDE.idsNotStrings, "Item ids must be an array of strings", "referencedIds")
    ),
    () =>
      withClient((client) =>
        Effect.asVoid(post(client, collection, path, {
          dataCollectionId: collection,
          dataItemReferences: referencedIds.map((referencedItemId) => ({ referringItemFieldName: field, referringItemId: itemId, referencedItemId }))
        }, BulkReferencesResponse))
      )
  )

/** Adds these items to what an item's reference field points to. */
export const insertReference = (collection: string, field: string, itemId: string, referencedIds: ReadonlyArray<string>): Effect.Effect<void, DataFailure, PlatformClient> =>
  references(DataPaths.bulkInsertReferences, collection, field, itemId, referencedIds)

/** Takes these items out of what an item's reference field points to. */
export const removeReference = (collection: string, field: string, itemId: string, referencedIds: ReadonlyArray<string>): Effect.Effect<void, DataFailure, PlatformClient> =>
  references(DataPaths.bulkRemoveReferences, collection, field, itemId, referencedIds)

/** Makes an item's reference field point to exactly these items. */
export const replaceReferences = (collection: string, field: string, itemId: string, referencedIds: ReadonlyArray<string>): Effect.Effect<void, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), checkId(itemId)), () =>
    withClient((client) =>
      Effect.asVoid(post(client, collection, DataPaths.replaceReferences, {
        dataCollectionId: collection,
        referringItemFieldName: field,
        referringItemId: itemId,
        newReferencedItemIds: [...referencedIds]
      }, ReplaceReferencesResponse))
    ))

/** Adds many references, of any items of the collection, in one request. */
export const bulkInsertReferences = (collection: string, references: ReadonlyArray<W.DataItemReference>): Effect.Effect<void, DataFailure, PlatformClient> =>
  unlessInvalid(checkCollection(collection), () =>
    withClient((client) => Effect.asVoid(post(client, collection, DataPaths.bulkInsertReferences, { dataCollectionId: collection, dataItemReferences: references }, BulkReferencesResponse))))

/** Removes many references, of any items of the collection, in one request. */
export const bulkRemoveReferences = (collection: string, references: ReadonlyArray<W.DataItemReference>): Effect.Effect<void, DataFailure, PlatformClient> =>
  unlessInvalid(checkCollection(collection), () =>
    withClient((client) => Effect.asVoid(post(client, collection, DataPaths.bulkRemoveReferences, { dataCollectionId: collection, dataItemReferences: references }, BulkReferencesResponse))))

/**
 * The data-collections client. Every call is an Effect failing with a DataError (WDE code) or, when
 * the platform could not be reached at all, a PlatformError. Builders (query, aggregate, patch,
 * search) are immutable values; paging is a Stream; bulk writes take any number of items.
 *
 * @example
 * const data = yield* DataItems
 * const post = yield* data.insert("Posts", { title: "Hello", likes: 0 })
 * const top = yield* data.query("Posts").gt("likes", 10).descending("likes").limit(5).find
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as G from "../http/guard.ts"
import { checkBody, PlatformClient } from "../http/PlatformClient.ts"
import { PlatformConfig } from "../http/PlatformConfig.ts"
import { encodeDates } from "../http/codec.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { Aggregate } from "./Aggregate.ts"
import { type BulkKind, type BulkOptions, type BulkReport, type Indexed, runBulk } from "./Bulk.ts"
import {
  call as callWith,
  checkCollection,
  checkId,
  type DataFailure,
  failure,
  first,
  isObject,
  type Item,
  itemOf,
  type ItemInput,
  notFoundIsNone,
  post as postWith,
  type ReadOptions,
  unlessInvalid as guard,
  type WriteOptions
} from "./calls.ts"
import { badAnswer, DataError, invalid, WDE } from "./DataError.ts"
import { argumentError } from "../http/Refusal.ts"
import { bulkItemId, isBulkKey, MAX_BULK_POSITION, newItemId } from "./ids.ts"
import { type Filter } from "./Filter.ts"
import { countItems, getItem, insertItem, patchItem, removeItem, saveItem, truncateItems, updateItem } from "./itemCalls.ts"
import { Patch } from "./Patch.ts"
import * as A from "./answers.ts"
import * as P from "./protocol.ts"
import { checkLimit, Query } from "./Query.ts"
import { queryItems, searchItems, type SearchOptions } from "./queryItems.ts"
import type * as W from "./wire.ts"

export { type DataFailure, type Item, type ItemInput, itemOf, type ReadOptions, type SearchOptions, type WriteOptions }

export interface ReferencedPage {
  readonly items: ReadonlyArray<Item>
  readonly totalCount: number | undefined
  readonly hasNext: boolean
}

export type AsyncJobState = G.TypeOf<typeof A.AsyncJobStatusResponse>

export interface DataItemsShape {
  readonly query: (collection: string) => Query<Item>
  readonly get: (collection: string, id: string, options?: ReadOptions) => Effect.Effect<Option.Option<Item>, DataFailure>
  readonly insert: (collection: string, item: ItemInput, options?: WriteOptions) => Effect.Effect<Item, DataFailure>
  readonly update: (collection: string, item: Item, options?: WriteOptions) => Effect.Effect<Item, DataFailure>
  /** Inserts or replaces; `action` says which. */
  readonly save: (
    collection: string,
    item: ItemInput,
    options?: WriteOptions
  ) => Effect.Effect<{ readonly item: Item; readonly action: "INSERTED" | "UPDATED" }, DataFailure>
  /** The removed item, or none when it did not exist (WDE0073). */
  readonly remove: (collection: string, id: string, options?: WriteOptions) => Effect.Effect<Option.Option<Item>, DataFailure>
  readonly truncate: (collection: string) => Effect.Effect<void, DataFailure>
  readonly patch: (collection: string, id: string, options?: WriteOptions) => Patch<Item>
  readonly count: (collection: string, filter?: Filter, options?: ReadOptions) => Effect.Effect<number, DataFailure>
  readonly aggregate: (collection: string) => Aggregate
  readonly pipeline: (
    collection: string,
    stages: ReadonlyArray<W.PipelineStage>,
    options?: ReadOptions & { readonly limit?: number; readonly skip?: number }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<W.ItemData>; readonly hasNext: boolean }, DataFailure>
  /** Full-text search; the result is a query you can filter, sort, page and stream. */
  readonly search: (collection: string, expression: string, options?: SearchOptions) => Query<Item>

  readonly queryReferenced: (
    collection: string,
    itemId: string,
    field: string,
    options?: { readonly limit?: number; readonly skip?: number; readonly order?: "ASC" | "DESC"; readonly withTotalCount?: boolean }
  ) => Effect.Effect<ReferencedPage, DataFailure>
  readonly isReferenced: (collection: string, field: string, itemId: string, referencedId: string) => Effect.Effect<boolean, DataFailure>
  readonly insertReference: (collection: string, field: string, itemId: string, referencedIds: ReadonlyArray<string>) => Effect.Effect<void, DataFailure>
  readonly removeReference: (collection: string, field: string, itemId: string, referencedIds: ReadonlyArray<string>) => Effect.Effect<void, DataFailure>
  readonly replaceReferences: (collection: string, field: string, itemId: string, referencedIds: ReadonlyArray<string>) => Effect.Effect<void, DataFailure>

  /** Bulk writes: an array (one request, at most 1000) or a Stream of any length (chunked). */
  readonly bulkInsert: <E = never>(collection: string, items: ReadonlyArray<ItemInput> | Stream.Stream<ItemInput, E>, options?: BulkOptions) => Effect.Effect<BulkReport, DataFailure | E>
  readonly bulkUpdate: <E = never>(collection: string, items: ReadonlyArray<Item> | Stream.Stream<Item, E>, options?: BulkOptions) => Effect.Effect<BulkReport, DataFailure | E>
  readonly bulkSave: <E = never>(collection: string, items: ReadonlyArray<ItemInput> | Stream.Stream<ItemInput, E>, options?: BulkOptions) => Effect.Effect<BulkReport, DataFailure | E>
  readonly bulkRemove: <E = never>(collection: string, ids: ReadonlyArray<string> | Stream.Stream<string, E>, options?: BulkOptions) => Effect.Effect<BulkReport, DataFailure | E>
  /** The same modifications on many items. */
  readonly bulkPatch: (collection: string, ids: ReadonlyArray<string> | Stream.Stream<string>, options?: BulkOptions) => Patch<BulkReport>
  readonly bulkInsertReferences: (collection: string, references: ReadonlyArray<W.DataItemReference>) => Effect.Effect<void, DataFailure>
  readonly bulkRemoveReferences: (collection: string, references: ReadonlyArray<W.DataItemReference>) => Effect.Effect<void, DataFailure>

  /** Patches every item the filter matches, as a platform job; returns the job id. */
  readonly patchByFilter: (collection: string, filter: Filter) => Patch<string>
  readonly removeByFilter: (collection: string, filter: Filter) => Effect.Effect<string, DataFailure>
  readonly jobStatus: (jobId: string) => Effect.Effect<AsyncJobState, DataFailure>
  /** Polls a job until it SUCCEEDED or FAILED. */
  readonly awaitJob: (jobId: string, options?: { readonly every?: Duration.Input }) => Effect.Effect<AsyncJobState, DataFailure>

  readonly collections: {
    readonly get: (id: string) => Effect.Effect<Option.Option<W.DataCollection>, DataFailure>
    readonly bySlug: (slug: string) => Effect.Effect<Option.Option<W.DataCollection>, DataFailure>
    readonly query: (query?: { readonly filter?: Filter; readonly limit?: number; readonly skip?: number }) => Effect.Effect<ReadonlyArray<W.DataCollection>, DataFailure>
  }
}

/** A bulk write's resume key and start position, checked before anything is sent. */
const checkResume = (options: BulkOptions): DataError | undefined => {
  const { resumeKey, startAt } = options
  if (resumeKey !== undefined && !isBulkKey(resumeKey)) {
    return new DataError({
      reason: argumentError("INVALID_RESUME_KEY", "INVALID_RESUME_KEY: resumeKey must be a key made by newBulkKey (a version 7 UUID).", "resumeKey")
    })
  }
  if (startAt === undefined) return undefined
  // a start position is checked as a skip is; a keyed write's ids hold positions up to MAX_BULK_POSITION
  return checkLimit("startAt", startAt, false) ??
    (startAt > MAX_BULK_POSITION ? invalid(WDE.tooLarge, `Invalid startAt parameter [${startAt}]. startAt parameter cannot exceed ${MAX_BULK_POSITION}.`, "startAt") : undefined)
}

export class DataItems extends Context.Service<DataItems, DataItemsShape>()("sitefx/DataItems") {
  static readonly layer: Layer.Layer<DataItems, never, PlatformClient | PlatformConfig> = Layer.effect(DataItems, Effect.gen(function*() {
    const client = yield* PlatformClient
    const config = yield* PlatformConfig
    return DataItems.of(make(client, config))
  }))

  /**
   * A typed view of a collection: reads decode to the schema's type, writes encode from it. Invalid
   * stored items fail with DataError code `ITEM_DECODE_ERROR`.
   */
  static readonly collection = <S extends Schema.Codec<any, any>>(name: string, schema: S) => typedCollection(name, schema)
}

const make = (client: PlatformClient["Service"], config: PlatformConfig["Service"]): DataItemsShape => {
  const call = <A>(collection: string | undefined, req: PlatformRequest, guard: G.Guard<A>) => callWith(client, collection, req, guard)
  const post = <A>(collection: string | undefined, path: string, payload: Record<string, unknown>, guard: G.Guard<A>, idempotent = false) =>
    postWith(client, collection, path, payload, guard, idempotent)

  // ---- bulk -----------------------------------------------------------------------------------------
  const bulkPaths: Record<Exclude<BulkKind, "patch">, string> = {
    insert: P.DataPaths.bulkInsert,
    update: P.DataPaths.bulkUpdate,
    save: P.DataPaths.bulkSave,
    remove: P.DataPaths.bulkRemove
  }

  const bulkItems = <E>(
    kind: "insert" | "update" | "save",
    collection: string,
    items: ReadonlyArray<ItemInput> | Stream.Stream<ItemInput, E>,
    options: BulkOptions = {}
  ): Effect.Effect<BulkReport, DataFailure | E> => {
    const isArray = Array.isArray(items)
    const arrayCheck = isArray
      ? first(
        items.length > P.MAX_BULK_ITEMS
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
    return guard<BulkReport, E>(first(checkCollection(collection), arrayCheck, checkResume(options)), () => {
      const stream = isArray ? Stream.fromIterable(items) : items as Stream.Stream<ItemInput, E>
      const key = options.resumeKey
      const prepare = (value: ItemInput, index: number): Indexed<ItemInput> => {
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
          return sendItems(kind, collection, good, options).pipe(Effect.map((results) => remapPartial(chunk, good, results, kind)))
        }
        return sendItems(kind, collection, chunk, options)
      }, config.retry, options)
    })
  }

  /** One bulk request; its per-item results. A string body is JSON written already (dates encoded). */
  const bulkCall = (collection: string, path: string, body: Record<string, unknown> | string, dates = false): Effect.Effect<ReadonlyArray<W.BulkItemResult>, DataFailure> => {
    const req: PlatformRequest = typeof body === "string"
      ? { method: "POST", path, json: body, idempotent: false }
      : { method: "POST", path, payload: body, idempotent: false, dates }
    return client.request(req).pipe(
      Effect.flatMap((res) => checkBody(req, res, A.BulkResponse)),
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

  const sendItems = (kind: "insert" | "update" | "save", collection: string, chunk: ReadonlyArray<Indexed<ItemInput>>, options: BulkOptions) =>
    chunk.length === 0
      ? Effect.succeed([] as ReadonlyArray<W.BulkItemResult>)
      : Effect.suspend(() =>
        // written out at once: the encoded copies are gone before the request leaves, only the text travels
        bulkCall(
          collection,
          bulkPaths[kind],
          JSON.stringify({
            dataCollectionId: collection,
            // no returnEntity: results carry no items by default, and the official client never asks for them either
            dataItems: chunk.map((e) => (e.id === undefined ? { data: wireData(e) } : { id: e.id, data: wireData(e) })),
            ...(options.suppressHooks === undefined ? {} : { suppressHooks: options.suppressHooks })
          })
        )
      )

  const bulkIds = <E>(
    kind: "remove" | "patch",
    collection: string,
    ids: ReadonlyArray<string> | Stream.Stream<string, E>,
    options: BulkOptions,
    send: (collection: string, chunk: ReadonlyArray<Indexed<string>>) => Effect.Effect<ReadonlyArray<W.BulkItemResult>, DataFailure>
  ): Effect.Effect<BulkReport, DataFailure | E> => {
    const isArray = Array.isArray(ids)
    const arrayCheck = isArray
      ? first(
        ids.every((i) => typeof i === "string") ? undefined : invalid(WDE.idsNotStrings, "Item ids must be an array of strings", "ids"),
        kind === "remove" && ids.length > P.MAX_BULK_ITEMS
          ? invalid(WDE.tooManyIdsToRemove, `Failed to remove items from [${collection}].\nCannot remove more than 1000 items in one request`, "ids")
          : undefined
      )
      : undefined
    return guard<BulkReport, E>(first(checkCollection(collection), arrayCheck, checkResume(options)), () => {
      const stream = isArray ? Stream.fromIterable(ids) : ids as Stream.Stream<string, E>
      return runBulk(kind, stream, (value, index): Indexed<string> => ({ index, id: value, generatedId: false, value }), (chunk) => send(collection, chunk), config.retry, options)
    })
  }

  const bulkRemove: DataItemsShape["bulkRemove"] = (collection, ids, options = {}) =>
    bulkIds("remove", collection, ids, options, (c, chunk) =>
      bulkCall(c, P.DataPaths.bulkRemove, {
        dataCollectionId: c,
        dataItemIds: chunk.map((e) => e.value),
        ...(options.suppressHooks === undefined ? {} : { suppressHooks: options.suppressHooks })
      }))

  const bulkPatch: DataItemsShape["bulkPatch"] = (collection, ids, options = {}) =>
    new Patch((fieldModifications) =>
      bulkIds("patch", collection, ids, options, (c, chunk) =>
        bulkCall(c, P.DataPaths.bulkPatch, {
          dataCollectionId: c,
          patches: chunk.map((e) => ({ dataItemId: e.value, fieldModifications })),
          ...(options.suppressHooks === undefined ? {} : { suppressHooks: options.suppressHooks })
        }, true))
    )

  const references = (path: string, collection: string, field: string, itemId: string, referencedIds: ReadonlyArray<string>) =>
    guard(first(checkCollection(collection), checkId(itemId), Array.isArray(referencedIds) && referencedIds.every((r) => typeof r === "string") ? undefined : invalid(WDE.idsNotStrings, "Item ids must be an array of strings", "referencedIds")), () =>
      Effect.asVoid(post(collection, path, {
        dataCollectionId: collection,
        dataItemReferences: referencedIds.map((referencedItemId) => ({ referringItemFieldName: field, referringItemId: itemId, referencedItemId }))
      }, A.BulkReferencesResponse)))

  const jobStatus = (jobId: string) =>
    call(undefined, { method: "GET", path: P.DataPaths.asyncJobStatus(jobId), payload: { jobId } }, A.AsyncJobStatusResponse)

  const collectionsApi: DataItemsShape["collections"] = {
    get: (id) =>
      notFoundIsNone(call(id, { method: "GET", path: P.DataPaths.collection(id), payload: { dataCollectionId: id } }, A.CollectionResponse).pipe(Effect.map((r) => r.collection)), WDE.collectionNotFound),
    bySlug: (slug) =>
      notFoundIsNone(call(slug, { method: "GET", path: P.DataPaths.collectionBySlug(slug), payload: { slug } }, A.CollectionResponse).pipe(Effect.map((r) => r.collection)), WDE.collectionNotFound),
    query: (q = {}) =>
      guard(q.filter?.error, () =>
        call(undefined, {
          method: "GET",
          path: P.DataPaths.collectionsQuery,
          payload: { query: { ...(q.filter === undefined ? {} : { filter: q.filter.tree }), paging: { limit: q.limit ?? P.DEFAULT_PAGE_SIZE, offset: q.skip ?? 0 } } },
          complex: {}
        }, A.CollectionsListResponse).pipe(Effect.map((r) => r.collections)))
  }

  return {
    query: (collection) => queryItems(client, collection),
    get: (collection, id, options) => getItem(client, collection, id, options),
    insert: (collection, item, options) => insertItem(client, collection, item, options),
    update: (collection, item, options) => updateItem(client, collection, item, options),
    save: (collection, item, options) => saveItem(client, collection, item, options),
    remove: (collection, id, options) => removeItem(client, collection, id, options),
    truncate: (collection) => truncateItems(client, collection),
    patch: (collection, id, options) => patchItem(client, collection, id, options),
    count: (collection, filter, options) => countItems(client, collection, filter, options),
    aggregate: (collection) =>
      new Aggregate(collection, (request) =>
        guard(checkCollection(collection), () => post(collection, P.DataPaths.aggregate, request, A.AggregateDataItemsResponse, true))),
    pipeline: (collection, stages, options = {}) => {
      const { limit, skip, ...read } = options
      return guard(checkCollection(collection), () =>
        post(collection, P.DataPaths.aggregatePipeline, {
          dataCollectionId: collection,
          pipeline: { stages, ...(limit === undefined && skip === undefined ? {} : { paging: { ...(limit === undefined ? {} : { limit }), offset: skip ?? 0 } }) },
          ...read
        }, A.AggregateDataItemsResponse, true).pipe(Effect.map((r) => ({ items: r.results, hasNext: r.pagingMetadata?.hasNext === true }))))
    },
    search: (collection, expression, options) => searchItems(client, collection, expression, options),
    queryReferenced: (collection, itemId, field, options = {}) =>
      guard(first(checkCollection(collection), checkId(itemId)), () =>
        post(collection, P.DataPaths.queryReferenced, {
          dataCollectionId: collection,
          referringItemId: itemId,
          referringItemFieldName: field,
          paging: { limit: options.limit ?? P.DEFAULT_PAGE_SIZE, offset: options.skip ?? 0 },
          ...(options.order === undefined ? {} : { order: options.order }),
          ...(options.withTotalCount === undefined ? {} : { returnTotalCount: options.withTotalCount })
        }, A.QueryReferencedResponse, true).pipe(Effect.map((r) => ({
          items: r.results.flatMap((x) => (x.dataItem === undefined ? [] : [itemOf(x.dataItem)])),
          totalCount: r.pagingMetadata?.total ?? undefined,
          hasNext: r.pagingMetadata?.hasNext === true
        })))),
    isReferenced: (collection, field, itemId, referencedId) =>
      guard(first(checkCollection(collection), checkId(itemId), checkId(referencedId)), () =>
        post(collection, P.DataPaths.isReferenced, {
          dataCollectionId: collection,
          referringItemFieldName: field,
          referringItemId: itemId,
          referencedItemId: referencedId
        }, A.IsReferencedResponse, true).pipe(Effect.map((r) => r.isReferenced))),
    insertReference: (collection, field, itemId, ids) => references(P.DataPaths.bulkInsertReferences, collection, field, itemId, ids),
    removeReference: (collection, field, itemId, ids) => references(P.DataPaths.bulkRemoveReferences, collection, field, itemId, ids),
    replaceReferences: (collection, field, itemId, ids) =>
      guard(first(checkCollection(collection), checkId(itemId)), () =>
        Effect.asVoid(post(collection, P.DataPaths.replaceReferences, {
          dataCollectionId: collection,
          referringItemFieldName: field,
          referringItemId: itemId,
          newReferencedItemIds: [...ids]
        }, A.ReplaceReferencesResponse))),
    bulkInsert: (collection, items, options) => bulkItems("insert", collection, items, options),
    bulkUpdate: (collection, items, options) => bulkItems("update", collection, items, options),
    bulkSave: (collection, items, options) => bulkItems("save", collection, items, options),
    bulkRemove,
    bulkPatch,
    bulkInsertReferences: (collection, refs) =>
      guard(checkCollection(collection), () => Effect.asVoid(post(collection, P.DataPaths.bulkInsertReferences, { dataCollectionId: collection, dataItemReferences: refs }, A.BulkReferencesResponse))),
    bulkRemoveReferences: (collection, refs) =>
      guard(checkCollection(collection), () => Effect.asVoid(post(collection, P.DataPaths.bulkRemoveReferences, { dataCollectionId: collection, dataItemReferences: refs }, A.BulkReferencesResponse))),
    patchByFilter: (collection, filter) =>
      new Patch(
        (fieldModifications) =>
          post(collection, P.DataPaths.asyncPatchByFilter, { dataCollectionId: collection, filter: filter.tree, fieldModifications }, A.AsyncJobResponse).pipe(
            Effect.map((r) => r.jobId)
          ),
        [],
        first(checkCollection(collection), filter.error)
      ),
    removeByFilter: (collection, filter) =>
      guard(first(checkCollection(collection), filter.error), () =>
        post(collection, P.DataPaths.asyncRemoveByFilter, { dataCollectionId: collection, filter: filter.tree }, A.AsyncJobResponse).pipe(Effect.map((r) => r.jobId))),
    jobStatus,
    awaitJob: (jobId, options = {}) =>
      jobStatus(jobId).pipe(
        Effect.repeat({ until: (s) => s.status === "SUCCEEDED" || s.status === "FAILED", schedule: pollEvery(options.every ?? "100 millis") })
      ),
    collections: collectionsApi
  }
}

const pollEvery = (every: Duration.Input) => Schedule.spaced(every)

/** Fills in per-item results for a chunk of which only `sent` went to the platform. */
const remapPartial = (
  chunk: ReadonlyArray<Indexed<ItemInput>>,
  sent: ReadonlyArray<Indexed<ItemInput>>,
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

// ---- typed collections ------------------------------------------------------------------------------

const decodeError = (collection: string, data: W.ItemData, error: Schema.SchemaError) =>
  badAnswer(
    "ITEM_DECODE_ERROR",
    `An item of [${collection}]${typeof data["_id"] === "string" ? ` (_id ${data["_id"]})` : ""} does not match its schema: ${error.message}`,
    collection
  )

const typedCollection = <S extends Schema.Codec<any, any>>(name: string, schema: S) => {
  type A = S["Type"]
  const decode = (data: W.ItemData): Effect.Effect<A, DataError> =>
    (Schema.decodeUnknownEffect(schema)(data) as Effect.Effect<A, Schema.SchemaError>).pipe(Effect.mapError((e) => decodeError(name, data, e)))
  const encode = (value: A): Effect.Effect<ItemInput, DataError> =>
    (Schema.encodeEffect(schema)(value) as Effect.Effect<ItemInput, Schema.SchemaError>).pipe(
      Effect.mapError((e) => new DataError({ reason: argumentError("ITEM_ENCODE_ERROR", `A value for [${name}] does not match its schema: ${e.message}`), collection: name }))
    )
  const withData = <B, E>(f: (data: DataItemsShape) => Effect.Effect<B, E>) => DataItems.use(f)
  const decodeItem = (item: Item) => decode(item as W.ItemData)
  return {
    name,
    schema,
    /** A query whose items decode to the schema's type. */
    get query(): Query<A, DataItems> {
      return new Query<A, DataItems>({
        collection: name,
        fetch: (request) => withData((d) => d.query(name).runner.fetch(request)),
        fetchPaged: (request) => withData((d) => d.query(name).runner.fetchPaged?.(request) ?? Effect.map(d.query(name).runner.fetch(request), (r) => ({ paging: r.pagingMetadata ?? {}, response: Effect.succeed(r) }))),
        count: (request) => withData((d) => d.query(name).runner.count(request)),
        distinct: (request) => withData((d) => d.query(name).runner.distinct(request)),
        decode
      })
    },
    get: (id: string, options?: ReadOptions) =>
      withData((d) => d.get(name, id, options)).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.succeed(Option.none<A>()), onSome: (item) => Effect.map(decodeItem(item), Option.some) }))
      ),
    insert: (value: A, options?: WriteOptions) =>
      encode(value).pipe(Effect.flatMap((item) => withData((d) => d.insert(name, item, options))), Effect.flatMap(decodeItem)),
    update: (value: A, options?: WriteOptions) =>
      encode(value).pipe(Effect.flatMap((item) => withData((d) => d.update(name, item as Item, options))), Effect.flatMap(decodeItem)),
    save: (value: A, options?: WriteOptions) =>
      encode(value).pipe(Effect.flatMap((item) => withData((d) => d.save(name, item, options))), Effect.flatMap((r) => decodeItem(r.item))),
    remove: (id: string, options?: WriteOptions) => withData((d) => d.remove(name, id, options)),
    bulkInsert: (values: ReadonlyArray<A> | Stream.Stream<A>, options?: BulkOptions) =>
      Effect.gen(function*() {
        const items = Array.isArray(values)
          ? yield* Effect.forEach(values, encode)
          : (values as Stream.Stream<A>).pipe(Stream.mapEffect(encode))
        return yield* withData((d) => d.bulkInsert(name, items as ReadonlyArray<ItemInput> | Stream.Stream<ItemInput, DataError>, options))
      })
  }
}

/**
 * Collection and index routes. Creating, changing, deleting and listing collections and indexes takes
 * an API key. Reading one collection (by id or slug, the slug being its id) or querying collections is
 * open to whoever may read the collection's items, so clients can learn the schema they work with.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import { DataPaths } from "../../data/protocol.ts"
import {
  CollectionFieldRequest,
  CollectionRequest,
  CollectionResponse,
  CollectionsListResponse,
  CreateIndexRequest,
  type DataCollection,
  DataCollectionResponse,
  DeleteCollectionFieldRequest,
  DropIndexRequest,
  IndexesListResponse,
  IndexResponse,
  ListCollectionsRequest,
  ListIndexesRequest,
  QueryCollectionsRequest
} from "../../data/wire/index.ts"
import type { Caller } from "../platform/Caller.ts"
import { Callers } from "../accounts/Callers.ts"
import { reply, replyEmpty } from "../platform/responses.ts"
import { pathParam, route } from "../platform/routing.ts"
import { accessFor, canRead } from "./access.ts"
import { DataCollections } from "./DataCollections.ts"
import { DataSettings } from "./DataSettings.ts"
import { attempt, toReject } from "../store/engineFailures.ts"
import { Indexes } from "./Indexes.ts"
import { checkFilter } from "../store/filters.ts"
import { offsetMetadata, pageRequest } from "./paging.ts"
import { dataBody } from "./requests.ts"
import { getPayload } from "../store/payload.ts"

const V2 = "/wix-data/v2"

export const collectionRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const collections = yield* DataCollections
  const indexes = yield* Indexes
  const settings = yield* DataSettings

  const body = <A, I>(schema: Schema.Codec<A, I>) => Effect.provideService(dataBody(schema), DataSettings, settings)

  /** A collection the caller may read: API keys always, others when its read permission lets them. */
  const readable = (id: string, caller: Caller) =>
    attempt((): DataCollection => {
      const collection = collections.require(id)
      accessFor(collection, "read", caller)
      return collection
    })

  const readOne = (id: string) =>
    Effect.gen(function*() {
      const caller = yield* callers.current
      return reply(CollectionResponse, { collection: yield* readable(id, caller) })
    })

  return [
    route(
      "POST",
      DataPaths.collections,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* body(CollectionRequest)
        return reply(CollectionResponse, { collection: yield* attempt(() => collections.create(request.collection)) })
      })
    ),
    route(
      "PUT",
      DataPaths.collections,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* body(CollectionRequest)
        return reply(CollectionResponse, { collection: yield* attempt(() => collections.update(request.collection)) })
      })
    ),
    route(
      "GET",
      DataPaths.collections,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* getPayload(ListCollectionsRequest, { numbers: ["paging.limit", "paging.offset"] })
        const page = yield* pageOf(collections.list(), request.paging)
        return reply(CollectionsListResponse, { collections: page.items, pagingMetadata: page.pagingMetadata })
      })
    ),
    route(
      "GET",
      DataPaths.collectionsQuery,
      Effect.gen(function*() {
        const caller = yield* callers.current
        const request = yield* getPayload(QueryCollectionsRequest)
        const q = request.query ?? {}
        const found = yield* attempt(() => collections.query(checkFilter(q.filter, "query.filter"), q.sort ?? []))
        const page = yield* pageOf(found.filter((c) => canRead(c, caller)), q.paging)
        return reply(CollectionsListResponse, { collections: page.items, pagingMetadata: page.pagingMetadata })
      })
    ),
    route("GET", `${V2}/collections/slug/:slug`, Effect.flatMap(pathParam("slug"), readOne)),
    route("GET", `${V2}/collections/:id`, Effect.flatMap(pathParam("id"), readOne)),
    route(
      "DELETE",
      `${V2}/collections/:id`,
      Effect.gen(function*() {
        yield* callers.admin
        const id = yield* pathParam("id")
        yield* attempt(() => collections.remove(id))
        return replyEmpty()
      })
    ),
    route(
      "POST",
      DataPaths.createField,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* body(CollectionFieldRequest)
        const dataCollection = yield* attempt(() => collections.createField(request.dataCollectionId, request.field))
        return reply(DataCollectionResponse, { dataCollection })
      })
    ),
    route(
      "POST",
      DataPaths.updateField,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* body(CollectionFieldRequest)
        const dataCollection = yield* attempt(() => collections.updateField(request.dataCollectionId, request.field))
        return reply(DataCollectionResponse, { dataCollection })
      })
    ),
    route(
      "POST",
      DataPaths.deleteField,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* body(DeleteCollectionFieldRequest)
        const dataCollection = yield* attempt(() => collections.deleteField(request.dataCollectionId, request.fieldKey))
        return reply(DataCollectionResponse, { dataCollection })
      })
    ),
    route(
      "POST",
      DataPaths.indexes,
      Effect.gen(function*() {
        const actor = yield* callers.admin
        const request = yield* body(CreateIndexRequest)
        const index = yield* indexes.create(request.dataCollectionId, request.index, actor).pipe(Effect.mapError(toReject))
        return reply(IndexResponse, { index })
      })
    ),
    route(
      "GET",
      DataPaths.indexes,
      Effect.gen(function*() {
        yield* callers.admin
        const request = yield* getPayload(ListIndexesRequest, { numbers: ["paging.limit", "paging.offset"] })
        const all = yield* attempt(() => indexes.list(request.dataCollectionId))
        const page = yield* pageOf(all, request.paging)
        return reply(IndexesListResponse, { indexes: page.items, pagingMetadata: page.pagingMetadata })
      })
    ),
    route(
      "DELETE",
      DataPaths.indexes,
      Effect.gen(function*() {
        const actor = yield* callers.admin
        const request = yield* getPayload(DropIndexRequest)
        yield* attempt(() => indexes.drop(request.dataCollectionId, request.indexName, actor))
        return replyEmpty()
      })
    )
  ]
}))

/** One page of an in-memory list (collections and indexes are few). */
export const pageOf = <A>(all: ReadonlyArray<A>, paging: { readonly limit?: number | null; readonly offset?: number | null } | undefined) =>
  attempt(() => {
    const page = pageRequest(paging, undefined)
    const offset = page.mode === "offset" ? page.offset : 0
    const items = all.slice(offset, offset + page.limit)
    return { items, pagingMetadata: offsetMetadata(items.length, offset, offset + page.limit < all.length, all.length) }
  })

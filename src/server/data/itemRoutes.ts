/**
 * Routes of single items and of reading many: get, insert, update, save, patch, remove, truncate,
 * query (GET with `.r` or POST), count, distinct values, search, aggregate and aggregate pipeline.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import { DataPaths } from "../../data/protocol.ts"
import {
  AggregateDataItemsRequest,
  AggregateDataItemsResponse,
  AggregatePipelineRequest,
  AggregatePipelineResponse,
  CountDataItemsRequest,
  CountDataItemsResponse,
  type DataItem,
  DataItemResponse,
  GetDataItemRequest,
  InsertDataItemRequest,
  PatchDataItemRequest,
  QueryDataItemsRequest,
  QueryDistinctValuesRequest,
  QueryDistinctValuesResponse,
  RemoveDataItemRequest,
  SaveDataItemRequest,
  SaveDataItemResponse,
  SearchDataItemsRequest,
  TruncateDataItemsRequest,
  UpdateDataItemRequest
} from "../../data/wire/index.ts"
import { Callers } from "../accounts/Callers.ts"
import { reply, replyEmpty, replyJson } from "../platform/responses.ts"
import { pathParam, query, route } from "../platform/routing.ts"
import { Aggregations } from "./Aggregations.ts"
import { DataCollections } from "./DataCollections.ts"
import { DataSettings } from "./DataSettings.ts"
import { attempt } from "../store/engineFailures.ts"
import { judgedRead } from "./Scans.ts"
import { type DataEnvironment, publicId } from "./environments.ts"
import { aggregateStages } from "./pipeline.ts"
import { Reads } from "./Reads.ts"
import { dataBody } from "./requests.ts"
import { getPayload } from "../store/payload.ts"
import type { Json } from "../store/values.ts"
import { ItemWrites } from "./Writes.ts"

export const itemRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const collections = yield* DataCollections
  const writes = yield* ItemWrites
  const reads = yield* Reads
  const aggregations = yield* Aggregations
  const settings = yield* DataSettings

  const body = <A, I>(schema: Schema.Codec<A, I>) => Effect.provideService(dataBody(schema), DataSettings, settings)
  const collectionOf = (id: string, environment?: DataEnvironment) => attempt(() => collections.inEnvironment(id, environment))

  /** A single write: decode, find the collection, write in one transaction, answer the item. */
  const single = <R extends { readonly dataCollectionId: string; readonly suppressHooks?: boolean; readonly environment?: DataEnvironment }>(
    schema: Schema.Codec<R, unknown>,
    write: (ctx: Parameters<Parameters<typeof writes.commit>[3]>[0], request: R) => Json
  ) =>
    Effect.gen(function*() {
      const request = yield* body(schema)
      const caller = yield* callers.current
      const collection = yield* collectionOf(request.dataCollectionId, request.environment)
      const item = yield* writes.commit(collection, caller, request.suppressHooks, (ctx) => write(ctx, request))
      return reply(DataItemResponse, { dataItem: wireItem(collection.id, item) })
    })

  const get = (id: string) =>
    Effect.gen(function*() {
      const request = yield* getPayload(GetDataItemRequest, { arrays: ["fields"], booleans: ["consistentRead"] }, { dataItemId: id })
      const caller = yield* callers.current
      const collection = yield* collectionOf(request.dataCollectionId, request.environment)
      const dataItem = yield* attempt(() => reads.get(collection, caller, request.dataItemId, request))
      return reply(DataItemResponse, { dataItem })
    })

  const queryItems = (request: typeof QueryDataItemsRequest.Type) =>
    Effect.gen(function*() {
      const caller = yield* callers.current
      const collection = yield* collectionOf(request.dataCollectionId, request.environment)
      const q = request.query ?? {}
      const includes = request.includeReferences ?? request.includeReferencedItems?.map((field) => ({ field }))
      const response = yield* judgedRead(() =>
        reads.query(collection, caller, {
          filter: q.filter,
          sort: q.sort,
          fields: q.fields,
          paging: q.paging,
          cursorPaging: q.cursorPaging,
          returnTotalCount: request.returnTotalCount,
          includeReferences: includes
        })
      )
      return replyJson(response)
    })

  return [
    route("GET", "/wix-data/v2/items/:dataItemId", Effect.flatMap(pathParam("dataItemId"), get)),
    route("POST", DataPaths.insert, single(InsertDataItemRequest, (ctx, r) => writes.insert(ctx, r.dataItem).item)),
    route("POST", DataPaths.update, single(UpdateDataItemRequest, (ctx, r) => writes.update(ctx, r.dataItem).item)),
    route("POST", DataPaths.patch, single(PatchDataItemRequest, (ctx, r) => writes.patch(ctx, r.patch.dataItemId, r.patch.fieldModifications).item)),
    route("POST", DataPaths.remove, single(RemoveDataItemRequest, (ctx, r) => writes.remove(ctx, r.dataItemId))),
    route(
      "POST",
      DataPaths.save,
      Effect.gen(function*() {
        const request = yield* body(SaveDataItemRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        const written = yield* writes.commit(collection, caller, request.suppressHooks, (ctx) => writes.save(ctx, request.dataItem))
        return reply(SaveDataItemResponse, { action: written.action, dataItem: wireItem(collection.id, written.item) })
      })
    ),
    route(
      "POST",
      DataPaths.truncate,
      Effect.gen(function*() {
        const request = yield* body(TruncateDataItemsRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        yield* writes.commit(collection, caller, undefined, (ctx) => writes.truncate(ctx))
        return replyEmpty()
      })
    ),
    route(
      "GET",
      DataPaths.query,
      Effect.gen(function*() {
        // an item whose id is literally "query" is fetched with its id in the parameters
        const params = yield* query
        if (!params.has(".r") && params.has("dataItemId")) return yield* get(params.get("dataItemId") ?? "")
        return yield* queryItems(yield* getPayload(QueryDataItemsRequest))
      })
    ),
    route("POST", DataPaths.query, Effect.flatMap(body(QueryDataItemsRequest), queryItems)),
    route(
      "POST",
      DataPaths.count,
      Effect.gen(function*() {
        const request = yield* body(CountDataItemsRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        const totalCount = yield* judgedRead(() => reads.count(collection, caller, request.filter))
        return reply(CountDataItemsResponse, { totalCount })
      })
    ),
    route(
      "POST",
      DataPaths.distinct,
      Effect.gen(function*() {
        const request = yield* body(QueryDistinctValuesRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        return reply(QueryDistinctValuesResponse, yield* judgedRead(() => reads.distinct(collection, caller, request)))
      })
    ),
    route(
      "POST",
      DataPaths.search,
      Effect.gen(function*() {
        const request = yield* body(SearchDataItemsRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        const s = request.search
        const response = yield* judgedRead(() =>
          reads.query(collection, caller, {
            filter: s.filter,
            sort: s.sort,
            fields: s.fields,
            paging: s.paging,
            cursorPaging: s.cursorPaging,
            includeReferences: request.includeReferences,
            search: s.search ?? {}
          })
        )
        return replyJson(response)
      })
    ),
    route(
      "POST",
      DataPaths.aggregate,
      Effect.gen(function*() {
        const request = yield* body(AggregateDataItemsRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        const response = yield* judgedRead(() =>
          aggregations.run(collection, caller, "aggregate", {
            stages: aggregateStages(request),
            paging: request.paging,
            cursorPaging: request.cursorPaging,
            returnTotalCount: request.returnTotalCount,
            groupFieldsOnTop: true
          })
        )
        return reply(AggregateDataItemsResponse, response)
      })
    ),
    route(
      "POST",
      DataPaths.aggregatePipeline,
      Effect.gen(function*() {
        const request = yield* body(AggregatePipelineRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        const response = yield* judgedRead(() =>
          aggregations.run(collection, caller, "pipeline", {
            stages: request.pipeline.stages,
            paging: request.pipeline.paging,
            cursorPaging: request.pipeline.cursorPaging,
            returnTotalCount: request.returnTotalCount
          })
        )
        return reply(AggregatePipelineResponse, response)
      })
    )
  ]
}))

/** An item as it travels: `_id` stays in the data and is copied to `id`. */
export const wireItem = (collectionId: string, data: Json): DataItem => ({
  id: String(data["_id"]),
  dataCollectionId: publicId(collectionId),
  data
})

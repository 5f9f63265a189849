/**
 * Aggregations over a collection's items: the {@link Aggregate} builder's runner, and aggregation
 * pipelines. Their own module, so a page that never aggregates carries neither.
 */
import * as Effect from "effect/Effect"
import { unlessInvalid } from "../http/checks.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { Aggregate } from "./Aggregate.ts"
import { checkCollection, type DataFailure, post, type ReadOptions } from "./calls.ts"
import { withClient } from "./withClient.ts"
import { AggregateDataItemsResponse } from "./guards/aggregation.ts"
import { DataPaths } from "./protocol.ts"
import type * as W from "./wire/index.ts"

/** An aggregation of a collection's items (group, count, sum, avg, min, max, having); `run` sends it. */
export const aggregate = (collection: string): Aggregate<PlatformClient> =>
  new Aggregate(collection, (request) =>
    unlessInvalid(checkCollection(collection), () => withClient((client) => post(client, collection, DataPaths.aggregate, request, AggregateDataItemsResponse, true))))

/** Runs an aggregation pipeline (stages of group, filter, sort, projection, skip, limit, ...); one page of results. */
export const pipeline = (
  collection: string,
  stages: ReadonlyArray<W.PipelineStage>,
  options: ReadOptions & { readonly limit?: number; readonly skip?: number } = {}
): Effect.Effect<{ readonly items: ReadonlyArray<W.ItemData>; readonly hasNext: boolean }, DataFailure, PlatformClient> => {
  const { limit, skip, ...read } = options
  return unlessInvalid(checkCollection(collection), () =>
    withClient((client) =>
      post(client, collection, DataPaths.aggregatePipeline, {
        dataCollectionId: collection,
        pipeline: { stages, ...(limit === undefined && skip === undefined ? {} : { paging: { ...(limit === undefined ? {} : { limit }), offset: skip ?? 0 } }) },
        ...read
      }, AggregateDataItemsResponse, true).pipe(Effect.map((r) => ({ items: r.results, hasNext: r.pagingMetadata?.hasNext === true })))
    ))
}

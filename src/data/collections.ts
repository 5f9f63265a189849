/** The site's data collections, as the data client reads them: one by id or slug, or a filtered list. */
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import { unlessInvalid } from "../http/checks.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { call, type DataFailure, notFoundIsNone } from "./calls.ts"
import { WDE } from "./DataError.ts"
import { withClient } from "./withClient.ts"
import type { Filter } from "./Filter.ts"
import { CollectionResponse, CollectionsListResponse } from "./guards/collections.ts"
import { DataPaths, DEFAULT_PAGE_SIZE } from "./protocol.ts"
import type * as W from "./wire/index.ts"

/** Data collections: `get(id)`, `bySlug(slug)` (none when there is no such collection), `query({ filter, limit, skip })`. */
export const collections = {
  get: (id: string): Effect.Effect<Option.Option<W.DataCollection>, DataFailure, PlatformClient> =>
    withClient((client) =>
      notFoundIsNone(
        call(client, id, { method: "GET", path: DataPaths.collection(id), payload: { dataCollectionId: id } }, CollectionResponse).pipe(Effect.map((r) => r.collection)),
        WDE.collectionNotFound
      )
    ),
  bySlug: (slug: string): Effect.Effect<Option.Option<W.DataCollection>, DataFailure, PlatformClient> =>
    withClient((client) =>
      notFoundIsNone(
        call(client, slug, { method: "GET", path: DataPaths.collectionBySlug(slug), payload: { slug } }, CollectionResponse).pipe(Effect.map((r) => r.collection)),
        WDE.collectionNotFound
      )
    ),
  query: (
    query: { readonly filter?: Filter; readonly limit?: number; readonly skip?: number } = {}
  ): Effect.Effect<ReadonlyArray<W.DataCollection>, DataFailure, PlatformClient> =>
    unlessInvalid(query.filter?.error, () =>
      withClient((client) =>
        call(client, undefined, {
          method: "GET",
          path: DataPaths.collectionsQuery,
          payload: { query: { ...(query.filter === undefined ? {} : { filter: query.filter.tree }), paging: { limit: query.limit ?? DEFAULT_PAGE_SIZE, offset: query.skip ?? 0 } } },
          complex: {}
        }, CollectionsListResponse).pipe(Effect.map((r) => r.collections))
      ))
}

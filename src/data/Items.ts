/**
 * The data client as separate functions: each needs only the `PlatformClient` a session or an API key
 * provides, and a bundler keeps only the ones a page calls. A page that runs one query carries the query
 * and nothing of bulk writes, aggregation, references or typed collections. `DataItems` offers the same
 * operations (and the rest) as one service.
 *
 * @example
 * import { Items } from "sitefx/data"
 * const page = yield* Items.query("Posts").eq("published", true).limit(10).find
 * const post = yield* Items.insert("Posts", { title: "Hello" })
 */
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import { PlatformClient, type PlatformClientShape } from "../http/PlatformClient.ts"
import { checkCollection, type DataFailure, type Item, type ItemInput, type ReadOptions, type WriteOptions } from "./calls.ts"
import type { Filter } from "./Filter.ts"
import { countItems, getItem, insertItem, patchChecks, patchItem, removeItem, saveItem, truncateItems, updateItem } from "./itemCalls.ts"
import { Patch } from "./Patch.ts"
import { Query, type QueryRunner } from "./Query.ts"
import { checked, itemsRunner, searchChecks, type SearchOptions, searchRunner } from "./queryItems.ts"

const withClient = <A, E>(f: (client: PlatformClientShape) => Effect.Effect<A, E>): Effect.Effect<A, E, PlatformClient> => Effect.flatMap(PlatformClient, f)

/** A runner that takes the platform client from the environment when it runs. */
const lift = (collection: string, runnerOf: (client: PlatformClientShape) => QueryRunner<Item, never>): QueryRunner<Item, PlatformClient> => ({
  collection,
  asIs: true,
  decode: (data) => Effect.succeed(data as Item),
  fetch: (request) => withClient((client) => runnerOf(client).fetch(request)),
  fetchPaged: (request) =>
    withClient((client) => {
      const runner = runnerOf(client)
      return runner.fetchPaged === undefined
        ? Effect.map(runner.fetch(request), (r) => ({ paging: r.pagingMetadata ?? {}, response: Effect.succeed(r) }))
        : runner.fetchPaged(request)
    }),
  count: (request) => withClient((client) => runnerOf(client).count(request)),
  distinct: (request) => withClient((client) => runnerOf(client).distinct(request))
})

/** A query over a collection's items (filter, sort, page, stream). */
export const query = (collection: string): Query<Item, PlatformClient> =>
  checked(new Query(lift(collection, (client) => itemsRunner(client, collection))), checkCollection(collection))

/** Full-text search; the result is a query you can filter, sort, page and stream. */
export const search = (collection: string, expression: string, options?: SearchOptions): Query<Item, PlatformClient> =>
  checked(new Query(lift(collection, (client) => searchRunner(client, collection, expression, options))), searchChecks(collection, expression))

export const get = (collection: string, id: string, options?: ReadOptions): Effect.Effect<Option.Option<Item>, DataFailure, PlatformClient> =>
  withClient((client) => getItem(client, collection, id, options))

export const insert = (collection: string, item: ItemInput, options?: WriteOptions): Effect.Effect<Item, DataFailure, PlatformClient> =>
  withClient((client) => insertItem(client, collection, item, options))

export const update = (collection: string, item: Item, options?: WriteOptions): Effect.Effect<Item, DataFailure, PlatformClient> =>
  withClient((client) => updateItem(client, collection, item, options))

/** Inserts or replaces; `action` says which. */
export const save = (collection: string, item: ItemInput, options?: WriteOptions) => withClient((client) => saveItem(client, collection, item, options))

/** The removed item, or none when it did not exist. */
export const remove = (collection: string, id: string, options?: WriteOptions): Effect.Effect<Option.Option<Item>, DataFailure, PlatformClient> =>
  withClient((client) => removeItem(client, collection, id, options))

export const truncate = (collection: string): Effect.Effect<void, DataFailure, PlatformClient> => withClient((client) => truncateItems(client, collection))

export const count = (collection: string, filter?: Filter, options?: ReadOptions): Effect.Effect<number, DataFailure, PlatformClient> =>
  withClient((client) => countItems(client, collection, filter, options))

/** Field modifications on one item, sent by `run`. */
export const patch = (collection: string, id: string, options?: WriteOptions): Patch<Item, PlatformClient> => {
  return new Patch(
    (modifications) => withClient((client) => patchItem(client, collection, id, options).runner(modifications)),
    [],
    patchChecks(collection, id)
  )
}

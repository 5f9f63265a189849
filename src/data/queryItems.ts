/**
 * Queries and full-text search over a collection's items: the requests, the page answers (checked by a
 * guard, paging read ahead of the parse), and the runner a {@link Query} pages with, which takes the
 * platform client from the environment when it runs.
 */
import * as Effect from "effect/Effect"
import { first } from "../http/checks.ts"
import { checkBody, type PlatformClient, type PlatformClientShape } from "../http/PlatformClient.ts"
import { parseAnswer } from "../http/PlatformHttp.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { type DataFailure, checkCollection, failure, type Item, post } from "./calls.ts"
import { badAnswer, type DataError, invalid, WDE } from "./DataError.ts"
import { withClient } from "./withClient.ts"
import { CountDataItemsResponse, QueryDataItemsResponse, QueryDistinctValuesResponse } from "./guards/queries.ts"
import { DATA_QUERY_MAX_URL, DataPaths } from "./protocol.ts"
import { type PagedAnswer, Query, type QueryRunner } from "./Query.ts"
import { peekPagingMetadata, samePaging } from "./readAhead.ts"
import type * as W from "./wire/index.ts"

/** How a full-text search matches: fuzzy or exact, all words or any. */
export interface SearchOptions {
  readonly fuzzy?: boolean
  readonly mode?: "OR" | "AND"
}

const queryRequest = (request: W.QueryDataItemsRequest): PlatformRequest => ({
  method: "GET",
  path: DataPaths.query,
  payload: request as unknown as Record<string, unknown>,
  complex: { fallback: { path: DataPaths.query, limit: { kind: "url", max: DATA_QUERY_MAX_URL } } },
  idempotent: true,
  dates: true
})

const pageCall = (client: PlatformClientShape, collection: string, req: PlatformRequest): Effect.Effect<W.QueryDataItemsResponse, DataFailure> =>
  client.request({ ...req, dates: true }).pipe(Effect.flatMap((res) => checkBody(req, res, QueryDataItemsResponse)), Effect.mapError(failure(collection)))

/**
 * A query page whose paging is read from the end of the answer's text (where the platform writes it)
 * before the whole answer is parsed; the full parse later must agree with it. When the paging cannot
 * be read that way, the answer is parsed at once.
 */
const fetchPaged = (client: PlatformClientShape, collection: string, request: W.QueryDataItemsRequest): Effect.Effect<PagedAnswer, DataFailure> => {
  const req: PlatformRequest = { ...queryRequest(request), raw: true }
  return client.request(req).pipe(
    Effect.mapError(failure(collection)),
    Effect.flatMap((res) => {
      const full = parseAnswer(req, res).pipe(
        Effect.flatMap((parsed) => checkBody(req, parsed, QueryDataItemsResponse)),
        Effect.mapError(failure(collection))
      )
      const peeked = typeof res.body === "string" ? peekPagingMetadata(res.body) : undefined
      if (peeked === undefined) return Effect.map(full, (r): PagedAnswer => ({ paging: r.pagingMetadata ?? {}, response: Effect.succeed(r) }))
      return Effect.succeed<PagedAnswer>({
        paging: peeked,
        response: Effect.flatMap(full, (r) =>
          samePaging(peeked, r.pagingMetadata ?? {})
            ? Effect.succeed(r)
            : Effect.fail(badAnswer(WDE.serverInvalidResponse, `WDE0055: The paging read ahead of the answer of [${collection}] is not the answer's paging.`, collection)))
      })
    })
  )
}

/** How a query of plain items reaches the platform. */
export const itemsRunner = (client: PlatformClientShape, collection: string): QueryRunner<Item, never> => ({
  collection,
  fetch: (request) => pageCall(client, collection, queryRequest(request)),
  fetchPaged: (request) => fetchPaged(client, collection, request),
  count: (request) => Effect.map(post(client, collection, DataPaths.count, request, CountDataItemsResponse, true), (r) => r.totalCount),
  distinct: (request) => post(client, collection, DataPaths.distinct, request, QueryDistinctValuesResponse, true),
  decode: (data) => Effect.succeed(data as Item),
  asIs: true
})

/** A query's own checks, kept with it and failed when it runs. */
export const checked = <A, R>(q: Query<A, R>, bad: DataError | undefined): Query<A, R> => (bad === undefined ? q : new Query(q.runner, q.state, [], bad))

/**
 * A runner that takes the platform client from the environment when it runs; its items are decoded by
 * `decode` when given (a typed collection), else taken as they come.
 */
export const lift = <A = Item>(
  collection: string,
  runnerOf: (client: PlatformClientShape) => QueryRunner<Item, never>,
  decode?: (data: W.ItemData) => Effect.Effect<A, DataError>
): QueryRunner<A, PlatformClient> => ({
  collection,
  ...(decode === undefined ? { asIs: true, decode: (data) => Effect.succeed(data as A) } : { decode }),
  fetch: (request) => withClient((client) => runnerOf(client).fetch(request)),
  fetchPaged: (request) =>
    withClient((client) => {
      const runner = runnerOf(client)
      return runner.fetchPaged === undefined
        ? Effect.map(runner.fetch(request), (r): PagedAnswer => ({ paging: r.pagingMetadata ?? {}, response: Effect.succeed(r) }))
        : runner.fetchPaged(request)
    }),
  count: (request) => withClient((client) => runnerOf(client).count(request)),
  distinct: (request) => withClient((client) => runnerOf(client).distinct(request))
})

/** A query over a collection's items: filter, sort, page (`find`, `pages`), `stream`, `count`, `distinct`. */
export const query = (collection: string): Query<Item, PlatformClient> =>
  checked(new Query(lift(collection, (client) => itemsRunner(client, collection))), checkCollection(collection))

/** How a full-text search reaches the platform: its pages come from the search call (no read-ahead). */
export const searchRunner = (client: PlatformClientShape, collection: string, expression: string, options: SearchOptions = {}): QueryRunner<Item, never> => {
  const { fetchPaged: _, ...base } = itemsRunner(client, collection)
  return {
    ...base,
    fetch: (request) => {
      const { query: body, dataCollectionId, includeReferences, language } = request
      return pageCall(client, collection, {
        method: "POST",
        path: DataPaths.search,
        idempotent: true,
        payload: {
          dataCollectionId,
          search: {
            ...body,
            ...(body?.cursorPaging === undefined ? { search: { expression, ...options } } : {})
          },
          ...(includeReferences === undefined || includeReferences.length === 0 ? {} : { includeReferences }),
          ...(language === undefined ? {} : { language })
        }
      })
    }
  }
}

const searchChecks = (collection: unknown, expression: unknown): DataError | undefined =>
  first(checkCollection(collection), typeof expression === "string" ? undefined : invalid(WDE.notString, "Search expression must be a string.", "expression"))

/** Full-text search; the result is a query you can filter, sort, page and stream. */
export const search = (collection: string, expression: string, options?: SearchOptions): Query<Item, PlatformClient> =>
  checked(new Query(lift(collection, (client) => searchRunner(client, collection, expression, options))), searchChecks(collection, expression))

/**
 * A page's first screen before the client has loaded: the session's token asked for at once, each
 * query's first page asked for as soon as the token is in, sent as the client would send it, and the
 * answers handed to the query atoms as `hydrate` takes them, keyed as the atoms key the same queries.
 */
import { DEFAULT_EDGE_URL, DEFAULT_API_URL, trimSlash } from "../http/hosts.ts"
import { dotRWire } from "../http/dotR.ts"
import type { DehydratedQueries, DehydratedQuery } from "../react/hydration.ts"
import type { FirstAnswerPage, FirstQuery } from "./catalogQueries.ts"
import { type FirstScreenOptions, sessionToken } from "./sessionToken.ts"

/** A query's first page as the platform answered it, and the key of the query atom it seeds. */
export interface FirstAnswer<A> extends FirstAnswerPage<A> {
  readonly key: string
}

/** The first screen's requests: the session's token, the queries' first pages, and their handover. */
export interface FirstScreen {
  /** The session's access token (see `sessionToken`): undefined when there is none to be had before the client loads. */
  readonly token: Promise<string | undefined>
  /**
   * A query's first page, asked for once the token is in: undefined when it was not asked (no token, a
   * query the client would refuse) or did not answer with a page (the query atom then asks, and says why).
   */
  readonly query: <A>(query: FirstQuery<A>) => Promise<FirstAnswer<A> | undefined>
  /** Once every query asked so far has its answer: the pages, for `hydrate(registry, ...)` of `sitefx/react`. */
  readonly dehydrated: () => Promise<DehydratedQueries>
}

/**
 * Starts a page's first screen: asks for the session's token at once (from the store the tabs share,
 * else from the token endpoint under the tabs' lock), and sends each query given to `query` as soon as
 * it is in. The client that loads later finds the token in the store, and its query atoms take the
 * answers from `dehydrated()` through `hydrate`: nothing is asked twice.
 *
 * @example
 * import { collections, firstScreen, products } from "sitefx/first-screen"
 * import { AtomRegistry, hydrate } from "sitefx/react"
 *
 * const first = firstScreen({ clientId: "my-client-id" })
 * const grid = first.query(products({ limit: 24, sort: [{ fieldName: "createdDate", order: "DESC" }] }))
 * const nav = first.query(collections({ limit: 100, sort: [{ fieldName: "name", order: "ASC" }] }))
 * // draw the screen from `(await grid)?.items`; then, in the app on sitefx/react, before it renders:
 * const registry = AtomRegistry.make()
 * hydrate(registry, await first.dehydrated())
 */
export const firstScreen = (options: FirstScreenOptions): FirstScreen => {
  const token = sessionToken(options)
  // the session's calls go to the edge host, as the client's do
  const host = trimSlash((options.cdn ?? true)
    ? options.edgeUrl ?? options.baseUrl ?? DEFAULT_EDGE_URL
    : options.apiUrl ?? options.baseUrl ?? DEFAULT_API_URL)
  const fetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const asked: Array<Promise<FirstAnswer<unknown> | undefined>> = []

  const send = async <A>(query: FirstQuery<A>): Promise<FirstAnswer<A> | undefined> => {
    const request = query.request
    const authorization = await token
    if (request === undefined || authorization === undefined) return undefined
    const wire = dotRWire(host, request.path, request.payload, request.fallback)
    const headers: Record<string, string> = wire.body === undefined
      ? { Authorization: authorization }
      : { "content-type": "application/json", Authorization: authorization }
    const response = await fetch(wire.url, { method: wire.method, headers, ...(wire.body === undefined ? {} : { body: wire.body }) })
    if (response.status !== 200) return undefined
    const page = query.read(JSON.parse(await response.text()))
    return page === undefined ? undefined : { key: query.key, ...page }
  }

  const query = <A>(q: FirstQuery<A>): Promise<FirstAnswer<A> | undefined> => {
    const answer = send(q).catch(() => undefined)
    asked.push(answer)
    return answer
  }

  const dehydrated = async (): Promise<DehydratedQueries> => {
    const queries: Record<string, DehydratedQuery> = {}
    for (const answer of await Promise.all(asked)) {
      if (answer === undefined) continue
      queries[answer.key] = { items: answer.items, hasMore: answer.hasMore, pages: 1, ...(answer.total === undefined ? {} : { total: answer.total }) }
    }
    return { sitefxQueries: 1, queries }
  }

  return { token, query, dehydrated }
}

/**
 * The store's abandoned carts, for the store owner (an API key): one cart by id, and queries over all
 * of them, by status, buyer, time or total, sorted and paged, or walked to the end as a Stream. Each
 * function needs only the `PlatformClient` an API-key site provides.
 *
 * @example
 * import { AbandonedCarts } from "sitefx/catalog"
 * const open = yield* AbandonedCarts.query().eq("status", "ABANDONED").descending("abandonTime").limit(20).find
 * const all = yield* AbandonedCarts.query().stream.pipe(Stream.runCollect)
 */
import * as Effect from "effect/Effect"
import { unlessInvalid } from "../http/checks.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { ANY_STORE, call, type CatalogFailure, requireCatalog } from "./calls.ts"
import { badAnswer, CatalogError, invalidArgument } from "./CatalogError.ts"
import * as G from "./guards/carts.ts"
import { OffsetQuery, type OffsetQueryBody, type Sort } from "./OffsetQuery.ts"
import { CartCodes, CartPaths } from "./protocol.ts"
import type { QueryAbandonedCartsRequest } from "./wire/carts.ts"

export { CartCodes, MAX_CARTS_PAGE } from "./protocol.ts"
export type { CartStatus } from "./protocol.ts"

/** A cart its buyer left before paying: its status, buyer, total and history. */
export type AbandonedCart = G.AbandonedCart

const nonEmpty = (value: unknown, field: string): CatalogError | undefined =>
  typeof value === "string" && value !== "" ? undefined : invalidArgument(`${field} must be a non-empty string`, field)

/**
 * The cart with this id (the original cart's id); ABANDONED_CART_NOT_FOUND when there is none.
 *
 * @example
 * import * as AbandonedCarts from "sitefx/catalog/abandoned-carts"
 * declare const cartId: string
 * const cart = yield* AbandonedCarts.get(cartId)
 * if (cart.status === "ABANDONED") console.log(`remind ${cart.buyerInfo?.email} of ${cart.total}`)
 */
export const get = (id: string): Effect.Effect<G.AbandonedCart, CatalogFailure, PlatformClient> =>
  unlessInvalid(nonEmpty(id, "id"), () =>
    requireCatalog(ANY_STORE, "AbandonedCarts.get", (client) =>
      call(client, { method: "GET", path: CartPaths.cart(id), payload: { id } }, G.GetAbandonedCartResponse).pipe(
        Effect.flatMap(({ abandonedCart }) =>
          abandonedCart === undefined
            ? Effect.fail(badAnswer(CartCodes.notFound, `Abandoned cart ${id} was not found`))
            : Effect.succeed(abandonedCart)
        )
      )))

/** A query's sort as the wire's JSON text: `[{"abandonTime":"desc"}]`. */
const sortText = (sort: ReadonlyArray<Sort>): string => JSON.stringify(sort.map((s) => ({ [s.fieldName]: s.order.toLowerCase() })))

/** A page's query as the carts call takes it: filter and sort as JSON text, an empty filter left out. */
const cartsRequest = (query: OffsetQueryBody): QueryAbandonedCartsRequest => ({
  query: {
    ...(Object.keys(query.filter).length === 0 ? {} : { filter: JSON.stringify(query.filter) }),
    ...(query.sort === undefined || query.sort.length === 0 ? {} : { sort: sortText(query.sort) }),
    paging: query.paging
  }
})

/**
 * A query over the site's abandoned carts, with the filter methods of data queries over the cart's
 * fields (`eq("status", "ABANDONED")`, `ge("abandonTime", date)`, `in("id", ids)`,
 * `eq("buyerInfo.email", email)`, `or(...)`), `ascending`/`descending`, `limit` (at most 100) and `skip`;
 * `find` gives one page with `next`/`prev` and the total, `pages`/`stream` walk every page. Dates are
 * compared as ISO text, as the carts hold them.
 *
 * @example
 * import * as AbandonedCarts from "sitefx/catalog/abandoned-carts"
 * const lastWeek = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString()
 * const recent = yield* AbandonedCarts.query().eq("status", "ABANDONED").ge("abandonTime", lastWeek).descending("abandonTime").find
 * const emails = yield* AbandonedCarts.query().eq("status", "RECOVERED").stream.pipe(
 *   Stream.map((cart) => cart.buyerInfo?.email),
 *   Stream.runCollect
 * )
 */
export const query = (): OffsetQuery<AbandonedCart> =>
  new OffsetQuery({
    what: "AbandonedCarts.query",
    fetch: (q) =>
      Effect.flatMap(
        Effect.try({ try: () => cartsRequest(q), catch: (e) => invalidArgument(`AbandonedCarts.query: the filter cannot be written as JSON (${String(e)})`, "filter") }),
        (payload) =>
          requireCatalog(ANY_STORE, "AbandonedCarts.query", (client) =>
            call(client, { method: "POST", path: CartPaths.query, payload, idempotent: true }, G.QueryAbandonedCartsResponse).pipe(
              Effect.map((r) => {
                const items = r.abandonedCarts ?? []
                return { items, paging: { total: r.totalResults, offset: q.paging.offset, count: items.length } }
              })
            ))
      )
  })

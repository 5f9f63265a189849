/**
 * The abandoned-carts admin calls: `GET /v1/abandonedCarts/{id}` → `{abandonedCart}` and
 * `POST /v1/abandonedCarts/query` → `{abandonedCarts, totalResults}` (the data filter language, a sort
 * list and offset paging, JSON text or JSON). Abandoned carts are the store owner's data: both need an
 * API key, and a visitor or member gets 403. Both first abandon the carts that are due by the platform's
 * clock (AbandonedCartStore's `catchUp`), so a read sees every cart abandoned by then.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { CartPaths, DEFAULT_CARTS_PAGE, MAX_CARTS_PAGE } from "../../../catalog/protocol.ts"
import { GetAbandonedCartResponse, QueryAbandonedCartsRequest, QueryAbandonedCartsResponse } from "../../../catalog/wire/carts.ts"
import { reply } from "../../platform/responses.ts"
import { body, pathParam, requestOrigin, route } from "../../platform/routing.ts"
import { storeAccess } from "../access.ts"
import { CatalogEngine } from "../CatalogEngine.ts"
import { AbandonedCartStore } from "./AbandonedCartStore.ts"
import { readFilter, readPaging, readSort } from "./queryParts.ts"

export const cartRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const access = yield* storeAccess
  const carts = yield* AbandonedCartStore
  const engine = yield* CatalogEngine
  return [
    route(
      "GET",
      "/v1/abandonedCarts/:id",
      Effect.gen(function*() {
        yield* access.writer
        const id = yield* pathParam("id")
        yield* carts.catchUp(yield* requestOrigin)
        const stored = yield* engine.read(() => carts.require(id))
        return reply(GetAbandonedCartResponse, { abandonedCart: stored.cart })
      })
    ),
    route(
      "POST",
      CartPaths.query,
      Effect.gen(function*() {
        yield* access.writer
        const { query } = yield* body(QueryAbandonedCartsRequest)
        const paging = readPaging(query?.paging, "query.paging", MAX_CARTS_PAGE, DEFAULT_CARTS_PAGE)
        if (!paging.ok) return yield* paging.reject
        const filter = readFilter(query?.filter, "query.filter")
        if (!filter.ok) return yield* filter.reject
        const sort = readSort(query?.sort, "query.sort")
        if (!sort.ok) return yield* sort.reject
        yield* carts.catchUp(yield* requestOrigin)
        const { carts: found, total } = yield* engine.read(() => carts.query({ filter: filter.value, sort: sort.value, paging: paging.value }))
        return reply(QueryAbandonedCartsResponse, { abandonedCarts: found, totalResults: total })
      })
    )
  ]
}))

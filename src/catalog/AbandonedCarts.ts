/**
 * The store's abandoned carts, for the store owner (an API key): one cart by id, and queries over all
 * of them, by status, buyer, time or total, sorted and paged, or walked to the end as a Stream. Each
 * function needs only the `PlatformClient` an API-key site provides.
 *
 * @example
 * import { AbandonedCarts } from "sitefx/catalog"
 * const open = yield* AbandonedCarts.query().status("ABANDONED").descending("abandonTime").limit(20).find
 * const all = yield* AbandonedCarts.query().stream.pipe(Stream.runCollect)
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { ANY_STORE, call, type CatalogFailure, requireCatalog, unlessInvalid } from "./calls.ts"
import { CatalogError, invalidArgument } from "./CatalogError.ts"
import * as P from "./guards/carts.ts"
import type { QueryAbandonedCartsRequest } from "./wire/carts.ts"

export { CART_STATUSES, CartCodes, CartEventTypes, CartPaths, DEFAULT_CARTS_PAGE, MAX_CARTS_PAGE } from "./guards/carts.ts"
export type { AbandonedCart, CartStatus } from "./guards/carts.ts"

/**
 * A filter in the platform's filter language over the cart's fields: `{status: "ABANDONED"}`,
 * `{"buyerInfo.email": {$eq: "ada@example.com"}}`, `{abandonTime: {$gte: "2026-03-01T00:00:00.000Z"}}`,
 * `{$or: [...]}`. Times are ISO text (a `Date` is sent as its ISO text).
 */
export type CartFilter = { readonly [field: string]: unknown }

/** One page of carts, with the way to the next one. */
export interface CartsPage {
  readonly items: ReadonlyArray<P.AbandonedCart>
  /** Carts that match the query, over all pages. */
  readonly totalResults: number
  /** Carts before this page. */
  readonly offset: number
  readonly limit: number
  readonly hasNext: boolean
  /** The next page; fails with INVALID_ARGUMENT when there is none. */
  readonly next: Effect.Effect<CartsPage, CatalogFailure, PlatformClient>
}

const nonEmpty = (value: unknown, field: string): CatalogError | undefined =>
  typeof value === "string" && value !== "" ? undefined : invalidArgument(`${field} must be a non-empty string`, field)

/** The cart with this id (the original cart's id); ABANDONED_CART_NOT_FOUND when there is none. */
export const get = (id: string): Effect.Effect<P.AbandonedCart, CatalogFailure, PlatformClient> =>
  unlessInvalid(nonEmpty(id, "id"), () =>
    requireCatalog(ANY_STORE, "AbandonedCarts.get", (client) =>
      call(client, { method: "GET", path: P.CartPaths.cart(id), payload: { id } }, P.GetAbandonedCartResponse).pipe(
        Effect.flatMap(({ abandonedCart }) =>
          abandonedCart === undefined
            ? Effect.fail(new CatalogError({ code: P.CartCodes.notFound, message: `Abandoned cart ${id} was not found` }))
            : Effect.succeed(abandonedCart)
        )
      )))

interface State {
  readonly conditions: ReadonlyArray<CartFilter>
  readonly sort: ReadonlyArray<{ readonly field: string; readonly order: "asc" | "desc" }>
  readonly limit: number | undefined
  readonly skip: number
  readonly error: CatalogError | undefined
}

const isWhole = (n: unknown, min: number, max: number): n is number =>
  typeof n === "number" && Number.isInteger(n) && n >= min && n <= max

/**
 * A query over the site's abandoned carts: a value, changed by returning a new one. A bad argument is
 * kept and raised (a CatalogError, INVALID_ARGUMENT) when the query runs, before any request.
 */
export class AbandonedCartsQuery {
  readonly state: State

  constructor(state: State = { conditions: [], sort: [], limit: undefined, skip: 0, error: undefined }) {
    this.state = state
  }

  private with(patch: Partial<State>, error?: CatalogError): AbandonedCartsQuery {
    return new AbandonedCartsQuery({ ...this.state, ...patch, error: this.state.error ?? error })
  }

  /** Adds a filter, ANDed with the ones before. */
  where(filter: CartFilter): AbandonedCartsQuery {
    if (typeof filter !== "object" || filter === null || Array.isArray(filter)) {
      return this.with({}, invalidArgument("where: the filter must be an object", "filter"))
    }
    return this.with({ conditions: [...this.state.conditions, filter] })
  }

  /** Carts whose `field` equals `value`. */
  eq(field: string, value: unknown): AbandonedCartsQuery {
    const bad = nonEmpty(field, "eq")
    return bad === undefined ? this.where({ [field]: { $eq: value } }) : this.with({}, bad)
  }

  /** Carts still abandoned, or recovered. */
  status(status: P.CartStatus): AbandonedCartsQuery {
    return P.CART_STATUSES.includes(status)
      ? this.eq("status", status)
      : this.with({}, invalidArgument(`status must be one of ${P.CART_STATUSES.join(", ")}`, "status"))
  }

  private sortBy(order: "asc" | "desc", fields: ReadonlyArray<string>): AbandonedCartsQuery {
    const bad = fields.length === 0 ? invalidArgument("sort: name at least one field", "sort") : fields.map((f) => nonEmpty(f, "sort")).find((e) => e !== undefined)
    return bad === undefined ? this.with({ sort: [...this.state.sort, ...fields.map((field) => ({ field, order }))] }) : this.with({}, bad)
  }
  ascending(...fields: ReadonlyArray<string>): AbandonedCartsQuery {
    return this.sortBy("asc", fields)
  }
  descending(...fields: ReadonlyArray<string>): AbandonedCartsQuery {
    return this.sortBy("desc", fields)
  }

  /** Page size, 1 to 100 (the platform's default is 50). */
  limit(n: number): AbandonedCartsQuery {
    return isWhole(n, 1, P.MAX_CARTS_PAGE)
      ? this.with({ limit: n })
      : this.with({}, invalidArgument(`limit must be a whole number from 1 to ${P.MAX_CARTS_PAGE}`, "limit"))
  }

  /** Carts to skip before the first page. */
  skip(n: number): AbandonedCartsQuery {
    return isWhole(n, 0, Number.MAX_SAFE_INTEGER)
      ? this.with({ skip: n })
      : this.with({}, invalidArgument("skip must be a whole number from 0", "skip"))
  }

  /** The filter sent: the conditions ANDed, or undefined when there are none. */
  get filter(): CartFilter | undefined {
    const c = this.state.conditions
    return c.length === 0 ? undefined : c.length === 1 ? c[0] : { $and: [...c] }
  }

  /** The request of the first page, as it goes on the wire (filter and sort as JSON text; `{}` for a bare query). */
  get request(): QueryAbandonedCartsRequest {
    return this.requestAt(this.state.skip, this.state.limit)
  }

  private requestAt(offset: number, limit: number | undefined): QueryAbandonedCartsRequest {
    const filter = this.filter
    const sort = this.state.sort
    const paging = limit === undefined && offset === 0 ? undefined : { ...(limit === undefined ? {} : { limit }), offset }
    if (filter === undefined && sort.length === 0 && paging === undefined) return {}
    return {
      query: {
        ...(filter === undefined ? {} : { filter: JSON.stringify(filter) }),
        ...(sort.length === 0 ? {} : { sort: JSON.stringify(sort.map((s) => ({ [s.field]: s.order }))) }),
        ...(paging === undefined ? {} : { paging })
      }
    }
  }

  /** The first page. */
  get find(): Effect.Effect<CartsPage, CatalogFailure, PlatformClient> {
    return Effect.suspend(() => this.page(this.state.skip, this.state.limit))
  }

  /** Every page, one after another (100 carts a page unless the query set a limit). */
  get pages(): Stream.Stream<CartsPage, CatalogFailure, PlatformClient> {
    return Stream.paginate(this.page(this.state.skip, this.state.limit ?? P.MAX_CARTS_PAGE), (current) =>
      Effect.map(current, (page) => [[page], page.hasNext ? Option.some(page.next) : Option.none()] as const))
  }

  /** Every matching cart, in order. */
  get stream(): Stream.Stream<P.AbandonedCart, CatalogFailure, PlatformClient> {
    return this.pages.pipe(Stream.flatMap((page) => Stream.fromIterable(page.items)))
  }

  private page(offset: number, limit: number | undefined): Effect.Effect<CartsPage, CatalogFailure, PlatformClient> {
    const error = this.state.error
    return unlessInvalid(error, () => {
      let payload: Record<string, unknown>
      try {
        payload = this.requestAt(offset, limit)
      } catch (e) {
        return Effect.fail(invalidArgument(`where: the filter cannot be written as JSON (${String(e)})`, "filter"))
      }
      return requireCatalog(ANY_STORE, "AbandonedCarts.query", (client) =>
        call(client, { method: "POST", path: P.CartPaths.query, payload, idempotent: true }, P.QueryAbandonedCartsResponse).pipe(
          Effect.map((answer) => this.toPage(answer, offset, limit ?? P.DEFAULT_CARTS_PAGE))
        ))
    })
  }

  private toPage(answer: P.QueryAnswer, offset: number, limit: number): CartsPage {
    const items = answer.abandonedCarts ?? []
    const totalResults = answer.totalResults ?? offset + items.length
    const hasNext = items.length > 0 && offset + items.length < totalResults
    return {
      items,
      totalResults,
      offset,
      limit,
      hasNext,
      next: hasNext
        ? Effect.suspend(() => this.page(offset + items.length, limit))
        : Effect.fail(invalidArgument("There is no next page of abandoned carts", "next"))
    }
  }
}

/** A new query over every abandoned cart of the site. */
export const query = (): AbandonedCartsQuery => new AbandonedCartsQuery()

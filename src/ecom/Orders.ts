/**
 * The store's orders, for the store owner (an API key): one order by id, searches over all of them (by
 * status, payment, fulfillment, buyer, time, total), sorted and cursor-paged or walked to the end as a
 * Stream, and the changes a store makes to an order: cancel it, mark it as paid, fulfil some or all
 * of its lines. Each function needs only the `PlatformClient` an API-key site provides; each fails with
 * an {@link EcomError} carrying the platform's code, or a PlatformError when the platform is unavailable.
 *
 * @example
 * import { Orders } from "sitefx/ecom"
 * const unpaid = yield* Orders.search().eq("paymentStatus", "NOT_PAID").descending("createdDate").limit(20).find
 * const all = yield* Orders.stream().pipe(Stream.runCollect)
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { filterOf } from "../catalog/entities/CursorQuery.ts"
import { readAhead } from "../catalog/readAhead.ts"
import type { DataError } from "../data/DataError.ts"
import { FilterMethods } from "../data/filterBuilder.ts"
import { unlessInvalid } from "../http/checks.ts"
import type { Guard, TypeOf } from "../http/guard.ts"
import { PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import * as G from "./guards/orders.ts"
import { DEFAULT_ORDERS_PAGE, MAX_ORDER_SORT, MAX_ORDERS_PAGE, OrderCodes, OrderPaths } from "./orderProtocol.ts"
import { badAnswer, type EcomError, type EcomFailure, fromPlatformError, invalidArgument } from "./EcomError.ts"

export { DEFAULT_ORDERS_PAGE, MAX_ORDERS_PAGE, OrderCodes } from "./orderProtocol.ts"
export type { FulfillmentStatus, OrderStatus, PaymentStatus } from "./orderProtocol.ts"

/** An order: its number, lines, buyer, money, and where it stands (status, payment, fulfillment). */
export type Order = G.Order
/** One shipment (or hand-over) of some of an order's lines. */
export type Fulfillment = G.Fulfillment

type Tree = Record<string, unknown>

const send = <A>(what: string, check: EcomError | undefined, request: () => PlatformRequest, guard: Guard<A>): Effect.Effect<A, EcomFailure, PlatformClient> =>
  unlessInvalid(check, () => PlatformClient.use((client) => client.json(request(), guard).pipe(Effect.mapError(fromPlatformError))))

const checkId = (what: string, field: string, id: unknown): EcomError | undefined =>
  typeof id === "string" && id !== "" && id.length <= 100 ? undefined : invalidArgument(`${what}: ${field} must be a non-empty id`, field)

const theOrder = (what: string, id: string) => (answer: { readonly order?: Order }): Effect.Effect<Order, EcomError> =>
  answer.order === undefined ? Effect.fail(badAnswer(OrderCodes.notFound, `${what}: the answer holds no order ${id}`)) : Effect.succeed(answer.order)

/**
 * The order with this id; ORDER_NOT_FOUND when there is none.
 *
 * @example
 * declare const orderId: string
 * const order = yield* Orders.get(orderId)
 * console.log(order.number, order.paymentStatus, order.priceSummary?.total?.formattedAmount)
 */
export const get = (id: string): Effect.Effect<Order, EcomFailure, PlatformClient> =>
  send("Orders.get", checkId("Orders.get", "id", id), () => ({ method: "GET", path: OrderPaths.order(id), payload: { id } }), G.OrderResponse).pipe(
    Effect.flatMap(theOrder("Orders.get", id))
  )

/** What {@link cancel} may also say: whether the items go back to stock, and the buyer's e-mail. */
export interface CancelOptions {
  readonly sendOrderCanceledEmail?: boolean
  readonly customMessage?: string
  readonly restockAllItems?: boolean
}

/**
 * Cancels an order; ORDER_ALREADY_CANCELED, ORDER_IS_PENDING or ORDER_IS_REJECTED when it cannot be.
 *
 * @example
 * declare const orderId: string
 * const canceled = yield* Orders.cancel(orderId, { restockAllItems: true })
 */
export const cancel = (id: string, options: CancelOptions = {}): Effect.Effect<Order, EcomFailure, PlatformClient> =>
  send(
    "Orders.cancel",
    checkId("Orders.cancel", "id", id),
    () => ({ method: "POST", path: OrderPaths.cancel(id), payload: { id, ...options } }),
    G.OrderResponse
  ).pipe(Effect.flatMap(theOrder("Orders.cancel", id)))

/**
 * Marks an order as paid (a payment taken outside the site: cash, a bank transfer); ORDER_ALREADY_PAID
 * when it is paid.
 *
 * @example
 * declare const orderId: string
 * const paid = yield* Orders.markAsPaid(orderId)
 * paid.paymentStatus // "PAID"
 */
export const markAsPaid = (id: string): Effect.Effect<Order, EcomFailure, PlatformClient> =>
  send(
    "Orders.markAsPaid",
    checkId("Orders.markAsPaid", "id", id),
    () => ({ method: "POST", path: OrderPaths.markAsPaid(id), payload: { ecomOrderId: id } }),
    G.OrderResponse
  ).pipe(Effect.flatMap(theOrder("Orders.markAsPaid", id)))

/** A new fulfillment: which lines (all that is left when none are named), and how it travels. */
export interface NewFulfillment {
  readonly lineItems?: ReadonlyArray<{ readonly id: string; readonly quantity?: number }>
  readonly trackingInfo?: { readonly trackingNumber?: string; readonly shippingProvider?: string; readonly trackingLink?: string }
  readonly status?: string
  readonly completed?: boolean
}

/**
 * Fulfils some of an order's lines (all that is left by default), which moves its `fulfillmentStatus`;
 * gives the new fulfillment's id and all of the order's fulfillments.
 *
 * @example
 * declare const orderId: string
 * const { fulfillmentId } = yield* Orders.fulfil(orderId, { trackingInfo: { trackingNumber: "1Z999", shippingProvider: "UPS" } })
 */
export const fulfil = (
  orderId: string,
  fulfillment: NewFulfillment = {}
): Effect.Effect<{ readonly fulfillmentId: string; readonly fulfillments: ReadonlyArray<Fulfillment> }, EcomFailure, PlatformClient> =>
  send(
    "Orders.fulfil",
    checkId("Orders.fulfil", "orderId", orderId) ??
      (typeof fulfillment === "object" && fulfillment !== null ? undefined : invalidArgument("Orders.fulfil: fulfillment must be an object", "fulfillment")),
    () => ({ method: "POST", path: OrderPaths.createFulfillment(orderId), payload: { orderId, fulfillment: { ...fulfillment } } }),
    G.CreateFulfillmentResponse
  ).pipe(
    Effect.flatMap((answer) =>
      answer.fulfillmentId === undefined
        ? Effect.fail(badAnswer(OrderCodes.notFound, `Orders.fulfil: the answer holds no fulfillment of order ${orderId}`))
        : Effect.succeed({ fulfillmentId: answer.fulfillmentId, fulfillments: answer.orderWithFulfillments?.fulfillments ?? [] })
    )
  )

/**
 * The fulfillments of an order, oldest first.
 *
 * @example
 * declare const orderId: string
 * const shipped = yield* Orders.fulfillments(orderId)
 */
export const fulfillments = (orderId: string): Effect.Effect<ReadonlyArray<Fulfillment>, EcomFailure, PlatformClient> =>
  send("Orders.fulfillments", checkId("Orders.fulfillments", "orderId", orderId), () => ({ method: "GET", path: OrderPaths.fulfillments(orderId), payload: { orderId } }), G.ListFulfillmentsResponse).pipe(
    Effect.map((answer) => answer.orderWithFulfillments?.fulfillments ?? [])
  )

// ---- search --------------------------------------------------------------------------------------------

/** The body of one search request: `{search: {filter, sort, cursorPaging}}`. */
export interface SearchBody {
  readonly search: {
    readonly filter?: Tree
    readonly sort?: ReadonlyArray<{ readonly fieldName: string; readonly order: "ASC" | "DESC" }>
    readonly cursorPaging: { readonly limit: number; readonly cursor?: string }
  }
}

/** One page of a search, with the way to its neighbours. */
export interface OrderPage {
  readonly orders: ReadonlyArray<Order>
  readonly pageSize: number
  readonly hasNext: boolean
  readonly hasPrev: boolean
  readonly cursors: { readonly next: string | undefined; readonly prev: string | undefined }
  /** The next page; an EcomError (INVALID_ARGUMENT) when there is none. */
  readonly next: Effect.Effect<OrderPage, EcomFailure, PlatformClient>
  /** The previous page; an EcomError (INVALID_ARGUMENT) when there is none. */
  readonly prev: Effect.Effect<OrderPage, EcomFailure, PlatformClient>
}

interface State {
  readonly sort: ReadonlyArray<{ readonly fieldName: string; readonly order: "ASC" | "DESC" }>
  readonly limit: number | undefined
  readonly cursor: string | undefined
  readonly refusal: EcomError | undefined
}

const fetchPage = (body: SearchBody): Effect.Effect<{ readonly orders: ReadonlyArray<Order>; readonly metadata: TypeOf<typeof G.CursorPagingMetadata> }, EcomFailure, PlatformClient> =>
  send("Orders.search", undefined, () => ({ method: "POST", path: OrderPaths.search, payload: body as unknown as Record<string, unknown>, idempotent: true }), G.SearchOrdersResponse).pipe(
    Effect.map((r) => ({ orders: r.orders ?? [], metadata: r.metadata ?? {} }))
  )

/**
 * A search over the site's orders: the data filter methods over the order's fields
 * (`eq("paymentStatus", "PAID")`, `ge("createdDate", date)`, `eq("buyerInfo.email", email)`, `in`, `or`,
 * ...), `ascending`/`descending` (newest first unless sorted), `limit` (1 to 100), `skipTo` a cursor;
 * `find` gives one page, `pages`/`stream` walk every page, asking for the next while the current one is
 * read. As on the platform, a search leaves out PENDING and REJECTED orders unless its filter names a
 * status.
 */
export class OrderSearch extends FilterMethods<OrderSearch> {
  readonly state: State

  constructor(state: State = { sort: [], limit: undefined, cursor: undefined, refusal: undefined }, conditions: ReadonlyArray<Tree> = [], error?: DataError) {
    super(conditions, error)
    this.state = state
  }

  protected withConditions(conditions: ReadonlyArray<Tree>, error: DataError | undefined): OrderSearch {
    return new OrderSearch(this.state, conditions, error)
  }

  private with(patch: Partial<State>): OrderSearch {
    return new OrderSearch({ ...this.state, ...patch, refusal: this.state.refusal ?? patch.refusal }, this.conditions, this.error)
  }

  private sortBy(op: string, order: "ASC" | "DESC", fields: ReadonlyArray<string>): OrderSearch {
    if (fields.length === 0 || !fields.every((f) => typeof f === "string" && f !== "")) {
      return this.with({ refusal: invalidArgument(`Orders.search: ${op} takes one or more field names`, op) })
    }
    const sort = [...this.state.sort, ...fields.map((fieldName) => ({ fieldName: fieldName === "_createdDate" ? "createdDate" : fieldName === "_id" ? "id" : fieldName, order }))]
    if (sort.length > MAX_ORDER_SORT) return this.with({ refusal: invalidArgument(`Orders.search: a search sorts by at most ${MAX_ORDER_SORT} fields`, op) })
    return this.with({ sort })
  }
  ascending(...fields: ReadonlyArray<string>): OrderSearch {
    return this.sortBy(".ascending", "ASC", fields)
  }
  descending(...fields: ReadonlyArray<string>): OrderSearch {
    return this.sortBy(".descending", "DESC", fields)
  }
  /** Page size, 1 to 100 (100 unless set). */
  limit(n: number): OrderSearch {
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_ORDERS_PAGE) {
      return this.with({ refusal: invalidArgument(`Orders.search: .limit takes an integer from 1 to ${MAX_ORDERS_PAGE}, not ${String(n)}`, ".limit") })
    }
    return this.with({ limit: n })
  }
  /** Continues from a cursor a page handed out (the search's filter and sort travel inside it). */
  skipTo(cursor: string): OrderSearch {
    if (typeof cursor !== "string" || cursor === "") return this.with({ refusal: invalidArgument("Orders.search: .skipTo takes a cursor a page handed out", ".skipTo") })
    return this.with({ cursor })
  }

  /** The filter as sent: the conditions under one `$and`, in order; `{}` for none. */
  get filter(): Tree {
    return filterOf(this.conditions)
  }

  /** The request of the first page (what `find` sends). */
  get request(): SearchBody {
    const limit = this.state.limit ?? DEFAULT_ORDERS_PAGE
    if (this.state.cursor !== undefined) return { search: { cursorPaging: { cursor: this.state.cursor, limit } } }
    const sort = this.state.sort
    return { search: { filter: this.filter, ...(sort.length === 0 ? {} : { sort }), cursorPaging: { limit } } }
  }

  private get refusal(): EcomError | undefined {
    return this.state.refusal ?? (this.error === undefined ? undefined : invalidArgument(`Orders.search: ${this.error.message}`, this.error.field ?? "filter"))
  }

  /** Runs the search: the first page. */
  get find(): Effect.Effect<OrderPage, EcomFailure, PlatformClient> {
    return Effect.suspend(() => {
      const refusal = this.refusal
      return refusal === undefined ? this.page(this.request) : Effect.fail(refusal)
    })
  }

  /** Every page, one after another. */
  get pages(): Stream.Stream<OrderPage, EcomFailure, PlatformClient> {
    return readAhead(this.find, (page) => [page])
  }

  /** Every matching order, in order, a page in memory at a time. */
  get stream(): Stream.Stream<Order, EcomFailure, PlatformClient> {
    return readAhead(this.find, (page) => page.orders)
  }

  private page(body: SearchBody): Effect.Effect<OrderPage, EcomFailure, PlatformClient> {
    const limit = body.search.cursorPaging.limit
    return Effect.map(fetchPage(body), ({ metadata, orders }) => {
      const nextCursor = metadata.cursors?.next ?? undefined
      const prevCursor = metadata.cursors?.prev ?? undefined
      const hasNext = nextCursor !== undefined && nextCursor !== "" && metadata.hasNext !== false
      const hasPrev = prevCursor !== undefined && prevCursor !== ""
      const step = (cursor: string) => Effect.suspend(() => this.page({ search: { cursorPaging: { cursor, limit } } }))
      return {
        orders,
        pageSize: limit,
        hasNext,
        hasPrev,
        cursors: { next: nextCursor, prev: prevCursor },
        next: hasNext ? step(nextCursor) : Effect.fail(invalidArgument("Orders.search: there is no next page", "next")),
        prev: hasPrev ? step(prevCursor) : Effect.fail(invalidArgument("Orders.search: there is no previous page", "prev"))
      }
    })
  }
}

/**
 * A new search over the site's orders (see {@link OrderSearch}).
 *
 * @example
 * const since = new Date("2026-03-01T00:00:00Z")
 * const page = yield* Orders.search().ge("createdDate", since).eq("fulfillmentStatus", "NOT_FULFILLED").find
 * for (const order of page.orders) console.log(order.number, order.buyerInfo?.email)
 */
export const search = (): OrderSearch => new OrderSearch()

/**
 * Every order (newest first), or every order a search matches, as a Stream over cursor pages of 100;
 * memory holds a page at a time.
 *
 * @example
 * const revenue = yield* Orders.stream(Orders.search().eq("paymentStatus", "PAID")).pipe(
 *   Stream.runFold(() => 0, (sum, order) => sum + parseFloat(order.priceSummary?.total?.amount ?? "0"))
 * )
 */
export const stream = (query: OrderSearch = search()): Stream.Stream<Order, EcomFailure, PlatformClient> => query.stream

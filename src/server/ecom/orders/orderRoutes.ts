/**
 * The orders admin calls, as the official orders and fulfillments clients make them: get an order,
 * search orders (the data filter language, a sort list, cursor paging), cancel an order (its items
 * restocked when asked: cancelOrder.ts), mark it as paid
 * (the payments collector's call), and list and create an order's fulfillments. Orders are the store
 * owner's data: every call needs an API key, and a visitor or member gets 403 (the platform offers these
 * calls to apps only, not to members).
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { OrderCodes, OrderPaths } from "../../../ecom/orderProtocol.ts"
import {
  CancelOrderRequest,
  CreateFulfillmentRequest,
  CreateFulfillmentResponse,
  GetOrderRequest,
  ListFulfillmentsResponse,
  MarkOrderAsPaidRequest,
  OrderResponse,
  SearchOrdersRequest,
  SearchOrdersResponse
} from "../../../ecom/wire/orders.ts"
import { Callers } from "../../accounts/Callers.ts"
import { CatalogEngine } from "../../catalog/CatalogEngine.ts"
import { ProductStore } from "../../catalog/products/ProductStore.ts"
import { getPayload } from "../../store/payload.ts"
import { application, reply } from "../../platform/responses.ts"
import { body, pathParam, route } from "../../platform/routing.ts"
import { cancelOrder } from "./cancelOrder.ts"
import { OrderStore } from "./OrderStore.ts"

export const orderRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const orders = yield* OrderStore
  const services = { catalog: yield* CatalogEngine, products: yield* ProductStore, orders }
  const missing = (id: string) => application(404, OrderCodes.notFound, `Order ${id} was not found`)
  return [
    route(
      "GET",
      "/ecom/v1/orders/:id",
      Effect.gen(function*() {
        yield* callers.admin
        const { id } = yield* Effect.flatMap(pathParam("id"), (id) => getPayload(GetOrderRequest, {}, { id }))
        const order = orders.get(id)
        if (order === undefined) return yield* missing(id)
        return reply(OrderResponse, { order })
      })
    ),
    route(
      "POST",
      OrderPaths.search,
      Effect.gen(function*() {
        yield* callers.admin
        const { search } = yield* body(SearchOrdersRequest)
        const page = yield* orders.search({
          filter: search?.filter ?? undefined,
          sort: search?.sort ?? [],
          paging: { mode: "cursor", limit: search?.cursorPaging?.limit ?? undefined, cursor: search?.cursorPaging?.cursor ?? undefined }
        })
        return reply(SearchOrdersResponse, {
          orders: page.orders,
          metadata: {
            count: page.orders.length,
            cursors: { ...(page.next === undefined ? {} : { next: page.next }), ...(page.prev === undefined ? {} : { prev: page.prev }) },
            hasNext: page.next !== undefined
          }
        })
      })
    ),
    route(
      "POST",
      "/ecom/v1/orders/:id/cancel",
      Effect.gen(function*() {
        const caller = yield* callers.admin
        const id = yield* pathParam("id")
        const request = yield* body(CancelOrderRequest)
        return reply(OrderResponse, { order: yield* cancelOrder(services, id, request, caller) })
      })
    ),
    route(
      "POST",
      "/ecom/v1/payments-collector/orders/:ecomOrderId/mark-as-paid",
      Effect.gen(function*() {
        const caller = yield* callers.admin
        const id = yield* pathParam("ecomOrderId")
        yield* body(MarkOrderAsPaidRequest)
        return reply(OrderResponse, { order: yield* orders.markAsPaid(id, caller) })
      })
    ),
    route(
      "GET",
      "/ecom/v1/fulfillments/orders/:orderId",
      Effect.gen(function*() {
        yield* callers.admin
        const orderId = yield* pathParam("orderId")
        const fulfillments = orders.fulfillments(orderId)
        if (fulfillments === undefined) return yield* missing(orderId)
        return reply(ListFulfillmentsResponse, { orderWithFulfillments: { orderId, fulfillments } })
      })
    ),
    route(
      "POST",
      "/ecom/v1/fulfillments/orders/:orderId/create-fulfillment",
      Effect.gen(function*() {
        const caller = yield* callers.admin
        const orderId = yield* pathParam("orderId")
        const { fulfillment } = yield* body(CreateFulfillmentRequest)
        const made = yield* orders.createFulfillment(orderId, fulfillment, caller)
        return reply(CreateFulfillmentResponse, { orderWithFulfillments: { orderId, fulfillments: made.fulfillments }, fulfillmentId: made.fulfillmentId })
      })
    )
  ]
}))

/**
 * sitefx/ecom: the store's e-commerce. `Orders` gets, searches, streams, cancels, marks as paid and
 * fulfils the site's orders (an API key); the order's wire codes and event types are shared.
 *
 * @example
 * import { Orders } from "sitefx/ecom"
 * const order = yield* Orders.get(orderId)
 */
export * as Orders from "./Orders.ts"
export { OrderCodes, OrderEventTypes, OrderPaths } from "./orderProtocol.ts"
export { OrdersError, type OrdersFailure } from "./OrdersError.ts"

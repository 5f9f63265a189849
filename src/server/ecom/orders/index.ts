/**
 * The store's orders: {@link ordersLayer} adds their storage (and its `demo` seed) to the platform,
 * {@link ordersRoutes} the admin calls. A checkout places its order through `OrderStore.placeOrder`.
 */
import * as Layer from "effect/Layer"
import { orderRoutes } from "./orderRoutes.ts"
import { OrderStore } from "./OrderStore.ts"
import { ordersSeed } from "./seed.ts"

export { type NewLine, type NewOrder, OrderStore, STORES_APP_ID } from "./OrderStore.ts"
export { DEMO_ORDER_IDS } from "./seed.ts"

export const ordersLayer = ordersSeed.pipe(Layer.provideMerge(OrderStore.layer))

export const ordersRoutes = orderRoutes

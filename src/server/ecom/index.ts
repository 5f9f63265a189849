/**
 * The local platform's e-commerce: the shoppers' current carts (`carts/`, Cart V1 and Cart V2 on one
 * storage, priced from the catalog module's products) and the store's orders (`orders/`, with the admin
 * calls of the official orders, payments-collector and fulfillments clients, and the order store a
 * checkout places its orders in), and the checkout (`checkout/`: the official checkout calls and the
 * hosted page where a buyer pays and the order is placed).
 */
import * as Layer from "effect/Layer"
import type { PlatformModule } from "../platform/PlatformModule.ts"
import { type AbandonSweepOptions, cartsLayer, cartsRoutes } from "./carts/index.ts"
import { checkoutLayer, checkoutPageRoutes, checkoutRoutes } from "./checkout/index.ts"
import { EcomEngine } from "./EcomEngine.ts"
import { ordersLayer, ordersRoutes } from "./orders/index.ts"

export const module = {
  name: "ecom",
  layer: (options: AbandonSweepOptions) => Layer.mergeAll(cartsLayer(options), ordersLayer, checkoutLayer).pipe(Layer.provideMerge(EcomEngine.layer)),
  routes: Layer.mergeAll(cartsRoutes, ordersRoutes, checkoutRoutes, checkoutPageRoutes)
} satisfies PlatformModule

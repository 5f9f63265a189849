/**
 * The local platform's e-commerce: orders (`orders/`), with the admin calls of the official orders,
 * payments-collector and fulfillments clients, and the order store a checkout places its orders in.
 */
import type { PlatformModule } from "../platform/PlatformModule.ts"
import { ordersLayer, ordersRoutes } from "./orders/index.ts"

export const module = {
  name: "ecom",
  layer: () => ordersLayer,
  routes: ordersRoutes
} satisfies PlatformModule

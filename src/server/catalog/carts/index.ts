/**
 * The store's abandoned carts: {@link cartsLayer} adds the carts' storage (and its `demo` seed) to the
 * platform, {@link cartsRoutes} the admin calls, {@link cartDevRoutes} (dev mode only) the endpoints
 * that abandon and recover carts as shoppers would.
 */
import * as Layer from "effect/Layer"
import { AbandonedCartStore } from "./AbandonedCartStore.ts"
import { cartRoutes } from "./cartRoutes.ts"
import { cartsSeed } from "./seed.ts"

export { AbandonedCartStore } from "./AbandonedCartStore.ts"
export { cartDevRoutes } from "./cartDevRoutes.ts"
export * as CartsDevWire from "../../../dev/wire/carts.ts"
export { DEMO_CART_IDS } from "./seed.ts"

export const cartsLayer = cartsSeed.pipe(Layer.provideMerge(AbandonedCartStore.layer))

export const cartsRoutes = cartRoutes

/**
 * The current cart of both generations: {@link cartsLayer} adds its storage, {@link cartsRoutes} the
 * Cart V1 and Cart V2 current-cart calls.
 */
import * as Layer from "effect/Layer"
import { CartStore } from "./CartStore.ts"
import { currentCartRoutes } from "./currentCartRoutes.ts"
import { currentCartV2Routes } from "./currentCartV2Routes.ts"

export { CartStore } from "./CartStore.ts"

export const cartsLayer = CartStore.layer

export const cartsRoutes = Layer.mergeAll(currentCartRoutes, currentCartV2Routes)

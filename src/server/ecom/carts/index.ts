/**
 * The current cart of both generations: {@link cartsLayer} adds its storage and the sweep that abandons
 * due carts as the platform's clock moves, {@link cartsRoutes} the Cart V1 and Cart V2 current-cart calls.
 */
import * as Layer from "effect/Layer"
import { abandonSweepLayer, type AbandonSweepOptions } from "./abandonSweep.ts"
import { CartStore } from "./CartStore.ts"
import { currentCartRoutes } from "./currentCartRoutes.ts"
import { currentCartV2Routes } from "./currentCartV2Routes.ts"

export type { AbandonSweepOptions } from "./abandonSweep.ts"
export { CartStore } from "./CartStore.ts"

export const cartsLayer = (options: AbandonSweepOptions) => abandonSweepLayer(options).pipe(Layer.provideMerge(CartStore.layer))

export const cartsRoutes = Layer.mergeAll(currentCartRoutes, currentCartV2Routes)

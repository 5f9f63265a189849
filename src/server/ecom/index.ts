/**
 * The local platform's ecom: the shoppers' current carts (`carts/`), Cart V1 and Cart V2 on one
 * storage, priced from the catalog module's products. Orders and checkouts join here.
 */
import * as Layer from "effect/Layer"
import type { PlatformModule } from "../platform/PlatformModule.ts"
import { cartsLayer, cartsRoutes } from "./carts/index.ts"
import { EcomEvents } from "./EcomEvents.ts"

export const module = {
  name: "ecom",
  layer: () => cartsLayer.pipe(Layer.provideMerge(EcomEvents.layer)),
  routes: cartsRoutes
} satisfies PlatformModule

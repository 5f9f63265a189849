/** The store's carts: its services and routes (filled in by the carts work). */
import * as Layer from "effect/Layer"

export type CartsServices = never

export const cartsLayer = Layer.empty

export const cartsRoutes = Layer.empty

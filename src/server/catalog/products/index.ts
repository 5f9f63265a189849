/** The store's products: its services and routes (filled in by the products work). */
import * as Layer from "effect/Layer"

export type ProductsServices = never

export const productsLayer = Layer.empty

export const productsRoutes = Layer.empty

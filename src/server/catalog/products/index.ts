/**
 * The store's catalog v1: products with options and variants, collections, v2 inventory items, the
 * site's media, and the `demo` seed's store. {@link productsLayer} gives the Products storage;
 * {@link productsRoutes} the reader, writer, inventory and media routes.
 */
import * as Layer from "effect/Layer"
import { collectionRoutes } from "./collectionRoutes.ts"
import { inventoryRoutes } from "./inventoryRoutes.ts"
import { mediaRoutes } from "./mediaRoutes.ts"
import { productRoutes } from "./productRoutes.ts"
import { Products } from "./Products.ts"
import { productsSeed } from "./seed.ts"

export { Products } from "./Products.ts"

export type ProductsServices = Products

export const productsLayer = Layer.merge(Products.layer, productsSeed.pipe(Layer.provide(Products.layer)))

export const productsRoutes = Layer.mergeAll(productRoutes, collectionRoutes, inventoryRoutes, mediaRoutes)

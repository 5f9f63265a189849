/**
 * The store's catalog v1: products with options and variants, collections, v2 inventory items, the
 * site's media, and the `demo` seed's store. {@link productsLayer} gives the ProductStore;
 * {@link productsRoutes} the reader, writer, inventory and media routes.
 */
import * as Layer from "effect/Layer"
import { collectionRoutes } from "./collectionRoutes.ts"
import { inventoryRoutes } from "./inventoryRoutes.ts"
import { mediaRoutes } from "./mediaRoutes.ts"
import { productRoutes } from "./productRoutes.ts"
import { ProductStore } from "./ProductStore.ts"
import { productsSeed } from "./seed.ts"

export { ProductStore } from "./ProductStore.ts"

export const productsLayer = Layer.merge(ProductStore.layer, productsSeed.pipe(Layer.provide(ProductStore.layer)))

export const productsRoutes = Layer.mergeAll(productRoutes, collectionRoutes, inventoryRoutes, mediaRoutes)

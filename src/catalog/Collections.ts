/**
 * Store collections (catalog v1): readers (get, by slug, query) serve visitors and members, writers
 * (create, update, remove, add and remove products) need an API key. "All Products"
 * (`ALL_PRODUCTS_COLLECTION_ID`) holds every product and cannot be changed.
 *
 * @example
 * import * as Collections from "sitefx/catalog/collections"
 * const tees = yield* Collections.bySlug("tees")
 * const all = yield* Collections.query().ascending("name").stream.pipe(Stream.runCollect)
 */
import * as Effect from "effect/Effect"
import { first } from "../http/checks.ts"
import type { TypeOf } from "../http/guard.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import type { CatalogFailure } from "./calls.ts"
import * as G from "./guards/products.ts"
import { OffsetQuery } from "./OffsetQuery.ts"
import { ALL_PRODUCTS_ID, CatalogPaths } from "./protocol.ts"
import { checkId, checkIds, checkObject, offsetRunner, pagingOf, send, sendVoid } from "./v1.ts"

/** A catalog v1 collection: a named, optionally visible group of products. */
export type Collection = G.Collection
type Effects<A> = Effect.Effect<A, CatalogFailure, PlatformClient>

/** The built-in collection of every product. */
export const ALL_PRODUCTS_COLLECTION_ID = ALL_PRODUCTS_ID

/** Products a membership change takes at once. */
export const MAX_COLLECTION_PRODUCTS = 1000

const collectionOf = (r: TypeOf<typeof G.CollectionResponse>): Collection => r.collection ?? {}

/** The collection of this id; COLLECTION_NOT_FOUND when there is none. */
export const get = (id: string): Effects<Collection> =>
  Effect.map(send("Collections.get", checkId("Collections.get", "id", id), () => ({ method: "GET", path: CatalogPaths.collection(id), payload: { id } }), G.CollectionResponse), collectionOf)

/**
 * The collection of this slug (its URL name).
 *
 * @example
 * import * as Collections from "sitefx/catalog/collections"
 * import * as Products from "sitefx/catalog/products"
 * const tees = yield* Collections.bySlug("tees")
 * const page = tees.id ? yield* Products.query().hasSome("collectionIds", [tees.id]).limit(24).find : undefined
 */
export const bySlug = (slug: string): Effects<Collection> =>
  Effect.map(
    send("Collections.bySlug", checkId("Collections.bySlug", "slug", slug), () => ({ method: "GET", path: CatalogPaths.collectionBySlug(slug), payload: { slug } }), G.CollectionResponse),
    collectionOf
  )

/** The same through the v1 reader (what the products module of the official client calls). */
export const bySlugV1 = (slug: string): Effects<Collection> =>
  Effect.map(
    send("Collections.bySlugV1", checkId("Collections.bySlugV1", "slug", slug), () => ({ method: "GET", path: CatalogPaths.collectionBySlugV1(slug), payload: { slug } }), G.CollectionResponse),
    collectionOf
  )

/**
 * A collection query (filter, sort, page, stream).
 *
 * @example
 * import * as Collections from "sitefx/catalog/collections"
 * const shown = yield* Collections.query().eq("visible", true).ascending("name").limit(50).find
 * const names = shown.items.map((c) => `${c.name} (${c.numberOfProducts ?? 0})`)
 */
export const query = (): OffsetQuery<Collection> =>
  new OffsetQuery(offsetRunner({
    what: "Collections.query",
    method: "GET",
    path: CatalogPaths.collectionsQuery,
    guard: G.QueryCollectionsResponse,
    read: (r) => ({ items: r.collections ?? [], paging: pagingOf(r.metadata, r.totalResults) })
  }))

/** What a collection is created or updated with; on update only the fields given change. */
export interface CollectionInput {
  readonly name?: string
  readonly slug?: string
  readonly description?: string
  readonly visible?: boolean
  readonly media?: Collection["media"]
}

/** Creates a collection (an API key); it starts without products. */
export const create = (collection: CollectionInput): Effects<Collection> =>
  Effect.map(
    send("Collections.create", checkObject("Collections.create", "collection", collection), () => ({ method: "POST", path: CatalogPaths.collections, payload: { collection } }), G.CollectionResponse),
    collectionOf
  )

/** Changes the fields given of a collection (an API key). */
export const update = (id: string, collection: CollectionInput): Effects<Collection> =>
  Effect.map(
    send("Collections.update", first(checkId("Collections.update", "id", id), checkObject("Collections.update", "collection", collection)), () => ({
      method: "PATCH",
      path: CatalogPaths.writeCollection(id),
      payload: { collection: { ...collection, id } }
    }), G.CollectionResponse),
    collectionOf
  )

/** Removes a collection (its products stay in the store). */
export const remove = (id: string): Effects<void> =>
  sendVoid("Collections.remove", checkId("Collections.remove", "id", id), () => ({ method: "DELETE", path: CatalogPaths.writeCollection(id), payload: { id } }))

/**
 * Adds up to 1000 products to a collection (an API key); products already in it stay.
 *
 * @example
 * import * as Collections from "sitefx/catalog/collections"
 * declare const productIds: ReadonlyArray<string>
 * const sale = yield* Collections.create({ name: "Summer sale", visible: true })
 * if (sale.id) yield* Collections.addProducts(sale.id, productIds)
 */
export const addProducts = (id: string, productIds: ReadonlyArray<string>): Effects<void> =>
  sendVoid("Collections.addProducts", first(checkId("Collections.addProducts", "id", id), checkIds("Collections.addProducts", "productIds", productIds, MAX_COLLECTION_PRODUCTS)), () => ({
    method: "POST",
    path: CatalogPaths.collectionProducts(id),
    payload: { id, productIds }
  }))

/** Takes up to 1000 products out of a collection (an API key); the products stay in the store. */
export const removeProducts = (id: string, productIds: ReadonlyArray<string>): Effects<void> =>
  sendVoid(
    "Collections.removeProducts",
    first(checkId("Collections.removeProducts", "id", id), checkIds("Collections.removeProducts", "productIds", productIds, MAX_COLLECTION_PRODUCTS)),
    () => ({ method: "POST", path: CatalogPaths.removeCollectionProducts(id), payload: { id, productIds } })
  )

/**
 * Store collections: v1 writers (`/stores/v1/collections...`: create, update, delete, add and remove
 * products), the v1 reader by slug, and the v2 readers the collections module calls (`/v2/collections`:
 * query, get, get by slug). "All Products" is built in: every product is in it, and it cannot be
 * changed or deleted. Readers without an API key see visible collections only.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { randomUUID } from "node:crypto"
import { CatalogPaths } from "../../../catalog/protocol.ts"
import { CreateCollectionRequest, ProductIdsRequest, QueryCollectionsRequest, UpdateCollectionRequest } from "../../../catalog/wire/products.ts"
import { body, pathParam, route } from "../../platform/routing.ts"
import { storeAccess } from "../access.ts"
import { CatalogEngine } from "../CatalogEngine.ts"
import { invalid, productNotFound } from "./changes.ts"
import { ALL_PRODUCTS_ID, type CollectionSpec, MAX_DESCRIPTION, slugify } from "./model.ts"
import { ProductStore } from "./ProductStore.ts"
import { legacy, metadataJson, notFoundFailure, pageRequest, payload, replyStored, v1Access } from "./requests.ts"

export const collectionRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const products = yield* ProductStore
  const engine = yield* CatalogEngine
  const { reader, writer } = v1Access(yield* storeAccess)

  const visibleTo = (spec: CollectionSpec | undefined, admin: boolean, what: string) =>
    engine.read(() => {
      if (spec === undefined || (!admin && !spec.visible)) throw collectionNotFound(what)
      return products.wireCollection(spec)
    })

  const byId = Effect.gen(function*() {
    const caller = yield* reader
    const id = yield* pathParam("id")
    const collection = yield* visibleTo(products.collection(id), caller.kind === "admin", id)
    return yield* replyStored(JSON.stringify({ collection }))
  })

  const bySlug = Effect.gen(function*() {
    const caller = yield* reader
    const slug = yield* pathParam("slug")
    const collection = yield* visibleTo(products.collectionBySlug(slug), caller.kind === "admin", slug)
    return yield* replyStored(JSON.stringify({ collection }))
  })

  const query = (method: "GET" | "POST") =>
    Effect.gen(function*() {
      const caller = yield* reader
      const request = yield* payload(QueryCollectionsRequest, method)
      const { page, collections, total } = yield* engine.read(() => {
        const page = pageRequest(request.query)
        return { page, ...products.queryCollections(page, caller.kind === "admin") }
      })
      return yield* replyStored(
        `{"collections":${JSON.stringify(collections)},"metadata":${metadataJson(page, collections.length, total)},"totalResults":${total}}`
      )
    })

  const fields = (c: typeof CreateCollectionRequest.Type["collection"], spec: CollectionSpec): CollectionSpec => {
    const next = { ...spec }
    if (c.name != null) {
      const name = c.name.trim()
      if (name === "") throw invalid("collection.name", "A collection needs a name", "REQUIRED_FIELD")
      if (name.length > 50) throw invalid("collection.name", "collection.name must be at most 50 characters", "MAX_LENGTH", { maxLength: 50 })
      next.name = name
    }
    if (c.slug != null) {
      if (slugify(c.slug) !== c.slug) throw invalid("collection.slug", "A slug holds lower-case letters, digits and dashes", "FORMAT")
      next.slug = c.slug
    }
    if (c.description != null) {
      if (c.description.length > MAX_DESCRIPTION) throw invalid("collection.description", "The description is too long", "MAX_LENGTH")
      next.description = c.description
    }
    if (c.visible != null) next.visible = c.visible
    if (c.media !== undefined) next.media = c.media
    return next
  }

  const create = Effect.gen(function*() {
    const caller = yield* writer
    const { collection } = yield* body(CreateCollectionRequest)
    const created = yield* engine.commit((emit) => {
      if (collection.name == null || collection.name.trim() === "") throw invalid("collection.name", "A collection needs a name", "REQUIRED_FIELD")
      const spec = fields(collection, { id: randomUUID(), name: "", slug: "", description: "", visible: true })
      if (spec.slug === "") {
        const base = slugify(spec.name)
        let slug = base
        for (let i = 1; products.collectionBySlug(slug) !== undefined; i++) slug = `${base}-${i}`
        spec.slug = slug
      }
      products.storeCollection(spec)
      // the field is `collection_Id` in the platform's collection events (as the official client types them)
      emit(legacy("CollectionCreated", spec.id, {
        collection_Id: spec.id,
        name: spec.name,
        slug: spec.slug,
        visible: spec.visible,
        ...(spec.media === undefined ? {} : { media: spec.media })
      }, caller))
      return products.wireCollection(spec)
    })
    return yield* replyStored(JSON.stringify({ collection: created }))
  })

  const mutable = (id: string): CollectionSpec => {
    if (id === ALL_PRODUCTS_ID) throw invalid("id", "The All Products collection cannot be changed", "OTHER")
    const spec = products.collection(id)
    if (spec === undefined) throw collectionNotFound(id)
    return spec
  }

  const update = Effect.gen(function*() {
    const caller = yield* writer
    const id = yield* pathParam("id")
    const { collection } = yield* body(UpdateCollectionRequest)
    const updated = yield* engine.commit((emit) => {
      if (collection.id != null && collection.id !== id) throw invalid("collection.id", "collection.id differs from the id in the path")
      const spec = fields(collection, mutable(id))
      products.storeCollection(spec)
      emit(legacy("CollectionChanged", id, { collection_Id: id, changedFields: Object.keys(collection).filter((k) => k !== "id") }, caller))
      return products.wireCollection(spec)
    })
    return yield* replyStored(JSON.stringify({ collection: updated }))
  })

  const remove = Effect.gen(function*() {
    const caller = yield* writer
    const id = yield* pathParam("id")
    yield* engine.commit((emit) => {
      mutable(id)
      const members = products.removeCollection(id)
      const now = products.now()
      for (const productId of members) {
        const spec = products.find(productId)
        if (spec === undefined) continue
        products.store({ ...spec, collectionIds: spec.collectionIds.filter((c) => c !== id), lastUpdated: now })
        emit(legacy("ProductChanged", productId, { productId, changedFields: ["collectionIds"] }, caller))
      }
      emit(legacy("CollectionDeleted", id, { collection_Id: id }, caller))
    })
    return yield* replyStored("{}")
  })

  const membership = (add: boolean) =>
    Effect.gen(function*() {
      const caller = yield* writer
      const id = yield* pathParam("id")
      const request = yield* body(ProductIdsRequest)
      yield* engine.commit((emit) => {
        mutable(id)
        if (request.productIds.length > MAX_COLLECTION_PRODUCTS) {
          throw invalid("productIds", `At most ${MAX_COLLECTION_PRODUCTS} products at once`, "MAX_SIZE", { max: MAX_COLLECTION_PRODUCTS })
        }
        const now = products.now()
        for (const productId of new Set(request.productIds)) {
          const spec = products.find(productId)
          if (spec === undefined) throw productNotFound(productId)
          const has = spec.collectionIds.includes(id)
          if (has === add) continue
          const collectionIds = add ? [...spec.collectionIds, id] : spec.collectionIds.filter((c) => c !== id)
          products.store({ ...spec, collectionIds, lastUpdated: now })
          emit(legacy("ProductChanged", productId, { productId, changedFields: ["collectionIds"] }, caller))
        }
        emit(legacy("CollectionChanged", id, { collection_Id: id, changedFields: ["numberOfProducts"] }, caller))
      })
      return yield* replyStored("{}")
    })

  return [
    route("GET", CatalogPaths.collectionsQuery, query("GET")),
    route("POST", CatalogPaths.collectionsQuery, query("POST")),
    route("GET", "/v2/collections/slug/:slug", bySlug),
    route("GET", "/v2/collections/:id", byId),
    route("GET", "/stores-reader/v1/collections/slug/:slug", bySlug),
    route("POST", CatalogPaths.collections, create),
    route("PATCH", "/stores/v1/collections/:id", update),
    route("DELETE", "/stores/v1/collections/:id", remove),
    route("POST", "/stores/v1/collections/:id/productIds", membership(true)),
    route("POST", "/stores/v1/collections/:id/productIds/delete", membership(false))
  ]
}))

const collectionNotFound = (id: string) => notFoundFailure("COLLECTION_NOT_FOUND", `Collection ${id}`)

/** Products a collection write may name at once. */
const MAX_COLLECTION_PRODUCTS = 1000

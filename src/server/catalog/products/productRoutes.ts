/**
 * Catalog v1 product routes: readers (`/stores-reader/v1/...`: query, get, options availability,
 * product variants, store variants) serve visitors, members and API keys; writers (`/stores/v1/...`:
 * create, update, delete, variants, media, options, brand and ribbon, bulk) need an API key. Readers
 * without a key see visible products only, and no costs.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { CatalogPaths, MAX_PRODUCT_PAGE } from "../../../catalog/protocol.ts"
import {
  AddProductMediaRequest,
  BulkAdjustProductsRequest,
  BulkUpdateProductsRequest,
  ChoicesMediaRequest,
  CreateProductRequest,
  ProductOptionsAvailabilityRequest,
  QueryProductsRequest,
  QueryProductVariantsRequest,
  QueryStoreVariantsRequest,
  RemoveProductMediaRequest,
  UpdateProductRequest,
  UpdateVariantsRequest,
  type Product,
  type ProductOption,
  type Variant
} from "../../../catalog/wire/products.ts"
import { bulk, failure, reject } from "../../store/engine.ts"
import { type Reject } from "../../platform/responses.ts"
import { body, pathParam, route } from "../../platform/routing.ts"
import { storeAccess } from "../access.ts"
import { CatalogEngine } from "../CatalogEngine.ts"
import {
  addMedia,
  adjustProperties,
  changedFields,
  checkAdjust,
  checkSet,
  createSpec,
  invalid,
  overrideVariants,
  productNotFound,
  removeMedia,
  removeOptions,
  resetVariants,
  setChoiceMedia,
  setProperties,
  updateSpec
} from "./changes.ts"
import { ALL_PRODUCTS_ID, choiceName, type ProductSpec, slugify } from "./model.ts"
import { ProductStore } from "./ProductStore.ts"
import { legacy, metadataJson, pageRequest, payload, replyStored, v1Access } from "./requests.ts"

export const productRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const products = yield* ProductStore
  const engine = yield* CatalogEngine
  const { reader, writer } = v1Access(yield* storeAccess)

  const productJson = (doc: Product) => JSON.stringify({ product: doc })

  const queryProducts = (method: "GET" | "POST") =>
    Effect.gen(function*() {
      const caller = yield* reader
      const request = yield* payload(QueryProductsRequest, method)
      const admin = caller.kind === "admin"
      const { page, docs, total } = yield* engine.read(() => {
        const page = pageRequest(request.query)
        const result = products.query(page, admin, request.includeVariants === true)
        return { page, ...result }
      })
      return yield* replyStored(`{"products":[${docs.join(",")}],"metadata":${metadataJson(page, docs.length, total)},"totalResults":${total}}`)
    })

  const getProduct = Effect.gen(function*() {
    const caller = yield* reader
    const id = yield* pathParam("id")
    const doc = products.doc(id, caller.kind === "admin")
    if (doc === undefined) return yield* reject(productNotFound(id))
    return yield* replyStored(`{"product":${doc}}`)
  })

  /** The product a reader may see, as the caller sees it. */
  const readable = (id: string, admin: boolean): Effect.Effect<Product, Reject> =>
    engine.read(() => {
      const doc = products.doc(id, admin)
      if (doc === undefined) throw productNotFound(id)
      return JSON.parse(doc) as Product
    })

  const optionsAvailability = Effect.gen(function*() {
    const caller = yield* reader
    const id = yield* pathParam("id")
    const request = yield* body(ProductOptionsAvailabilityRequest)
    const product = yield* readable(id, caller.kind === "admin")
    const chosen = request.options ?? {}
    const options = product.productOptions ?? []
    yield* engine.read(() => {
      for (const [name, value] of Object.entries(chosen)) {
        const option = options.find((o) => o.name === name)
        if (option === undefined) throw invalid(`options.${name}`, `The product has no option ${name}`)
        if (!(option.choices ?? []).some((c) => choiceName(c) === value)) throw invalid(`options.${name}`, `Option ${name} has no choice ${value}`)
      }
    })
    const variants = product.variants ?? []
    const matches = (v: Variant, choices: Record<string, string>) => Object.entries(choices).every(([k, c]) => v.choices?.[k] === c)
    const complete = options.every((o) => chosen[o.name ?? ""] !== undefined)
    const selected = complete ? variants.find((v) => matches(v, chosen)) : undefined
    const productOptions: Array<ProductOption> = options.map((o) => ({
      ...o,
      choices: (o.choices ?? []).map((c) => {
        const others = Object.fromEntries(Object.entries(chosen).filter(([k]) => k !== o.name))
        const candidates = variants.filter((v) => matches(v, { ...others, [o.name ?? ""]: choiceName(c) }))
        return {
          ...c,
          inStock: candidates.some((v) => v.stock?.inStock === true && v.variant?.visible !== false),
          visible: candidates.some((v) => v.variant?.visible !== false)
        }
      })
    }))
    const choiceMedia = options.flatMap((o) => {
      const c = (o.choices ?? []).find((x) => choiceName(x) === chosen[o.name ?? ""])
      return c?.media?.items ?? []
    })
    const media = choiceMedia.length > 0 ? { mainMedia: choiceMedia[0]!, items: choiceMedia } : product.media ?? {}
    const answer = {
      selectedVariant: selected === undefined
        ? null
        : {
          ...(selected.variant?.priceData === undefined ? {} : { price: selected.variant.priceData }),
          ...(selected.variant?.convertedPriceData === undefined ? {} : { convertedPriceData: selected.variant.convertedPriceData }),
          ...(selected.variant?.weight === undefined ? {} : { weight: selected.variant.weight }),
          ...(selected.variant?.sku === undefined ? {} : { sku: selected.variant.sku }),
          ...(selected.stock?.quantity == null ? {} : { quantity: selected.stock.quantity }),
          inStock: selected.stock?.inStock === true,
          visible: selected.variant?.visible !== false
        },
      media,
      productOptions,
      availableForPurchase: selected !== undefined && selected.stock?.inStock === true && selected.variant?.visible !== false,
      managedProduct: product.manageVariants === true
    }
    return yield* replyStored(JSON.stringify(answer))
  })

  const productVariants = Effect.gen(function*() {
    const caller = yield* reader
    const id = yield* pathParam("id")
    const request = yield* body(QueryProductVariantsRequest)
    const product = yield* readable(id, caller.kind === "admin")
    const { limit, offset } = (yield* engine.read(() => pageRequest({ ...(request.paging === undefined ? {} : { paging: request.paging }) }, MAX_PRODUCT_PAGE, MAX_PRODUCT_PAGE))).paging
    const wanted = (product.variants ?? []).filter((v) =>
      (request.variantIds === undefined || request.variantIds.length === 0 || request.variantIds.includes(v.id ?? "")) &&
      Object.entries(request.choices ?? {}).every(([k, c]) => v.choices?.[k] === c)
    )
    const variants = wanted.slice(offset, offset + limit)
    return yield* replyStored(JSON.stringify({ variants, metadata: { items: variants.length, offset }, totalResults: wanted.length }))
  })

  const storeVariants = Effect.gen(function*() {
    yield* reader
    const request = yield* body(QueryStoreVariantsRequest)
    const { page, docs } = yield* engine.read(() => {
      const page = pageRequest(request.query)
      return { page, ...products.queryVariants(page) }
    })
    return yield* replyStored(`{"variants":[${docs.join(",")}],"metadata":{"items":${docs.length},"offset":${page.paging.offset}}}`)
  })

  const storeVariant = Effect.gen(function*() {
    yield* reader
    const id = yield* pathParam("id")
    const doc = products.variantDoc(id)
    if (doc === undefined) return yield* reject(failure(404, "VARIANT_NOT_FOUND", `Variant ${id} not found`))
    return yield* replyStored(`{"variant":${doc}}`)
  })

  // writers

  /** Changes one product in a transaction: `change` gets its spec and returns the new one. */
  const changeProduct = (
    id: string,
    caller: Parameters<typeof legacy>[3],
    change: (spec: ProductSpec, now: string) => ProductSpec,
    fields: ReadonlyArray<string>,
    variantsChanged = false
  ) =>
    engine.commit((emit) => {
      const before = products.require(id)
      const after = change(before, products.now())
      if (after.slug !== before.slug && products.slugTaken(after.slug, id)) {
        throw failure(409, "SLUG_ALREADY_EXISTS", `A product with slug ${after.slug} exists`)
      }
      const doc = products.store(after)
      emit(legacy("ProductChanged", id, { productId: id, changedFields: [...fields] }, caller))
      if (variantsChanged) emit(legacy("VariantsChanged", id, { productId: id, variants: (doc.variants ?? []).map((v) => ({ variantId: v.id, choices: v.choices })) }, caller))
      return doc
    })

  const uniqueSlug = (base: string): string => {
    if (!products.slugTaken(base)) return base
    for (let i = 1;; i++) if (!products.slugTaken(`${base}-${i}`)) return `${base}-${i}`
  }

  const createProduct = Effect.gen(function*() {
    const caller = yield* writer
    const { product } = yield* body(CreateProductRequest)
    const doc = yield* engine.commit((emit) => {
      const spec = createSpec(product, products.newIds(), products.now())
      if (product.slug !== undefined) {
        if (products.slugTaken(spec.slug)) throw failure(409, "SLUG_ALREADY_EXISTS", `A product with slug ${spec.slug} exists`)
      } else spec.slug = uniqueSlug(slugify(spec.name))
      if (product.collectionIds !== undefined) spec.collectionIds = [...new Set(product.collectionIds)].filter((c) => c !== ALL_PRODUCTS_ID)
      const doc = products.store(spec)
      emit(legacy("ProductCreated", spec.id, {
        productId: spec.id,
        name: spec.name,
        price: doc.priceData,
        visible: spec.visible,
        media: doc.media,
        ...(spec.sku === undefined ? {} : { sku: spec.sku }),
        productPageUrl: doc.productPageUrl
      }, caller))
      return doc
    })
    return yield* replyStored(productJson(doc))
  })

  const updateProduct = Effect.gen(function*() {
    const caller = yield* writer
    const id = yield* pathParam("id")
    const { product } = yield* body(UpdateProductRequest)
    if (product.id !== undefined && product.id !== id) return yield* reject(invalid("product.id", "product.id differs from the id in the path"))
    const doc = yield* changeProduct(id, caller, (spec, now) => updateSpec(spec, product, now), changedFields(product), product.productOptions !== undefined)
    return yield* replyStored(productJson(doc))
  })

  const deleteProduct = Effect.gen(function*() {
    const caller = yield* writer
    const id = yield* pathParam("id")
    yield* engine.commit((emit) => {
      if (!products.remove(id)) throw productNotFound(id)
      emit(legacy("ProductDeleted", id, { productId: id }, caller))
    })
    return yield* replyStored("{}")
  })

  const updateVariants = Effect.gen(function*() {
    const caller = yield* writer
    const id = yield* pathParam("id")
    const request = yield* body(UpdateVariantsRequest)
    const doc = yield* engine.commit((emit) => {
      const { spec, changed } = overrideVariants(products.require(id), request.variants, products.now())
      const doc = products.store(spec)
      emit(legacy("VariantsChanged", id, {
        productId: id,
        variants: (doc.variants ?? []).filter((v) => changed.includes(v.id ?? "")).map((v) => ({ variantId: v.id, choices: v.choices }))
      }, caller))
      return doc
    })
    return yield* replyStored(JSON.stringify({ variants: doc.variants ?? [] }))
  })

  /** A writer that changes the product and answers `{}`. */
  const simple = <A>(read: Effect.Effect<A, Reject, any>, change: (spec: ProductSpec, request: A, now: string) => ProductSpec, fields: ReadonlyArray<string>, variants = false) =>
    Effect.gen(function*() {
      const caller = yield* writer
      const id = yield* pathParam("id")
      const request = yield* read
      yield* changeProduct(id, caller, (spec, now) => change(spec, request, now), fields, variants)
      return yield* replyStored("{}")
    })

  const noBody = Effect.succeed(undefined)

  const bulkChange = (ids: ReadonlyArray<string>, check: () => void, change: (spec: ProductSpec, now: string) => ProductSpec, fields: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const caller = yield* writer
      yield* engine.read(() => {
        if (ids.length === 0) throw invalid("ids", "Name at least one product", "REQUIRED_FIELD")
        if (ids.length > MAX_BULK_PRODUCTS) throw invalid("ids", `A bulk call takes at most ${MAX_BULK_PRODUCTS} products`, "MAX_SIZE", { max: MAX_BULK_PRODUCTS })
        check()
      })
      const answer = yield* engine.commit((emit) =>
        bulk(ids, (id) => {
          products.store(change(products.require(id), products.now()))
          emit(legacy("ProductChanged", id, { productId: id, changedFields: [...fields] }, caller))
          return { id }
        })
      )
      return yield* replyStored(JSON.stringify(answer))
    })

  const bulkUpdate = Effect.gen(function*() {
    const request = yield* body(BulkUpdateProductsRequest)
    return yield* bulkChange(request.ids, () => checkSet(request.set), (spec, now) => setProperties(spec, request.set, now), Object.keys(request.set))
  })

  const bulkAdjust = Effect.gen(function*() {
    const request = yield* body(BulkAdjustProductsRequest)
    return yield* bulkChange(request.ids, () => checkAdjust(request.adjust), (spec, now) => adjustProperties(spec, request.adjust, now), Object.keys(request.adjust))
  })

  return [
    route("GET", CatalogPaths.productsQuery, queryProducts("GET")),
    route("POST", CatalogPaths.productsQuery, queryProducts("POST")),
    route("GET", "/stores-reader/v1/products/:id", getProduct),
    route("POST", "/stores-reader/v1/products/:id/productOptionsAvailability", optionsAvailability),
    route("POST", "/stores-reader/v1/products/:id/variants/query", productVariants),
    route("POST", CatalogPaths.storeVariantsQuery, storeVariants),
    route("GET", "/stores-reader/v1/variants/:id", storeVariant),
    route("POST", CatalogPaths.products, createProduct),
    route("PATCH", "/stores/v1/products/:id", updateProduct),
    route("DELETE", "/stores/v1/products/:id", deleteProduct),
    route("PATCH", "/stores/v1/products/:id/variants", updateVariants),
    route("POST", "/stores/v1/products/:id/variants/resetToDefault", simple(noBody, (spec, _, now) => resetVariants(spec, now), ["variants"], true)),
    route("POST", "/stores/v1/products/:id/media", simple(body(AddProductMediaRequest), (spec, r, now) => addMedia(spec, r.media, now), ["media"])),
    route("POST", "/stores/v1/products/:id/media/delete", simple(body(RemoveProductMediaRequest), (spec, r, now) => removeMedia(spec, r.mediaIds, now), ["media"])),
    route("PATCH", "/stores/v1/products/:id/choices/media", simple(body(ChoicesMediaRequest), (spec, r, now) => setChoiceMedia(spec, r.media, false, now), ["productOptions"])),
    route("POST", "/stores/v1/products/:id/choices/media/delete", simple(body(ChoicesMediaRequest), (spec, r, now) => setChoiceMedia(spec, r.media, true, now), ["productOptions"])),
    route("DELETE", "/stores/v1/products/:id/options", simple(noBody, (spec, _, now) => removeOptions(spec, now), ["productOptions", "variants"], true)),
    route("POST", "/stores/v1/products/:id/remove-brand", simple(noBody, (spec, _, now) => setProperties(spec, { brand: "" }, now), ["brand"])),
    route("POST", "/stores/v1/products/:id/remove-ribbon", simple(noBody, (spec, _, now) => setProperties(spec, { ribbon: "" }, now), ["ribbon", "ribbons"])),
    route("POST", CatalogPaths.bulkUpdate, bulkUpdate),
    route("POST", CatalogPaths.bulkAdjust, bulkAdjust)
  ]
}))

/** Ids a bulk call takes at most. */
export const MAX_BULK_PRODUCTS = 100

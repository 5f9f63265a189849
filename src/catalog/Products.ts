/**
 * Catalog v1 products: separate functions that each need only the `PlatformClient` a session or an API
 * key provides, so a page keeps only what it calls. Readers (get, query, options availability,
 * variants, store variants) serve visitors and members; writers need an API key. Every call first
 * checks, once per client, that the site runs the v1 catalog, and fails with a CatalogError that says
 * so when it does not.
 *
 * @example
 * import * as Products from "sitefx/catalog/products"
 * declare const tees: string, productId: string // a collection's id, a product's
 * const page = yield* Products.query().hasSome("collectionIds", [tees]).ascending("priceData.price").limit(24).find
 * for (const product of page.items) console.log(product.name, product.priceData?.formatted?.price)
 * const shirt = yield* Products.get(productId)
 * const sizeM = yield* Products.optionsAvailability(productId, { Size: "M", Color: "Navy" })
 * if (sizeM.availableForPurchase) console.log(shirt.name, "in M and Navy:", sizeM.selectedVariant?.price?.formatted?.price)
 */
import * as Effect from "effect/Effect"
import { first } from "../http/checks.ts"
import type { TypeOf } from "../http/guard.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import type { CatalogFailure } from "./calls.ts"
import * as G from "./guards/products.ts"
import { OffsetQuery } from "./OffsetQuery.ts"
import { CatalogPaths, type DISCOUNT_TYPES, type INVENTORY_STATUSES, type PRODUCT_TYPES } from "./protocol.ts"
import { checkId, checkIds, checkList, checkObject, offsetRunner, pagingOf, send, sendVoid } from "./v1.ts"

export { MAX_SEARCH_WORDS, SEARCH_FIELDS, searchFilter, searchWords } from "./productSearch.ts"

/** A catalog v1 product: its options, variants, prices, stock and media as the platform answers them. */
export type Product = G.Product
/** A product's variant: one choice per option, with its own price, weight, SKU and stock. */
export type Variant = TypeOf<typeof G.Variant>
/** A variant across the store, with its product's id and name, media and collections. */
export type StoreVariant = TypeOf<typeof G.StoreVariant>
/** What a (partial) choice of options gives: the variant it selects, if complete, and which choices remain in stock. */
export type OptionsAvailability = TypeOf<typeof G.ProductOptionsAvailabilityResponse>
/** Every product's fate in a bulk update or adjust, in request order. */
export type BulkResult = TypeOf<typeof G.BulkProductsResponse>

type Effects<A> = Effect.Effect<A, CatalogFailure, PlatformClient>

/** Choices by option name: `{ Size: "M", Color: "Navy" }` (a color option's choices go by their description). */
export type Choices = { readonly [option: string]: string }

/** What a writer sends for a product: the product's own fields (derived ones such as `discountedPrice` are ignored). */
export type ProductInput = Product

/** Bulk calls take at most this many products. */
export const MAX_BULK_PRODUCTS = 100

/** What a product query brings besides the products themselves. */
export interface QueryOptions {
  /** Each product with its variants (they are left out unless asked for). */
  readonly includeVariants?: boolean
  /** Hidden products too (with an API key). */
  readonly includeHiddenProducts?: boolean
}

/**
 * The fields a product query filters and sorts on, with their values' types: the compiler refuses a
 * field that is not one of them or a value of another type (`eq("price", "10")`). Dates compare as
 * `Date` or ISO text; `collections.id` (and `collectionIds`) match with `hasSome`.
 */
export interface ProductQueryFields {
  readonly id: string
  readonly _id: string
  readonly name: string
  readonly slug: string
  readonly sku: string
  readonly description: string
  readonly brand: string
  readonly ribbon: string
  readonly numericId: string | number
  readonly productType: typeof PRODUCT_TYPES[number]
  readonly price: number
  readonly "priceData.price": number
  readonly "priceData.discountedPrice": number
  readonly "stock.quantity": number
  readonly "stock.inventoryStatus": typeof INVENTORY_STATUSES[number]
  readonly "stock.inStock": boolean
  readonly "discount.type": typeof DISCOUNT_TYPES[number]
  readonly "discount.value": number
  readonly visible: boolean
  readonly lastUpdated: string | Date
  readonly createdDate: string | Date
  readonly _createdDate: string | Date
  readonly _updatedDate: string | Date
  readonly "collections.id": ReadonlyArray<string>
  readonly collectionIds: ReadonlyArray<string>
}

/**
 * A product query (filter, sort, page, stream); 50 a page unless `limit` says, at most 100. Its filters
 * and sorts take the {@link ProductQueryFields}.
 *
 * @example
 * import * as Products from "sitefx/catalog/products"
 * const page = yield* Products.query({ includeVariants: true }).startsWith("name", "Tee").descending("lastUpdated").limit(20).find
 * console.log(page.totalCount, page.items.map((p) => p.name))
 * const visible = yield* Products.query().eq("visible", true).stream.pipe(Stream.runCollect)
 */
export const query = (options: QueryOptions = {}): OffsetQuery<Product, PlatformClient, ProductQueryFields> =>
  new OffsetQuery<Product, PlatformClient, ProductQueryFields>(offsetRunner({
    what: "Products.query",
    method: "GET",
    path: CatalogPaths.productsQuery,
    guard: G.QueryProductsResponse,
    body: (query) => ({
      query,
      ...(options.includeVariants === undefined ? {} : { includeVariants: options.includeVariants }),
      ...(options.includeHiddenProducts === undefined ? {} : { includeHiddenProducts: options.includeHiddenProducts })
    }),
    read: (r) => ({ items: r.products ?? [], paging: pagingOf(r.metadata, r.totalResults) })
  }))

/**
 * A product with its variants; PRODUCT_NOT_FOUND when there is none (or a visitor may not see it).
 *
 * @example
 * import * as Products from "sitefx/catalog/products"
 * declare const productId: string
 * const product = yield* Products.get(productId).pipe(
 *   Effect.catchIf((e) => e._tag === "CatalogError" && e.code === "PRODUCT_NOT_FOUND", () => Effect.succeed(undefined))
 * )
 */
export const get = (id: string, options: { readonly includeMerchantSpecificData?: boolean } = {}): Effects<Product> =>
  Effect.map(
    send("Products.get", checkId("Products.get", "id", id), () => ({
      method: "GET",
      path: CatalogPaths.product(id),
      payload: { id, ...(options.includeMerchantSpecificData === undefined ? {} : { includeMerchantSpecificData: options.includeMerchantSpecificData }) }
    }), G.ProductResponse),
    (r) => r.product ?? {}
  )

/** What a choice of options selects: the variant (when every option is chosen), what is still available, and whether it can be bought. */
export const optionsAvailability = (id: string, choices: Choices): Effects<OptionsAvailability> =>
  send("Products.optionsAvailability", first(checkId("Products.optionsAvailability", "id", id), checkObject("Products.optionsAvailability", "choices", choices)), () => ({
    method: "POST",
    path: CatalogPaths.optionsAvailability(id),
    payload: { id, options: choices }
  }), G.ProductOptionsAvailabilityResponse)

/** Which of a product's variants to read, and how many. */
export interface VariantsOptions {
  readonly choices?: Choices
  readonly variantIds?: ReadonlyArray<string>
  readonly limit?: number
  readonly offset?: number
}

/** A product's variants, all or those matching some choices or ids, with their number. */
export const variants = (id: string, options: VariantsOptions = {}): Effects<{ readonly variants: ReadonlyArray<Variant>; readonly total: number }> =>
  Effect.map(
    send("Products.variants", checkId("Products.variants", "id", id), () => ({
      method: "POST",
      path: CatalogPaths.productVariantsQuery(id),
      payload: {
        id,
        ...(options.choices === undefined ? {} : { choices: options.choices }),
        ...(options.variantIds === undefined ? {} : { variantIds: options.variantIds }),
        ...(options.limit === undefined && options.offset === undefined
          ? {}
          : { paging: { ...(options.limit === undefined ? {} : { limit: options.limit }), ...(options.offset === undefined ? {} : { offset: options.offset }) } })
      }
    }), G.QueryProductVariantsResponse),
    (r) => ({ variants: r.variants ?? [], total: r.totalResults ?? r.variants?.length ?? 0 })
  )

/** Variants across the store (each with its product's id and name): a query to filter, sort, page and stream. */
export const storeVariants = (): OffsetQuery<StoreVariant> =>
  new OffsetQuery(offsetRunner({
    what: "Products.storeVariants",
    method: "POST",
    path: CatalogPaths.storeVariantsQuery,
    guard: G.QueryStoreVariantsResponse,
    read: (r) => ({ items: r.variants ?? [], paging: r.metadata ?? {} })
  }))

/** One store variant by its id (`<productId>-<variantId>`). */
export const storeVariant = (id: string): Effects<StoreVariant> =>
  Effect.map(
    send("Products.storeVariant", checkId("Products.storeVariant", "id", id), () => ({ method: "GET", path: CatalogPaths.storeVariant(id), payload: { id } }), G.StoreVariantResponse),
    (r) => r.variant ?? {}
  )

// writers (an API key)

const productOf = (r: TypeOf<typeof G.ProductResponse>): Product => r.product ?? {}

/** Creates a product; the answer has its id, variants and derived prices. */
export const create = (product: ProductInput): Effects<Product> =>
  Effect.map(
    send("Products.create", checkObject("Products.create", "product", product), () => ({ method: "POST", path: CatalogPaths.products, payload: { product } }), G.ProductResponse),
    productOf
  )

/** Changes the fields given. */
export const update = (id: string, product: ProductInput): Effects<Product> =>
  Effect.map(
    send("Products.update", first(checkId("Products.update", "id", id), checkObject("Products.update", "product", product)), () => ({
      method: "PATCH",
      path: CatalogPaths.writeProduct(id),
      payload: { product: { ...product, id } }
    }), G.ProductResponse),
    productOf
  )

/** Deletes a product (an API key). */
export const remove = (id: string): Effects<void> =>
  sendVoid("Products.remove", checkId("Products.remove", "id", id), () => ({ method: "DELETE", path: CatalogPaths.writeProduct(id), payload: { id } }))

/** The price, cost, weight, SKU or visibility some of a product's variants take. */
export interface VariantOverride {
  /** The variants this applies to: all matching these choices... */
  readonly choices?: Choices
  /** ...or these ids. */
  readonly variantIds?: ReadonlyArray<string>
  readonly price?: number
  readonly cost?: number
  readonly weight?: number
  readonly sku?: string
  readonly visible?: boolean
}

/** Sets variants' own price, cost, weight, SKU or visibility; answers every variant of the product. */
export const updateVariants = (id: string, overrides: ReadonlyArray<VariantOverride>): Effects<ReadonlyArray<Variant>> =>
  Effect.map(
    send("Products.updateVariants", first(checkId("Products.updateVariants", "id", id), checkList("Products.updateVariants", "overrides", overrides, 1000)), () => ({
      method: "PATCH",
      path: CatalogPaths.variants(id),
      payload: { id, variants: overrides }
    }), G.UpdateVariantsResponse),
    (r) => r.variants ?? []
  )

const onProduct = (what: string, method: "POST" | "DELETE", path: (id: string) => string) => (id: string): Effects<void> =>
  sendVoid(what, checkId(what, "id", id), () => ({ method, path: path(id), payload: { id } }))

/** Every variant back to the product's own price, weight and SKU. */
export const resetVariants = onProduct("Products.resetVariants", "POST", CatalogPaths.resetVariants)
/** Removes the product's options (it keeps one default variant). */
export const removeOptions = onProduct("Products.removeOptions", "DELETE", CatalogPaths.options)
/** Takes the brand off the product. */
export const removeBrand = onProduct("Products.removeBrand", "POST", CatalogPaths.removeBrand)
/** Takes the ribbon off the product. */
export const removeRibbon = onProduct("Products.removeRibbon", "POST", CatalogPaths.removeRibbon)

/** One media item to add to a product: a site media id or an image URL, optionally for one choice. */
export interface MediaInput {
  /** A media id of the site's media... */
  readonly mediaId?: string
  /** ...or an image URL. */
  readonly url?: string
  /** Also shown for this choice. */
  readonly choice?: { readonly option: string; readonly choice: string }
}

/** Adds up to 100 media items to a product's gallery (an API key). */
export const addMedia = (id: string, media: ReadonlyArray<MediaInput>): Effects<void> =>
  sendVoid("Products.addMedia", first(checkId("Products.addMedia", "id", id), checkList("Products.addMedia", "media", media, 100)), () => ({
    method: "POST",
    path: CatalogPaths.media(id),
    payload: { id, media }
  }))

/** Removes up to 100 media items, by id, from a product's gallery (an API key). */
export const removeMedia = (id: string, mediaIds: ReadonlyArray<string>): Effects<void> =>
  sendVoid("Products.removeMedia", first(checkId("Products.removeMedia", "id", id), checkIds("Products.removeMedia", "mediaIds", mediaIds, 100)), () => ({
    method: "POST",
    path: CatalogPaths.removeMedia(id),
    payload: { id, mediaIds }
  }))

/** The media items shown for one choice of an option. */
export interface ChoiceMedia {
  readonly option: string
  readonly choice: string
  readonly mediaIds: ReadonlyArray<string>
}

/** Shows media items of the product's gallery for these choices (an API key). */
export const addMediaToChoices = (id: string, media: ReadonlyArray<ChoiceMedia>): Effects<void> =>
  sendVoid("Products.addMediaToChoices", first(checkId("Products.addMediaToChoices", "id", id), checkList("Products.addMediaToChoices", "media", media, 100)), () => ({
    method: "PATCH",
    path: CatalogPaths.choicesMedia(id),
    payload: { id, media }
  }))

/** Stops showing these media items for these choices (an API key). */
export const removeMediaFromChoices = (id: string, media: ReadonlyArray<ChoiceMedia>): Effects<void> =>
  sendVoid("Products.removeMediaFromChoices", first(checkId("Products.removeMediaFromChoices", "id", id), checkList("Products.removeMediaFromChoices", "media", media, 100)), () => ({
    method: "POST",
    path: CatalogPaths.removeChoicesMedia(id),
    payload: { id, media }
  }))

/** One property to set on many products (the platform takes one per call). */
export type PropertySet =
  | { readonly price: number }
  | { readonly cost: number }
  | { readonly weight: number }
  | { readonly ribbon: string }
  | { readonly brand: string }

/** Sets one property on up to 100 products; the answer says how each fared. */
export const bulkUpdate = (ids: ReadonlyArray<string>, set: PropertySet): Effects<BulkResult> =>
  send("Products.bulkUpdate", first(checkIds("Products.bulkUpdate", "ids", ids, MAX_BULK_PRODUCTS), checkObject("Products.bulkUpdate", "set", set)), () => ({
    method: "POST",
    path: CatalogPaths.bulkUpdate,
    payload: { ids, set }
  }), G.BulkProductsResponse)

/** A change by an amount, or by a percentage (-100 to 1000, to cents or with `roundToInt` to whole units). */
export type Adjustment = { readonly amount: number } | { readonly percentage: { readonly rate: number; readonly roundToInt?: boolean } }

/** One property to adjust on many products. */
export type PropertyAdjust = { readonly price: Adjustment } | { readonly cost: Adjustment } | { readonly weight: Adjustment }

/** Adjusts one property of up to 100 products; the answer says how each fared. */
export const bulkAdjust = (ids: ReadonlyArray<string>, adjust: PropertyAdjust): Effects<BulkResult> =>
  send("Products.bulkAdjust", first(checkIds("Products.bulkAdjust", "ids", ids, MAX_BULK_PRODUCTS), checkObject("Products.bulkAdjust", "adjust", adjust)), () => ({
    method: "POST",
    path: CatalogPaths.bulkAdjust,
    payload: { adjust, ids }
  }), G.BulkProductsResponse)


/**
 * Brands (catalog v3 entity service, answered on any installed store): each function needs only the
 * `PlatformClient` of a session or an API key. Readers (`get`, `query`, `count`) serve visitors;
 * writers need an API key. Names are unique in the store; updates carry the revision they read, and
 * the platform refuses a stale one (`REVISION_MISMATCH`).
 *
 * @example
 * import { Brands } from "sitefx/catalog/entities" // or from "sitefx/catalog"
 * const brand = yield* Brands.getOrCreate("Northwind")
 * const renamed = yield* Brands.update({ id: brand.id!, revision: brand.revision!, name: "Northwind Co" })
 */
import type * as Effect from "effect/Effect"
import type { PlatformClient } from "../../http/PlatformClient.ts"
import type { Filter } from "../../data/Filter.ts"
import type { CursorQuery } from "./CursorQuery.ts"
import * as G from "./guards/index.ts"
import type { EntityFailure } from "./calls.ts"
import * as Named from "./named.ts"
import { BRAND_FIELDS, EntityPaths, MAX_ENTITY_BULK, MAX_ENTITY_PAGE, NAME_LIMITS } from "./protocol.ts"

/** A brand as the platform answers it: its id, revision, dates, name and, when asked, its product count. */
export type Brand = G.Brand
/** An optional field a call may ask for. */
export type BrandField = typeof BRAND_FIELDS[number]

/** A brand to create: its name, unique in the store. */
export interface BrandInput {
  readonly name: string
}
/** What an update sends: the id, the revision it read, and the fields to change. */
export interface BrandUpdate {
  readonly id: string
  readonly revision: string
  readonly name?: string
}
/** The optional fields a call answers with. */
export interface FieldsOptions {
  /** `ASSIGNED_PRODUCTS_COUNT` adds `assignedProductsCount`. */
  readonly fields?: ReadonlyArray<BrandField>
}
/** Whether a bulk call answers with the written entities. */
export interface BulkOptions {
  /** Hand back each written brand in its result (default false). */
  readonly returnEntity?: boolean
}

type Eff<A> = Effect.Effect<A, EntityFailure, PlatformClient>

const BRAND: Named.Named<"brand", "brands", Brand> = {
  module: "Brands",
  key: "brand",
  plural: "brands",
  paths: {
    create: EntityPaths.brands,
    one: EntityPaths.brand,
    query: EntityPaths.brandsQuery,
    count: EntityPaths.brandsCount,
    getOrCreate: EntityPaths.brandGetOrCreate,
    bulkCreate: EntityPaths.brandsBulkCreate,
    bulkUpdate: EntityPaths.brandsBulkUpdate,
    bulkGetOrCreate: EntityPaths.brandsBulkGetOrCreate,
    bulkDelete: EntityPaths.brandsBulkDelete
  },
  fields: BRAND_FIELDS,
  queryMethod: "GET",
  maxPage: MAX_ENTITY_PAGE.brands,
  maxBulk: MAX_ENTITY_BULK,
  guards: { one: G.BrandResponse, page: G.QueryBrandsResponse, bulk: G.BulkBrandsResponse },
  checks: /* @__PURE__ */ Named.nameChecks(NAME_LIMITS.brand),
  findBy: { key: "brandName", plural: "brandNames" }
}

/** Creates a brand (an API key); ALREADY_EXISTS when the name is taken. */
export const create = (brand: BrandInput): Eff<Brand> => Named.create(BRAND, brand)

/** The brand of this id; BRAND_NOT_FOUND when there is none. */
export const get = (id: string, options?: FieldsOptions): Eff<Brand> => Named.get(BRAND, id, options)

/** Changes the fields given; `revision` must be the brand's current one. */
export const update = (brand: BrandUpdate, options?: FieldsOptions): Eff<Brand> => Named.update(BRAND, brand, options)

/** Deletes a brand (an API key). */
export const remove = (id: string): Eff<void> => Named.remove(BRAND, id)

/** A query over the store's brands (filter on `id`, `name`, `createdDate`, `updatedDate`). */
export const query = (options?: FieldsOptions): CursorQuery<Brand> => Named.query(BRAND, options)

/** How many brands match (all of them without a filter). */
export const count = (filter?: Filter | Record<string, unknown>): Eff<number> => Named.count(BRAND, filter)

/**
 * The brand of this name, created when the store has none.
 *
 * @example
 * import { Brands } from "sitefx/catalog/entities"
 * const brand = yield* Brands.getOrCreate("Northwind")
 * console.log(brand.id, brand.assignedProductsCount)
 */
export const getOrCreate = (brandName: string, options?: FieldsOptions): Eff<Brand> => Named.getOrCreate(BRAND, brandName, options)

/**
 * The brands of these names (each found or created), one result per name in order.
 *
 * @example
 * import { Brands } from "sitefx/catalog/entities"
 * const { results } = yield* Brands.bulkGetOrCreate(["Northwind", "Contoso"])
 * const ids = results.map((r) => r.item?.id)
 */
export const bulkGetOrCreate = (brandNames: ReadonlyArray<string>, options?: FieldsOptions): Eff<G.BulkResults<Brand>> =>
  Named.bulkGetOrCreate(BRAND, brandNames, options)

/** Creates up to 100 brands (an API key), each one's fate in its result. */
export const bulkCreate = (brands: ReadonlyArray<BrandInput>, options?: BulkOptions): Eff<G.BulkResults<Brand>> => Named.bulkCreate(BRAND, brands, options)

/** One brand of a bulk update, with the fields to write (all the fields given, without a mask). */
export interface MaskedBrand {
  readonly brand: BrandUpdate
  readonly fieldMask?: ReadonlyArray<string>
}

/** Updates up to 100 brands (an API key), each one's fate in its result. */
export const bulkUpdate = (brands: ReadonlyArray<MaskedBrand>, options?: BulkOptions & FieldsOptions): Eff<G.BulkResults<Brand>> =>
  Named.bulkUpdate(BRAND, brands, options)

/** Deletes up to 100 brands by id (an API key), each one's fate in its result. */
export const bulkRemove = (ids: ReadonlyArray<string>): Eff<G.BulkDeleteResults> => Named.bulkRemove(BRAND, ids)

/**
 * Brands (catalog v3 entity service, answered on any installed store): each function needs only the
 * `PlatformClient` of a session or an API key. Readers (`get`, `query`, `count`) serve visitors;
 * writers need an API key. Names are unique in the store; updates carry the revision they read, and
 * the platform refuses a stale one (`REVISION_MISMATCH`).
 *
 * @example
 * import * as Brands from "sitefx/catalog/v3/Brands" // or { Brands } from "sitefx/catalog"
 * const brand = yield* Brands.getOrCreate("Northwind")
 * const renamed = yield* Brands.update({ id: brand.id!, revision: brand.revision!, name: "Northwind Co" })
 */
import * as Effect from "effect/Effect"
import type { PlatformClient } from "../../http/PlatformClient.ts"
import type { Filter } from "../../data/Filter.ts"
import type { CursorQuery } from "./CursorQuery.ts"
import * as G from "./guards.ts"
import {
  checkedQuery,
  checkEach,
  checkFields,
  checkId,
  checkList,
  checkObject,
  checkRevision,
  checkText,
  countBody,
  type EntityFailure,
  fieldsOf,
  first,
  maskOf,
  optionalText,
  queryRunner,
  refusalOf,
  send,
  sendVoid
} from "./calls.ts"
import { BRAND_FIELDS, EntityPaths, MAX_ENTITY_BULK, MAX_ENTITY_PAGE, NAME_LIMITS } from "./protocol.ts"

export type Brand = G.Brand
export type BrandField = typeof BRAND_FIELDS[number]

export interface BrandInput {
  readonly name: string
}
/** What an update sends: the id, the revision it read, and the fields to change. */
export interface BrandUpdate {
  readonly id: string
  readonly revision: string
  readonly name?: string
}
export interface FieldsOptions {
  /** `ASSIGNED_PRODUCTS_COUNT` adds `assignedProductsCount`. */
  readonly fields?: ReadonlyArray<BrandField>
}
export interface BulkOptions {
  /** Hand back each written brand in its result (default false). */
  readonly returnEntity?: boolean
}

type Eff<A> = Effect.Effect<A, EntityFailure, PlatformClient>

const name = (what: string, field: string, value: unknown) => checkText(what, field, value, NAME_LIMITS.brand)
const fieldsCheck = (what: string, options: FieldsOptions | undefined) => checkFields(what, options?.fields, BRAND_FIELDS)
const asObject = (u: unknown) => (typeof u === "object" && u !== null ? u as Record<string, unknown> : {})

const checkUpdate = (what: string, brand: unknown, field: string) =>
  first(
    checkObject(what, field, brand),
    checkId(what, `${field}.id`, asObject(brand)["id"]),
    checkRevision(what, `${field}.revision`, asObject(brand)["revision"]),
    optionalText(what, `${field}.name`, asObject(brand)["name"], NAME_LIMITS.brand)
  )

export const create = (brand: BrandInput): Eff<Brand> =>
  send(
    "Brands.create",
    first(checkObject("Brands.create", "brand", brand), name("Brands.create", "brand.name", asObject(brand)["name"])),
    () => ({ method: "POST", path: EntityPaths.brands, payload: { brand } }),
    G.BrandResponse
  ).pipe(Effect.map((r) => r.brand))

export const get = (id: string, options?: FieldsOptions): Eff<Brand> =>
  send(
    "Brands.get",
    first(checkId("Brands.get", "id", id), fieldsCheck("Brands.get", options)),
    () => ({ method: "GET", path: EntityPaths.brand(id), payload: { brandId: id, ...fieldsOf(options?.fields) } }),
    G.BrandResponse
  ).pipe(Effect.map((r) => r.brand))

/** Changes the fields given; `revision` must be the brand's current one. */
export const update = (brand: BrandUpdate, options?: FieldsOptions): Eff<Brand> =>
  send(
    "Brands.update",
    first(checkUpdate("Brands.update", brand, "brand"), fieldsCheck("Brands.update", options)),
    () => ({ method: "PATCH", path: EntityPaths.brand(brand.id), payload: { brand, ...fieldsOf(options?.fields) } }),
    G.BrandResponse
  ).pipe(Effect.map((r) => r.brand))

export const remove = (id: string): Eff<void> =>
  sendVoid("Brands.remove", checkId("Brands.remove", "id", id), () => ({ method: "DELETE", path: EntityPaths.brand(id), payload: { brandId: id } }))

/** A query over the store's brands (filter on `id`, `name`, `createdDate`, `updatedDate`). */
export const query = (options?: FieldsOptions): CursorQuery<Brand> =>
  checkedQuery(
    queryRunner({
      what: "Brands.query",
      path: EntityPaths.brandsQuery,
      method: "GET",
      maxLimit: MAX_ENTITY_PAGE.brands,
      fields: options?.fields,
      guard: G.QueryBrandsResponse,
      read: (r) => ({ items: r.brands, paging: r.pagingMetadata })
    }),
    fieldsCheck("Brands.query", options)
  )

/** How many brands match (all of them without a filter). */
export const count = (filter?: Filter | Record<string, unknown>): Eff<number> => {
  const body = countBody(filter)
  return send(
    "Brands.count",
    refusalOf(body),
    () => ({ method: "POST", path: EntityPaths.brandsCount, payload: body as Record<string, unknown>, idempotent: true }),
    G.CountResponse
  ).pipe(Effect.map((r) => r.count))
}

/** The brand of this name, created when the store has none. */
export const getOrCreate = (brandName: string, options?: FieldsOptions): Eff<Brand> =>
  send(
    "Brands.getOrCreate",
    first(name("Brands.getOrCreate", "brandName", brandName), fieldsCheck("Brands.getOrCreate", options)),
    () => ({ method: "POST", path: EntityPaths.brandGetOrCreate, payload: { brandName, ...fieldsOf(options?.fields) } }),
    G.BrandResponse
  ).pipe(Effect.map((r) => r.brand))

/** The brands of these names (each found or created), one result per name in order. */
export const bulkGetOrCreate = (brandNames: ReadonlyArray<string>, options?: FieldsOptions): Eff<G.BulkResults<Brand>> =>
  send(
    "Brands.bulkGetOrCreate",
    first(
      checkList("Brands.bulkGetOrCreate", "brandNames", brandNames, MAX_ENTITY_BULK),
      Array.isArray(brandNames) ? checkEach(brandNames, (n, f) => name("Brands.bulkGetOrCreate", f, n), "brandNames") : undefined,
      fieldsCheck("Brands.bulkGetOrCreate", options)
    ),
    () => ({ method: "POST", path: EntityPaths.brandsBulkGetOrCreate, payload: { brandNames, ...fieldsOf(options?.fields) } }),
    G.BulkBrandsResponse
  )

export const bulkCreate = (brands: ReadonlyArray<BrandInput>, options?: BulkOptions): Eff<G.BulkResults<Brand>> =>
  send(
    "Brands.bulkCreate",
    first(
      checkList("Brands.bulkCreate", "brands", brands, MAX_ENTITY_BULK),
      Array.isArray(brands)
        ? checkEach(brands, (b, f) => first(checkObject("Brands.bulkCreate", f, b), name("Brands.bulkCreate", `${f}.name`, asObject(b)["name"])), "brands")
        : undefined
    ),
    () => ({
      method: "POST",
      path: EntityPaths.brandsBulkCreate,
      payload: { brands, ...(options?.returnEntity === undefined ? {} : { returnEntity: options.returnEntity }) }
    }),
    G.BulkBrandsResponse
  )

/** One brand of a bulk update, with the fields to write (all the fields given, without a mask). */
export interface MaskedBrand {
  readonly brand: BrandUpdate
  readonly fieldMask?: ReadonlyArray<string>
}

export const bulkUpdate = (brands: ReadonlyArray<MaskedBrand>, options?: BulkOptions & FieldsOptions): Eff<G.BulkResults<Brand>> =>
  send(
    "Brands.bulkUpdate",
    first(
      checkList("Brands.bulkUpdate", "brands", brands, MAX_ENTITY_BULK),
      Array.isArray(brands) ? checkEach(brands, (m, f) => checkUpdate("Brands.bulkUpdate", asObject(m)["brand"], `${f}.brand`), "brands") : undefined,
      fieldsCheck("Brands.bulkUpdate", options)
    ),
    () => ({
      method: "POST",
      path: EntityPaths.brandsBulkUpdate,
      payload: {
        brands: brands.map((m) => ({ brand: m.brand, ...maskOf(m.fieldMask) })),
        ...(options?.returnEntity === undefined ? {} : { returnEntity: options.returnEntity }),
        ...fieldsOf(options?.fields)
      }
    }),
    G.BulkBrandsResponse
  )

export const bulkRemove = (ids: ReadonlyArray<string>): Eff<G.BulkDeleteResults> =>
  send(
    "Brands.bulkRemove",
    first(
      checkList("Brands.bulkRemove", "ids", ids, MAX_ENTITY_BULK),
      Array.isArray(ids) ? checkEach(ids, (id, f) => checkId("Brands.bulkRemove", f, id), "ids") : undefined
    ),
    () => ({ method: "POST", path: EntityPaths.brandsBulkDelete, payload: { brandIds: ids } }),
    G.BulkDeleteResponse
  )

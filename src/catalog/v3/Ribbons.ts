/**
 * Ribbons (catalog v3 entity service, answered on any installed store): the labels shown over products
 * ("Sale", "New"). Each function needs only the `PlatformClient` of a session or an API key. Readers
 * (`get`, `query`, `count`) serve visitors; writers need an API key. Names are unique in the store;
 * updates carry the revision they read, and the platform refuses a stale one (`REVISION_MISMATCH`).
 *
 * @example
 * import * as Ribbons from "sitefx/catalog/v3/Ribbons" // or { Ribbons } from "sitefx/catalog"
 * const ribbon = yield* Ribbons.getOrCreate("Sale")
 * const renamed = yield* Ribbons.update({ id: ribbon.id!, revision: ribbon.revision!, name: "Summer sale" })
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
import { RIBBON_FIELDS, EntityPaths, MAX_ENTITY_BULK, MAX_ENTITY_PAGE, NAME_LIMITS } from "./protocol.ts"

export type Ribbon = G.Ribbon
export type RibbonField = typeof RIBBON_FIELDS[number]

export interface RibbonInput {
  readonly name: string
}
/** What an update sends: the id, the revision it read, and the fields to change. */
export interface RibbonUpdate {
  readonly id: string
  readonly revision: string
  readonly name?: string
}
export interface FieldsOptions {
  /** `ASSIGNED_PRODUCT_COUNT` adds `assignedProductCount`. */
  readonly fields?: ReadonlyArray<RibbonField>
}
export interface BulkOptions {
  /** Hand back each written ribbon in its result (default false). */
  readonly returnEntity?: boolean
}

type Eff<A> = Effect.Effect<A, EntityFailure, PlatformClient>

const name = (what: string, field: string, value: unknown) => checkText(what, field, value, NAME_LIMITS.ribbon)
const fieldsCheck = (what: string, options: FieldsOptions | undefined) => checkFields(what, options?.fields, RIBBON_FIELDS)
const asObject = (u: unknown) => (typeof u === "object" && u !== null ? u as Record<string, unknown> : {})

const checkUpdate = (what: string, ribbon: unknown, field: string) =>
  first(
    checkObject(what, field, ribbon),
    checkId(what, `${field}.id`, asObject(ribbon)["id"]),
    checkRevision(what, `${field}.revision`, asObject(ribbon)["revision"]),
    optionalText(what, `${field}.name`, asObject(ribbon)["name"], NAME_LIMITS.ribbon)
  )

export const create = (ribbon: RibbonInput): Eff<Ribbon> =>
  send(
    "Ribbons.create",
    first(checkObject("Ribbons.create", "ribbon", ribbon), name("Ribbons.create", "ribbon.name", asObject(ribbon)["name"])),
    () => ({ method: "POST", path: EntityPaths.ribbons, payload: { ribbon } }),
    G.RibbonResponse
  ).pipe(Effect.map((r) => r.ribbon))

export const get = (id: string, options?: FieldsOptions): Eff<Ribbon> =>
  send(
    "Ribbons.get",
    first(checkId("Ribbons.get", "id", id), fieldsCheck("Ribbons.get", options)),
    () => ({ method: "GET", path: EntityPaths.ribbon(id), payload: { ribbonId: id, ...fieldsOf(options?.fields) } }),
    G.RibbonResponse
  ).pipe(Effect.map((r) => r.ribbon))

/** Changes the fields given; `revision` must be the ribbon's current one. */
export const update = (ribbon: RibbonUpdate, options?: FieldsOptions): Eff<Ribbon> =>
  send(
    "Ribbons.update",
    first(checkUpdate("Ribbons.update", ribbon, "ribbon"), fieldsCheck("Ribbons.update", options)),
    () => ({ method: "PATCH", path: EntityPaths.ribbon(ribbon.id), payload: { ribbon, ...fieldsOf(options?.fields) } }),
    G.RibbonResponse
  ).pipe(Effect.map((r) => r.ribbon))

export const remove = (id: string): Eff<void> =>
  sendVoid("Ribbons.remove", checkId("Ribbons.remove", "id", id), () => ({ method: "DELETE", path: EntityPaths.ribbon(id), payload: { ribbonId: id } }))

/** A query over the store's ribbons (filter on `id`, `name`, `createdDate`, `updatedDate`); it travels as POST. */
export const query = (options?: FieldsOptions): CursorQuery<Ribbon> =>
  checkedQuery(
    queryRunner({
      what: "Ribbons.query",
      path: EntityPaths.ribbonsQuery,
      method: "POST",
      maxLimit: MAX_ENTITY_PAGE.ribbons,
      fields: options?.fields,
      guard: G.QueryRibbonsResponse,
      read: (r) => ({ items: r.ribbons, paging: r.pagingMetadata })
    }),
    fieldsCheck("Ribbons.query", options)
  )

/** How many ribbons match (all of them without a filter). */
export const count = (filter?: Filter | Record<string, unknown>): Eff<number> => {
  const body = countBody(filter)
  return send(
    "Ribbons.count",
    refusalOf(body),
    () => ({ method: "POST", path: EntityPaths.ribbonsCount, payload: body as Record<string, unknown>, idempotent: true }),
    G.CountResponse
  ).pipe(Effect.map((r) => r.count))
}

/** The ribbon of this name, created when the store has none. */
export const getOrCreate = (ribbonName: string, options?: FieldsOptions): Eff<Ribbon> =>
  send(
    "Ribbons.getOrCreate",
    first(name("Ribbons.getOrCreate", "ribbonName", ribbonName), fieldsCheck("Ribbons.getOrCreate", options)),
    () => ({ method: "POST", path: EntityPaths.ribbonGetOrCreate, payload: { ribbonName, ...fieldsOf(options?.fields) } }),
    G.RibbonResponse
  ).pipe(Effect.map((r) => r.ribbon))

/** The ribbons of these names (each found or created), one result per name in order. */
export const bulkGetOrCreate = (ribbonNames: ReadonlyArray<string>, options?: FieldsOptions): Eff<G.BulkResults<Ribbon>> =>
  send(
    "Ribbons.bulkGetOrCreate",
    first(
      checkList("Ribbons.bulkGetOrCreate", "ribbonNames", ribbonNames, MAX_ENTITY_BULK),
      Array.isArray(ribbonNames) ? checkEach(ribbonNames, (n, f) => name("Ribbons.bulkGetOrCreate", f, n), "ribbonNames") : undefined,
      fieldsCheck("Ribbons.bulkGetOrCreate", options)
    ),
    () => ({ method: "POST", path: EntityPaths.ribbonsBulkGetOrCreate, payload: { ribbonNames, ...fieldsOf(options?.fields) } }),
    G.BulkRibbonsResponse
  )

export const bulkCreate = (ribbons: ReadonlyArray<RibbonInput>, options?: BulkOptions): Eff<G.BulkResults<Ribbon>> =>
  send(
    "Ribbons.bulkCreate",
    first(
      checkList("Ribbons.bulkCreate", "ribbons", ribbons, MAX_ENTITY_BULK),
      Array.isArray(ribbons)
        ? checkEach(ribbons, (b, f) => first(checkObject("Ribbons.bulkCreate", f, b), name("Ribbons.bulkCreate", `${f}.name`, asObject(b)["name"])), "ribbons")
        : undefined
    ),
    () => ({
      method: "POST",
      path: EntityPaths.ribbonsBulkCreate,
      payload: { ribbons, ...(options?.returnEntity === undefined ? {} : { returnEntity: options.returnEntity }) }
    }),
    G.BulkRibbonsResponse
  )

/** One ribbon of a bulk update, with the fields to write (all the fields given, without a mask). */
export interface MaskedRibbon {
  readonly ribbon: RibbonUpdate
  readonly fieldMask?: ReadonlyArray<string>
}

export const bulkUpdate = (ribbons: ReadonlyArray<MaskedRibbon>, options?: BulkOptions & FieldsOptions): Eff<G.BulkResults<Ribbon>> =>
  send(
    "Ribbons.bulkUpdate",
    first(
      checkList("Ribbons.bulkUpdate", "ribbons", ribbons, MAX_ENTITY_BULK),
      Array.isArray(ribbons) ? checkEach(ribbons, (m, f) => checkUpdate("Ribbons.bulkUpdate", asObject(m)["ribbon"], `${f}.ribbon`), "ribbons") : undefined,
      fieldsCheck("Ribbons.bulkUpdate", options)
    ),
    () => ({
      method: "POST",
      path: EntityPaths.ribbonsBulkUpdate,
      payload: {
        ribbons: ribbons.map((m) => ({ ribbon: m.ribbon, ...maskOf(m.fieldMask) })),
        ...(options?.returnEntity === undefined ? {} : { returnEntity: options.returnEntity }),
        ...fieldsOf(options?.fields)
      }
    }),
    G.BulkRibbonsResponse
  )

export const bulkRemove = (ids: ReadonlyArray<string>): Eff<G.BulkDeleteResults> =>
  send(
    "Ribbons.bulkRemove",
    first(
      checkList("Ribbons.bulkRemove", "ids", ids, MAX_ENTITY_BULK),
      Array.isArray(ids) ? checkEach(ids, (id, f) => checkId("Ribbons.bulkRemove", f, id), "ids") : undefined
    ),
    () => ({ method: "POST", path: EntityPaths.ribbonsBulkDelete, payload: { ribbonIds: ids } }),
    G.BulkDeleteResponse
  )

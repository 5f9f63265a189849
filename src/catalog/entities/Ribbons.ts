/**
 * Ribbons (catalog v3 entity service, answered on any installed store): the labels shown over products
 * ("Sale", "New"). Each function needs only the `PlatformClient` of a session or an API key. Readers
 * (`get`, `query`, `count`) serve visitors; writers need an API key. Names are unique in the store;
 * updates carry the revision they read, and the platform refuses a stale one (`REVISION_MISMATCH`).
 *
 * @example
 * import { Ribbons } from "sitefx/catalog/entities" // or from "sitefx/catalog"
 * const ribbon = yield* Ribbons.getOrCreate("Sale")
 * const renamed = yield* Ribbons.update({ id: ribbon.id!, revision: ribbon.revision!, name: "Summer sale" })
 */
import type * as Effect from "effect/Effect"
import type { PlatformClient } from "../../http/PlatformClient.ts"
import type { Filter } from "../../data/Filter.ts"
import type { CursorQuery } from "./CursorQuery.ts"
import * as G from "./guards/index.ts"
import type { EntityFailure } from "./calls.ts"
import * as Named from "./named.ts"
import { RIBBON_FIELDS, EntityPaths, MAX_ENTITY_PAGE, NAME_LIMITS } from "./protocol.ts"

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

const RIBBON: Named.Named<"ribbon", "ribbons", Ribbon> = {
  module: "Ribbons",
  key: "ribbon",
  plural: "ribbons",
  paths: {
    create: EntityPaths.ribbons,
    one: EntityPaths.ribbon,
    query: EntityPaths.ribbonsQuery,
    count: EntityPaths.ribbonsCount,
    getOrCreate: EntityPaths.ribbonGetOrCreate,
    bulkCreate: EntityPaths.ribbonsBulkCreate,
    bulkUpdate: EntityPaths.ribbonsBulkUpdate,
    bulkGetOrCreate: EntityPaths.ribbonsBulkGetOrCreate,
    bulkDelete: EntityPaths.ribbonsBulkDelete
  },
  fields: RIBBON_FIELDS,
  queryMethod: "POST",
  maxPage: MAX_ENTITY_PAGE.ribbons,
  guards: { one: G.RibbonResponse, page: G.QueryRibbonsResponse, bulk: G.BulkRibbonsResponse },
  checks: /* @__PURE__ */ Named.nameChecks(NAME_LIMITS.ribbon),
  findBy: { key: "ribbonName", plural: "ribbonNames" }
}

export const create = (ribbon: RibbonInput): Eff<Ribbon> => Named.create(RIBBON, ribbon)

export const get = (id: string, options?: FieldsOptions): Eff<Ribbon> => Named.get(RIBBON, id, options)

/** Changes the fields given; `revision` must be the ribbon's current one. */
export const update = (ribbon: RibbonUpdate, options?: FieldsOptions): Eff<Ribbon> => Named.update(RIBBON, ribbon, options)

export const remove = (id: string): Eff<void> => Named.remove(RIBBON, id)

/** A query over the store's ribbons (filter on `id`, `name`, `createdDate`, `updatedDate`); it travels as POST. */
export const query = (options?: FieldsOptions): CursorQuery<Ribbon> => Named.query(RIBBON, options)

/** How many ribbons match (all of them without a filter). */
export const count = (filter?: Filter | Record<string, unknown>): Eff<number> => Named.count(RIBBON, filter)

/** The ribbon of this name, created when the store has none. */
export const getOrCreate = (ribbonName: string, options?: FieldsOptions): Eff<Ribbon> => Named.getOrCreate(RIBBON, ribbonName, options)

/** The ribbons of these names (each found or created), one result per name in order. */
export const bulkGetOrCreate = (ribbonNames: ReadonlyArray<string>, options?: FieldsOptions): Eff<G.BulkResults<Ribbon>> =>
  Named.bulkGetOrCreate(RIBBON, ribbonNames, options)

export const bulkCreate = (ribbons: ReadonlyArray<RibbonInput>, options?: BulkOptions): Eff<G.BulkResults<Ribbon>> => Named.bulkCreate(RIBBON, ribbons, options)

/** One ribbon of a bulk update, with the fields to write (all the fields given, without a mask). */
export interface MaskedRibbon {
  readonly ribbon: RibbonUpdate
  readonly fieldMask?: ReadonlyArray<string>
}

export const bulkUpdate = (ribbons: ReadonlyArray<MaskedRibbon>, options?: BulkOptions & FieldsOptions): Eff<G.BulkResults<Ribbon>> =>
  Named.bulkUpdate(RIBBON, ribbons, options)

export const bulkRemove = (ids: ReadonlyArray<string>): Eff<G.BulkDeleteResults> => Named.bulkRemove(RIBBON, ids)

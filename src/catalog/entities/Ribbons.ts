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
import { RIBBON_FIELDS, EntityPaths, MAX_ENTITY_BULK, MAX_ENTITY_PAGE, NAME_LIMITS } from "./protocol.ts"

/** A ribbon as the platform answers it: its id, revision, dates, name and, when asked, its product count. */
export type Ribbon = G.Ribbon
/** An optional field a call may ask for. */
export type RibbonField = typeof RIBBON_FIELDS[number]

/** A ribbon to create: its name, unique in the store. */
export interface RibbonInput {
  readonly name: string
}
/** What an update sends: the id, the revision it read, and the fields to change. */
export interface RibbonUpdate {
  readonly id: string
  readonly revision: string
  readonly name?: string
}
/** The optional fields a call answers with. */
export interface FieldsOptions {
  /** `ASSIGNED_PRODUCT_COUNT` adds `assignedProductCount`. */
  readonly fields?: ReadonlyArray<RibbonField>
}
/** Whether a bulk call answers with the written entities. */
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
  maxBulk: MAX_ENTITY_BULK,
  guards: { one: G.RibbonResponse, page: G.QueryRibbonsResponse, bulk: G.BulkRibbonsResponse },
  checks: /* @__PURE__ */ Named.nameChecks(NAME_LIMITS.ribbon),
  findBy: { key: "ribbonName", plural: "ribbonNames" }
}

/** Creates a ribbon (an API key); ALREADY_EXISTS when the name is taken. */
export const create = (ribbon: RibbonInput): Eff<Ribbon> => Named.create(RIBBON, ribbon)

/** The ribbon of this id; RIBBON_NOT_FOUND when there is none. */
export const get = (id: string, options?: FieldsOptions): Eff<Ribbon> => Named.get(RIBBON, id, options)

/** Changes the fields given; `revision` must be the ribbon's current one. */
export const update = (ribbon: RibbonUpdate, options?: FieldsOptions): Eff<Ribbon> => Named.update(RIBBON, ribbon, options)

/** Deletes a ribbon (an API key). */
export const remove = (id: string): Eff<void> => Named.remove(RIBBON, id)

/** A query over the store's ribbons (filter on `id`, `name`, `createdDate`, `updatedDate`); it travels as POST. */
export const query = (options?: FieldsOptions): CursorQuery<Ribbon> => Named.query(RIBBON, options)

/** How many ribbons match (all of them without a filter). */
export const count = (filter?: Filter | Record<string, unknown>): Eff<number> => Named.count(RIBBON, filter)

/**
 * The ribbon of this name, created when the store has none.
 *
 * @example
 * import { Ribbons } from "sitefx/catalog/entities"
 * const sale = yield* Ribbons.getOrCreate("Sale")
 */
export const getOrCreate = (ribbonName: string, options?: FieldsOptions): Eff<Ribbon> => Named.getOrCreate(RIBBON, ribbonName, options)

/** The ribbons of these names (each found or created), one result per name in order. */
export const bulkGetOrCreate = (ribbonNames: ReadonlyArray<string>, options?: FieldsOptions): Eff<G.BulkResults<Ribbon>> =>
  Named.bulkGetOrCreate(RIBBON, ribbonNames, options)

/** Creates up to 100 ribbons (an API key), each one's fate in its result. */
export const bulkCreate = (ribbons: ReadonlyArray<RibbonInput>, options?: BulkOptions): Eff<G.BulkResults<Ribbon>> => Named.bulkCreate(RIBBON, ribbons, options)

/** One ribbon of a bulk update, with the fields to write (all the fields given, without a mask). */
export interface MaskedRibbon {
  readonly ribbon: RibbonUpdate
  readonly fieldMask?: ReadonlyArray<string>
}

/** Updates up to 100 ribbons (an API key), each one's fate in its result. */
export const bulkUpdate = (ribbons: ReadonlyArray<MaskedRibbon>, options?: BulkOptions & FieldsOptions): Eff<G.BulkResults<Ribbon>> =>
  Named.bulkUpdate(RIBBON, ribbons, options)

/** Deletes up to 100 ribbons by id (an API key), each one's fate in its result. */
export const bulkRemove = (ids: ReadonlyArray<string>): Eff<G.BulkDeleteResults> => Named.bulkRemove(RIBBON, ids)

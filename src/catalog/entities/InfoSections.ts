/**
 * Info sections (catalog v3 entity service, answered on any installed store): titled texts a product
 * page shows ("Shipping & returns", "Care instructions"), each found by its `uniqueName`. The text is
 * rich content (`description`) or HTML (`plainDescription`, turned into rich content by the platform).
 * Readers (`get`, `query`, `count`) serve visitors; writers need an API key; updates carry the revision
 * they read.
 *
 * @example
 * const care = yield* InfoSections.getOrCreate({ uniqueName: "care", title: "Care instructions", plainDescription: "<p>Wash cold.</p>" })
 */
import type * as Effect from "effect/Effect"
import { first } from "../../http/checks.ts"
import type { Filter } from "../../data/Filter.ts"
import type { PlatformClient } from "../../http/PlatformClient.ts"
import type { CursorQuery } from "./CursorQuery.ts"
import * as G from "./guards/index.ts"
import { checkId, checkObject, checkRevision, checkText, type EntityFailure, optionalText } from "./calls.ts"
import * as Named from "./named.ts"
import { asObject } from "./named.ts"
import { EntityPaths, INFO_SECTION_FIELDS, MAX_ENTITY_BULK, MAX_ENTITY_PAGE, NAME_LIMITS } from "./protocol.ts"

/** An info section as the platform answers it: its unique name, title, description and, when asked, its product count. */
export type InfoSection = G.InfoSection
/** An optional field a call may ask for. */
export type InfoSectionField = typeof INFO_SECTION_FIELDS[number]
/** A rich-content document (nodes, metadata, style), kept as written. */
export type RichContent = G.RichContent

/** An info section to create: its unique name, title and description. */
export interface InfoSectionInput {
  readonly uniqueName: string
  readonly title: string
  readonly description?: RichContent
  /** HTML; ignored when `description` is given. */
  readonly plainDescription?: string
}
/** What an update sends: the id, the revision it read, and the fields to change. */
export interface InfoSectionUpdate {
  readonly id: string
  readonly revision: string
  readonly uniqueName?: string
  readonly title?: string
  readonly description?: RichContent
  readonly plainDescription?: string
}
/** An id or unique name to find; with a unique name and a title, what to create when there is none. */
export interface InfoSectionForGetOrCreate {
  readonly id?: string
  readonly uniqueName?: string
  readonly title?: string
  readonly description?: RichContent
  readonly plainDescription?: string
}
/** The optional fields a call answers with. */
export interface FieldsOptions {
  /** `ASSIGNED_PRODUCTS_COUNT` adds `assignedProductsCount`. */
  readonly fields?: ReadonlyArray<InfoSectionField>
}
/** Whether a bulk call answers with the written entities. */
export interface BulkOptions {
  readonly returnEntity?: boolean
}

type Eff<A> = Effect.Effect<A, EntityFailure, PlatformClient>

const plainCheck = (what: string, field: string, value: unknown) => optionalText(what, `${field}.plainDescription`, value, 16000, 0)

const checkInput = (what: string, section: unknown, field: string) =>
  first(
    checkObject(what, field, section),
    checkText(what, `${field}.uniqueName`, asObject(section)["uniqueName"], NAME_LIMITS.infoSectionUniqueName),
    checkText(what, `${field}.title`, asObject(section)["title"], NAME_LIMITS.infoSectionTitle),
    plainCheck(what, field, asObject(section)["plainDescription"])
  )

const checkUpdate = (what: string, section: unknown, field: string) =>
  first(
    checkObject(what, field, section),
    checkId(what, `${field}.id`, asObject(section)["id"]),
    checkRevision(what, `${field}.revision`, asObject(section)["revision"]),
    optionalText(what, `${field}.uniqueName`, asObject(section)["uniqueName"], NAME_LIMITS.infoSectionUniqueName),
    optionalText(what, `${field}.title`, asObject(section)["title"], NAME_LIMITS.infoSectionTitle),
    plainCheck(what, field, asObject(section)["plainDescription"])
  )

const checkForGetOrCreate = (what: string, section: unknown, field: string) => {
  const s = asObject(section)
  return first(
    checkObject(what, field, section),
    s["id"] === undefined && s["uniqueName"] === undefined ? checkText(what, `${field}.uniqueName`, undefined, 1) : undefined,
    s["id"] === undefined ? undefined : checkId(what, `${field}.id`, s["id"]),
    optionalText(what, `${field}.uniqueName`, s["uniqueName"], NAME_LIMITS.infoSectionUniqueName),
    optionalText(what, `${field}.title`, s["title"], NAME_LIMITS.infoSectionTitle),
    plainCheck(what, field, s["plainDescription"])
  )
}

const INFO_SECTION: Named.Named<"infoSection", "infoSections", InfoSection> = {
  module: "InfoSections",
  key: "infoSection",
  plural: "infoSections",
  paths: {
    create: EntityPaths.infoSections,
    one: EntityPaths.infoSection,
    query: EntityPaths.infoSectionsQuery,
    count: EntityPaths.infoSectionsCount,
    getOrCreate: EntityPaths.infoSectionGetOrCreate,
    bulkCreate: EntityPaths.infoSectionsBulkCreate,
    bulkUpdate: EntityPaths.infoSectionsBulkUpdate,
    bulkGetOrCreate: EntityPaths.infoSectionsBulkGetOrCreate,
    bulkDelete: EntityPaths.infoSectionsBulkDelete
  },
  fields: INFO_SECTION_FIELDS,
  queryMethod: "GET",
  maxPage: MAX_ENTITY_PAGE.infoSections,
  maxBulk: MAX_ENTITY_BULK,
  guards: { one: G.InfoSectionResponse, page: G.QueryInfoSectionsResponse, bulk: G.BulkInfoSectionsResponse },
  checks: { input: checkInput, update: checkUpdate, getOrCreate: checkForGetOrCreate },
  findBy: { key: "infoSection", plural: "infoSections" }
}

/** Creates an info section (an API key); ALREADY_EXISTS when the unique name is taken. */
export const create = (infoSection: InfoSectionInput): Eff<InfoSection> => Named.create(INFO_SECTION, infoSection)

/** The info section of this id; INFO_SECTION_NOT_FOUND when there is none. */
export const get = (id: string, options?: FieldsOptions): Eff<InfoSection> => Named.get(INFO_SECTION, id, options)

/** Changes the fields given; `revision` must be the info section's current one. */
export const update = (infoSection: InfoSectionUpdate, options?: FieldsOptions): Eff<InfoSection> => Named.update(INFO_SECTION, infoSection, options)

/** Deletes an info section (an API key). */
export const remove = (id: string): Eff<void> => Named.remove(INFO_SECTION, id)

/**
 * A query over the store's info sections (filter on `id`, `uniqueName`, `title`, dates).
 *
 * @example
 * import { InfoSections } from "sitefx/catalog/entities"
 * const titles = yield* InfoSections.query().startsWith("uniqueName", "care").ascending("title").stream.pipe(
 *   Stream.map((s) => s.title),
 *   Stream.runCollect
 * )
 */
export const query = (options?: FieldsOptions): CursorQuery<InfoSection> => Named.query(INFO_SECTION, options)

/** How many info sections match (all of them without a filter). */
export const count = (filter?: Filter | Record<string, unknown>): Eff<number> => Named.count(INFO_SECTION, filter)

/**
 * The info section of this id or unique name; created (from unique name and title) when there is none.
 *
 * @example
 * import { InfoSections } from "sitefx/catalog/entities"
 * const care = yield* InfoSections.getOrCreate({ uniqueName: "care", title: "Care instructions" })
 */
export const getOrCreate = (infoSection: InfoSectionForGetOrCreate, options?: FieldsOptions): Eff<InfoSection> =>
  Named.getOrCreate(INFO_SECTION, infoSection, options)

/** The info sections of these ids or unique names (each found or created), one result each in order. */
export const bulkGetOrCreate = (
  infoSections: ReadonlyArray<InfoSectionForGetOrCreate>,
  options?: FieldsOptions
): Eff<G.BulkResults<InfoSection>> => Named.bulkGetOrCreate(INFO_SECTION, infoSections, options)

/** Creates up to 100 info sections (an API key), each one's fate in its result. */
export const bulkCreate = (infoSections: ReadonlyArray<InfoSectionInput>, options?: BulkOptions): Eff<G.BulkResults<InfoSection>> =>
  Named.bulkCreate(INFO_SECTION, infoSections, options)

/** One info section of a bulk update, with the fields to write (all the fields given, without a mask). */
export interface MaskedInfoSection {
  readonly infoSection: InfoSectionUpdate
  readonly fieldMask?: ReadonlyArray<string>
}

/** Updates up to 100 info sections (an API key), each one's fate in its result. */
export const bulkUpdate = (
  infoSections: ReadonlyArray<MaskedInfoSection>,
  options?: BulkOptions & FieldsOptions
): Eff<G.BulkResults<InfoSection>> => Named.bulkUpdate(INFO_SECTION, infoSections, options)

/** Deletes up to 100 info sections by id (an API key), each one's fate in its result. */
export const bulkRemove = (ids: ReadonlyArray<string>): Eff<G.BulkDeleteResults> => Named.bulkRemove(INFO_SECTION, ids)

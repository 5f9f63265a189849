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
import * as Effect from "effect/Effect"
import type { Filter } from "../../data/Filter.ts"
import type { PlatformClient } from "../../http/PlatformClient.ts"
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
import { EntityPaths, INFO_SECTION_FIELDS, MAX_ENTITY_BULK, MAX_ENTITY_PAGE, NAME_LIMITS } from "./protocol.ts"

export type InfoSection = G.InfoSection
export type InfoSectionField = typeof INFO_SECTION_FIELDS[number]
export type RichContent = G.RichContent

export interface InfoSectionInput {
  readonly uniqueName: string
  readonly title: string
  readonly description?: RichContent
  /** HTML; ignored when `description` is given. */
  readonly plainDescription?: string
}
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
export interface FieldsOptions {
  /** `ASSIGNED_PRODUCTS_COUNT` adds `assignedProductsCount`. */
  readonly fields?: ReadonlyArray<InfoSectionField>
}
export interface BulkOptions {
  readonly returnEntity?: boolean
}

type Eff<A> = Effect.Effect<A, EntityFailure, PlatformClient>

const asObject = (u: unknown) => (typeof u === "object" && u !== null ? u as Record<string, unknown> : {})
const fieldsCheck = (what: string, options: FieldsOptions | undefined) => checkFields(what, options?.fields, INFO_SECTION_FIELDS)
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

export const create = (infoSection: InfoSectionInput): Eff<InfoSection> =>
  send(
    "InfoSections.create",
    checkInput("InfoSections.create", infoSection, "infoSection"),
    () => ({ method: "POST", path: EntityPaths.infoSections, payload: { infoSection } }),
    G.InfoSectionResponse
  ).pipe(Effect.map((r) => r.infoSection))

export const get = (id: string, options?: FieldsOptions): Eff<InfoSection> =>
  send(
    "InfoSections.get",
    first(checkId("InfoSections.get", "id", id), fieldsCheck("InfoSections.get", options)),
    () => ({ method: "GET", path: EntityPaths.infoSection(id), payload: { infoSectionId: id, ...fieldsOf(options?.fields) } }),
    G.InfoSectionResponse
  ).pipe(Effect.map((r) => r.infoSection))

export const update = (infoSection: InfoSectionUpdate, options?: FieldsOptions): Eff<InfoSection> =>
  send(
    "InfoSections.update",
    first(checkUpdate("InfoSections.update", infoSection, "infoSection"), fieldsCheck("InfoSections.update", options)),
    () => ({
      method: "PATCH",
      path: EntityPaths.infoSection(infoSection.id),
      payload: { infoSection, ...fieldsOf(options?.fields) }
    }),
    G.InfoSectionResponse
  ).pipe(Effect.map((r) => r.infoSection))

export const remove = (id: string): Eff<void> =>
  sendVoid("InfoSections.remove", checkId("InfoSections.remove", "id", id), () => ({
    method: "DELETE",
    path: EntityPaths.infoSection(id),
    payload: { infoSectionId: id }
  }))

/** A query over the store's info sections (filter on `id`, `uniqueName`, `title`, dates). */
export const query = (options?: FieldsOptions): CursorQuery<InfoSection> =>
  checkedQuery(
    queryRunner({
      what: "InfoSections.query",
      path: EntityPaths.infoSectionsQuery,
      method: "GET",
      maxLimit: MAX_ENTITY_PAGE.infoSections,
      fields: options?.fields,
      guard: G.QueryInfoSectionsResponse,
      read: (r) => ({ items: r.infoSections, paging: r.pagingMetadata })
    }),
    fieldsCheck("InfoSections.query", options)
  )

export const count = (filter?: Filter | Record<string, unknown>): Eff<number> => {
  const body = countBody(filter)
  return send(
    "InfoSections.count",
    refusalOf(body),
    () => ({ method: "POST", path: EntityPaths.infoSectionsCount, payload: body as Record<string, unknown>, idempotent: true }),
    G.CountResponse
  ).pipe(Effect.map((r) => r.count))
}

/** The info section of this id or unique name; created (from unique name and title) when there is none. */
export const getOrCreate = (infoSection: InfoSectionForGetOrCreate, options?: FieldsOptions): Eff<InfoSection> =>
  send(
    "InfoSections.getOrCreate",
    first(checkForGetOrCreate("InfoSections.getOrCreate", infoSection, "infoSection"), fieldsCheck("InfoSections.getOrCreate", options)),
    () => ({ method: "POST", path: EntityPaths.infoSectionGetOrCreate, payload: { infoSection, ...fieldsOf(options?.fields) } }),
    G.InfoSectionResponse
  ).pipe(Effect.map((r) => r.infoSection))

export const bulkGetOrCreate = (
  infoSections: ReadonlyArray<InfoSectionForGetOrCreate>,
  options?: FieldsOptions
): Eff<G.BulkResults<InfoSection>> =>
  send(
    "InfoSections.bulkGetOrCreate",
    first(
      checkList("InfoSections.bulkGetOrCreate", "infoSections", infoSections, MAX_ENTITY_BULK),
      Array.isArray(infoSections)
        ? checkEach(infoSections, (s, f) => checkForGetOrCreate("InfoSections.bulkGetOrCreate", s, f), "infoSections")
        : undefined,
      fieldsCheck("InfoSections.bulkGetOrCreate", options)
    ),
    () => ({ method: "POST", path: EntityPaths.infoSectionsBulkGetOrCreate, payload: { infoSections, ...fieldsOf(options?.fields) } }),
    G.BulkInfoSectionsResponse
  )

export const bulkCreate = (infoSections: ReadonlyArray<InfoSectionInput>, options?: BulkOptions): Eff<G.BulkResults<InfoSection>> =>
  send(
    "InfoSections.bulkCreate",
    first(
      checkList("InfoSections.bulkCreate", "infoSections", infoSections, MAX_ENTITY_BULK),
      Array.isArray(infoSections) ? checkEach(infoSections, (s, f) => checkInput("InfoSections.bulkCreate", s, f), "infoSections") : undefined
    ),
    () => ({
      method: "POST",
      path: EntityPaths.infoSectionsBulkCreate,
      payload: { infoSections, ...(options?.returnEntity === undefined ? {} : { returnEntity: options.returnEntity }) }
    }),
    G.BulkInfoSectionsResponse
  )

export interface MaskedInfoSection {
  readonly infoSection: InfoSectionUpdate
  readonly fieldMask?: ReadonlyArray<string>
}

export const bulkUpdate = (
  infoSections: ReadonlyArray<MaskedInfoSection>,
  options?: BulkOptions & FieldsOptions
): Eff<G.BulkResults<InfoSection>> =>
  send(
    "InfoSections.bulkUpdate",
    first(
      checkList("InfoSections.bulkUpdate", "infoSections", infoSections, MAX_ENTITY_BULK),
      Array.isArray(infoSections)
        ? checkEach(infoSections, (m, f) => checkUpdate("InfoSections.bulkUpdate", asObject(m)["infoSection"], `${f}.infoSection`), "infoSections")
        : undefined,
      fieldsCheck("InfoSections.bulkUpdate", options)
    ),
    () => ({
      method: "POST",
      path: EntityPaths.infoSectionsBulkUpdate,
      payload: {
        infoSections: infoSections.map((m) => ({ infoSection: m.infoSection, ...maskOf(m.fieldMask) })),
        ...(options?.returnEntity === undefined ? {} : { returnEntity: options.returnEntity }),
        ...fieldsOf(options?.fields)
      }
    }),
    G.BulkInfoSectionsResponse
  )

export const bulkRemove = (ids: ReadonlyArray<string>): Eff<G.BulkDeleteResults> =>
  send(
    "InfoSections.bulkRemove",
    first(
      checkList("InfoSections.bulkRemove", "ids", ids, MAX_ENTITY_BULK),
      Array.isArray(ids) ? checkEach(ids, (id, f) => checkId("InfoSections.bulkRemove", f, id), "ids") : undefined
    ),
    () => ({ method: "POST", path: EntityPaths.infoSectionsBulkDelete, payload: { infoSectionIds: ids } }),
    G.BulkDeleteResponse
  )

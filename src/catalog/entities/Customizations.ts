/**
 * Customizations (catalog v3 entity service, answered on any installed store): product options (size,
 * color; they make variants) and modifiers (gift wrap, an engraving; chosen at purchase), shown as free
 * text (`FREE_TEXT`, with `freeTextInput`) or as choices (`TEXT_CHOICES` with `CHOICE_TEXT` choices,
 * `SWATCH_CHOICES` with `ONE_COLOR` choices, in `choicesSettings`). Choices are added, replaced,
 * removed, updated and reordered on their own. Readers serve visitors; writers need an API key.
 *
 * @example
 * const wrap = yield* Customizations.create({
 *   name: "Gift wrap", customizationType: "MODIFIER", customizationRenderType: "TEXT_CHOICES",
 *   choicesSettings: { choices: [{ choiceType: "CHOICE_TEXT", name: "Paper", defaultAddedPrice: "2" }] }
 * })
 */
import * as Effect from "effect/Effect"
import { first } from "../../http/checks.ts"
import type { Filter } from "../../data/Filter.ts"
import type { PlatformClient } from "../../http/PlatformClient.ts"
import { type CatalogError, invalidArgument } from "../CatalogError.ts"
import type { CursorQuery } from "./CursorQuery.ts"
import * as G from "./guards/index.ts"
import { checkFields, checkId, checkList, checkObject, checkRevision, checkText, type EntityFailure, fieldsOf, maskOf, optionalText, send } from "./calls.ts"
import * as Named from "./named.ts"
import { asObject, checkBatch, returning } from "./named.ts"
import {
  CHOICE_TYPES,
  type ChoiceType,
  CUSTOMIZATION_FIELDS,
  CUSTOMIZATION_RENDER_TYPES,
  CUSTOMIZATION_TYPES,
  type CustomizationRenderType,
  type CustomizationType,
  EntityPaths,
  MAX_CHOICES,
  MAX_ENTITY_BULK,
  MAX_ENTITY_PAGE,
  NAME_LIMITS
} from "./protocol.ts"

/** A customization as the platform answers it: a product option or a modifier, with its choices or free-text settings. */
export type Customization = G.Customization
/** One choice of a customization: a text, or a color swatch. */
export type CustomizationChoice = G.CustomizationChoice
/** An optional field a call may ask for. */
export type CustomizationField = typeof CUSTOMIZATION_FIELDS[number]
export type { ChoiceType, CustomizationRenderType, CustomizationType }

/** A choice to write; `id` and `key` are the platform's. */
export interface ChoiceInput {
  readonly choiceType?: ChoiceType
  readonly name: string
  /** `ONE_COLOR` choices: the color, `#RRGGBB`. */
  readonly colorCode?: string
  /** Added to the price when a modifier's choice is taken (a decimal as text: `"2.50"`). */
  readonly defaultAddedPrice?: string
  readonly primaryChoiceIds?: ReadonlyArray<string>
}
/** A choice as `updateChoices` sends it: its id and the fields to change. */
export interface ChoiceUpdate {
  readonly id: string
  readonly name?: string
  readonly colorCode?: string
  readonly defaultAddedPrice?: string
  readonly primaryChoiceIds?: ReadonlyArray<string>
}
/** The free text a shopper types for a `FREE_TEXT` customization: its length bounds, title and added price. */
export interface FreeTextInput {
  readonly title: string
  readonly minCharCount?: number
  readonly maxCharCount?: number
  readonly defaultAddedPrice?: string
}
/** A customization to create: its name, type, render type, and its choices or free-text settings. */
export interface CustomizationInput {
  readonly name: string
  readonly customizationType: CustomizationType
  readonly customizationRenderType: CustomizationRenderType
  readonly freeTextInput?: FreeTextInput
  readonly choicesSettings?: { readonly choices: ReadonlyArray<ChoiceInput> }
  readonly modifierSettings?: Record<string, never>
}
/** An update: the id, the revision it read, and the fields to change (type and render type stay). */
export interface CustomizationUpdate {
  readonly id: string
  readonly revision: string
  readonly name?: string
  readonly freeTextInput?: Partial<FreeTextInput>
  readonly choicesSettings?: { readonly choices: ReadonlyArray<ChoiceInput & { readonly id?: string }> }
}
/** The optional fields a call answers with. */
export interface FieldsOptions {
  readonly fields?: ReadonlyArray<CustomizationField>
}
/** Whether a bulk call answers with the written entities. */
export interface BulkOptions {
  readonly returnEntity?: boolean
}

/** What customization bulk calls answer: the entity comes under `customization`. */
export type BulkCustomizationResults = G.BulkCustomizationResults

type Eff<A> = Effect.Effect<A, EntityFailure, PlatformClient>

const fieldsCheck = (what: string, options: FieldsOptions | undefined) => checkFields(what, options?.fields, CUSTOMIZATION_FIELDS)

const PRICE = /^\d{1,9}(\.\d{1,3})?$/
const priceCheck = (what: string, field: string, value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && PRICE.test(value))
    ? undefined
    : invalidArgument(`${what}: ${field} must be a decimal amount as text ("2.50"), at most 3 decimals`, field)

/** The choice type a render type takes. */
const choiceTypeOf = (render: unknown): ChoiceType | undefined =>
  render === "TEXT_CHOICES" ? "CHOICE_TEXT" : render === "SWATCH_CHOICES" ? "ONE_COLOR" : undefined

const checkChoice = (what: string, choice: unknown, field: string, expected: ChoiceType | undefined, nameRequired = true) => {
  const c = asObject(choice)
  const type = c["choiceType"]
  return first(
    checkObject(what, field, choice),
    nameRequired ? checkText(what, `${field}.name`, c["name"], NAME_LIMITS.choice) : optionalText(what, `${field}.name`, c["name"], NAME_LIMITS.choice),
    type === undefined || CHOICE_TYPES.includes(type as ChoiceType)
      ? undefined
      : invalidArgument(`${what}: ${field}.choiceType must be one of ${CHOICE_TYPES.join(", ")}`, `${field}.choiceType`),
    expected !== undefined && type !== undefined && type !== expected
      ? invalidArgument(`${what}: ${field}.choiceType must be ${expected} for this customization`, `${field}.choiceType`)
      : undefined,
    optionalText(what, `${field}.colorCode`, c["colorCode"], 20, 3),
    priceCheck(what, `${field}.defaultAddedPrice`, c["defaultAddedPrice"])
  )
}

const checkChoices = (what: string, choices: unknown, field: string, expected: ChoiceType | undefined) =>
  checkBatch(what, field, choices, MAX_CHOICES, (c, f) => checkChoice(what, c, f, expected))

const checkFreeText = (what: string, settings: unknown, field: string, titleRequired: boolean) => {
  const s = asObject(settings)
  return first(
    checkObject(what, field, settings),
    titleRequired ? checkText(what, `${field}.title`, s["title"], NAME_LIMITS.freeTextTitle) : optionalText(what, `${field}.title`, s["title"], NAME_LIMITS.freeTextTitle),
    s["minCharCount"] === undefined ? undefined : checkIntRange(what, `${field}.minCharCount`, s["minCharCount"]),
    s["maxCharCount"] === undefined ? undefined : checkIntRange(what, `${field}.maxCharCount`, s["maxCharCount"]),
    priceCheck(what, `${field}.defaultAddedPrice`, s["defaultAddedPrice"])
  )
}

const checkIntRange = (what: string, field: string, value: unknown) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 500
    ? undefined
    : invalidArgument(`${what}: ${field} must be an integer from 0 to 500`, field)

const checkInput = (what: string, customization: unknown, field: string) => {
  const c = asObject(customization)
  const render = c["customizationRenderType"]
  return first(
    checkObject(what, field, customization),
    checkText(what, `${field}.name`, c["name"], NAME_LIMITS.customization),
    CUSTOMIZATION_TYPES.includes(c["customizationType"] as CustomizationType)
      ? undefined
      : invalidArgument(`${what}: ${field}.customizationType must be one of ${CUSTOMIZATION_TYPES.join(", ")}`, `${field}.customizationType`),
    CUSTOMIZATION_RENDER_TYPES.includes(render as CustomizationRenderType)
      ? undefined
      : invalidArgument(
        `${what}: ${field}.customizationRenderType must be one of ${CUSTOMIZATION_RENDER_TYPES.join(", ")}`,
        `${field}.customizationRenderType`
      ),
    render === "FREE_TEXT"
      ? checkFreeText(what, c["freeTextInput"], `${field}.freeTextInput`, true)
      : checkChoices(what, asObject(c["choicesSettings"])["choices"], `${field}.choicesSettings.choices`, choiceTypeOf(render))
  )
}

const checkUpdate = (what: string, customization: unknown, field: string) => {
  const c = asObject(customization)
  return first(
    checkObject(what, field, customization),
    checkId(what, `${field}.id`, c["id"]),
    checkRevision(what, `${field}.revision`, c["revision"]),
    optionalText(what, `${field}.name`, c["name"], NAME_LIMITS.customization),
    c["freeTextInput"] === undefined ? undefined : checkFreeText(what, c["freeTextInput"], `${field}.freeTextInput`, false),
    c["choicesSettings"] === undefined
      ? undefined
      : checkChoices(what, asObject(c["choicesSettings"])["choices"], `${field}.choicesSettings.choices`, undefined)
  )
}

const CUSTOMIZATION: Named.Entity<"customization", "customizations", Customization> = {
  module: "Customizations",
  key: "customization",
  plural: "customizations",
  paths: {
    create: EntityPaths.customizations,
    one: EntityPaths.customization,
    query: EntityPaths.customizationsQuery,
    count: EntityPaths.customizationsCount,
    bulkCreate: EntityPaths.customizationsBulkCreate,
    bulkUpdate: EntityPaths.customizationsBulkUpdate
  },
  fields: CUSTOMIZATION_FIELDS,
  queryMethod: "GET",
  maxPage: MAX_ENTITY_PAGE.customizations,
  maxBulk: MAX_ENTITY_BULK,
  guards: { one: G.CustomizationResponse, page: G.QueryCustomizationsResponse, bulk: G.BulkCustomizationsResponse },
  checks: { input: checkInput, update: checkUpdate }
}

/** A choice call: a POST answered with `{customization}`, built only once the checks passed. */
const one = (what: string, check: CatalogError | undefined, path: () => string, payload: () => Record<string, unknown>) =>
  send(what, check, () => ({ method: "POST", path: path(), payload: payload() }), G.CustomizationResponse).pipe(Effect.map((r) => r.customization))

/**
 * Creates a customization (an API key); its choices must fit its render type.
 *
 * @example
 * import { Customizations } from "sitefx/catalog/entities"
 * const size = yield* Customizations.create({
 *   name: "Size", customizationType: "PRODUCT_OPTION", customizationRenderType: "TEXT_CHOICES",
 *   choicesSettings: { choices: [{ choiceType: "CHOICE_TEXT", name: "S" }, { choiceType: "CHOICE_TEXT", name: "M" }] }
 * })
 */
export const create = (customization: CustomizationInput): Eff<Customization> => Named.create(CUSTOMIZATION, customization)

/** The customization of this id; CUSTOMIZATION_NOT_FOUND when there is none. */
export const get = (id: string, options?: FieldsOptions): Eff<Customization> => Named.get(CUSTOMIZATION, id, options)

/** Changes the fields given; `revision` must be the customization's current one. */
export const update = (customization: CustomizationUpdate, options?: FieldsOptions): Eff<Customization> =>
  Named.update(CUSTOMIZATION, customization, options)

/** Deletes a customization (an API key). */
export const remove = (id: string): Eff<void> => Named.remove(CUSTOMIZATION, id)

/**
 * A query over the store's customizations (filter on `id`, `name`, `customizationType`, ...).
 *
 * @example
 * import { Customizations } from "sitefx/catalog/entities"
 * const modifiers = yield* Customizations.query().eq("customizationType", "MODIFIER").ascending("name").find
 */
export const query = (options?: FieldsOptions): CursorQuery<Customization> => Named.query(CUSTOMIZATION, options)

/** How many customizations match (all of them without a filter). */
export const count = (filter?: Filter | Record<string, unknown>): Eff<number> => Named.count(CUSTOMIZATION, filter)

/** Creates up to 100 customizations (an API key), each one's fate in its result. */
export const bulkCreate = (customizations: ReadonlyArray<CustomizationInput>, options?: BulkOptions): Eff<BulkCustomizationResults> =>
  Named.bulkCreate(CUSTOMIZATION, customizations, options)

/** One customization of a bulk update, with the fields to write (all the fields given, without a mask). */
export interface MaskedCustomization {
  readonly customization: CustomizationUpdate
  readonly fieldMask?: ReadonlyArray<string>
}

/** Updates up to 100 customizations (an API key), each one's fate in its result. */
export const bulkUpdate = (
  customizations: ReadonlyArray<MaskedCustomization>,
  options?: BulkOptions & FieldsOptions
): Eff<BulkCustomizationResults> => Named.bulkUpdate(CUSTOMIZATION, customizations, options)

/** Adds choices after the existing ones (their type must fit the customization's render type). */
export const addChoices = (id: string, choices: ReadonlyArray<ChoiceInput>, options?: FieldsOptions): Eff<Customization> =>
  one(
    "Customizations.addChoices",
    first(checkId("Customizations.addChoices", "id", id), checkChoices("Customizations.addChoices", choices, "choices", undefined), fieldsCheck("Customizations.addChoices", options)),
    () => EntityPaths.addChoices(id),
    () => ({ customizationId: id, choices, ...fieldsOf(options?.fields) })
  )

/** Replaces all the choices. */
export const setChoices = (id: string, choices: ReadonlyArray<ChoiceInput>, options?: FieldsOptions): Eff<Customization> =>
  one(
    "Customizations.setChoices",
    first(checkId("Customizations.setChoices", "id", id), checkChoices("Customizations.setChoices", choices, "choices", undefined), fieldsCheck("Customizations.setChoices", options)),
    () => EntityPaths.setChoices(id),
    () => ({ customizationId: id, choices, ...fieldsOf(options?.fields) })
  )

/** Removes choices by id; with `revision`, only if the customization is still at it. */
export const removeChoices = (
  id: string,
  choiceIds: ReadonlyArray<string>,
  options?: FieldsOptions & { readonly revision?: string }
): Eff<Customization> =>
  one(
    "Customizations.removeChoices",
    first(
      checkId("Customizations.removeChoices", "id", id),
      checkBatch("Customizations.removeChoices", "choiceIds", choiceIds, MAX_ENTITY_BULK, (c, f) => checkId("Customizations.removeChoices", f, c)),
      options?.revision === undefined ? undefined : checkRevision("Customizations.removeChoices", "revision", options.revision),
      fieldsCheck("Customizations.removeChoices", options)
    ),
    () => EntityPaths.removeChoices(id),
    () => ({
      customizationId: id,
      choiceIds,
      ...(options?.revision === undefined ? {} : { revision: options.revision }),
      ...fieldsOf(options?.fields)
    })
  )

/** Changes fields of existing choices (each named by id). */
export const updateChoices = (
  id: string,
  revision: string,
  choices: ReadonlyArray<{ readonly choice: ChoiceUpdate; readonly fieldMask?: ReadonlyArray<string> }>,
  options?: FieldsOptions
): Eff<Customization> =>
  one(
    "Customizations.updateChoices",
    first(
      checkId("Customizations.updateChoices", "id", id),
      checkRevision("Customizations.updateChoices", "revision", revision),
      checkBatch("Customizations.updateChoices", "choices", choices, MAX_ENTITY_BULK, (m, f) => {
        const choice = asObject(m)["choice"]
        return first(
          checkId("Customizations.updateChoices", `${f}.choice.id`, asObject(choice)["id"]),
          checkChoice("Customizations.updateChoices", choice, `${f}.choice`, undefined, false)
        )
      }),
      fieldsCheck("Customizations.updateChoices", options)
    ),
    () => EntityPaths.updateChoices(id),
    () => ({
      customizationId: id,
      revision,
      choices: choices.map((m) => ({ choice: m.choice, ...maskOf(m.fieldMask) })),
      ...fieldsOf(options?.fields)
    })
  )

/** Puts the choices in this order; `choiceIds` must name exactly the customization's choices. */
export const reorderChoices = (id: string, revision: string, choiceIds: ReadonlyArray<string>, options?: FieldsOptions): Eff<Customization> =>
  one(
    "Customizations.reorderChoices",
    first(
      checkId("Customizations.reorderChoices", "id", id),
      checkRevision("Customizations.reorderChoices", "revision", revision),
      checkList("Customizations.reorderChoices", "choiceIds", choiceIds, MAX_CHOICES),
      fieldsCheck("Customizations.reorderChoices", options)
    ),
    () => EntityPaths.reorderChoices(id),
    () => ({ customizationId: id, revision, choiceIds, ...fieldsOf(options?.fields) })
  )

/** Adds choices to several customizations; one result per customization, in order. */
export const bulkAddChoices = (
  customizationsChoices: ReadonlyArray<{ readonly customizationId: string; readonly choices: ReadonlyArray<ChoiceInput> }>,
  options?: BulkOptions & FieldsOptions
): Eff<BulkCustomizationResults> =>
  send(
    "Customizations.bulkAddChoices",
    first(
      checkBatch("Customizations.bulkAddChoices", "customizationsChoices", customizationsChoices, MAX_CHOICES, (m, f) =>
        first(
          checkId("Customizations.bulkAddChoices", `${f}.customizationId`, asObject(m)["customizationId"]),
          checkChoices("Customizations.bulkAddChoices", asObject(m)["choices"], `${f}.choices`, undefined)
        )),
      fieldsCheck("Customizations.bulkAddChoices", options)
    ),
    () => ({
      method: "POST",
      path: EntityPaths.customizationsBulkAddChoices,
      payload: { customizationsChoices, ...returning(options), ...fieldsOf(options?.fields) }
    }),
    G.BulkCustomizationsResponse
  )

/**
 * Customizations: product options and modifiers, shown as free text or as choices. The platform's
 * rules as the local platform keeps them: type and render type are set once; `FREE_TEXT` is for
 * modifiers and takes `freeTextInput` (a title, 0 to 500 characters); `TEXT_CHOICES` take `CHOICE_TEXT`
 * choices and `SWATCH_CHOICES` take `ONE_COLOR` choices with a hex color; choice names are unique within
 * a customization (without case); every choice gets an id and a key. Choices change through their own
 * calls (add, set, remove, update, reorder), each a revision of the customization.
 */
import { EntityCodes, MAX_CHOICES } from "../../../catalog/entities/protocol.ts"
import { isObject, type Json } from "../../store/values.ts"
import type { AdminCaller } from "../../platform/Caller.ts"
import {
  checkName,
  checkRevision,
  compact,
  createdEvent,
  type Emit,
  type Engine,
  found,
  invalid,
  Kinds,
  masked,
  maskPaths,
  modifiedFields,
  nextRevision,
  refused,
  removal,
  required,
  revising,
  updatedEvent
} from "./engine.ts"
import type { EntityTableShape } from "./entityTables.ts"

const ENTITY = "customization"
const KIND = Kinds.customization
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/

const choiceTypeFor = (render: unknown) => (render === "SWATCH_CHOICES" ? "ONE_COLOR" : "CHOICE_TEXT")
const choicesOf = (doc: Json): ReadonlyArray<Json> => {
  const settings = doc["choicesSettings"]
  return isObject(settings) && Array.isArray(settings["choices"]) ? settings["choices"] as ReadonlyArray<Json> : []
}

export const customizationOps = (table: EntityTableShape, engine: Engine) => {
  /** A choice as stored: its type fits the render type, a swatch has a color, it has an id and a key. */
  const choice = (input: Json, field: string, render: unknown, keepId: ReadonlySet<string>): Json => {
    const name = checkName(`${field}.name`, input["name"])
    const expected = choiceTypeFor(render)
    const type = input["choiceType"] ?? expected
    if (type !== expected) throw invalid(`${field}.choiceType`, `${field}.choiceType must be ${expected} for ${String(render)}`, "INVALID_CHOICE_TYPE")
    const color = input["colorCode"]
    if (type === "ONE_COLOR" && (typeof color !== "string" || !HEX.test(color))) {
      throw invalid(`${field}.colorCode`, `${field}.colorCode must be a hex color (#RGB or #RRGGBB)`, "INVALID_CHOICE_VALUE")
    }
    const id = typeof input["id"] === "string" && keepId.has(input["id"]) ? input["id"] : engine.newId()
    return compact({
      id,
      choiceType: type,
      key: name.trim().toLowerCase(),
      name,
      colorCode: type === "ONE_COLOR" ? color : undefined,
      colorCodes: input["colorCodes"],
      image: input["image"],
      displayImage: input["displayImage"],
      defaultAddedPrice: input["defaultAddedPrice"] ?? undefined,
      primaryChoiceIds: input["primaryChoiceIds"]
    })
  }

  /** A customization's choices are distinct by name, at most 1000, and link only to other primary choices. */
  const checkChoices = (choices: ReadonlyArray<Json>, field: string): ReadonlyArray<Json> => {
    if (choices.length > MAX_CHOICES) throw invalid(field, `A customization has at most ${MAX_CHOICES} choices`, "MAX_SIZE")
    const seen = new Set<string>()
    for (const c of choices) {
      const key = String(c["name"]).trim().toLowerCase()
      if (seen.has(key)) throw invalid(field, `Two choices are named ${JSON.stringify(c["name"])}`, "DUPLICATE_CHOICE_NAME")
      seen.add(key)
    }
    const ids = new Map(choices.map((c) => [c["id"] as string, c]))
    for (const c of choices) {
      for (const primary of (c["primaryChoiceIds"] as ReadonlyArray<string> | undefined) ?? []) {
        if (primary === c["id"]) throw invalid(field, "A choice cannot be its own primary choice", "PRIMARY_CHOICE_SELF_REFERENCE")
        const target = ids.get(primary)
        if (target === undefined) throw invalid(field, `No choice ${JSON.stringify(primary)} to group under`, "PRIMARY_CHOICE_NOT_FOUND")
        if (Array.isArray(target["primaryChoiceIds"]) && target["primaryChoiceIds"].length > 0) {
          throw invalid(field, "A linked choice cannot be a primary choice", "PRIMARY_CHOICE_HIERARCHY_VIOLATION")
        }
      }
    }
    return choices
  }

  const freeText = (input: unknown, field: string, current?: Json): Json => {
    if (!isObject(input)) throw required(field)
    const merged = { ...current, ...compact(input as Json) }
    const title = checkName(`${field}.title`, merged["title"])
    const min = (merged["minCharCount"] as number | undefined) ?? 0
    const max = (merged["maxCharCount"] as number | undefined) ?? 500
    if (min > max) throw invalid(`${field}.minCharCount`, `${field}.minCharCount must not exceed maxCharCount`)
    return compact({ minCharCount: min, maxCharCount: max, defaultAddedPrice: merged["defaultAddedPrice"] ?? undefined, title, key: title.trim().toLowerCase() })
  }

  const create = (input: Json, actor: AdminCaller, emit: Emit, field: string): Json => {
    const name = checkName(`${field}.name`, input["name"])
    const type = input["customizationType"]
    const render = input["customizationRenderType"]
    if (type === undefined) throw required(`${field}.customizationType`)
    if (render === undefined) throw required(`${field}.customizationRenderType`)
    let settings: Json
    if (render === "FREE_TEXT") {
      if (type !== "MODIFIER") throw invalid(`${field}.customizationRenderType`, "FREE_TEXT is for modifiers; product options take choices")
      if (choicesOf(input).length > 0) throw invalid(`${field}.choicesSettings`, "A free text customization has no choices")
      settings = { freeTextInput: freeText(input["freeTextInput"], `${field}.freeTextInput`) }
    } else {
      const given = choicesOf(input)
      if (given.length === 0) throw required(`${field}.choicesSettings.choices`)
      const choices = given.map((c, i) => choice(c, `${field}.choicesSettings.choices[${i}]`, render, new Set()))
      settings = { choicesSettings: { choices: checkChoices(choices, `${field}.choicesSettings.choices`) } }
    }
    const now = engine.now()
    const doc: Json = {
      id: engine.newId(),
      revision: "1",
      createdDate: now,
      updatedDate: now,
      key: name.trim().toLowerCase(),
      name,
      customizationType: type,
      customizationRenderType: render,
      ...(type === "MODIFIER" ? { modifierSettings: {} } : {}),
      ...settings
    }
    table.insert(doc, null)
    emit(createdEvent(ENTITY, doc, actor))
    return doc
  }

  /** Stores the next revision of `current` and announces what changed. */
  const save = (current: Json, next: Json, actor: AdminCaller, emit: Emit): Json => {
    const saved = { ...next, revision: nextRevision(current), updatedDate: engine.now() }
    table.replace(saved, null)
    emit(updatedEvent(ENTITY, saved, modifiedFields(current, saved), actor))
    return saved
  }

  const current = (id: unknown, field: string): Json => {
    if (typeof id !== "string" || id === "") throw required(field)
    return found(table.get(id), KIND, id)
  }

  const update = (input: Json, mask: ReadonlySet<string> | undefined, actor: AdminCaller, emit: Emit): Json => {
    const doc = revising(table, KIND, input, "customization")
    const patch = masked(input, mask)
    for (const immutable of ["customizationType", "customizationRenderType"]) {
      if (patch[immutable] !== undefined && patch[immutable] !== doc[immutable]) {
        throw invalid(`customization.${immutable}`, `customization.${immutable} cannot change`)
      }
    }
    const name = patch["name"] === undefined ? doc["name"] as string : checkName("customization.name", patch["name"])
    const text = patch["freeTextInput"] === undefined || doc["customizationRenderType"] !== "FREE_TEXT"
      ? {}
      : { freeTextInput: freeText(patch["freeTextInput"], "customization.freeTextInput", doc["freeTextInput"] as Json) }
    return save(doc, { ...doc, name, key: name.trim().toLowerCase(), ...text }, actor, emit)
  }

  const remove = removal(table, KIND, ENTITY)

  const withChoices = (doc: Json, choices: ReadonlyArray<Json>, field: string): Json => ({
    ...doc,
    choicesSettings: { ...(doc["choicesSettings"] as Json | undefined), choices: checkChoices(choices, field) }
  })

  const choiceBased = (doc: Json, field: string) => {
    if (doc["customizationRenderType"] === "FREE_TEXT") throw invalid(field, "A free text customization has no choices", "INVALID_CHOICE_TYPE")
  }

  const addChoices = (id: unknown, choices: ReadonlyArray<Json>, field: string, actor: AdminCaller, emit: Emit): Json => {
    const doc = current(id, "customizationId")
    choiceBased(doc, field)
    const added = choices.map((c, i) => choice(c, `${field}[${i}]`, doc["customizationRenderType"], new Set()))
    return save(doc, withChoices(doc, [...choicesOf(doc), ...added], field), actor, emit)
  }

  const setChoices = (id: unknown, choices: ReadonlyArray<Json>, actor: AdminCaller, emit: Emit): Json => {
    const doc = current(id, "customizationId")
    choiceBased(doc, "choices")
    const existing = new Set(choicesOf(doc).map((c) => c["id"] as string))
    const next = choices.map((c, i) => choice(c, `choices[${i}]`, doc["customizationRenderType"], existing))
    return save(doc, withChoices(doc, next, "choices"), actor, emit)
  }

  const unknownChoices = (doc: Json, ids: ReadonlyArray<string>) => {
    const known = new Set(choicesOf(doc).map((c) => c["id"]))
    const missing = ids.filter((id) => !known.has(id))
    if (missing.length > 0) throw refused(EntityCodes.choiceNotFound, `No choices ${missing.join(", ")} in customization ${String(doc["id"])}`, { choiceIds: missing })
  }

  const removeChoices = (id: unknown, choiceIds: ReadonlyArray<string>, revision: string | undefined, actor: AdminCaller, emit: Emit): Json => {
    const doc = current(id, "customizationId")
    if (revision !== undefined) checkRevision(KIND, doc, revision, "revision")
    choiceBased(doc, "choiceIds")
    unknownChoices(doc, choiceIds)
    const gone = new Set(choiceIds)
    const left = choicesOf(doc).filter((c) => !gone.has(c["id"] as string))
    if (left.length === 0) throw invalid("choiceIds", "A customization keeps at least one choice", "NOT_ALLOWED_CUSTOMIZATION_WITHOUT_CHOICES")
    if (left.some((c) => ((c["primaryChoiceIds"] as ReadonlyArray<string> | undefined) ?? []).some((p) => gone.has(p)))) {
      throw invalid("choiceIds", "Another choice is grouped under a choice to remove", "PRIMARY_CHOICE_DELETE_REFERENCED")
    }
    return save(doc, withChoices(doc, left, "choiceIds"), actor, emit)
  }

  const updateChoices = (
    id: unknown,
    revision: string,
    changes: ReadonlyArray<{ readonly choice?: Json | undefined; readonly fieldMask?: string | undefined }>,
    actor: AdminCaller,
    emit: Emit
  ): Json => {
    const doc = current(id, "customizationId")
    checkRevision(KIND, doc, revision, "revision")
    choiceBased(doc, "choices")
    const ids = changes.map((c, i) => {
      const choiceId = c.choice?.["id"]
      if (typeof choiceId !== "string" || choiceId === "") throw required(`choices[${i}].choice.id`)
      return choiceId
    })
    unknownChoices(doc, ids)
    const byId = new Map(changes.map((c, i) => [ids[i]!, c]))
    const keep = new Set(choicesOf(doc).map((c) => c["id"] as string))
    const next = choicesOf(doc).map((c, i) => {
      const change = byId.get(c["id"] as string)
      if (change === undefined) return c
      const patch = masked(change.choice ?? {}, maskPaths(change.fieldMask))
      const editable = Object.fromEntries(
        ["name", "colorCode", "defaultAddedPrice", "primaryChoiceIds", "image", "displayImage"].filter((k) => patch[k] !== undefined).map((k) => [k, patch[k]])
      )
      return choice({ ...c, ...editable }, `choices[${i}].choice`, doc["customizationRenderType"], keep)
    })
    return save(doc, withChoices(doc, next, "choices"), actor, emit)
  }

  const reorderChoices = (id: unknown, revision: string, order: ReadonlyArray<string>, actor: AdminCaller, emit: Emit): Json => {
    const doc = current(id, "customizationId")
    checkRevision(KIND, doc, revision, "revision")
    choiceBased(doc, "choiceIds")
    const choices = choicesOf(doc)
    const known = new Set(choices.map((c) => c["id"] as string))
    const counts = new Map<string, number>()
    for (const choiceId of order) counts.set(choiceId, (counts.get(choiceId) ?? 0) + 1)
    const missingIds = [...known].filter((c) => !counts.has(c))
    const extraIds = [...counts].filter(([c, n]) => !known.has(c) || n > 1).map(([c]) => c)
    if (missingIds.length > 0 || extraIds.length > 0) {
      throw refused(EntityCodes.choiceIdsMismatch, "choiceIds must name each of the customization's choices once", { missingIds, extraIds })
    }
    const byId = new Map(choices.map((c) => [c["id"] as string, c]))
    return save(doc, withChoices(doc, order.map((c) => byId.get(c)!), "choiceIds"), actor, emit)
  }

  return { create, update, remove, addChoices, setChoices, removeChoices, updateChoices, reorderChoices }
}

/**
 * Field modifications of a patch, applied in order to an item's data: set, remove, increment (a
 * missing field counts as 0), append to an array (a missing field becomes a new array) and remove every
 * equal element from an array. Paths are dotted; system fields cannot be patched.
 */
import type { FieldModification } from "../../data/wire/index.ts"
import { badRequest } from "../store/engineFailures.ts"
import { checkDepth, getPath, type Json, jsonEquals, normalizeDates, removePath, segments, setPath } from "../store/values.ts"

const PROTECTED = new Set(["_id", "_createdDate", "_updatedDate", "_owner"])

/** `optionsKey` holds the modification's value; a missing one is a 400 for every action that needs it. */
const valueOf = (m: FieldModification, optionsKey: "setFieldOptions" | "incrementFieldOptions" | "appendToArrayOptions" | "removeFromArrayOptions") => {
  const options = m[optionsKey]
  if (options === undefined || !("value" in options)) {
    throw badRequest("WDE0004", `The ${m.action} modification of [${m.fieldPath}] needs ${optionsKey}.value.`, [m.fieldPath])
  }
  return normalizeDates(options.value)
}

/** Refuses, before any item is read, modifications no item could take (bad paths, system fields). */
export const checkModifications = (modifications: ReadonlyArray<FieldModification>): void => {
  for (const m of modifications) {
    segments(m.fieldPath)
    if (PROTECTED.has(m.fieldPath.split(".")[0] ?? "")) throw badRequest("WDE0004", `The system field [${m.fieldPath}] cannot be patched.`, [m.fieldPath])
  }
}

/** The data after the modifications; refused when it would nest deeper than an item may. */
export const applyModifications = (data: Json, modifications: ReadonlyArray<FieldModification>): Json =>
  checkDepth(modifications.reduce((current, m): Json => {
    const root = m.fieldPath.split(".")[0] ?? ""
    if (PROTECTED.has(root)) throw badRequest("WDE0004", `The system field [${m.fieldPath}] cannot be patched.`, [m.fieldPath])
    switch (m.action) {
      case "SET_FIELD":
        return setPath(current, m.fieldPath, valueOf(m, "setFieldOptions"))
      case "REMOVE_FIELD":
        return removePath(current, m.fieldPath)
      case "INCREMENT_FIELD": {
        const by = valueOf(m, "incrementFieldOptions")
        if (typeof by !== "number") throw badRequest("WDE0004", `INCREMENT_FIELD of [${m.fieldPath}] needs a number, not ${JSON.stringify(by)}.`, [m.fieldPath])
        const was = getPath(current, m.fieldPath)
        if (was !== undefined && was !== null && typeof was !== "number") {
          throw badRequest("WDE0004", `INCREMENT_FIELD: the field [${m.fieldPath}] holds ${JSON.stringify(was)}, not a number.`, [m.fieldPath])
        }
        const sum = (typeof was === "number" ? was : 0) + by
        if (!Number.isFinite(sum)) throw badRequest("WDE0004", `INCREMENT_FIELD of [${m.fieldPath}] would pass the largest number a field holds.`, [m.fieldPath])
        return setPath(current, m.fieldPath, sum)
      }
      case "APPEND_TO_ARRAY": {
        const value = valueOf(m, "appendToArrayOptions")
        const was = getPath(current, m.fieldPath)
        if (was !== undefined && was !== null && !Array.isArray(was)) {
          throw badRequest("WDE0004", `APPEND_TO_ARRAY: the field [${m.fieldPath}] is not an array.`, [m.fieldPath])
        }
        return setPath(current, m.fieldPath, [...(Array.isArray(was) ? was : []), value])
      }
      case "REMOVE_FROM_ARRAY": {
        const value = valueOf(m, "removeFromArrayOptions")
        const was = getPath(current, m.fieldPath)
        if (was === undefined || was === null) return current
        if (!Array.isArray(was)) throw badRequest("WDE0004", `REMOVE_FROM_ARRAY: the field [${m.fieldPath}] is not an array.`, [m.fieldPath])
        return setPath(current, m.fieldPath, was.filter((x) => !jsonEquals(x, value)))
      }
    }
  }, data))

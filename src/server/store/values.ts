/**
 * Item values as the engine stores them. Dates keep their wire form `{"$date": iso}`, but the ISO text
 * is normalized to `toISOString()` (`YYYY-MM-DDTHH:mm:ss.sssZ`), so that in SQL dates compare and sort
 * as plain text. Field paths are dotted (`address.city`) and name object keys only.
 */
import { isDateValue } from "../../data/FilterTree.ts"
import { readIsoFields, setOwn } from "../../http/codec.ts"
import { depthOf } from "../platform/json.ts"
import { MAX_ITEM_DEPTH } from "../platform/limits.ts"
import { badRequest, outOfBounds } from "./engineFailures.ts"

export type Json = Record<string, unknown>

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v)

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** Already `toISOString()`'s form (`YYYY-MM-DDTHH:mm:ss.sssZ`) of a real instant: no parse could change it. */
const isCanonical = (s: string): boolean => {
  const f = fields
  return readIsoFields(s, f) && f[0]! >= 0 && f[1]! >= 1 && f[1]! <= 12 && f[2]! >= 1 && f[2]! <= daysIn(f[0]!, f[1]!) && f[3]! >= 0 && f[3]! <= 23 &&
    f[4]! >= 0 && f[4]! <= 59 && f[5]! >= 0 && f[5]! <= 59 && f[6]! >= 0
}

const fields = new Int32Array(7)

/** `toISOString()` of a parseable date text (years 0000–9999); anything else unchanged. */
export const normalizeIso = (iso: string): string => {
  if (isCanonical(iso)) return iso
  const millis = Date.parse(iso)
  if (Number.isNaN(millis)) return iso
  const d = new Date(millis)
  const year = d.getUTCFullYear()
  return year >= 0 && year <= 9999 ? d.toISOString() : iso
}

/**
 * Normalizes every `$date` inside a value (items, filter operands). Copy on write: the value itself
 * comes back when every date in it is in its normal form already (what clients send), so a bulk write
 * of dated items copies nothing here; only the objects and arrays on the way to a changed date are new.
 *
 * The same walk refuses what the store could not keep as it was sent: nesting deeper than `room`
 * levels (SQLite's JSON functions stop at 1000, and a collection holding such an item could not be
 * queried), and numbers JSON cannot write back (`1e400` parses as Infinity, which would be stored as
 * null).
 */
export const normalizeDates = (value: unknown, room: number = MAX_ITEM_DEPTH): unknown => {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "number" && value - value !== 0) throw notFinite()
    return value
  }
  if (room <= 0) throw itemTooDeep()
  if (Array.isArray(value)) {
    let out: Array<unknown> | undefined
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i]
      const n = normalizeDates(v, room - 1)
      if (n !== v) (out ??= value.slice())[i] = n
    }
    return out ?? value
  }
  const record = value as Json
  if (isDateValue(record)) {
    const iso = normalizeIso(record.$date)
    return iso === record.$date ? record : { $date: iso }
  }
  let out: Json | undefined
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue
    const v = record[k]
    if (typeof v !== "object") {
      if (typeof v === "number" && v - v !== 0) throw notFinite()
      continue
    }
    if (v === null) continue
    const n = normalizeDates(v, room - 1)
    if (n !== v) setOwn(out ??= copyOwn(record), k, n)
  }
  return out ?? record
}

const itemTooDeep = () =>
  outOfBounds("data", `The item's data nests deeper than ${MAX_ITEM_DEPTH} levels`, "MAX_DEPTH", { maxDepth: MAX_ITEM_DEPTH })

const notFinite = () => outOfBounds("data", "A number in the item's data is too large to store", "MAX", { max: Number.MAX_VALUE })

/** Refuses data (an item after a patch) nested deeper than the store keeps. */
export const checkDepth = (data: Json): Json => {
  if (depthOf(data, MAX_ITEM_DEPTH) > MAX_ITEM_DEPTH) throw itemTooDeep()
  return data
}

const copyOwn = (record: Json): Json => {
  const out: Json = {}
  for (const k in record) if (Object.hasOwn(record, k)) setOwn(out, k, record[k])
  return out
}

let lastMillis = Number.NaN
let lastIso = ""

/** `{"$date": iso}` of a time; the text of the last time is kept, as a bulk write stamps many items with one. */
export const isoDateValue = (millis: number) => {
  if (millis !== lastMillis) {
    lastIso = new Date(millis).toISOString()
    lastMillis = millis
  }
  return { $date: lastIso }
}

/**
 * The segments of a dotted field path; refuses empty segments, characters SQLite paths cannot hold
 * (quotes, backslashes, and NUL, at which SQLite's JSON path ends), and over-long paths.
 */
export const segments = (field: string): ReadonlyArray<string> => {
  const parts = field.split(".")
  if (parts.some((p) => p === "" || p.includes("\"") || p.includes("\\") || p.includes("\u0000"))) {
    throw badRequest("WDE0048", `Invalid field name [${field.replace(/\u0000/g, "\\0")}]: it must be a dotted path of non-empty names without quotes, backslashes or NUL.`, [field])
  }
  // no item holds a deeper field, and paths are walked recursively
  if (parts.length > MAX_ITEM_DEPTH) throw badRequest("WDE0048", `Invalid field name: a path has at most ${MAX_ITEM_DEPTH} names.`, [field])
  return parts
}

export const getPath = (data: Json, field: string): unknown => {
  let current: unknown = data
  for (const part of segments(field)) {
    if (!isObject(current)) return undefined
    current = current[part]
  }
  return current
}

/** A copy of `data` with `field` set, creating intermediate objects (and replacing non-objects). */
export const setPath = (data: Json, field: string, value: unknown): Json => {
  const [head, ...rest] = segments(field)
  if (head === undefined) return data
  if (rest.length === 0) return { ...data, [head]: value }
  const inner = isObject(data[head]) ? data[head] as Json : {}
  return { ...data, [head]: setPath(inner, rest.join("."), value) }
}

export const removePath = (data: Json, field: string): Json => {
  const [head, ...rest] = segments(field)
  if (head === undefined || !(head in data)) return data
  if (rest.length === 0) {
    const { [head]: _removed, ...others } = data
    return others
  }
  const inner = data[head]
  return isObject(inner) ? { ...data, [head]: removePath(inner, rest.join(".")) } : data
}

/** Structural equality of JSON values (object key order ignored). */
export const jsonEquals = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEquals(x, b[i]))
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a)
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && jsonEquals(a[k], b[k]))
  }
  return false
}

/**
 * Whether two JSON values are the same value: the same primitives, arrays of the same values in the same
 * order, objects with the same keys (in any order) holding the same values.
 */
export const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false
  }
  return true
}

/** The top-level fields whose value differs between `before` and `after`, each with its value before (null where it had none). */
export const modifiedFields = (before: Json, after: Json): Json => {
  // no prototype: a field named __proto__ is a field like any other
  const out = Object.create(null) as Json
  for (const key in before) if (!sameJson(before[key], after[key])) out[key] = before[key] ?? null
  for (const key in after) if (!Object.hasOwn(before, key)) out[key] = null
  return out
}

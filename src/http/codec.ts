/**
 * How values travel, shared by the client and the local platform: `$date` values, the `.r` query
 * encoding, query parameters and the platform's headers. Plain functions, no Schema.
 */

export { CONSISTENT_HEADER, REQUEST_ID_HEADER } from "./headers.ts"
export { base64url } from "./dotR.ts"

/** Inverse of {@link base64url}; accepts padded or unpadded input. */
export const fromBase64url = (value: string): string => {
  const b64 = value.replace(/-/g, "+").replace(/_/g, "/")
  if (typeof Buffer !== "undefined") return Buffer.from(b64, "base64").toString("utf8")
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4))
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)))
}

/**
 * Flattens a simple GET payload into query parameters: nested objects with dots, arrays repeated.
 * `{ a: { b: 1 }, c: ["x", "y"] }` becomes `a.b=1&c=x&c=y`.
 */
export const flattenParams = (payload: Record<string, unknown>): Array<readonly [string, string]> => {
  const out: Array<readonly [string, string]> = []
  const walk = (prefix: string, value: unknown): void => {
    if (value === undefined || value === null) return
    if (Array.isArray(value)) {
      for (const v of value) walk(prefix, v)
    } else if (value instanceof Date) {
      out.push([prefix, value.toISOString()])
    } else if (typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(prefix === "" ? k : `${prefix}.${k}`, v)
    } else {
      out.push([prefix, String(value)])
    }
  }
  walk("", payload)
  return out
}

/** True when a GET payload must travel as `.r`: it holds a nested object or an array of objects. */
export const isComplexPayload = (payload: Record<string, unknown>): boolean =>
  Object.values(payload).some((v) =>
    (typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date)) ||
    (Array.isArray(v) && v.some((x) => typeof x === "object" && x !== null))
  )

/**
 * Replaces every `Date` with `{"$date": iso}` (data items travel this way, both ways). The value itself
 * is never changed, and nothing of it is copied that need not be: objects and arrays that hold no
 * `Date` anywhere come back as they are, only those on the way to a `Date` are new (shallow copies
 * of their own enumerable keys, as `JSON.stringify` reads them). A bulk write encodes each item with
 * one copy of the item itself at most.
 */
export const encodeDates = (value: unknown): unknown => {
  if (typeof value !== "object" || value === null) return value
  if (value instanceof Date) return { $date: isoString(value) }
  if (Array.isArray(value)) {
    let out: Array<unknown> | undefined
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i]
      if (typeof v !== "object" || v === null) continue
      const encoded = encodeDates(v)
      if (encoded !== v) (out ??= value.slice())[i] = encoded
    }
    return out ?? value
  }
  const record = value as Record<string, unknown>
  let out: Record<string, unknown> | undefined
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue
    const v = record[k]
    if (typeof v !== "object" || v === null) continue
    const encoded = encodeDates(v)
    // a spread copies own enumerable keys as data properties, `__proto__` included
    if (encoded !== v) setOwn(out ??= { ...record }, k, encoded)
  }
  return out ?? value
}

// pure: a page that only needs the header names leaves the tables out
const TWO_DIGITS = /* @__PURE__ */ Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0"))
const THREE_DIGITS = /* @__PURE__ */ Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"))
const DAY_MS = 86_400_000
/** Year 0 to year 9999: the range in which `toISOString` writes four-digit years. */
const FIRST_MS = -62_167_219_200_000
const END_MS = 253_402_300_800_000

/** `YYYY-MM-DDT` of a day counted from 1970-01-01 (the proleptic Gregorian calendar, as Date uses). */
const dayPrefix = (day: number): string => {
  // days to civil date: 400-year eras of 146 097 days, years starting on March 1st
  const z = day + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153)
  const dayOfMonth = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  return `${TWO_DIGITS[Math.floor(year / 100)]}${TWO_DIGITS[year % 100]}-${TWO_DIGITS[month]}-${TWO_DIGITS[dayOfMonth]}T`
}

let lastDay = Number.NaN
let lastDayPrefix = ""

/**
 * `date.toISOString()`, about twice as fast: Date's own writer is a call into the engine, and items
 * carry many dates (the day's part is kept for the next date of the same day). Years outside 0–9999
 * and invalid dates go to `toISOString` (which throws for the latter, as `JSON.stringify` would).
 */
export const isoString = (date: Date): string => {
  const t = date.getTime()
  if (!(t >= FIRST_MS && t < END_MS)) return date.toISOString()
  const day = Math.floor(t / DAY_MS)
  if (day !== lastDay) {
    lastDayPrefix = dayPrefix(day)
    lastDay = day
  }
  let ms = t - day * DAY_MS
  const hours = Math.floor(ms / 3_600_000)
  ms -= hours * 3_600_000
  const minutes = Math.floor(ms / 60_000)
  ms -= minutes * 60_000
  const seconds = Math.floor(ms / 1000)
  ms -= seconds * 1000
  return `${lastDayPrefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[ms]}Z`
}

/**
 * Replaces every `{"$date": iso}` (that key alone, a valid date) with a `Date`, in place: for JSON just
 * parsed that nobody else holds. No object is copied, and only a `{"$date"}` object is replaced, so
 * answers of many items take one walk and no allocation.
 */
export const reviveDates = (value: unknown): unknown => {
  if (typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i]
      if (typeof v === "object" && v !== null) value[i] = reviveDates(v)
    }
    return value
  }
  const record = value as Record<string, unknown>
  const iso = record["$date"]
  if (typeof iso === "string" && onlyKey(record)) {
    const d = parseIso(iso)
    return Number.isNaN(d.getTime()) ? value : d
  }
  for (const k of Object.keys(record)) {
    const v = record[k]
    if (typeof v !== "object" || v === null) continue
    const revived = reviveDates(v)
    if (revived === v) continue
    setOwn(record, k, revived)
  }
  return value
}

/** Sets an own property, also one named `__proto__` (JSON.parse makes such keys; plain assignment would set the prototype instead). */
export const setOwn = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
  else target[key] = value
}

/**
 * `new Date(iso)`, about twice as fast for the form the platform writes (`2024-01-02T03:04:05.678Z`,
 * what `toISOString` gives) with every field in its usual range; anything else goes to the Date parser.
 */
const parseIso = (s: string): Date => {
  const f = isoFields
  if (!readIsoFields(s, f)) return new Date(s)
  // a non-digit reads as -1; the ranges are the ones in which Date.UTC and the Date parser agree
  if (f[0]! < 100 || f[1]! < 1 || f[1]! > 12 || f[2]! < 1 || f[2]! > 31 || f[3]! < 0 || f[3]! > 23 || f[4]! < 0 || f[4]! > 59 || f[5]! < 0 || f[5]! > 59 || f[6]! < 0) {
    return new Date(s)
  }
  return new Date(Date.UTC(f[0]!, f[1]! - 1, f[2]!, f[3]!, f[4]!, f[5]!, f[6]!))
}

const isoFields = /* @__PURE__ */ new Int32Array(7)

/**
 * Reads `YYYY-MM-DDTHH:mm:ss.sssZ` (the form `toISOString` writes) into `into`: year, month, day,
 * hours, minutes, seconds, milliseconds, a field with a non-digit as -1. False, and nothing read, when
 * the text has not that length and those separators.
 */
export const readIsoFields = (s: string, into: Int32Array): boolean => {
  if (s.length !== 24 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 90) return false // - - T : : . Z
  into[0] = digits(s, 0, 4)
  into[1] = digits(s, 5, 2)
  into[2] = digits(s, 8, 2)
  into[3] = digits(s, 11, 2)
  into[4] = digits(s, 14, 2)
  into[5] = digits(s, 17, 2)
  into[6] = digits(s, 20, 3)
  return true
}

/** The number written by `length` digits at `from`; -1 when one is not a digit. */
const digits = (s: string, from: number, length: number): number => {
  let n = 0
  for (let i = from; i < from + length; i++) {
    const c = s.charCodeAt(i) - 48
    if (c < 0 || c > 9) return -1
    n = n * 10 + c
  }
  return n
}

const onlyKey = (record: object): boolean => {
  let n = 0
  for (const _ in record) if (++n > 1) return false
  return true
}


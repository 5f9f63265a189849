/**
 * Items from JSONL or CSV text, for `sitefx data import` and the local platform's movement jobs: a
 * {@link RowReader} takes the text in chunks cut anywhere and gives each record as an item with the line
 * it came from, or as a bad row with its line and reason. Every record is checked against the
 * collection's declared fields before it is given as an item. Plain functions, no Effect and no I/O:
 * the command reads a file, the platform an uploaded file.
 */
import { readIsoFields, reviveDates, setOwn } from "../../http/codec.ts"
import type { CollectionField, FieldType } from "../wire/index.ts"
import { CsvReader, isPlainObject, JSON_KINDS, makeCellReader, parseDate, recordToItem } from "./csv.ts"

export type Format = "jsonl" | "csv"

/** A record that is not an item: its line (1-based) and why. */
export interface BadRow {
  readonly line: number
  readonly reason: string
}

/** A record read as an item, with its line (1-based). */
export interface Row {
  readonly line: number
  readonly item: Record<string, unknown>
  /**
   * A JSONL record's text, when it is the item's wire form as it stands (its checks turned no date text
   * into a date): a writer may send it as it is instead of encoding the item again.
   */
  readonly json?: string
}

/** The format a file's extension names, if it names one. */
export const formatNamed = (path: string): Format | undefined =>
  /\.csv$/i.test(path) ? "csv" : /\.(jsonl|ndjson|json)$/i.test(path) ? "jsonl" : undefined

const describe = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : value instanceof Date ? "a date" : `a ${typeof value}`

const TEXT_TYPES = new Set(["TEXT", "URL", "IMAGE", "RICH_TEXT", "VIDEO", "AUDIO", "DOCUMENT", "LANGUAGE", "PAGE_LINK"])

/**
 * Why a value does not fit a field of this type, or undefined when it does. Null clears any field.
 * Objects and arrays are the kinds CSV cells of the same type must hold (`JSON_KINDS`).
 */
const typeProblem = (type: FieldType, value: unknown): string | undefined => {
  if (value === null || value === undefined) return undefined
  if (type === "NUMBER") return typeof value === "number" && Number.isFinite(value) ? undefined : "a number"
  if (type === "BOOLEAN") return typeof value === "boolean" ? undefined : "true or false"
  if (type === "DATE" || type === "DATETIME") return value instanceof Date ? undefined : "a date ({\"$date\": ISO text} or ISO text)"
  if (TEXT_TYPES.has(type)) return typeof value === "string" ? undefined : "text"
  if (type === "REFERENCE") return typeof value === "string" || isPlainObject(value) ? undefined : "an item id or an item"
  switch (JSON_KINDS[type]) {
    case "object":
      return isPlainObject(value) ? undefined : "an object"
    case "array":
      return Array.isArray(value) ? undefined : "an array"
    case "strings":
      return Array.isArray(value) && value.every((v) => typeof v === "string") ? undefined : "an array of texts"
    default:
      return undefined
  }
}

const isoParts = new Int32Array(7)

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** `{"$date": iso}`, that key alone, its text in `toISOString()`'s form of a real instant (what exports write). */
const isWrittenDate = (value: unknown): boolean => {
  if (typeof value !== "object" || value === null) return false
  const iso = (value as Record<string, unknown>)["$date"]
  if (typeof iso !== "string" || !readIsoFields(iso, isoParts)) return false
  let keys = 0
  for (const _ in value) if (++keys > 1) return false
  const f = isoParts
  // a field with a non-digit reads as -1
  return f[0]! >= 0 && f[1]! >= 1 && f[1]! <= 12 && f[2]! >= 1 && f[2]! <= daysIn(f[0]!, f[1]!) && f[3]! >= 0 && f[3]! <= 23 && f[4]! >= 0 &&
    f[4]! <= 59 && f[5]! >= 0 && f[5]! <= 59 && f[6]! >= 0
}

/** What checking an item found: why it does not fit, or that it fits and whether a date text in it became a date. */
type Checked = { readonly problem: string } | { readonly problem: undefined; readonly changed: boolean }
const FITS: Checked = { problem: undefined, changed: false }
const FITS_CHANGED: Checked = { problem: undefined, changed: true }

const checked = (item: Record<string, unknown>, fields: ReadonlyMap<string, CollectionField>): Checked => {
  const id = item["_id"]
  if (id !== undefined && (typeof id !== "string" || id === "")) return { problem: `_id must be a non-empty string, not ${describe(id)}` }
  let problems: Array<string> | undefined
  let changed = false
  // the item's keys are walked only when the collection declares fields (a collection of none takes anything)
  if (fields.size > 0) {
    for (const key in item) {
      if (!Object.hasOwn(item, key)) continue
      const field = fields.get(key)
      if (field === undefined || key === "_id") continue
      const isDate = field.type === "DATE" || field.type === "DATETIME"
      // a date as an export writes it needs no Date to be checked; nothing is made of it
      if (isDate && isWrittenDate(item[key])) continue
      // another `{"$date": iso}` in a declared field is checked as the date it is; the wire form stays the same
      let value = reviveDates(item[key])
      if (value !== item[key]) setOwn(item, key, value)
      if (isDate && typeof value === "string") {
        const date = parseDate(value)
        if (date !== undefined) {
          setOwn(item, key, date)
          value = date
          changed = true
        }
      }
      const expected = typeProblem(field.type, value)
      if (expected !== undefined) (problems ??= []).push(`${key} must be ${expected}, not ${describe(value)}`)
    }
  }
  return problems !== undefined ? { problem: problems.join("; ") } : changed ? FITS_CHANGED : FITS
}

/**
 * Checks an item against the collection's declared fields; ISO texts in date fields become dates (a
 * JSONL file written by hand says `"2024-05-01"`). A `{"$date": iso}` (what an export writes) is a
 * date as it is, on the wire and to the checks; only one whose text is not `toISOString()`'s form is
 * made a `Date` to be checked. Fields the collection does not declare are not checked, nor changed:
 * the collection takes any value there.
 */
export const checkItem = (item: Record<string, unknown>, fields: ReadonlyMap<string, CollectionField>): string | undefined =>
  checked(item, fields).problem

/** One record of the text: an item, or a bad row. */
export type Entry = Row | BadRow

export const isBad = (entry: Entry): entry is BadRow => "reason" in entry

/** Reads records from text given in chunks; see {@link makeRowReader}. */
export interface RowReader {
  /**
   * The records the chunk completed, in order. A chunk is text, or UTF-8 bytes (a file as it is read;
   * one reader is given one or the other).
   */
  readonly push: (chunk: string | Uint8Array) => Array<Entry>
  /** The last record, when the text does not end with a line break. */
  readonly end: () => Array<Entry>
  /** CSV columns the collection does not type (their cells stay text); known once the header is read. */
  readonly untyped: () => ReadonlyArray<string>
}

/** JSONL: one JSON object per line; blank lines are skipped (they still count for line numbers). */
const jsonlReader = (fields: ReadonlyMap<string, CollectionField>): RowReader => {
  let rest = ""
  let line = 0
  let first = true
  const parse = (text: string, into: Array<Entry>) => {
    line += 1
    const trimmed = text.endsWith("\r") ? text.slice(0, -1) : text
    if (trimmed.trim() === "") return
    let value: unknown
    try {
      value = JSON.parse(trimmed)
    } catch (error) {
      into.push({ line, reason: `invalid JSON: ${(error as Error).message}` })
      return
    }
    if (!isPlainObject(value)) {
      into.push({ line, reason: `not a JSON object but ${describe(value)}` })
      return
    }
    const result = checked(value, fields)
    if (result.problem !== undefined) into.push({ line, reason: result.problem })
    // the text is the item's wire form unless a date text became a date; only JSON's blanks can surround it
    else if (result.changed) into.push({ line, item: value })
    else into.push({ line, item: value, json: trimmed.charCodeAt(0) === 123 && trimmed.charCodeAt(trimmed.length - 1) === 125 ? trimmed : trimmed.trim() })
  }
  // bytes: each line is decoded on its own, into a string of its own, so an item waiting to be sent
  // holds its line and not the whole piece of the file it was read in
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true })
  let restBytes: Uint8Array | undefined
  const pushBytes = (chunk: Uint8Array, out: Array<Entry>) => {
    let bytes = chunk
    if (first) {
      if (restBytes !== undefined) {
        bytes = joined(restBytes, chunk)
        restBytes = undefined
      }
      // the byte order mark can only be told once three bytes are there
      if (bytes.length < 3) {
        restBytes = bytes.slice()
        return
      }
      first = false
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3)
    }
    let start = 0
    let end = bytes.indexOf(LF)
    if (end >= 0 && restBytes !== undefined) {
      // the line begun in an earlier piece
      parse(decoder.decode(joined(restBytes, bytes.subarray(0, end))), out)
      restBytes = undefined
      start = end + 1
      end = bytes.indexOf(LF, start)
    }
    for (; end >= 0; end = bytes.indexOf(LF, start)) {
      parse(decoder.decode(bytes.subarray(start, end)), out)
      start = end + 1
    }
    // the unfinished line, copied: the piece it came in is not kept for it
    if (start < bytes.length) restBytes = restBytes === undefined ? bytes.slice(start) : joined(restBytes, bytes.subarray(start))
  }
  return {
    push: (chunk) => {
      const out: Array<Entry> = []
      if (typeof chunk !== "string") {
        pushBytes(chunk, out)
        return out
      }
      let text = rest + chunk
      if (first && text !== "") {
        first = false
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
      }
      let start = 0
      for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
        parse(text.slice(start, end), out)
        start = end + 1
      }
      rest = text.slice(start)
      return out
    },
    end: () => {
      const out: Array<Entry> = []
      if (restBytes !== undefined) {
        let bytes = restBytes
        restBytes = undefined
        if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3)
        if (bytes.length > 0) parse(decoder.decode(bytes), out)
      }
      if (rest !== "") parse(rest, out)
      rest = ""
      return out
    },
    untyped: () => []
  }
}

const LF = 10

const joined = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** CSV: a header row naming the fields, then one item per record, cells typed by the collection's fields. */
const csvReader = (fields: ReadonlyMap<string, CollectionField>): RowReader => {
  const reader = new CsvReader()
  const cells = makeCellReader([...fields.values()].map((f) => ({ key: f.key, type: f.type })))
  let header: ReadonlyArray<string> | undefined
  const take = (records: ReturnType<CsvReader["push"]>): Array<Entry> => {
    const out: Array<Entry> = []
    for (const record of records) {
      if ("error" in record) {
        out.push({ line: record.line, reason: `bad CSV: ${record.error}` })
        continue
      }
      if (header === undefined) {
        header = record.fields
        continue
      }
      const converted = recordToItem(header, record, cells)
      if (!converted.ok) {
        out.push({ line: record.line, reason: converted.error })
        continue
      }
      const problem = checkItem(converted.item, fields)
      out.push(problem !== undefined ? { line: record.line, reason: problem } : { line: record.line, item: converted.item })
    }
    return out
  }
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true })
  return {
    // bytes are decoded as they come (a character cut between two chunks is joined)
    push: (chunk) => take(reader.push(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }))),
    end: () => take([...reader.push(decoder.decode()), ...reader.end()]),
    untyped: () => (header === undefined ? [] : [...cells.untyped])
  }
}

/**
 * A reader of `format` text whose items are checked against `fields` (the collection's declared
 * fields): date texts in date fields become dates (a `{"$date"}` value is one already: JSONL items
 * keep it, so they are as a bulk write sends them), and a record whose values do not fit is a bad row.
 *
 * @example
 * const reader = makeRowReader("csv", new Map())
 * const entries = [...reader.push("_id,title\na,Hello\n"), ...reader.end()]
 * // [{ line: 2, item: { _id: "a", title: "Hello" } }]
 */
export const makeRowReader = (format: Format, fields: ReadonlyMap<string, CollectionField>): RowReader =>
  format === "csv" ? csvReader(fields) : jsonlReader(fields)

/**
 * Items from JSONL or CSV text, for `sitefx data import` and the local platform's movement jobs: a
 * {@link RowReader} takes the text in chunks cut anywhere and gives each record as an item with the line
 * it came from, or as a bad row with its line and reason. Every record is checked against the
 * collection's declared fields before it is given as an item. Plain functions, no Effect and no I/O:
 * the command reads a file, the platform an uploaded file.
 */
import { reviveDates } from "../../http/codec.ts"
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

/**
 * Checks an item against the collection's declared fields; ISO texts in date fields become dates (a
 * JSONL file written by hand says `"2024-05-01"`, an export says `{"$date": ...}`). Fields the
 * collection does not declare are not checked: the collection takes any value there.
 */
export const checkItem = (item: Record<string, unknown>, fields: ReadonlyMap<string, CollectionField>): string | undefined => {
  const id = item["_id"]
  if (id !== undefined && (typeof id !== "string" || id === "")) return `_id must be a non-empty string, not ${describe(id)}`
  const problems: Array<string> = []
  for (const key of Object.keys(item)) {
    const field = fields.get(key)
    if (field === undefined || key === "_id") continue
    let value = item[key]
    if ((field.type === "DATE" || field.type === "DATETIME") && typeof value === "string") {
      const date = parseDate(value)
      if (date !== undefined) {
        item[key] = date
        value = date
      }
    }
    const expected = typeProblem(field.type, value)
    if (expected !== undefined) problems.push(`${key} must be ${expected}, not ${describe(value)}`)
  }
  return problems.length === 0 ? undefined : problems.join("; ")
}

/** One record of the text: an item, or a bad row. */
export type Entry = Row | BadRow

export const isBad = (entry: Entry): entry is BadRow => "reason" in entry

/** Reads records from text given in chunks; see {@link makeRowReader}. */
export interface RowReader {
  /** The records the chunk completed, in order. */
  readonly push: (text: string) => Array<Entry>
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
    reviveDates(value)
    const problem = checkItem(value, fields)
    into.push(problem !== undefined ? { line, reason: problem } : { line, item: value })
  }
  return {
    push: (chunk) => {
      let text = rest + chunk
      if (first && text !== "") {
        first = false
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
      }
      const out: Array<Entry> = []
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
      if (rest !== "") parse(rest, out)
      rest = ""
      return out
    },
    untyped: () => []
  }
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
  return {
    push: (chunk) => take(reader.push(chunk)),
    end: () => take(reader.end()),
    untyped: () => (header === undefined ? [] : [...cells.untyped])
  }
}

/**
 * A reader of `format` text whose items are checked against `fields` (the collection's declared
 * fields): date texts in date fields become dates, `{"$date"}` values dates, and a record whose values
 * do not fit is a bad row.
 *
 * @example
 * const reader = makeRowReader("csv", new Map())
 * const entries = [...reader.push("_id,title\na,Hello\n"), ...reader.end()]
 * // [{ line: 2, item: { _id: "a", title: "Hello" } }]
 */
export const makeRowReader = (format: Format, fields: ReadonlyMap<string, CollectionField>): RowReader =>
  format === "csv" ? csvReader(fields) : jsonlReader(fields)

/**
 * Reading an import's input: a JSONL or CSV file (or stdin) turned into items, each with the line it
 * came from, in batches (one per chunk of the file, so a million rows cost a few thousand stream
 * steps, not a million). Every record is checked before anything is written: a bad one becomes a bad
 * row with its line number and reason, and is not written.
 */
import * as Effect from "effect/Effect"
import { createReadStream } from "node:fs"
import { reviveDates } from "../../http/codec.ts"
import type { CollectionField, FieldType } from "../../data/wire/index.ts"
import { type CliFailure, usage } from "../output.ts"
import { CsvReader, isPlainObject, JSON_KINDS, makeCellReader, parseDate, recordToItem } from "./csv.ts"

export type Format = "jsonl" | "csv"

export interface BadRow {
  readonly line: number
  readonly reason: string
}

export interface Row {
  readonly line: number
  readonly item: Record<string, unknown>
}

/** The format a file's extension names, if it names one. */
export const formatNamed = (path: string): Format | undefined =>
  /\.csv$/i.test(path) ? "csv" : /\.(jsonl|ndjson|json)$/i.test(path) ? "jsonl" : undefined

/** An export's format: the one given, else the one its file name names, else JSONL. */
export const formatOf = (path: string, given: Format | undefined): Format => given ?? formatNamed(path) ?? "jsonl"

/**
 * An import's format: the one given, else the one its file name names (standard input is JSONL). A name
 * that says nothing (`rows.txt`) is a usage error: read as JSONL, a CSV file fails on every line.
 */
export const importFormat = (path: string, given: Format | undefined): Effect.Effect<Format, CliFailure> => {
  const format = given ?? (path === "-" ? "jsonl" : formatNamed(path))
  return format === undefined
    ? Effect.fail(usage(`cannot tell the format of ${path} from its name: pass --format csv or --format jsonl`))
    : Effect.succeed(format)
}

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

/** Text chunks of a file, or of stdin for `-`. */
const textOf = (path: string): AsyncIterable<string> => {
  if (path === "-") {
    process.stdin.setEncoding("utf8")
    return process.stdin as AsyncIterable<string>
  }
  return createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 }) as AsyncIterable<string>
}

export interface ReadOptions {
  readonly path: string
  readonly format: Format
  readonly fields: ReadonlyMap<string, CollectionField>
  /** Told every bad row, in file order. */
  readonly onBad: (row: BadRow) => void
  /** Asked before each batch: reading stops once it says true. */
  readonly stopped?: () => boolean
  /** Told CSV columns the collection does not type (their cells stay text). */
  readonly onUntyped?: (columns: ReadonlyArray<string>) => void
}

/** JSONL: one JSON object per line; blank lines are skipped (they still count for line numbers). */
async function* jsonlRows(options: ReadOptions): AsyncGenerator<Array<Row>> {
  let rest = ""
  let line = 0
  const parse = (text: string, into: Array<Row>) => {
    line += 1
    const trimmed = text.endsWith("\r") ? text.slice(0, -1) : text
    if (trimmed.trim() === "") return
    let value: unknown
    try {
      value = JSON.parse(trimmed)
    } catch (error) {
      options.onBad({ line, reason: `invalid JSON: ${(error as Error).message}` })
      return
    }
    if (!isPlainObject(value)) {
      options.onBad({ line, reason: `not a JSON object but ${describe(value)}` })
      return
    }
    reviveDates(value)
    const problem = checkItem(value, options.fields)
    if (problem !== undefined) options.onBad({ line, reason: problem })
    else into.push({ line, item: value })
  }
  let first = true
  for await (const chunk of textOf(options.path)) {
    if (options.stopped?.() === true) return
    let text = rest + chunk
    if (first) {
      first = false
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    }
    const rows: Array<Row> = []
    let start = 0
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      parse(text.slice(start, end), rows)
      start = end + 1
    }
    rest = text.slice(start)
    if (rows.length > 0) yield rows
  }
  if (rest !== "") {
    const rows: Array<Row> = []
    parse(rest, rows)
    if (rows.length > 0) yield rows
  }
}

/** CSV: a header row naming the fields, then one item per record, cells typed by the collection's fields. */
async function* csvRows(options: ReadOptions): AsyncGenerator<Array<Row>> {
  const reader = new CsvReader()
  const fields = [...options.fields.values()].map((f) => ({ key: f.key, type: f.type }))
  const cells = makeCellReader(fields)
  let header: ReadonlyArray<string> | undefined
  let headerLine = 0
  let told = false
  const take = (records: ReturnType<CsvReader["push"]>): Array<Row> => {
    const rows: Array<Row> = []
    for (const record of records) {
      if ("error" in record) {
        options.onBad({ line: record.line, reason: `bad CSV: ${record.error}` })
        continue
      }
      if (header === undefined) {
        header = record.fields
        headerLine = record.line
        continue
      }
      const converted = recordToItem(header, record, cells)
      if (!converted.ok) {
        options.onBad({ line: record.line, reason: converted.error })
        continue
      }
      const problem = checkItem(converted.item, options.fields)
      if (problem !== undefined) options.onBad({ line: record.line, reason: problem })
      else rows.push({ line: record.line, item: converted.item })
    }
    if (!told && header !== undefined && cells.untyped.size > 0) {
      told = true
      options.onUntyped?.([...cells.untyped])
    }
    return rows
  }
  for await (const chunk of textOf(options.path)) {
    if (options.stopped?.() === true) return
    const rows = take(reader.push(chunk))
    if (rows.length > 0) yield rows
  }
  const rows = take(reader.end())
  if (header === undefined && headerLine === 0) return
  if (rows.length > 0) yield rows
}

/** The rows of an input, in batches, in file order. */
export const readRows = (options: ReadOptions): AsyncGenerator<Array<Row>> =>
  options.format === "csv" ? csvRows(options) : jsonlRows(options)

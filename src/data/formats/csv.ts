/**
 * The CSV codec of `sitefx data export/import` and of the local platform's data movement jobs: an
 * incremental RFC 4180 reader, the writer of one row, and the typing of cells by the collection's
 * declared fields. Plain functions and one class, no Effect and no I/O: a reader streams text through
 * {@link CsvReader} and turns each record into an item with {@link recordToItem}, reporting bad records
 * by line and going on with the next.
 */
import { encodeDates, reviveDates, setOwn } from "../../http/codec.ts"
import type { FieldType } from "../wire/index.ts"

/**
 * One record of a CSV text: its fields, or why it could not be read; `line` is where it starts (1-based).
 * `emptyText` lists the fields written as `""`: an empty cell is an absent value, a quoted empty one an
 * empty text (the convention PostgreSQL's CSV uses for NULL and ''), so both survive a round trip.
 */
export type CsvRecord =
  | { readonly line: number; readonly fields: Array<string>; readonly emptyText?: ReadonlyArray<number> }
  | { readonly line: number; readonly error: string }

const COMMA = 44
const QUOTE = 34
const CR = 13
const LF = 10
const BOM = 0xfeff

// The reader's states between two characters.
const RECORD_START = 0 // nothing of a record read yet: a line break here is a blank line
const FIELD_START = 1 // after a comma, or the first character of a record is next
const UNQUOTED = 2
const QUOTED = 3
const QUOTE_IN_QUOTED = 4 // a quote inside a quoted field: the closing one, or the first of `""`
type State = typeof RECORD_START | typeof FIELD_START | typeof UNQUOTED | typeof QUOTED | typeof QUOTE_IN_QUOTED

/**
 * Reads CSV text given in chunks that may split it anywhere (inside quotes, between `\r` and `\n`,
 * inside a `""`). Each character is looked at once and only the record being read is kept, so a file
 * of any size streams through in linear time. Records end at LF, CRLF or a lone CR outside quotes,
 * and a lone CR, an LF and a CRLF each count as one physical line; blank lines are skipped (but
 * counted). A malformed record becomes an error record and reading goes on at the next record end
 * outside quotes.
 *
 * @example
 * const reader = new CsvReader()
 * for await (const chunk of stream) for (const record of reader.push(chunk)) handle(record)
 * for (const record of reader.end()) handle(record)
 */
export class CsvReader {
  private state: State = RECORD_START
  private fields: Array<string> = []
  private field = ""
  /** Fields of the record being read that were written as `""`. */
  private emptyText: Array<number> | undefined = undefined
  /** The first problem of the record being read; the rest of it is read leniently to find its end. */
  private error: string | undefined = undefined
  /** The physical line of the next character. */
  private line = 1
  private recordLine = 1
  /** Whether the last character of the previous chunk was a CR, for an LF that starts the next one. */
  private lastWasCR = false
  private started = false

  /** Reads one more chunk; returns the records it completed (and those that failed), in order. */
  push(text: string): Array<CsvRecord> {
    const out: Array<CsvRecord> = []
    const n = text.length
    let i = 0
    if (!this.started && n > 0) {
      this.started = true
      if (text.charCodeAt(0) === BOM) i = 1
    }
    let state = this.state
    let field = this.field
    let line = this.line
    // where the run of plain characters of the current field began in this chunk, -1 outside one
    let run = state === UNQUOTED || state === QUOTED ? i : -1
    const afterCR = (at: number): boolean => (at > 0 ? text.charCodeAt(at - 1) === CR : this.lastWasCR)
    const endRecord = (): void => {
      this.fields.push(field)
      out.push(this.finished())
      this.fields = []
      this.emptyText = undefined
      this.error = undefined
      field = ""
      line++
      state = RECORD_START
    }

    for (; i < n; i++) {
      const c = text.charCodeAt(i)
      if (state === RECORD_START) {
        if (c === LF) {
          if (!afterCR(i)) line++ // the LF of a CRLF was counted at its CR
          continue
        }
        if (c === CR) {
          line++
          continue
        }
        this.recordLine = line
        state = FIELD_START
      }
      switch (state) {
        case FIELD_START:
          if (c === QUOTE) {
            state = QUOTED
            run = i + 1
          } else if (c === COMMA) {
            this.fields.push("")
          } else if (c === CR || c === LF) {
            endRecord() // a trailing comma: the last field is empty
          } else {
            state = UNQUOTED
            run = i
          }
          break
        case UNQUOTED:
          if (c === COMMA || c === CR || c === LF) {
            field += text.slice(run, i)
            run = -1
            if (c === COMMA) {
              this.fields.push(field)
              field = ""
              state = FIELD_START
            } else {
              endRecord()
            }
          } else if (c === QUOTE) {
            this.error ??= `unexpected quote in an unquoted field (column ${this.fields.length + 1})`
          }
          break
        case QUOTED:
          if (c === QUOTE) {
            field += text.slice(run, i)
            run = -1
            state = QUOTE_IN_QUOTED
          } else if (c === CR || (c === LF && !afterCR(i))) {
            line++ // line breaks inside quotes stay in the field but move the line on
          }
          break
        case QUOTE_IN_QUOTED:
          if (c === QUOTE) {
            field += "\""
            state = QUOTED
            run = i + 1
            break
          }
          if ((c === COMMA || c === CR || c === LF) && field === "") (this.emptyText ??= []).push(this.fields.length)
          if (c === COMMA) {
            this.fields.push(field)
            field = ""
            state = FIELD_START
          } else if (c === CR || c === LF) {
            endRecord()
          } else {
            // the rest of the field is taken as plain text, so that the record's end is found
            this.error ??= `unexpected text after a closing quote (column ${this.fields.length + 1})`
            state = UNQUOTED
            run = i
          }
          break
      }
    }
    if (run >= 0) field += text.slice(run)
    if (n > 0) this.lastWasCR = text.charCodeAt(n - 1) === CR
    this.state = state
    this.field = field
    this.line = line
    return out
  }

  private finished(): CsvRecord {
    if (this.error !== undefined) return { line: this.recordLine, error: this.error }
    return this.emptyText === undefined
      ? { line: this.recordLine, fields: this.fields }
      : { line: this.recordLine, fields: this.fields, emptyText: this.emptyText }
  }

  /** Ends the text: the last record (when it has no line break after it), or an unterminated quote as an error record. */
  end(): Array<CsvRecord> {
    const out: Array<CsvRecord> = []
    if (this.state === QUOTED) {
      out.push({ line: this.recordLine, error: this.error ?? `unterminated quoted field (column ${this.fields.length + 1})` })
    } else if (this.state !== RECORD_START) {
      if (this.state === QUOTE_IN_QUOTED && this.field === "") (this.emptyText ??= []).push(this.fields.length)
      this.fields.push(this.field)
      out.push(this.finished())
    }
    this.state = RECORD_START
    this.fields = []
    this.emptyText = undefined
    this.field = ""
    this.error = undefined
    return out
  }
}

const NEEDS_QUOTES = /[",\r\n]|^[ \uFEFF]| $/

/**
 * One CSV line, ending in `\n`. A field is quoted when it holds a comma, quote, CR or LF, or begins or
 * ends with a space (which other tools trim); also a row of one empty field (`""`, else the line would
 * be blank and skipped) and a field beginning with U+FEFF (which a reader drops at the start of a file).
 *
 * @example
 * encodeRow(["a", "b,c", "say \"hi\""]) // 'a,"b,c","say ""hi"""\n'
 */
/**
 * One row of values: each written as {@link toCell} writes it, an empty text as `""` and an absent value
 * (undefined, null) as nothing, so that the reader tells them apart.
 */
export const encodeValues = (values: ReadonlyArray<unknown>): string => {
  let out = ""
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (i > 0) out += ","
    if (v === "") out += "\"\""
    else {
      const f = toCell(v)
      out += NEEDS_QUOTES.test(f) ? `"${f.replaceAll("\"", "\"\"")}"` : f
    }
  }
  return out + "\n"
}

export const encodeRow = (fields: ReadonlyArray<string>): string => {
  if (fields.length === 1 && fields[0] === "") return "\"\"\n"
  let out = ""
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!
    if (i > 0) out += ","
    out += NEEDS_QUOTES.test(f) ? `"${f.replaceAll("\"", "\"\"")}"` : f
  }
  return out + "\n"
}

const isDateObject = (value: object): value is { $date: string } => {
  const iso = (value as { $date?: unknown }).$date
  return typeof iso === "string" && Object.keys(value).length === 1
}

/**
 * How a value is written in a cell: text as it is, numbers and booleans as JavaScript writes them,
 * dates as ISO text, other objects and arrays as JSON with their dates as `{"$date": iso}` (the form
 * the platform uses, which {@link makeCellReader} turns back into dates). An invalid date, like
 * `JSON.stringify` would make it `null`, is an empty cell.
 */
export const toCell = (value: unknown): string => {
  switch (typeof value) {
    case "string":
      return value
    case "number":
    case "boolean":
    case "bigint":
      return String(value)
    case "object":
      if (value === null) return ""
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString()
      if (isDateObject(value)) return value.$date
      return JSON.stringify(encodeDates(value))
    default:
      return ""
  }
}

/**
 * The header of an export: `_id` first, then the collection's declared fields in their order, then any
 * other key the first items hold, in order of appearance (a collection without declared fields, or
 * items with keys the collection does not declare, still export every value that is seen).
 */
export const columnsFor = (
  fields: ReadonlyArray<{ readonly key: string }> | undefined,
  first: ReadonlyArray<Record<string, unknown>>
): Array<string> => {
  const columns = new Set<string>(["_id"])
  for (const f of fields ?? []) columns.add(f.key)
  for (const item of first) for (const key of Object.keys(item)) columns.add(key)
  return [...columns]
}

/** What reading one cell gives: the value (`undefined` for an empty cell: the key is left out), or why not. */
export type CellResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string }

/** Types the cells of an import by the collection's fields; see {@link makeCellReader}. */
export interface CellReader {
  readonly read: (column: string, text: string) => CellResult
  /** The columns read so far that the collection does not declare: their cells were left as text. */
  readonly untyped: ReadonlySet<string>
}

/** The platform's own fields, whatever a collection declares. */
const SYSTEM_FIELDS: ReadonlyArray<readonly [string, FieldType]> = [
  ["_id", "TEXT"],
  ["_owner", "TEXT"],
  ["_createdDate", "DATETIME"],
  ["_updatedDate", "DATETIME"]
]

/**
 * Field types whose values are JSON objects or arrays, and what they must be (`any`: ANY also takes
 * plain text). The import's checks of JSONL values read the same table.
 */
export const JSON_KINDS: Partial<Record<FieldType, "object" | "array" | "strings" | "json" | "any">> = {
  OBJECT: "object",
  ADDRESS: "object",
  RICH_CONTENT: "object",
  ARRAY: "array",
  ARRAY_DOCUMENT: "array",
  ARRAY_STRING: "strings",
  MEDIA_GALLERY: "array",
  MULTI_REFERENCE: "array",
  ANY: "any"
}

// Decimal numbers only: `Number` alone would also take " 12 ", "0x1f", "1e" is rejected by both.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/
// ISO 8601 as dates and times are written: a date, optionally a time (T or a space) and a zone.
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

const leap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
// by arithmetic: Date.UTC reads the years 0 to 99 as 1900 to 1999
const daysIn = (year: number, month: number): number =>
  month === 2 ? (leap(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** A date from ISO 8601 text, or undefined; the Date parser alone takes `2024-02-30` as March 1st. */
export const parseDate = (text: string): Date | undefined => {
  const m = ISO_DATE.exec(text)
  if (m === null) return undefined
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return undefined
  const date = new Date(text)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/** The text in a message: quoted, and cut when long (a cell may hold a whole JSON document). */
const show = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text)

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)

/**
 * Reads cells by the type of their field: numbers, booleans, dates (ISO 8601), JSON for objects and
 * arrays (with `{"$date": iso}` inside turned into dates), text for the rest. An empty cell is no value
 * (the key is left out of the item). A column the collection does not declare stays text and is
 * remembered in `untyped`, so that the command can say which columns it could not type.
 *
 * @example
 * const reader = makeCellReader([{ key: "price", type: "NUMBER" }])
 * reader.read("price", "12.5") // { ok: true, value: 12.5 }
 * reader.read("price", "12abc") // { ok: false, error: 'price: "12abc" is not a number' }
 */
export const makeCellReader = (fields: ReadonlyArray<{ readonly key: string; readonly type: FieldType }> | undefined): CellReader => {
  const types = new Map<string, FieldType>()
  for (const f of fields ?? []) types.set(f.key, f.type)
  for (const [key, type] of SYSTEM_FIELDS) types.set(key, type)
  const untyped = new Set<string>()

  const read = (column: string, text: string): CellResult => {
    const type = types.get(column)
    if (type === undefined) untyped.add(column)
    if (text === "") return { ok: true, value: undefined }
    const fail = (why: string): CellResult => ({ ok: false, error: `${column}: ${show(text)} ${why}` })
    switch (type) {
      case undefined:
        return { ok: true, value: text }
      case "NUMBER": {
        const value = Number(text)
        return NUMBER.test(text) && Number.isFinite(value) ? { ok: true, value } : fail("is not a number")
      }
      case "BOOLEAN": {
        const lower = text.toLowerCase()
        return lower === "true" ? { ok: true, value: true } : lower === "false" ? { ok: true, value: false } : fail("is not a boolean (true or false)")
      }
      case "DATE":
      case "DATETIME": {
        const value = parseDate(text)
        return value === undefined ? fail("is not an ISO 8601 date") : { ok: true, value }
      }
    }
    const kind = JSON_KINDS[type]
    if (kind === undefined) return { ok: true, value: text }
    let value: unknown
    try {
      value = reviveDates(JSON.parse(text))
    } catch {
      return kind === "any" ? { ok: true, value: text } : fail("is not JSON")
    }
    switch (kind) {
      case "object":
        return isPlainObject(value) ? { ok: true, value } : fail("is not a JSON object")
      case "array":
        return Array.isArray(value) ? { ok: true, value } : fail("is not a JSON array")
      case "strings":
        return Array.isArray(value) && value.every((v) => typeof v === "string") ? { ok: true, value } : fail("is not a JSON array of strings")
      default:
        return { ok: true, value }
    }
  }
  return { read, untyped }
}

const count = (n: number): string => (n === 1 ? "1 field" : `${n} fields`)

/**
 * The item of one record: each cell typed by its column, empty cells left out. Every problem of the row
 * is in the one error (`"has 4 fields, the header has 5"`, or the cells' errors joined by "; "), so that
 * a user fixes a row at once.
 */
export const recordToItem = (
  header: ReadonlyArray<string>,
  record: { readonly line: number; readonly fields: ReadonlyArray<string>; readonly emptyText?: ReadonlyArray<number> },
  reader: Pick<CellReader, "read">
): { readonly ok: true; readonly item: Record<string, unknown> } | { readonly ok: false; readonly error: string } => {
  if (record.fields.length !== header.length) {
    return { ok: false, error: `has ${count(record.fields.length)}, the header has ${header.length}` }
  }
  const item: Record<string, unknown> = {}
  const errors: Array<string> = []
  for (let i = 0; i < header.length; i++) {
    if (record.emptyText?.includes(i) === true) {
      // `""`: an empty text, where the column holds text (a typed non-text column reads it as absent)
      const typed = reader.read(header[i]!, "x")
      if (typed.ok && typeof typed.value === "string") setOwn(item, header[i]!, "")
      continue
    }
    const cell = reader.read(header[i]!, record.fields[i]!)
    if (!cell.ok) errors.push(cell.error)
    else if (cell.value !== undefined) setOwn(item, header[i]!, cell.value)
  }
  return errors.length > 0 ? { ok: false, error: errors.join("; ") } : { ok: true, item }
}

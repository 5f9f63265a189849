/**
 * Reading an import's input: a JSONL or CSV file (or stdin) turned into items, each with the line it
 * came from, in batches (one per chunk of the file, so a million rows cost a few thousand stream
 * steps, not a million). Every record is checked before anything is written: a bad one becomes a bad
 * row with its line number and reason, and is not written. The reading itself (src/data/formats) is
 * shared with the local platform's movement jobs.
 */
import * as Effect from "effect/Effect"
import { createReadStream } from "node:fs"
import type { CollectionField } from "../../data/wire/index.ts"
import { type BadRow, type Format, formatNamed, isBad, makeRowReader, type Row } from "../../data/formats/rows.ts"
import { type CliFailure, usage } from "../output.ts"

export { type BadRow, type Format, formatNamed, type Row } from "../../data/formats/rows.ts"

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

/** The bytes of a file, or of stdin for `-`, in pieces (the reader decodes them: a JSONL reader line by line). */
const bytesOf = (path: string): AsyncIterable<Buffer> =>
  (path === "-" ? process.stdin : createReadStream(path, { highWaterMark: 1 << 20 })) as AsyncIterable<Buffer>

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

/** The rows of an input, in batches, in file order; bad rows go to `onBad` as they are met. */
export async function* readRows(options: ReadOptions): AsyncGenerator<Array<Row>> {
  const reader = makeRowReader(options.format, options.fields)
  let told = false
  const take = (entries: ReadonlyArray<BadRow | Row>): Array<Row> => {
    const rows: Array<Row> = []
    for (const entry of entries) {
      if (isBad(entry)) options.onBad(entry)
      else rows.push(entry)
    }
    const untyped = reader.untyped()
    if (!told && untyped.length > 0) {
      told = true
      options.onUntyped?.(untyped)
    }
    return rows
  }
  for await (const chunk of bytesOf(options.path)) {
    if (options.stopped?.() === true) return
    const rows = take(reader.push(chunk))
    if (rows.length > 0) yield rows
  }
  const rows = take(reader.end())
  if (rows.length > 0) yield rows
}

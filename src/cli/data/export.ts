/**
 * `sitefx data export`: every matching item of a collection, page after page (by cursor, the next page
 * asked for while this one is written), to JSONL or CSV. Memory stays flat however many items there
 * are: a page is written, and waited for when the file falls behind, before the next is taken.
 *
 * A file is written under a `.partial` name and renamed when the export is complete, so an export that
 * failed or was stopped never looks like a whole one (`openOutput`, shared with the catalog's export).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { Item } from "../../data/calls.ts"
import * as DataItems from "../../data/DataItems.ts"
import { Filter } from "../../data/Filter.ts"
import { encodeDates } from "../../http/codec.ts"
import { type OutputMode, pacingReport, pacingText, printResult, usage, withProgress } from "../output.ts"
import { openOutput } from "../files.ts"
import { collectEvery } from "../memory.ts"
import { columnsFor, encodeRow, encodeValues } from "../../data/formats/csv.ts"
import type { Format } from "./input.ts"

export interface ExportOptions {
  readonly collection: string
  readonly filter: string | undefined
  readonly sort: ReadonlyArray<string>
  readonly fields: ReadonlyArray<string>
  readonly format: Format
  readonly out: string | undefined
  readonly mode: OutputMode
}

/** `--filter` text to a filter: the platform's filter JSON (`{"likes": {"$gt": 10}}`). */
export const parseFilter = (text: string | undefined) => {
  if (text === undefined) return Effect.succeed(undefined)
  let tree: unknown
  try {
    tree = JSON.parse(text)
  } catch (error) {
    return Effect.fail(usage(`--filter is not JSON (${(error as Error).message}); e.g. --filter '{"likes": {"$gt": 10}}'`))
  }
  if (typeof tree !== "object" || tree === null || Array.isArray(tree)) {
    return Effect.fail(usage(`--filter must be a JSON object such as '{"likes": {"$gt": 10}}'`))
  }
  return Effect.succeed(new Filter([tree as Record<string, unknown>], undefined))
}

/** `FIELD` or `FIELD:desc` (or `:asc`), as `flag` (`--sort`, `--field`) takes them. */
export const parseFieldOrder = (flag: string, spec: string) => {
  const match = /^([^:]+?)(?::(asc|desc))?$/i.exec(spec.trim())
  return match === null
    ? Effect.fail(usage(`${flag} ${JSON.stringify(spec)}: expected FIELD or FIELD:desc`))
    : Effect.succeed({ field: match[1]!, descending: match[2]?.toLowerCase() === "desc" })
}

export const runExport = (options: ExportOptions) =>
  Effect.scoped(Effect.gen(function*() {
    const filter = yield* parseFilter(options.filter)
    const sorts = yield* Effect.forEach(options.sort, (spec) => parseFieldOrder("--sort", spec))
    const collection = yield* DataItems.collections.get(options.collection)
    if (Option.isNone(collection)) {
      return yield* usage(`the site has no collection ${JSON.stringify(options.collection)}; \`sitefx data collections\` lists them`)
    }
    let query = DataItems.query(options.collection)
    if (filter !== undefined) query = query.where(filter)
    for (const s of sorts) query = s.descending ? query.descending(s.field) : query.ascending(s.field)
    if (options.fields.length > 0) query = query.fields(...options.fields)
    const total = yield* DataItems.count(options.collection, filter)

    const target = options.out
    const out = yield* openOutput(target)
    let columns: ReadonlyArray<string> | undefined = options.format === "csv" && options.fields.length > 0
      ? (options.fields.includes("_id") ? options.fields : ["_id", ...options.fields])
      : undefined
    /** Fields items had that the CSV header did not name: said at the end, never dropped silently. */
    const leftOut = new Map<string, number>()
    const started = performance.now()
    let written = 0
    const tidy = collectEvery(5)

    let headed = false
    const csvLines = (items: ReadonlyArray<Item>): string => {
      if (columns === undefined) columns = columnsFor(collection.value.fields, items as ReadonlyArray<Record<string, unknown>>)
      if (!headed) {
        headed = true
        return encodeRow(columns) + csvLines(items)
      }
      const known = new Set(columns)
      let text = ""
      for (const item of items) {
        text += encodeValues(columns.map((c) => item[c]))
        for (const key of Object.keys(item)) if (!known.has(key)) leftOut.set(key, (leftOut.get(key) ?? 0) + 1)
      }
      return text
    }
    const jsonLines = (items: ReadonlyArray<Item>): string => {
      let text = ""
      for (const item of items) text += `${JSON.stringify(encodeDates(item))}\n`
      return text
    }

    const exported = yield* withProgress(options.mode, `export ${options.collection}`, "items", total, (progress) =>
      query.pages.pipe(
        Stream.runForEach((page) => {
          const text = options.format === "csv" ? csvLines(page.items) : jsonLines(page.items)
          written += page.items.length
          tidy()
          progress.update(written)
          return out.write(text)
        }),
        Effect.andThen(Effect.suspend(() => options.format === "csv" && !headed
          ? out.write(encodeRow(columns ?? columnsFor(collection.value.fields, [])))
          : Effect.void)),
        Effect.andThen(out.finish),
        Effect.andThen(Effect.sync(() => written))
      ))

    const seconds = (performance.now() - started) / 1000
    const missing = [...leftOut.entries()].map(([field, items]) => ({ field, items }))
    const warning = missing.length === 0
      ? ""
      : `\nnot in the CSV (no column for them): ${missing.map((m) => `${m.field} (${m.items} items)`).join(", ")}; name them with --fields, or export JSONL`
    const pacing = yield* pacingReport
    const summary = { collection: options.collection, format: options.format, out: target ?? null, items: exported, seconds, fieldsLeftOut: missing, pacing }
    const text = `exported ${exported} items of ${options.collection} to ${target ?? "stdout"} in ${seconds.toFixed(1)} s${pacingText(pacing)}${warning}`
    if (target !== undefined) yield* printResult(options.mode, summary, text)
    else {
      // stdout carries the items: the summary goes to stderr
      yield* Effect.sync(() => {
        if (options.mode === "json") process.stderr.write(`${JSON.stringify(summary)}\n`)
        else if (options.mode !== "quiet" || warning !== "") process.stderr.write(`${options.mode === "quiet" ? warning.trim() : text}\n`)
      })
    }
    return exported
  }))

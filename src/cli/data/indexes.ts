/**
 * `sitefx data indexes COLLECTION [create|drop]`: a collection's indexes. `create` waits until the
 * platform has built the index (`--no-wait` returns at once) and exits 1 when the build failed, with the
 * platform's reason (a unique index over items that already clash names one of them).
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { DataFailure } from "../../data/calls.ts"
import * as Indexes from "../../data/Indexes.ts"
import { failed, type OutputMode, printResult, usage } from "../output.ts"
import { parseFieldOrder } from "./export.ts"

const describeIndex = (index: Indexes.Index) =>
  `${index.name.padEnd(24)} ${(index.status ?? "?").padEnd(9)} ${index.fields.map((f) => `${f.path}${f.order === "DESC" ? ":desc" : ""}`).join(", ")}${
    index.unique === true ? "  unique" : ""
  }${index.caseInsensitive === true ? "  case-insensitive" : ""}${index.failure === undefined ? "" : `  (${index.failure.code}: ${index.failure.description})`}`

export const runIndexesList = (options: { readonly collection: string; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const all = yield* Stream.runCollect(Indexes.stream(options.collection))
    const text = all.length === 0 ? `${options.collection} has no indexes` : all.map(describeIndex).join("\n")
    yield* printResult(options.mode, { collection: options.collection, indexes: all }, text)
  })

export const runIndexesCreate = (options: {
  readonly collection: string
  readonly name: string
  readonly fields: ReadonlyArray<string>
  readonly unique: boolean
  readonly caseInsensitive: boolean
  readonly wait: boolean
  readonly mode: OutputMode
}) =>
  Effect.gen(function*() {
    if (options.fields.length === 0) return yield* usage("an index needs at least one --field (FIELD or FIELD:desc, repeatable)")
    const fields = yield* Effect.forEach(options.fields, (spec) => parseFieldOrder("--field", spec))
    const created = yield* Indexes.create(options.collection, {
      name: options.name,
      fields: fields.map((f) => (f.descending ? { path: f.field, order: "DESC" as const } : { path: f.field })),
      ...(options.unique ? { unique: true } : {}),
      ...(options.caseInsensitive ? { caseInsensitive: true } : {})
    })
    if (!options.wait) return yield* printResult(options.mode, { index: created }, `created index ${created.name} of ${options.collection}: ${created.status}`)
    const ready = yield* Indexes.awaitActive(options.collection, options.name).pipe(
      Effect.catchIf((e: DataFailure) => e._tag === "DataError" && e.reason._tag === "AnswerError", (e) =>
        Effect.fail(failed(`the index ${options.name} of ${options.collection} was not built: ${e.code}: ${e.message}`)))
    )
    yield* printResult(options.mode, { index: ready }, `index ${ready.name} of ${options.collection} is ${ready.status}`)
  })

export const runIndexesDrop = (options: { readonly collection: string; readonly name: string; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    yield* Indexes.drop(options.collection, options.name).pipe(
      Effect.catchIf((e: DataFailure) => e._tag === "DataError" && e.code === "NOT_FOUND", () =>
        Effect.fail(usage(`${options.collection} has no index ${JSON.stringify(options.name)}; \`sitefx data indexes ${options.collection}\` lists them`)))
    )
    yield* printResult(options.mode, { collection: options.collection, dropped: options.name }, `dropped index ${options.name} of ${options.collection}`)
  })

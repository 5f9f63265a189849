/**
 * `sitefx data remove|truncate|collections`: removing items, and the site's collections.
 *
 * Removing asks first. On a terminal the command says how many items would go and waits for "y";
 * anywhere else (a script, CI) it refuses unless `--yes` says the caller meant it, so a typo in a
 * pipeline cannot empty a collection.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { readFileSync } from "node:fs"
import { createInterface } from "node:readline"
import { call } from "../../data/calls.ts"
import * as DataItems from "../../data/DataItems.ts"
import { CollectionResponse } from "../../data/guards/collections.ts"
import * as P from "../../data/protocol.ts"
import type { DataCollection } from "../../data/wire/index.ts"
import { PlatformClient } from "../../http/PlatformClient.ts"
import { type OutputMode, printResult, usage } from "../output.ts"
import { parseFilter } from "./export.ts"

const interactive = (): boolean => process.stdin.isTTY === true && process.stderr.isTTY === true

/** Asks on the terminal; true only for an explicit yes. */
const ask = (question: string) =>
  Effect.callback<boolean>((resume) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr })
    rl.question(`${question} [y/N] `, (answer) => {
      rl.close()
      resume(Effect.succeed(/^y(es)?$/i.test(answer.trim())))
    })
    return Effect.sync(() => rl.close())
  })

/** Goes on only with `--yes` or a yes typed at the terminal. */
export const confirm = (yes: boolean, what: string) =>
  Effect.gen(function*() {
    if (yes) return
    if (!interactive()) return yield* usage(`refusing to ${what} without --yes (not a terminal, so nobody can confirm)`)
    if (!(yield* ask(`${what}?`))) return yield* usage(`did not ${what}: not confirmed`)
  })

const existing = (collection: string) =>
  Effect.gen(function*() {
    const found = yield* DataItems.collections.get(collection)
    if (Option.isNone(found)) return yield* usage(`the site has no collection ${JSON.stringify(collection)}; \`sitefx data collections\` lists them`)
    return found.value
  })

export const runRemove = (options: { readonly collection: string; readonly filter: string; readonly yes: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const filter = yield* parseFilter(options.filter)
    if (filter === undefined) return yield* usage("--filter is required; to remove every item use `sitefx data truncate`")
    yield* existing(options.collection)
    const matching = yield* DataItems.count(options.collection, filter)
    if (matching === 0) {
      return yield* printResult(options.mode, { collection: options.collection, removed: 0 }, `no item of ${options.collection} matches; nothing removed`)
    }
    yield* confirm(options.yes, `remove ${matching} items of ${options.collection} matching ${options.filter}`)
    const job = yield* DataItems.removeByFilter(options.collection, filter)
    const state = yield* DataItems.awaitJob(job, { every: "200 millis" })
    if (state.status !== "SUCCEEDED") return yield* Effect.fail(usage(`the platform's removal job ${job} ended ${state.status}`))
    const removed = state.successCount ?? matching
    yield* printResult(options.mode, { collection: options.collection, removed, job }, `removed ${removed} items of ${options.collection}`)
  })

export const runTruncate = (options: { readonly collection: string; readonly yes: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    yield* existing(options.collection)
    const all = yield* DataItems.count(options.collection)
    yield* confirm(options.yes, `remove all ${all} items of ${options.collection}`)
    yield* DataItems.truncate(options.collection)
    yield* printResult(options.mode, { collection: options.collection, removed: all }, `removed all ${all} items of ${options.collection}`)
  })

const fieldLine = (f: NonNullable<DataCollection["fields"]>[number]) =>
  `  ${f.key.padEnd(20)} ${f.type.padEnd(12)}${f.required === true ? " required" : ""}${f.systemField === true ? " system" : ""}${
    f.typeMetadata?.reference !== undefined ? ` -> ${f.typeMetadata.reference.referencedCollectionId}` : ""
  }${f.typeMetadata?.multiReference !== undefined ? ` ->> ${f.typeMetadata.multiReference.referencedCollectionId}` : ""}`

/** Every collection of the site, a hundred a page. */
export const allCollections = Effect.gen(function*() {
  const all: Array<DataCollection> = []
  for (let skip = 0; ; skip += 100) {
    const page = yield* DataItems.collections.query({ limit: 100, skip })
    all.push(...page)
    if (page.length < 100) return all
  }
})

export const runCollectionsList = (mode: OutputMode) =>
  Effect.gen(function*() {
    const all = yield* allCollections
    const rows = yield* Effect.forEach(all, (c) =>
      Effect.map(DataItems.count(c.id).pipe(Effect.option), (n) => ({ id: c.id, displayName: c.displayName ?? null, items: Option.getOrNull(n), fields: (c.fields ?? []).filter((f) => f.systemField !== true).length })), { concurrency: 4 })
    const text = rows.length === 0
      ? "the site has no collections"
      : [`${"collection".padEnd(28)} ${"items".padStart(9)}  fields`, ...rows.map((r) => `${r.id.padEnd(28)} ${String(r.items ?? "?").padStart(9)}  ${r.fields}`)].join("\n")
    yield* printResult(mode, { collections: rows }, text)
  })

export const runCollectionsDescribe = (options: { readonly collection: string; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const c = yield* existing(options.collection)
    const items = yield* DataItems.count(c.id)
    const text = [
      `${c.id}${c.displayName !== undefined && c.displayName !== null ? ` (${c.displayName})` : ""}: ${items} items`,
      ...(c.permissions === undefined ? [] : [`  permissions: read ${c.permissions.read ?? "?"}, insert ${c.permissions.insert ?? "?"}, update ${c.permissions.update ?? "?"}, remove ${c.permissions.remove ?? "?"}`]),
      "  fields:",
      ...(c.fields ?? []).map(fieldLine)
    ].join("\n")
    yield* printResult(options.mode, { collection: c, items }, text)
  })

/** Creates a collection from a JSON file: the platform's collection object (`{"id": "Posts", "fields": [...]}`). */
export const runCollectionsCreate = (options: { readonly file: string; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    let definition: unknown
    try {
      definition = JSON.parse(readFileSync(options.file, "utf8"))
    } catch (error) {
      return yield* usage(`cannot read the collection definition ${options.file}: ${(error as Error).message}`)
    }
    const body = definition as { id?: unknown; collection?: { id?: unknown } }
    const collection = typeof body.collection === "object" && body.collection !== null ? body.collection : body
    if (typeof collection !== "object" || collection === null || typeof (collection as { id?: unknown }).id !== "string") {
      return yield* usage(`${options.file} must hold a collection object with an "id", e.g. {"id": "Posts", "fields": [{"key": "title", "type": "TEXT"}]}`)
    }
    const client = yield* PlatformClient
    const created = yield* call(client, String((collection as { id: string }).id), {
      method: "POST",
      path: P.DataPaths.collections,
      payload: { collection }
    }, CollectionResponse)
    yield* printResult(options.mode, { collection: created.collection }, `created collection ${created.collection.id} with ${(created.collection.fields ?? []).filter((f) => f.systemField !== true).length} fields`)
  })

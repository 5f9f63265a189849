/**
 * `sitefx data types`: reads the site's collections and writes a TypeScript module with a Schema and a
 * typed handle per collection (src/data/codegen/collections.ts). `--check` writes nothing: it exits 1
 * with the lines that differ when the file no longer says what the site's collections are (for CI), 0
 * when it does. `--collections a,b` limits it to those.
 */
import * as Effect from "effect/Effect"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { generate, withoutHeader } from "../../data/codegen/collections.ts"
import { failed, type OutputMode, printResult, usage } from "../output.ts"
import { allCollections } from "./admin.ts"

/** The lines of `before` and `after` that differ, `-` and `+`, in order (a longest common subsequence). */
export const lineDiff = (before: string, after: string): ReadonlyArray<string> => {
  const a = before.split("\n")
  const b = after.split("\n")
  const n = a.length
  const m = b.length
  // lengths of the longest common subsequences of the suffixes
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
  }
  const out: Array<string> = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      i++
      j++
    } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) out.push(`+ ${b[j++]}`)
    else out.push(`- ${a[i++]}`)
  }
  return out
}

export const runTypes = (options: {
  readonly out: string
  readonly check: boolean
  readonly collections: ReadonlyArray<string>
  readonly site: string
  readonly mode: OutputMode
}) =>
  Effect.gen(function*() {
    const all = yield* allCollections
    const unknown = options.collections.filter((id) => !all.some((c) => c.id === id))
    if (unknown.length > 0) return yield* usage(`the site has no collection ${unknown.map((id) => JSON.stringify(id)).join(", ")}; \`sitefx data collections\` lists them`)
    const chosen = options.collections.length === 0 ? all : all.filter((c) => options.collections.includes(c.id))
    const text = generate(chosen, { site: options.site, readAt: new Date() })
    const summary = { file: options.out, collections: chosen.map((c) => c.id).sort() }
    if (options.check) {
      if (!existsSync(options.out)) return yield* failed(`${options.out} does not exist; \`sitefx data types --out ${options.out}\` writes it`)
      const diff = lineDiff(withoutHeader(readFileSync(options.out, "utf8")), withoutHeader(text))
      if (diff.length === 0) return yield* printResult(options.mode, { ...summary, upToDate: true }, `${options.out} matches the site's ${chosen.length} collections`)
      yield* printResult(options.mode, { ...summary, upToDate: false, diff }, `${options.out} no longer matches the site's collections:\n${diff.join("\n")}`)
      return yield* failed(`${options.out} is out of date; \`sitefx data types --out ${options.out}\` writes it again`)
    }
    yield* Effect.try({
      try: () => {
        mkdirSync(dirname(options.out), { recursive: true })
        writeFileSync(options.out, text)
      },
      catch: () => usage(`cannot write ${options.out}`)
    })
    yield* printResult(options.mode, summary, `wrote the types of ${chosen.length} collections to ${options.out}`)
  })

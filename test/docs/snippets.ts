/**
 * The code blocks of the README and of the guides in docs/, read as a newcomer reads them: every
 * TypeScript block (```ts, ```tsx) is type-checked as it is written, and the runnable ones run, each
 * as its own Node process, against a local platform with the demo data.
 *
 * The line before a block (blank lines aside) says what it is, in an HTML comment that neither GitHub
 * nor the docs site shows:
 *
 * - `<!-- snippet: run -->`: a whole module, imports included; it is type-checked, then run with Node
 *   (the project's Node 24, which strips the types; test/docs/tsx-hooks.mjs compiles the .tsx sources a
 *   block reaches, as the package's build does) and must exit 0. The blocks of one page run in the
 *   order of the page, one after another, against one platform, as a reader who follows the page does
 *   (a block may rely on what the blocks above it did; each run checks that they ran first).
 * - `<!-- snippet: check: why it does not run -->`: a whole module that is type-checked only (a React
 *   component, a server that would never stop, a page of a browser); the reason is required.
 * - `<!-- snippet: fragment of NAME -->` (optionally `fragment of NAME run`): a part of a program. It is
 *   put in the context `test/docs/contexts/NAME.ts` (or `.tsx`) in place of that file's `/* fragment *\/` comment,
 *   and the whole is type-checked (and run, with `run`). A context is not a module on its own (it may end
 *   where the fragment begins), so the project's compiler run leaves test/docs/contexts/ out.
 *
 * A TypeScript block without the comment fails the check, so no block escapes it. What a run may change
 * from the block as written: the address `http://127.0.0.1:8787` (where `npm start` listens) becomes the
 * test platform's, and `SITEFX_API_KEY` holds the platform's admin key, as the guides tell a reader to
 * set it from what `npm start` prints. A block may import `./generated/collections.ts`, the module the
 * page tells a reader to write with `sitefx data types`: beside every page's blocks is the demo site's,
 * examples/generated/collections.ts (which test/examples.test.ts holds to be what the command writes).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript5"

export const root = fileURLToPath(new URL("../..", import.meta.url))
export const LOCAL_URL = "http://127.0.0.1:8787"
const contexts = join(root, "test/docs/contexts")
const out = join(root, ".tmp/snippets")

export type Mode =
  | { readonly _tag: "run" }
  | { readonly _tag: "check"; readonly why: string }
  | { readonly _tag: "fragment"; readonly context: string; readonly run: boolean }

export interface Snippet {
  /** The page, relative to the repository: `docs/guide/data.md`. */
  readonly page: string
  /** The line of the page where the block's code starts (1-based). */
  readonly line: number
  readonly lang: "ts" | "tsx"
  readonly code: string
  readonly mode: Mode | { readonly _tag: "unmarked" } | { readonly _tag: "bad"; readonly marker: string }
}

/** The pages whose code blocks are checked: the README and every Markdown page of docs/ but the generated reference. */
export const pages = (): Array<string> => {
  const found = ["README.md"]
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name === "node_modules" || entry.name.startsWith(".") || path === "docs/public") continue
        walk(path)
      } else if (entry.name.endsWith(".md")) found.push(path)
    }
  }
  if (existsSync(join(root, "docs"))) walk("docs")
  return found.sort((a, b) => (a === "README.md" ? -1 : b === "README.md" ? 1 : a.localeCompare(b)))
}

const MARKER = /^<!--\s*snippet:\s*(.*?)\s*-->$/

const parseMarker = (text: string): Snippet["mode"] => {
  const run = /^run$/.exec(text)
  if (run) return { _tag: "run" }
  const check = /^check:\s*(\S.*)$/.exec(text)
  if (check) return { _tag: "check", why: check[1]! }
  const fragment = /^fragment of ([\w-]+)( run)?$/.exec(text)
  if (fragment) return { _tag: "fragment", context: fragment[1]!, run: fragment[2] !== undefined }
  return { _tag: "bad", marker: text }
}

/** The TypeScript blocks of a page, with what their markers say. */
export const snippetsOf = (page: string, text = readFileSync(join(root, page), "utf8")): Array<Snippet> => {
  const lines = text.split("\n")
  const found: Array<Snippet> = []
  let fence: { readonly marks: string; readonly lang: string; readonly start: number; readonly mode: Snippet["mode"] } | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (fence === undefined) {
      const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(line)
      if (open === null) continue
      let j = i - 1
      while (j >= 0 && lines[j]!.trim() === "") j--
      const marker = j >= 0 ? MARKER.exec(lines[j]!.trim()) : null
      fence = { marks: open[2]!, lang: open[3]!, start: i + 1, mode: marker === null ? { _tag: "unmarked" } : parseMarker(marker[1]!) }
    } else if (line.trim().startsWith(fence.marks) && line.trim().replace(/[`~]/g, "") === "") {
      const lang = fence.lang === "typescript" ? "ts" : fence.lang
      if (lang === "ts" || lang === "tsx") {
        found.push({ page, line: fence.start + 1, lang, code: lines.slice(fence.start, i).join("\n"), mode: fence.mode })
      }
      fence = undefined
    }
  }
  return found
}

export const nameOf = (snippet: Snippet) => `${snippet.page}:${snippet.line}`

/** A snippet as the module that is checked and run, and the page line of each of its lines (0: the context's). */
export const moduleOf = (snippet: Snippet): { readonly text: string; readonly at: Array<number> } => {
  const own = snippet.code.split("\n")
  const ownAt = own.map((_, n) => snippet.line + n)
  if (snippet.mode._tag !== "fragment") return { text: snippet.code + "\n", at: ownAt }
  const name = snippet.mode.context
  const file = [".ts", ".tsx"].map((ext) => join(contexts, `${name}${ext}`)).find(existsSync)
  if (file === undefined) throw new Error(`${nameOf(snippet)}: no context test/docs/contexts/${name}.ts or .tsx`)
  const context = readFileSync(file, "utf8").split("\n")
  const slot = context.findIndex((line) => line.includes("/* fragment */"))
  if (slot < 0) throw new Error(`${relative(root, file)} has no /* fragment */ line`)
  const indent = /^\s*/.exec(context[slot]!)![0]
  const lines = [...context.slice(0, slot), ...own.map((l) => (l === "" ? l : indent + l)), ...context.slice(slot + 1)]
  const at = [...context.slice(0, slot).map(() => 0), ...ownAt, ...context.slice(slot + 1).map(() => 0)]
  return { text: lines.join("\n") + "\n", at }
}

/** Where a snippet's module is written: under .tmp/ in the repository, so `import "sitefx"` finds the package itself. */
export const fileOf = (snippet: Snippet) =>
  join(out, snippet.page.replace(/\.md$/, "").replace(/[^\w-]+/g, "_"), `line-${snippet.line}.${snippet.lang}`)

/** The files a reader who follows the pages has made beside a block, by the path a block imports them with, and where they come from. */
export const READER_FILES: ReadonlyArray<readonly [string, string]> = [["generated/collections.ts", "examples/generated/collections.ts"]]

/** Writes a snippet's module, and the files a reader has beside it. */
const writeModule = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  for (const [path, from] of READER_FILES) {
    mkdirSync(dirname(join(dirname(file), path)), { recursive: true })
    writeFileSync(join(dirname(file), path), readFileSync(join(root, from)))
  }
}

const compilerOptions = (): ts.CompilerOptions => {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile)
  // a block without imports is still a module: Node runs a .ts file of a "type": "module" package as one
  return { ...ts.parseJsonConfigFileContent(config.config, ts.sys, root).options, noEmit: true, moduleDetection: ts.ModuleDetectionKind.Force }
}

/** Writes every snippet's module and type-checks them all in one compiler run: the failures by snippet name. */
export const typeCheck = (snippets: ReadonlyArray<Snippet>): Map<string, Array<string>> => {
  rmSync(out, { recursive: true, force: true })
  const files = new Map<string, { readonly snippet: Snippet; readonly at: Array<number> }>()
  for (const snippet of snippets) {
    const file = fileOf(snippet)
    const { at, text } = moduleOf(snippet)
    writeModule(file, text)
    files.set(resolve(file), { snippet, at })
  }
  const options = compilerOptions()
  const program = ts.createProgram([...files.keys()], options)
  const failures = new Map<string, Array<string>>()
  for (const [name, { at, snippet }] of files) {
    const source = program.getSourceFile(name)
    if (source === undefined) throw new Error(`${nameOf(snippet)} was not compiled`)
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    if (diagnostics.length === 0) continue
    failures.set(nameOf(snippet), diagnostics.map((d) => {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line
      const where = at[line] ? `${snippet.page}:${at[line]}` : `the context ${snippet.mode._tag === "fragment" ? snippet.mode.context : ""}`
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n  ")}`
    }))
  }
  return failures
}

/** Whether a snippet runs, and the module that runs: the check's file with the local address made the test platform's. */
export const runnable = (snippet: Snippet) =>
  snippet.lang === "ts" && (snippet.mode._tag === "run" || (snippet.mode._tag === "fragment" && snippet.mode.run))

export const writeRunnable = (snippet: Snippet, platformUrl: string): string => {
  const file = fileOf(snippet).replace(/\.ts$/, ".run.ts")
  writeModule(file, moduleOf(snippet).text.replaceAll(LOCAL_URL, platformUrl))
  return file
}

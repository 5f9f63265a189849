// `npm run api`: the public API of every entry point of the package, as its consumers' compiler sees it,
// written to api/<entry>.api.md; `npm run api -- --check` exits 1 when a report is not what the sources
// declare (the package test runs it), so every change of the public surface shows in review.
//
// The declarations are emitted afresh into a temporary folder (as `npm run build` emits them into dist/),
// then read with TypeScript's compiler API (the `typescript5` package: the project's own compiler is the
// native TypeScript 7, which has no JavaScript API). For each entry: every exported name, sorted, with its
// declaration as the consumer's compiler reads it, comments removed; a class whose base is a declaration
// the entry does not export (an Effect service's generated base) shows that base too.
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript5"

const root = fileURLToPath(new URL("..", import.meta.url))
const reports = join(root, "api")
const check = process.argv.includes("--check")

/** The report file of an entry point: `sitefx/data/items` → `sitefx-data-items.api.md`. */
const reportName = (entry) => `${entry.replaceAll("/", "-")}.api.md`

const out = mkdtempSync(join(tmpdir(), "sitefx-api-"))
try {
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "scripts/tsconfig.build.json"), "--emitDeclarationOnly", "--outDir", out], {
    stdio: "inherit"
  })
  // as the build does: declarations name their neighbours `.js`, as a consumer's compiler wants them
  const relativeTs = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)\.tsx?(["'])/g
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith(".d.ts")) writeFileSync(path, readFileSync(path, "utf8").replace(relativeTs, "$1$2.js$3"))
    }
  }
  walk(out)

  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
  const entries = Object.entries(pkg.exports)
    .filter(([subpath]) => subpath !== "./package.json")
    .map(([subpath, conditions]) => ({
      name: subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
      file: join(out, relative("dist", conditions.types))
    }))

  const program = ts.createProgram(entries.map((e) => e.file), {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: ["node"],
    typeRoots: [join(root, "node_modules/@types")],
    jsx: ts.JsxEmit.ReactJSX,
    skipLibCheck: true,
    noEmit: true
  })
  const checker = program.getTypeChecker()
  const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed })

  const print = (node) => printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile())

  /** A declaration as a consumer reads it; a variable with its `const`, a namespace object by its members' names. */
  const declarationText = (declaration) => {
    if (ts.isSourceFile(declaration)) {
      const members = checker.getExportsOfModule(checker.getSymbolAtLocation(declaration)).map((s) => s.name).sort()
      return `namespace { ${members.join(", ")} }`
    }
    if (ts.isVariableDeclaration(declaration)) {
      const list = declaration.parent
      const keyword = list.flags & ts.NodeFlags.Const ? "const" : list.flags & ts.NodeFlags.Let ? "let" : "var"
      return `${keyword} ${print(declaration)}`
    }
    if (ts.isExportSpecifier(declaration) || ts.isNamespaceExport(declaration)) return print(declaration)
    return print(declaration)
  }

  /** Local declarations a class extends that the entry does not export: what `extends X_base` means. */
  const bases = (declaration, exported) => {
    if (!ts.isClassDeclaration(declaration)) return []
    const found = []
    for (const clause of declaration.heritageClauses ?? []) {
      for (const type of clause.types) {
        if (!ts.isIdentifier(type.expression)) continue
        const symbol = checker.getSymbolAtLocation(type.expression)
        if (symbol === undefined || exported.has(symbol)) continue
        for (const d of symbol.declarations ?? []) if (d.getSourceFile() === declaration.getSourceFile()) found.push(d)
      }
    }
    return found
  }

  const reportOf = (entry) => {
    const source = program.getSourceFile(entry.file)
    if (source === undefined) throw new Error(`no declarations for ${entry.name} (${entry.file})`)
    const symbols = checker.getExportsOfModule(checker.getSymbolAtLocation(source))
    const resolved = new Set(symbols.map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s)))
    const lines = [`# ${entry.name}`, "", `${symbols.length} exported names. Generated by \`npm run api\` from the declarations; do not edit.`, ""]
    for (const symbol of [...symbols].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      lines.push(`## ${symbol.name}`, "", "```ts")
      for (const declaration of target.declarations ?? []) {
        lines.push(declarationText(declaration))
        for (const base of bases(declaration, resolved)) lines.push(declarationText(base))
      }
      lines.push("```", "")
    }
    return lines.join("\n")
  }

  const stale = []
  if (!check) {
    rmSync(reports, { recursive: true, force: true })
    mkdirSync(reports, { recursive: true })
  }
  for (const entry of entries) {
    const text = reportOf(entry)
    const path = join(reports, reportName(entry.name))
    if (check) {
      let current = ""
      try {
        current = readFileSync(path, "utf8")
      } catch {
        // no report yet
      }
      if (current !== text) stale.push(entry.name)
    } else {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, text)
    }
  }
  if (check) {
    const known = new Set(entries.map((e) => reportName(e.name)))
    let present = []
    try {
      present = readdirSync(reports)
    } catch {
      // no reports at all
    }
    for (const file of present) if (!known.has(file)) stale.push(`${file} (no such entry point)`)
    if (stale.length > 0) {
      console.error(`The public API differs from its reports in api/ for: ${stale.join(", ")}.\nReview the change, then run \`npm run api\` and commit the reports.`)
      process.exitCode = 1
    } else console.log(`api/: the ${entries.length} reports match the declarations`)
  } else console.log(`api/: ${entries.length} reports written`)
} finally {
  rmSync(out, { recursive: true, force: true })
}

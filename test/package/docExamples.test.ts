/**
 * Every `@example` of the public API compiles. The examples are the ones the reference shows or a reader
 * of the sources sees first: those in the doc comments of the declarations an entry point exports (and of
 * their members), and those in the opening comment of a module an entry point reaches. All of them are
 * type-checked in one compiler run (TypeScript 5.9, `typescript5`: the project's native compiler has no
 * JavaScript API), against the sources, with the project's compiler options.
 *
 * An example is a module, written as a reader would type it, with two conveniences:
 * - a name it uses without defining or importing it is imported from the entry point that documents it
 *   (the one exporting the commented declaration, or reaching the commented module; the deepest subpath
 *   when several do), and failing that from effect (`Effect`, `Stream`, `Layer`... as
 *   `import * as Effect from "effect/Effect"`; `Atom`, `AsyncResult`... from "effect/reactivity");
 * - an example that yields (`yield*`) or returns at its top level is the body of
 *   `Effect.gen(function* () { ... })`; its own imports and declarations (`declare const ...`) stay at the top.
 * Anything else it uses (an id, a product, a schema of the reader's) it declares:
 * `declare const productId: string`. A fenced block (```ts ... ```) is checked alone when the example
 * has fences; otherwise the whole example is code.
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { basename, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript5"

const root = fileURLToPath(new URL("../..", import.meta.url))
const effectDist = join(root, "node_modules/effect/dist")

interface Entry {
  readonly name: string
  readonly file: string
}

interface Example {
  /** Where its `@example` tag is, `src/data/Filter.ts:8`. */
  readonly at: string
  readonly entry: string
  readonly code: string
  /** The line in the source file of each line of `code`. */
  readonly firstLine: number
  readonly tsx: boolean
}

const entries: ReadonlyArray<Entry> = (() => {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; exports: Record<string, unknown> }
  return Object.entries(pkg.exports).flatMap(([subpath, conditions]) => {
    const source = typeof conditions === "object" && conditions !== null ? (conditions as Record<string, unknown>)["sitefx-source"] : undefined
    return typeof source === "string" ? [{ name: subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, file: resolve(root, source) }] : []
  })
})()

const compilerOptions = (): ts.CompilerOptions => {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  return { ...parsed.options, noEmit: true }
}

/** The lines of a doc comment, without its `/**`, `*` and `*\/`. */
const commentLines = (comment: string): Array<string> =>
  comment
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""))

/** The `@example` blocks of a doc comment: their code and the offset of their first code line. */
const examplesOf = (comment: string): Array<{ readonly tagLine: number; readonly code: Array<string>; readonly codeLine: number }> => {
  const lines = commentLines(comment)
  const found: Array<{ tagLine: number; code: Array<string>; codeLine: number }> = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^@example\b/.test(lines[i] ?? "")) continue
    const tagLine = i
    const block: Array<string> = []
    let fenced = false
    for (i = i + 1; i < lines.length; i++) {
      const line = lines[i] ?? ""
      if (/^```/.test(line)) fenced = !fenced
      if (!fenced && /^@\w/.test(line)) break
      block.push(line)
    }
    i--
    const fences = block.flatMap((line, n) => (/^```/.test(line) ? [n] : []))
    if (fences.length >= 2) {
      for (let f = 0; f + 1 < fences.length; f += 2) {
        const open = fences[f] ?? 0
        found.push({ tagLine, code: block.slice(open + 1, fences[f + 1]), codeLine: tagLine + 1 + open + 1 })
      }
    } else {
      found.push({ tagLine, code: block, codeLine: tagLine + 1 })
    }
  }
  return found
}

/** The public declarations of every entry point, and the entry points that export each. */
const publicApi = (program: ts.Program) => {
  const checker = program.getTypeChecker()
  const bySymbol = new Map<ts.Symbol, Set<string>>()
  const byFile = new Map<string, Set<string>>()
  const names = new Map<string, Set<string>>()
  const note = <K>(map: Map<K, Set<string>>, key: K, entry: string) => {
    const set = map.get(key) ?? new Set<string>()
    set.add(entry)
    map.set(key, set)
  }
  const visit = (moduleSymbol: ts.Symbol, entry: string, seen: Set<ts.Symbol>) => {
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (seen.has(symbol)) continue
      seen.add(symbol)
      note(bySymbol, symbol, entry)
      for (const declaration of symbol.declarations ?? []) {
        note(byFile, declaration.getSourceFile().fileName, entry)
        if (ts.isSourceFile(declaration)) visit(symbol, entry, seen)
      }
    }
  }
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file)
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    if (source === undefined || symbol === undefined) throw new Error(`no module for ${entry.name} (${entry.file})`)
    note(byFile, source.fileName, entry.name)
    names.set(entry.name, new Set(checker.getExportsOfModule(symbol).map((s) => s.name)))
    visit(symbol, entry.name, new Set())
  }
  return { checker, bySymbol, byFile, names }
}

/** The deepest subpath among the entry points that document something. */
const documenting = (found: ReadonlySet<string> | undefined): string | undefined =>
  found === undefined ? undefined : [...found].sort((a, b) => b.split("/").length - a.split("/").length || b.length - a.length)[0]

/** The names a declaration statement declares. */
const declaredNames = (statement: ts.Statement): Array<ts.Node> => {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => d.name)
  if (
    (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) &&
    statement.name !== undefined
  ) return [statement.name]
  return []
}

const collectExamples = (program: ts.Program): Array<Example> => {
  const { checker, bySymbol, byFile } = publicApi(program)
  const examples: Array<Example> = []
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || !source.fileName.startsWith(join(root, "src") + "/")) continue
    const text = source.text
    for (const match of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      if (!match[0].includes("@example")) continue
      const start = match.index
      const statement = source.statements.find((s) => s.pos <= start && start < s.end)
      let entry: string | undefined
      if (statement === undefined) continue
      if (ts.isImportDeclaration(statement) || (ts.isExportDeclaration(statement) && start < statement.getStart())) {
        entry = documenting(byFile.get(source.fileName))
      } else {
        const symbols = declaredNames(statement).flatMap((name) => {
          const symbol = checker.getSymbolAtLocation(ts.isVariableDeclaration(name.parent) && !ts.isIdentifier(name) ? name.parent : name)
          return symbol === undefined ? [] : [symbol]
        })
        const found = new Set(symbols.flatMap((s) => [...(bySymbol.get(s) ?? [])]))
        entry = found.size > 0 ? documenting(found) : undefined
      }
      if (entry === undefined) continue
      const commentLine = source.getLineAndCharacterOfPosition(start).line
      for (const block of examplesOf(match[0])) {
        examples.push({
          at: `${relative(root, source.fileName)}:${commentLine + block.tagLine + 1}`,
          entry,
          code: block.code.join("\n"),
          firstLine: commentLine + block.codeLine + 1,
          tsx: source.fileName.endsWith(".tsx") || /<\/[A-Za-z]|\/>/.test(block.code.join("\n"))
        })
      }
    }
  }
  return examples
}

/** Names an example uses, names it declares, and whether it yields or returns outside any function. */
const readExample = (code: string, tsx: boolean) => {
  const source = ts.createSourceFile(tsx ? "example.tsx" : "example.ts", code, ts.ScriptTarget.Latest, true, tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const used = new Set<string>()
  const declared = new Set<string>()
  let yields = false
  const bind = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) declared.add(name.text)
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name)
  }
  const walk = (node: ts.Node, topLevel: boolean) => {
    if (ts.isIdentifier(node)) {
      const parent = node.parent
      const isMemberName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isQualifiedName(parent) && parent.right === node) ||
        ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) ||
          ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent) || ts.isJsxAttribute(parent) || ts.isBindingElement(parent)) &&
          parent.name === node && !(ts.isBindingElement(parent) && parent.propertyName === undefined))
      if (!isMemberName) used.add(node.text)
      if (topLevel && node.text === "yield") yields = true
    }
    if (ts.isBindingElement(node) && node.propertyName !== undefined && ts.isIdentifier(node.propertyName)) used.delete(node.propertyName.text)
    if (ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node)) bind(node.name)
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node)) && node.name !== undefined) declared.add(node.name.text)
    if (ts.isImportClause(node) && node.name !== undefined) declared.add(node.name.text)
    if (ts.isNamespaceImport(node) || ts.isImportSpecifier(node)) declared.add(node.name.text)
    if (topLevel && (ts.isYieldExpression(node) || ts.isReturnStatement(node))) yields = true
    const inner = topLevel && !ts.isFunctionLike(node) && !ts.isClassLike(node)
    ts.forEachChild(node, (child) => walk(child, inner))
  }
  ts.forEachChild(source, (child) => walk(child, true))
  const importLines = new Set<number>()
  // Imports, and the declarations of an example's placeholders (which only a module's top level takes), stay at the top.
  for (const statement of source.statements) {
    const declared = ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)
    if (!ts.isImportDeclaration(statement) && !declared) continue
    const first = source.getLineAndCharacterOfPosition(statement.getStart()).line
    const last = source.getLineAndCharacterOfPosition(statement.end).line
    for (let line = first; line <= last; line++) importLines.add(line)
  }
  return { used, declared, yields, importLines }
}

/** An example as the module that is checked, and the source line of each of its lines (0 for added ones). */
const moduleOf = (example: Example, exportsOf: ReadonlyMap<string, ReadonlySet<string>>) => {
  const { declared, importLines, used, yields } = readExample(example.code, example.tsx)
  const free = [...used].filter((name) => !declared.has(name))
  if (yields && !declared.has("Effect")) free.push("Effect")
  const fromEntry = new Set<string>()
  const added: Array<string> = []
  for (const name of new Set(free)) {
    if (exportsOf.get(example.entry)?.has(name)) fromEntry.add(name)
    else if (/^[A-Z]/.test(name) && existsSync(join(effectDist, `${name}.d.ts`))) added.push(`import * as ${name} from "effect/${name}"`)
    else if (/^[A-Z]/.test(name) && existsSync(join(effectDist, "reactivity", `${name}.d.ts`))) added.push(`import { ${name} } from "effect/reactivity"`)
  }
  if (fromEntry.size > 0) added.push(`import { ${[...fromEntry].join(", ")} } from "${example.entry}"`)
  const lines = example.code.split("\n")
  const out: Array<string> = []
  const at: Array<number> = []
  const push = (line: string, sourceLine: number) => {
    out.push(line)
    at.push(sourceLine)
  }
  lines.forEach((line, n) => importLines.has(n) && push(line, example.firstLine + n))
  for (const line of added) push(line, 0)
  if (yields) push("export const example = Effect.gen(function* () {", 0)
  lines.forEach((line, n) => importLines.has(n) || push(line, example.firstLine + n))
  push(yields ? "})" : "export {}", 0)
  return { text: out.join("\n") + "\n", at }
}

const check = () => {
  const options = compilerOptions()
  const base = ts.createProgram(entries.map((e) => e.file), options)
  const examples = collectExamples(base)
  const { names } = publicApi(base)
  const dir = join(root, "test/package/.doc-examples")
  const files = new Map<string, { example: Example; text: string; at: Array<number> }>()
  examples.forEach((example, n) => {
    const file = join(dir, `${n}-${basename(example.at.split(":")[0] ?? "example").replace(/\.tsx?$/, "")}.${example.tsx ? "tsx" : "ts"}`)
    files.set(file, { example, ...moduleOf(example, names) })
  })
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, language, onError, create) => {
    const file = files.get(resolve(name))
    return file === undefined ? getSourceFile(name, language, onError, create) : ts.createSourceFile(name, file.text, language, true)
  }
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (name) => files.has(resolve(name)) || fileExists(name)
  const readFile = host.readFile.bind(host)
  host.readFile = (name) => files.get(resolve(name))?.text ?? readFile(name)
  // DOC_EXAMPLES_DEBUG=1 prints each example as the module that is checked, to see what a rule added
  if (process.env.DOC_EXAMPLES_DEBUG) for (const file of files.values()) console.log(`// ${file.example.at}\n${file.text}`)
  const program = ts.createProgram([...files.keys()], options, host, base)
  const failures: Array<string> = []
  for (const [name, file] of files) {
    const source = program.getSourceFile(name)
    if (source === undefined) throw new Error(`the example of ${file.example.at} was not compiled`)
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    if (diagnostics.length === 0) continue
    const messages = diagnostics.map((d) => {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line
      const where = file.at[line] ? `line ${file.at[line]}` : "an added import"
      return `  ${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n    ")}`
    })
    failures.push(`${file.example.at} (${file.example.entry}):\n${messages.join("\n")}`)
  }
  return { examples, failures }
}

describe("the doc comments' examples", () => {
  it("all compile", () => {
    const { examples, failures } = check()
    assert.isAbove(examples.length, 0, "no @example found in the public API's doc comments")
    assert.deepStrictEqual(failures, [], `${failures.length} of ${examples.length} examples do not compile:\n${failures.join("\n")}`)
  }, 120_000)
})

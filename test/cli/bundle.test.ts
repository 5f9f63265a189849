/**
 * The checkout's bundle of the command (scripts/bundle.mjs, which bin/sitefx.mjs asks for): built when
 * missing, reused while nothing it was made from changed, built again after a source or a dependency
 * changed, with each source's `import.meta.url` naming the source, and, when a source cannot be
 * bundled, not built (the sources run instead) with a line saying why. Each case runs the script as bin/sitefx.mjs does, on a small project of its own in a temporary
 * folder: a main module, a module it imports, and a dependency in node_modules.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { execFileSync, spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ROOT } from "./support.ts"

const SCRIPT = join(ROOT, "scripts/bundle.mjs")
let project = ""

/** Runs the script for the project: the bundle's path (or undefined when it was not built), and what it said on stderr. */
const freshBundle = () => {
  const result = spawnSync(process.execPath, [SCRIPT, project], { encoding: "utf8", timeout: 60_000 })
  return { file: result.status === 0 ? result.stdout.trim() : undefined, stderr: result.stderr }
}
/** When the bundle at `file` was built, from its first line. */
const builtAt = (file: string): number => JSON.parse(readFileSync(file, "utf8").split("\n")[0]!.replace("// sitefx bundle of ", "")).builtAt
const run = (file: string) => execFileSync(process.execPath, [file], { encoding: "utf8" }).trim()

const write = (path: string, text: string) => {
  mkdirSync(join(project, path, ".."), { recursive: true })
  writeFileSync(join(project, path), text)
}
const dependency = (version: string, greeting: string) => {
  write("node_modules/greeter/package.json", JSON.stringify({ name: "greeter", version, type: "module", exports: "./index.js" }))
  write("node_modules/greeter/index.js", `export const greet = (word) => \`${greeting} \${word}\`\n`)
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "sitefx-bundle-"))
  write("package.json", JSON.stringify({ name: "bundled", private: true, type: "module" }))
  write("src/cli/main.ts", `import { greet } from "greeter"\nimport { word } from "./word.ts"\nconsole.log(greet(word))\n`)
  write("src/cli/word.ts", `export const word: string = "first"\n`)
  dependency("1.0.0", "hello")
})

afterAll(() => rmSync(project, { recursive: true, force: true }))

describe("the checkout's bundle", () => {
  it("is built two folders below the root when missing, and reused while nothing it was made from changed", () => {
    const built = freshBundle()
    assert.strictEqual(built.file, join(project, ".tmp/cli/sitefx.js"))
    assert.strictEqual(run(built.file!), "hello first")
    const again = freshBundle()
    assert.strictEqual(again.file, built.file)
    assert.strictEqual(builtAt(again.file!), builtAt(built.file!))
    assert.strictEqual(again.stderr, "")
  })

  it("is built again after a source changed, and runs the change", () => {
    const before = builtAt(freshBundle().file!)
    write("src/cli/word.ts", `export const word: string = "second"\n`)
    const after = freshBundle().file!
    assert.isAbove(builtAt(after), before)
    assert.strictEqual(run(after), "hello second")
  })

  it("is built again after a dependency was installed in another version", () => {
    const before = builtAt(freshBundle().file!)
    dependency("2.0.0", "hi")
    const after = freshBundle().file!
    assert.isAbove(builtAt(after), before)
    assert.strictEqual(run(after), "hi second")
  })

  it("gives each source the import.meta.url of the module it stands for: a file found beside a module is found from the bundle", () => {
    write("src/server/pages/note.txt", "found beside its module\n")
    write("src/server/pages/note.ts", `import { readFileSync } from "node:fs"\nexport const note = readFileSync(new URL("./note.txt", import.meta.url), "utf8").trim()\n`)
    write("src/cli/main.ts", `import { note } from "../server/pages/note.ts"\nconsole.log(note)\n`)
    assert.strictEqual(run(freshBundle().file!), "found beside its module")
  })

  it("is not built from a source esbuild cannot read: the script says where, and the stale bundle is not offered", () => {
    write("src/cli/main.ts", `import { greet } from "greeter"\nimport { word } from "./word.ts"\nconsole.log(greet(word))\n`)
    write("src/cli/word.ts", `export const word: string = "third\n`)
    const broken = freshBundle()
    assert.isUndefined(broken.file)
    assert.match(broken.stderr, /^sitefx: running the sources, slower to start: the command could not be bundled \(src\/cli\/word\.ts:1: .+\)\n$/)
    write("src/cli/word.ts", `export const word: string = "fourth"\n`)
    assert.strictEqual(run(freshBundle().file!), "hi fourth")
  })
})

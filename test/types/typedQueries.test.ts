/**
 * The compile-time tests of typed queries (typedQueries.ts), of their read types (readTypes.ts) and of
 * typed writes (writeTypes.ts) hold under TypeScript 5.9 as well: `npm test` compiles them with the project's TypeScript 7; here TypeScript
 * 5.9 compiles the same files, where every `@ts-expect-error` line must be an error and every other line not.
 */
import { assert, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const repo = new URL("../../", import.meta.url)

it("typed queries, their read types and typed writes: TypeScript 5.9 finds the same errors, and no others", () => {
  // a folder under the repository's .tmp, which no type check of the project looks into
  mkdirSync(new URL(".tmp/", repo).pathname, { recursive: true })
  const dir = mkdtempSync(join(new URL(".tmp/", repo).pathname, "ts59-"))
  try {
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: new URL("tsconfig.json", repo).pathname, include: ["typedQueries.ts", "readTypes.ts", "writeTypes.ts"].map((file) => new URL(`test/types/${file}`, repo).pathname), compilerOptions: { noEmit: true } }))
    const tsc = new URL("node_modules/typescript5/bin/tsc", repo).pathname
    const version = execFileSync(process.execPath, [tsc, "--version"], { encoding: "utf8" })
    assert.match(version, /^Version 5\.9\./)
    // throws with the compiler's messages when a line is not what it says
    execFileSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)

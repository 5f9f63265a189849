/**
 * What following the README in this checkout writes stays out of the repository and out of the package:
 * the module of `sitefx data types --out generated/collections.ts` (and `src/generated/`, where the
 * README once sent it, and where the package's build would compile it into dist/) is ignored by git and
 * left out of the tarball `npm pack` makes.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { root } from "./snippets.ts"

const npm = process.platform === "win32" ? "npm.cmd" : "npm"

describe("the README's try-it flow in this checkout", () => {
  it("writes its generated module where git does not look", () => {
    const ignored = execFileSync("git", ["check-ignore", "--no-index", "generated/collections.ts", "src/generated/collections.ts", "examples/generated/collections.ts"], {
      cwd: root,
      encoding: "utf8"
    }).trim().split("\n")
    assert.deepStrictEqual(ignored, ["generated/collections.ts", "src/generated/collections.ts"])
  })

  it("leaves a module compiled from src/generated out of the package", () => {
    // the package's own package.json over a dist/ with a stray generated module
    const dir = mkdtempSync(join(tmpdir(), "sitefx-pack-"))
    try {
      copyFileSync(join(root, "package.json"), join(dir, "package.json"))
      for (const file of ["dist/index.js", "dist/data/index.js", "dist/generated/collections.js", "dist/generated/collections.d.ts", "bin/sitefx.mjs"]) {
        mkdirSync(dirname(join(dir, file)), { recursive: true })
        writeFileSync(join(dir, file), "export {}\n")
      }
      const [packed] = JSON.parse(execFileSync(npm, ["pack", "--dry-run", "--ignore-scripts", "--json"], { cwd: dir, encoding: "utf8" })) as Array<{ files: Array<{ path: string }> }>
      const paths = packed!.files.map((f) => f.path).filter((p) => p.startsWith("dist/") || p.startsWith("bin/")).sort()
      assert.deepStrictEqual(paths, ["bin/sitefx.mjs", "dist/data/index.js", "dist/index.js"])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

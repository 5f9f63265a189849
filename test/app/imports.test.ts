/**
 * The demo app and the platform's console are built as an app on the published package is: their
 * sources import sitefx by the package's entry points (`sitefx/...`, each one package.json exports),
 * never a module of sitefx's sources by a relative path, and no relative import leaves their folder.
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../..", import.meta.url))

const sources = (dir: string): Array<string> =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "dist" || entry.name === "node_modules" ? [] : sources(path)
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [path] : []
  })

/** Every module a source names: static imports and re-exports, `import("...")`, and side-effect imports. */
export const specifiers = (code: string): Array<string> => {
  const found: Array<string> = []
  for (const match of code.matchAll(/(?:^|[\s;])(?:import|export)\s[^"'`;]*?\sfrom\s*["']([^"']+)["']|(?:^|[\s;(])import\s*\(\s*["']([^"']+)["']\s*\)|(?:^|[\s;])import\s*["']([^"']+)["']/gm)) {
    found.push(match[1] ?? match[2] ?? match[3]!)
  }
  return found
}

const exported = new Set(
  Object.keys((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports)
    .map((subpath) => (subpath === "." ? "sitefx" : `sitefx/${subpath.slice(2)}`))
)

describe("the apps' sources", () => {
  it("finds imports of every form", () => {
    const code = `import { a } from "./a.ts"\nimport type { B } from "../../src/b.ts"\nexport { c } from 'sitefx/react'\nimport "./styles.css"\nconst d = () => import("./d.tsx")\nimport {\n  e,\n  f\n} from "sitefx/first-screen"\nexport * from "./g.ts"`
    assert.deepStrictEqual(specifiers(code).sort(), ["../../src/b.ts", "./a.ts", "./d.tsx", "./g.ts", "./styles.css", "sitefx/first-screen", "sitefx/react"].sort())
  })

  for (const app of ["app", "console"]) {
    it(`${app}/ imports sitefx by its entry points only, and nothing outside ${app}/ by a relative path`, () => {
      const files = sources(app)
      assert.isAbove(files.length, 5)
      const wrong: Array<string> = []
      for (const file of files) {
        for (const spec of specifiers(readFileSync(join(root, file), "utf8"))) {
          if (spec.startsWith(".")) {
            const target = relative(join(root, app), resolve(join(root, dirname(file)), spec))
            if (target.startsWith("..")) wrong.push(`${file}: ${spec}`)
          } else if ((spec === "sitefx" || spec.startsWith("sitefx/")) && !exported.has(spec)) {
            wrong.push(`${file}: ${spec} (not an entry point of the package)`)
          }
        }
      }
      assert.deepStrictEqual(wrong, [])
    })
  }
})

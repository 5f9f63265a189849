/**
 * `Filter.fromJson` is given its body by src/data/Filter.ts (the builders live in filterBuilder.ts, so a
 * bundle that only builds filters in code carries none of the JSON checks). That is a module side effect,
 * and the package declares its modules free of them except those `sideEffects` names: a browser bundle
 * of an app that imports `Filter` from `sitefx/data` must still have `Filter.fromJson`, checking as the
 * platform does.
 */
import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { rolldown } from "rolldown"

const root = fileURLToPath(new URL("../..", import.meta.url))
const dir = join(root, ".tmp/filter-json-bundle")

/** Bundles an entry as a browser app's production build would (sitefx's sources, as bench/size.ts does) and loads it. */
const bundled = async (name: string, entry: string, conditions: ReadonlyArray<string>) => {
  mkdirSync(dir, { recursive: true })
  const input = join(dir, `${name}.ts`)
  writeFileSync(input, entry)
  const bundle = await rolldown({ input, platform: "browser", logLevel: "silent", resolve: { conditionNames: [...conditions] } })
  const { output } = await bundle.generate({ format: "esm", minify: true })
  await bundle.close()
  const file = join(dir, `${name}.mjs`)
  writeFileSync(file, output[0].code)
  return import(`${pathToFileURL(file).href}?${Date.now()}`) as Promise<{ readonly codeOf: (json: unknown) => string | undefined }>
}

const SOURCES = ["sitefx-source", "browser", "import", "module", "default"]

/** An app's module that checks JSON filters with Filter imported from `subpath`. */
const entry = (subpath: string) => `import { Filter } from "${subpath}"
export const codeOf = (json: unknown) => Filter.fromJson(json).error?.code
`

describe("Filter.fromJson in a bundle", () => {
  for (const subpath of ["sitefx/data", "sitefx"]) {
    it(`survives tree-shaking when the app imports Filter from ${subpath}, and checks the JSON`, async () => {
      const { codeOf } = await bundled(subpath.replace("/", "-"), entry(subpath), SOURCES)
      assert.strictEqual(codeOf({ title: { $regex: "^Post" } }), "WDE0070")
      assert.isUndefined(codeOf({ likes: { $gt: 10 } }))
    }, 60_000)
  }
})

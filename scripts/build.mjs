// `npm run build`: the package as consumers get it. ESM JavaScript with source maps (the sources inlined,
// as the package ships no .ts) and declarations into dist/. TypeScript rewrites the `.ts` import paths of
// the JavaScript it writes but not of the declarations, so those are rewritten here: a consumer's
// compiler would refuse `.ts` paths inside node_modules.
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const dist = join(root, "dist")
rmSync(dist, { recursive: true, force: true })
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "scripts/tsconfig.build.json")], { stdio: "inherit" })

const relativeTs = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)\.tsx?(["'])/g
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) walk(path)
    else if (entry.name.endsWith(".d.ts")) writeFileSync(path, readFileSync(path, "utf8").replace(relativeTs, "$1$2.js$3"))
  }
}
walk(dist)

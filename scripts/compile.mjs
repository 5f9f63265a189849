// The package's compile step, shared by `npm run build` (JavaScript and declarations into dist/) and
// `npm run api` (declarations only, into a temporary folder). TypeScript rewrites the `.ts` import paths
// of the JavaScript it writes but not of the declarations, so those are rewritten here: a consumer's
// compiler would refuse `.ts` paths inside node_modules.
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const relativeTs = /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)\.tsx?(["'])/g

const rewriteDeclarations = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) rewriteDeclarations(path)
    else if (entry.name.endsWith(".d.ts")) writeFileSync(path, readFileSync(path, "utf8").replace(relativeTs, "$1$2.js$3"))
  }
}

/** Compiles src/ with scripts/tsconfig.build.json into `outDir`; declarations only when asked. */
export const compile = ({ outDir, declarationsOnly = false }) => {
  execFileSync(
    process.execPath,
    [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "scripts/tsconfig.build.json"), "--outDir", outDir, ...(declarationsOnly ? ["--emitDeclarationOnly"] : [])],
    { stdio: "inherit" }
  )
  rewriteDeclarations(outDir)
}

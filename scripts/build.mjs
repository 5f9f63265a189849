// `npm run build`: the package as consumers get it. ESM JavaScript with source maps (the sources inlined,
// as the package ships no .ts) and declarations into dist/ (see compile.mjs), the `sitefx` command as one
// file, dist/cli/sitefx.bundle.js, which bin/sitefx.mjs runs (see bundle.mjs), and the local platform's
// console (console/, a Vite project with React bundled in) into dist/console, where the platform finds it.
import { rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "vite"
import { writeBundle } from "./bundle.mjs"
import { compile } from "./compile.mjs"

const root = fileURLToPath(new URL("..", import.meta.url))
const dist = join(root, "dist")
rmSync(dist, { recursive: true, force: true })
compile({ outDir: dist })
await writeBundle(join(dist, "cli/sitefx.bundle.js"))
await build({
  root: join(root, "console"),
  configFile: join(root, "console/vite.config.ts"),
  logLevel: "warn",
  build: { outDir: join(dist, "console"), emptyOutDir: true }
})

// `npm run build`: the package as consumers get it. ESM JavaScript with source maps (the sources inlined,
// as the package ships no .ts) and declarations into dist/ (see compile.mjs), and the `sitefx` command
// as one file, dist/cli/sitefx.bundle.js, which bin/sitefx.mjs runs (see bundle.mjs).
import { rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { writeBundle } from "./bundle.mjs"
import { compile } from "./compile.mjs"

const dist = join(fileURLToPath(new URL("..", import.meta.url)), "dist")
rmSync(dist, { recursive: true, force: true })
compile({ outDir: dist })
await writeBundle(join(dist, "cli/sitefx.bundle.js"))

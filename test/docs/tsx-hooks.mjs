// Loaded with `--import` when a docs block runs: Node strips the types of the sources' .ts files but does
// not read JSX, so the .tsx sources a block reaches (sitefx/react's hooks) are compiled by esbuild here,
// as the package's build compiles them to .js for its users.
import { readFileSync } from "node:fs"
import { registerHooks } from "node:module"
import { fileURLToPath } from "node:url"
import { transformSync } from "esbuild"

registerHooks({
  load: (url, context, next) => {
    if (!url.startsWith("file:") || !url.endsWith(".tsx")) return next(url, context)
    const { code } = transformSync(readFileSync(fileURLToPath(url), "utf8"), { loader: "tsx", jsx: "automatic", format: "esm", sourcefile: url })
    return { format: "module", source: code, shortCircuit: true }
  }
})
